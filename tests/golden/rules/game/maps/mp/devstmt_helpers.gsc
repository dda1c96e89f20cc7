helper(x)
{
	return x;
}

h()
{
}
