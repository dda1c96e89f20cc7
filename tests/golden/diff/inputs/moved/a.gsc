// A comment added at the top moves every reference down two lines.

#using_animtree("soldier");

main()
{
	self setAnim(%idle);
	self setAnim(%walk);
	self setAnim(%back);
	self setAnim(%crouch_walk);
	self useAnimTree(#animtree);
}
