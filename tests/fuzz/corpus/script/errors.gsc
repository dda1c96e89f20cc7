broken(
{
	a = ;
	b = "unterminated
	c = (1, 2;
	if x) {}
}
}
q() { return %; }
