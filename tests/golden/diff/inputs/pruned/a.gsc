#using_animtree("soldier");

main()
{
	self setAnim(%idle);
	self setAnim(%walk);
	// no longer runs
	// no longer dies backwards
	self setAnim(%crouch_walk);
	self useAnimTree(#animtree);
}
