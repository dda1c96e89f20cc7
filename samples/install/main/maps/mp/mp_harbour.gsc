// The level script of map mp_harbour.
#using_animtree("crane");

main()
{
	maps\mp\_load::main();
	crane = getent("crane", "targetname");
	crane.treeid = #animtree;
	crane.clip = %crane_swing;
	/#
	// Developer code: the game does not load maps\mp\_debug unless
	// developer_script is set.  CoD2 still counts %crane_idle (it keeps the
	// node); CoD4 would drop it.
	crane.clip = %crane_idle;
	maps\mp\_debug::drawCrane(crane);
	#/
}
