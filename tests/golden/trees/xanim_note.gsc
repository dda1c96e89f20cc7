#using_animtree("many");
f()
{
	a0 = %Idle_00;
	a1 = %Idle_01;
	a2 = %Idle_02;
	a3 = %Idle_03;
	a4 = %Idle_04;
	a5 = %Idle_05;
	a6 = %Idle_06;
	a7 = %Idle_07;
	a8 = %Idle_08;
	a9 = %Idle_09;
	a10 = %Idle_10;
	a11 = %Idle_11;
}
