#using_animtree("soldier");

initHelper()
{
	a = %Stand_Idel;
	maps\_other::fromElsewhere();
}
