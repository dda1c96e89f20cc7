// tank.gsc — opened by the language server tests (Größe, 日本語, 😀).
#using_animtree("tank");

main()
{
	self setAnim(%tank_idle, 1);
	self setAnim(%turret, 1);
	aim(%turret_left);
	/* ünïcödé 😀 before an error */ self setAnim(%tank_missing, 1);
}

aim(clip)
{
	self setAnimKnob(clip, 1, 0.2);
}
