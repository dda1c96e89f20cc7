// Recovery: each mistake once, where it is, and no follow-on errors.
main()
{
	foo(1, 2;
	x = 1
	y = 2;
	if x) { z(); }
	else w();
	self thread;
	a = b c;
}
}

other()
{
	if (a == ) return;
	else b = ;
	foo(1;
	c = ;
	for (i = 0
	i < 3; i++) {}
}
