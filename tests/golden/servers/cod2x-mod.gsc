// Calls only a CoD2x server has (as zPAM 4 does): unknown on a stock server.
main()
{
	if (matchIsActivated())
		matchSetData("round", 1);
	level thread onConnect();
}

onConnect()
{
	ip = self getIP();
	stance = self GetStance();
}
