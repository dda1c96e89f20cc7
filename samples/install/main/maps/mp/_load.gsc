main()
{
	level.loaded = true;
}
