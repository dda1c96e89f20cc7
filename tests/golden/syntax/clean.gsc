#using_animtree("generic_human");

main()
{
	self setanim(%walk, 1.0, .2);
	angle = (int)angle % 360;
	self thread [[ level.f ]]();
	level.f = ::main;
	do { i++; } while (i < 3);
}