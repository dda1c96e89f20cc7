#using_animtree("crane");

drawCrane(crane)
{
	crane setAnim(%crane_debug);
}
