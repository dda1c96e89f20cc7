main()
{
	level.x = 1;
}
