main()
{
	wait 1;
}
