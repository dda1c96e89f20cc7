#using_animtree("human");
#using_animtree("turret");
#using_animtree("sync");
a() { x = %looped; }
