// CoD4x adds exec and base64encode, drops the stock method setviewmodeldepthoffield
// and registers print without and devaddpitch with the developer flag.
main()
{
	exec("map_restart");
	x = base64encode("restarting");
	self setviewmodeldepthoffield(1, 2);
	x = print("a");
	y = self devaddpitch(1);
}
