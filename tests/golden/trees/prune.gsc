#using_animtree("prune");

main()
{
	self setAnim(%idle);
	self setAnim(%walk_fast);
	self setAnim(%prone);
}
