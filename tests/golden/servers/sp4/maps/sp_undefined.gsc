// Single player: getaiarray is a builtin; the others are unknown.
main()
{
	foo();
	thread bar();
	self baz();
	ai = getaiarray();
}
