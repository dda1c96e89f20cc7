// soldier.gsc — sample AI script: one tree, groups, a complete loopsync
// group, a referenced group that gets a `void` placeholder, %root.
// (uo and cod1 have no #include: shared scripts are loaded by path::f calls)
#using_animtree("soldier");

main()
{
	self endon("death");
	self setAnimKnobAll(%stand_idle, %root, 1, 0.2);
	wait 0.5;

	// The sync group is referenced, so `complete` keeps every walk in it
	// (walk_left and walk_right survive pruning though no script names them).
	if (self.movemode == "walk")
	{
		// (no longer references %walk_cycle)
		self setFlaggedAnimKnob("walk", %walk_forward, 1, 0.2, 1);
	}

	// A group can be referenced like a leaf (blend weights apply to it).
	self setAnim(%pose_blend, 0.5, 0.1);
	idle = choose_idle(randomint(100));
	self setAnimKnob(idle, 1, 0.2);
}

choose_idle(roll)
{
	if (roll % 2 == 0)   // `%` after an operand is modulo
		return %stand_idle;
	return %crouch_idle;
}

play_death()
{
	deaths = [];
	deaths[deaths.size] = %death_front;
	deaths[deaths.size] = %death_back;
	self setFlaggedAnimKnobAll("death", deaths[randomint(deaths.size)], %root, 1, 0.1, 1);
	/# println("death anim chosen"); #/
}
