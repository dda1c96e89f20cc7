broken(p)
{
	a = 1;
	b = ;
	c = a
	d = c;
	if (p) e = 1;
	f = e;
	foo(1, 2;
	g = f;
	return;
	h = 1;
}

after()
{
	x = y;
}

unclosed(p)
{
	a = b;
	if (p) {
		c = 1;

next()
{
	u = v;
}

eof(p)
{
	a = b;
	c = %walk;
