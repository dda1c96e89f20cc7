#using_animtree("crane");

drawCrane(crane)
{
	crane.clip = %crane_debug;
}
