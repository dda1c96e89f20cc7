// Reached only through #include: tdm -> _common -> _flags.
#using_animtree("flag");

wave()
{
	self.treeid = #animtree;
	self.clip = %flag_wave;
	/# println("flag " + self.origin); #/
}

lower()
{
	self.clip = %flag_down;
}
