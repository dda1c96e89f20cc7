main()
{
	e = getentbynum(1);
	getentbynum(2);
}
