// Five CoD2x calls among six unknown names of no list: not most of them.
main()
{
	if (matchIsActivated())
		matchSetData("round", 1);
	ip = self getIP();
	stance = self getStance();
	hwid = self getHwid();
	a1(); a2(); a3(); a4(); a5(); a6();
}
