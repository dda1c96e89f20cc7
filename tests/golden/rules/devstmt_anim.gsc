#using_animtree("devstmt");

main()
{
	self setanim(%idle);
	println(%debug_pose, #animtree);
	keep(%walk);
}

keep(a)
{
}
