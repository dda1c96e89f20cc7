#using_animtree("HUMAN");
main() { a = %idle; b = %death; c = %reload; /# d = %alert; #/ }
#using_animtree("multiplayer");
mp() { return %legs; }
