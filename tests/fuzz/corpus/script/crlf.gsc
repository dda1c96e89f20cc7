#using_animtree("crlf");
f()
{
	self setanim(%walk);
}
