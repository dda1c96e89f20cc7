#using_animtree("human");

main()
{
	self setAnim(%idle, 1);
	self setAnim(%aim_left, 1);
	self setAnim(%fire_single, 1);
	self setAnim(%empty_group, 1);
	self setAnim(%death, 1);
	self setAnim(%alert, 1);
	self setAnim(%fire_burst, 1);
	self UseAnimTree(#animtree);
	self clearAnim(%root, 0.2);
}
