main()
{
	maps\mp\_missing::init();
	maps\mp\gametypes\_callbacksetup::noSuchFunction();
	thread notDefinedHere();
	/# maps\mp\_devonly::x(); #/
}
