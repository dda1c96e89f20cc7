#using_animtree("generic_human");
main() { x = #animtree; }
