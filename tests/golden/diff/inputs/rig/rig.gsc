#using_animtree("rig");

aim() { a = %idle; b = %aim_up; c = %walk; }
