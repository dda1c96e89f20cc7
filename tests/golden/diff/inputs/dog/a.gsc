#using_animtree("soldier");

main()
{
	self setAnim(%idle);
	self setAnim(%walk);
	self setAnim(%run);
	self setAnim(%back);
	self setAnim(%crouch_walk);
	self useAnimTree(#animtree);
}
