// util.gsc — never opened: its problems are published all the same.
#using_animtree("broken");

helper()
{
	return %wave;
}
