// Neither defined nor a builtin: the game refuses all of these in multiplayer.
main()
{
	foo();
	thread bar();
	self baz();
	ai = getaiarray();
}
