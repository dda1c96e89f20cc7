#include maps\mp\_utility;
#using_animtree("generic_human");

main()
{
	self setAnimKnobAll(%stand_idle, %root, 1, 0.2);
	tree = #animtree;
	self.anims["run"] = %run_forward;
	return tree;
}
