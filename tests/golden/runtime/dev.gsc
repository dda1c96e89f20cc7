// Calls inside /# #/ are checked only where the game compiles them.
#using_animtree("generic_human");

main()
{
	/#
	self setanim(%idle, -1);                          // with --developer-script: E4
	#/
}
