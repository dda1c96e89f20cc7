#include maps\_utility;
#using_animtree("soldeir");

main()
{
	windmil();
	thread spawnFX();
	maps\_helpers::initHelpr();
	maps\_utiliy::foo();
	self thread fromElsewhere();
	x = getEnd("a", "targetname");
}

windmill()
{
}
