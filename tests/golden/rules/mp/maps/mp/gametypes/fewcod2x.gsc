// Four CoD2x calls: too few to name an extension.
main()
{
	if (matchIsActivated())
		matchSetData("round", 1);
	ip = self getIP();
	stance = self getStance();
}
