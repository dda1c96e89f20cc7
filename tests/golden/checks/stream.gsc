#using_animtree("generic_human");

// Diagnostics that span the top-level statements of one function.
spans(p)
{
	x = %walk;
	if (p)
		a = 1;
	b = a;
	c = 1;
	d = c;
	case 1:
	y = %run;
	switch (p)
	{
	case 1:
		break;
	}
	/#
	wait 1;
	#/
	return;
	e = 2;
	unknown_here();
}

closing(p)
{
	switch (p)
	{
		q = 1;
	}
}

ops(p)
{
	for (;;)
		break;
	while (0)
		p = 1;
	default:
	x = 1 / 0;
}

#using_animtree("other");
later()
{
	z = %walk;
	w = #animtree;
}
