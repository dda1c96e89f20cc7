columns()
{
	return 3;
}
