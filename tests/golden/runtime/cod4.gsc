// Run-time animation checks (runtime-anim.md 6): one call per failure,
// each beside its stock-shaped near miss, which gives nothing.
#using_animtree("generic_human");

counts()
{
	self setanim();                                   // E1: too many parameters (also for 0)
	self setanim(%idle, 1, 0.2, 1);                   // fine
	self setanimknoball(%idle);                       // E1: incorrect number of parameters
	self setflaggedanimknoball("n", %idle);           // E1: illegal call to SetFlaggedAnimKnobAll()
	self clearanim(%idle);                            // E1: parameter 2 does not exist
	self clearanim(%idle, 0.2, "ignored");            // fine: no count check
	self animscripted("n", (0, 0, 0), (0, 0, 0));     // E1: Incorrect number ... animscripted command
	self startscriptedanim("n", (0, 0, 0));           // E1: parameter 4 does not exist
	x = getanimlength();                              // E1: parameter 1 does not exist
	self setanim(%idle, 1, 0.2, 1, 1);                // E1: too many parameters
}

kinds()
{
	self setanim("idle");                             // E2: type string is not an anim
	self setanim(#animtree);                          // E2: type int
	self clearanim(undefined, 0);                     // E2: type undefined
	x = getanimlength(&"IDLE");                       // E2: type localized string
	self setanim(%idle, "heavy");                     // type string is not a float
	self animscripted("n", 0, (0, 0, 0), %idle);      // type int is not a vector
	self setflaggedanim(undefined, %idle);            // cannot cast undefined to string
	self setflaggedanim(3, %idle);                    // fine: an int becomes a string
	self useanimtree(%idle);                          // E3: type animation is not an animtree
	self useanimtree("generic_human");                // E3: type string
	self useanimtree(#animtree);                      // fine
}

numbers()
{
	self setanim(%idle, -1);                          // E4: must set nonnegative weight
	self setanim(%idle, 0);                           // fine: 0 blends it out
	self setflaggedanim("n", %idle, 0);               // E4: must set positive weight
	self setanim(%idle, 1, -0.2);                     // E4: must set nonnegative goal time
	self setanim(%idle, -1, 0.2, -1);                 // E4: the rate, read first
	self setflaggedanim("n", %blendgrp, -1);          // E4 before E5: the weight is read before the anim
	self setproneanimnodes(45, 45, %idle, %idle, %idle);   // E4: Down angle
	self setproneanimnodes(-45, -45, %idle, %idle, %idle); // E4: Up angle
	self setproneanimnodes(-45, 45, %idle, %idle, %idle);  // fine
	self updateprone(%idle, %idle, -1, -1, -1);       // fine: no sign checks
}

time()
{
	self setflaggedanimknob("n", %body);              // E5: body has no time
	self setflaggedanimknob("runanim", %run_n_gun, 1, 0.2, 1);   // fine: inside loopsync
	self setflaggedanimknoball("runanim", %crouchrun, %body);    // fine: same
	self setflaggedanim("n", %walk_and_run_loops);    // fine: the sync root
	self setflaggedanim("n", %idle);                  // fine: a leaf
	t = self getanimtime(%blendgrp);                  // E5
	t = self getanimtime(%run_n_gun);                 // fine
	self setanimknob(%body);                          // fine: not flagged
}

ancestors()
{
	self setanimknoball(%idle, %blendgrp);            // E7: not an ancestor
	self setanimknoball(%idle, %idle);                // E7: the same node
	self setanimknoball(%run_fwd, %walk_and_run_loops); // fine: two levels up
	self setanimknoball(%run_fwd, %root);             // fine
	self setflaggedanimknoball("n", %aim_a, %run_n_gun); // E7
}

lengths()
{
	x = getanimlength(%body);                         // E8
	x = getanimlength(%idle);                         // fine
	x = getanimlength(%stand_loop);                   // fine
}

settime()
{
	self setanimtime(%body, 0.5);                     // E9: not a leaf animation
	self setanimtime(%idle, 1.5);                     // E9: must be < 1
	self setanimtime(%idle, -0.5);                    // E9: must be > 0
	self setanimtime(%stand_loop, 1);                 // E9: time 1 on a looping leaf
	self setanimtime(%idle, 1);                       // fine: not looping
	self setanimtime(%stand_loop, 0);                 // fine
	self setanimtime(%stand_loop);                    // fine: time 0
}

modes()
{
	self animscripted("n", (0, 0, 0), (0, 0, 0), %idle, "Normal");      // E10
	self animrelative("n", (0, 0, 0), (0, 0, 0), %idle, "crouch");      // E10
	self animscripted("n", (0, 0, 0), (0, 0, 0), %idle, "deathplant");  // fine
	self startscriptedanim("n", (0, 0, 0), (0, 0, 0), %idle, "normal", %body); // fine
}

turrets()
{
	self setturretanim(%turret_aim);                  // E12: pitch_down is a leaf
	self setturretanim(%idle);                        // E12: a leaf
	self setturretanim(%good_turret);                 // fine
}

developer()
{
	/#
	self setanim(%idle, -1);                          // not compiled without developer_script
	#/
}

keep()
{
	// What the game's other scripts would reference: every leaf is kept.
	a = %run_back; b = %crouchrun_fwd; c = %aim_b; d = %yaw_l; e = %pitch_down; f = %y1; g = %y2;
}

#using_animtree("dog");

dog()
{
	self useanimtree(#animtree);
	self setanim(%dog_run);                           // fine: the dog's own tree
	self setlookatanimnodes(%dog_run, %dog_idle, %dog_run); // E6: an AI's set-up anims are generic_human's
	self setturretanim(%dog_idle);                    // E6
}
