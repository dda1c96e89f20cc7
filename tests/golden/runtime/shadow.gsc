// A file's own function named like a builtin is called instead of it.
#using_animtree("generic_human");

setanim(a, b)
{
}

main()
{
	self setanim(%idle, -1);                          // the file's setanim: nothing to check
	x = getanimlength(%body);                         // the builtin: E8
}
