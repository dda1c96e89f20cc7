main()
{
	windmil();
	self thread windMill2();
	self playSund("x");
	x = getEnd("a", "targetname");
	zzqqxx();
	debugOnly();
}

windmill()
{
}

/#
debugOnly()
{
}
#/
