main()
{
	assert(notDefinedAnywhere(1));
	println(::notHere);
	level print3d((0, 0, 0), "m");
	println("a", alsoNotDefined(1));
}
