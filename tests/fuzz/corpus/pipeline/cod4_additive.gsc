#using_animtree("cod4");
a() { x = %lean_l; y = %idle; }
