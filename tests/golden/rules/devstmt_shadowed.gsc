main()
{
	println(notDefinedAnywhere(1));
}

println(x)
{
}
