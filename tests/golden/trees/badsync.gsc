#using_animtree("badsync");

main()
{
	a = %both_a;
	b = %inner_a;
	c = %loop_ok;
	d = %not_looping;
	e = %looping_one;
}
