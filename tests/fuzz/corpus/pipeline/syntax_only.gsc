À#using_animtree("human");
a() { x = %idle
