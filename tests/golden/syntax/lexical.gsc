main()
{
	x = 1 @ 2;
	name = "unterminated;
}
