#using_animtree("human");

main()
{
	self setAnim(%nosuchanim, 1);
}
