#using_animtree("generic_human");

dev_rules(p)
{
	/#
	self waittill("x");
	#/
	a = %walk;
	/#
	wait 1;
	#/
	self waittill("y");
	/#
	if (p)
		self waittillmatch("z", "w");
	#/
}

/#
dev_fn()
{
	self waittill("x");
	b = %walk;
}
#/

plain()
{
	self waittill("x");
}
