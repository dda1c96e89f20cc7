#using_animtree("teach");
f()
{
	a = %idle_a;
	b = %Crouch;
	c = %aim_up;
	d = %aim_down;
	e = %IDLE_A;
}
