#using_animtree("generic_human");

main()
{
	x = ;
	y = foo(1, );
	if (x {
		z = a[1;
	}
	count = count % 4;
}

other(a b)
{
	self thread [[ level.f ]](%idle);
}
