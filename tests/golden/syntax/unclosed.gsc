main()
{
	while (1)
	{
		wait 0.05;
	/#
		println("debug");
	#/
}
