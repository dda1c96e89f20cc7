// Script-side mistakes, each reported at its own position.
f()
{
	a = %too_early;
}
#using_animtree("bad-name");
#using_animtree("human");
g()
{
	/# b = %idle; #/
	c = %idel;
	d = %idle;
}
