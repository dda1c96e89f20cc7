main()
{
	my_server_fn();
	self my_server_method();
	x = self my_dev_method();
}
