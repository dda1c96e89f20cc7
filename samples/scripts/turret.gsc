// turret.gsc — several trees in one file: the AI's own tree, then the turret
// tree it switches to (#animtree is the selected tree's registry index).
#using_animtree("soldier");

mount(turret)
{
	self setAnimKnob(%reload, 1, 0.2);
	self thread use_turret(turret);
}

#using_animtree("turret");

use_turret(turret)
{
	turret UseAnimTree(#animtree);
	turret setAnim(%turret_idle, 1);
	for (i = 0; i < 3; i++)
	{
		turret setFlaggedAnimKnob("fire", %turret_fire_left, 1, 0.05, 1);
		turret waittill("fire");
	}
	turret setAnimKnobRestart(%turret_fire, 1, 0.1);
}
