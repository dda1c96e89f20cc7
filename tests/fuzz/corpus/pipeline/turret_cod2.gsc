#using_animtree("turret");
fire() { self setanim(%turret_fire); self setanim(%fire_r); }
