#using_animtree("wide");
f()
{
	a = %fan_3;
}
