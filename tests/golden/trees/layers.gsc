#using_animtree("layers");
f()
{
	a = %idle;
	b = %aim_up;
	c = %aim_down;
	d = %walk;
	e = %missing_asset;
}
