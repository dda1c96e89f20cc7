#using_animtree("badparse");
f() { a = %child; }
