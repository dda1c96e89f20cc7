#using_animtree("dup");
f() { a = %shared; b = %nowhere; }
