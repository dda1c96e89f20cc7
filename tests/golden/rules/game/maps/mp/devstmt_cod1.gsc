main()
{
	assert(notDefinedAnywhere(1));
	println(maps\mp\nowhere::f());
}
