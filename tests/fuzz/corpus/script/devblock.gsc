#using_animtree("human");
h()
{
	/#
	println("dev only");
	self setanim(%dev_anim);
	#/
	self setanim(%after_dev);
}
