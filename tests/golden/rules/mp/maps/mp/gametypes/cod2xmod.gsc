// A mod written for a CoD2x server (as zPAM 4 is): five calls of its builtins
// and one name of no list.
main()
{
	if (matchIsActivated())
		matchSetData("round", 1);
	level thread onConnect();
	notInAnyList();
}

onConnect()
{
	ip = self getIP();
	stance = self GetStance();
	hwid = self getHwid();
}
