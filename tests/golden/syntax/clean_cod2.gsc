#include maps\_utility;
#using_animtree("generic_human");

main()
{
	self setanim(%walk, 1.0, .2);
	self thread [ [ level.f ] ]();
	waittillframeend;
}
