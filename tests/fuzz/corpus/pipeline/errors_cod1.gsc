early() { return %too_early; }
#using_animtree("bad name");
x() { return %after_bad; }
#using_animtree("broken");
y() { return %b; }
#using_animtree("empty");
#using_animtree("nosuchtree");
z() { return %anything; }
/#
#using_animtree("human");
#/
