// Reached only through #include: tdm -> _common -> _flags.
#using_animtree("flag");

wave()
{
	self useAnimTree(#animtree);
	self setAnim(%flag_wave);
	/# println("flag " + self.origin); #/
}

lower()
{
	self setAnim(%flag_down);
}
