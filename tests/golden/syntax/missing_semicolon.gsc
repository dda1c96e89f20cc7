// A missing semicolon before the closing brace.
main()
{
	self setanim(%walk, 1);
	x = 1
}
