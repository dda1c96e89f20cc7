#using_animtree("notes");

// E11: the notetrack is in none of the flagged animations.
never(guy)
{
	guy setflaggedanimknob("shoot", %fire_a, 1, 0.2, 1);
	guy waittillmatch("shoot", "fier");
	self setflaggedanim("reload", %reload_a);
	self waittillmatch("reload", "clip_on");
}

// Two candidates with the same notify: the note is in neither.
both()
{
	self setflaggedanimrestart("shoot", %fire_a);
	self setflaggedanimrestart("shoot", %fire_b);
	self waittillmatch("shoot", "reload_done");
}

// Near misses: nothing.
fine()
{
	self setflaggedanimknob("shoot", %fire_a);
	self waittillmatch("shoot", "fire");
	self waittillmatch("shoot", "end");            // always there
	self setflaggedanim("pose", %pose_a);
	self waittillmatch("pose", "anim_pose = \"crouch\"");
	self waittillmatch("pose", "bodyfall large");
	// in one of two candidates: at most a weaker note (not given)
	self setflaggedanim("mixed", %fire_a);
	self setflaggedanim("mixed", %reload_a);
	self waittillmatch("mixed", "clip_in");
}

misses(other)
{
	// a script call in between: it may start another anim with the notify
	self setflaggedanim("s1", %fire_a);
	helper();
	self waittillmatch("s1", "nothing");
	// another receiver
	other setflaggedanim("s2", %fire_a);
	self waittillmatch("s2", "nothing");
	// a group anim (its notetracks come from a leaf chosen at run time)
	self setflaggedanim("s3", %loops);
	self waittillmatch("s3", "nothing");
	// a header-only xanim: its notetracks are not known
	self setflaggedanim("s4", %header_only);
	self waittillmatch("s4", "nothing");
	// the anim is not a literal
	self setflaggedanim("s5", level.some_anim);
	self waittillmatch("s5", "nothing");
	// the note is not a literal
	self setflaggedanim("s6", %fire_a);
	self waittillmatch("s6", level.note);
	// no candidate in this function
	self waittillmatch("s7", "nothing");
	// a threaded call in between
	self setflaggedanim("s8", %fire_a);
	self thread helper();
	self waittillmatch("s8", "nothing");
	// a candidate only after the wait
	self waittillmatch("s9", "nothing");
	self setflaggedanim("s9", %fire_a);
	// animscripted is a candidate too (anim is argument 4)
	self animscripted("s10", self.origin, self.angles, %walk_a);
	self waittillmatch("s10", "footstep_right");
	self animscripted("s11", self.origin, self.angles, %walk_a);
	self waittillmatch("s11", "footstep");
}

helper()
{
}
