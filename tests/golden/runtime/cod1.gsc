// CoD1: only the function handlers are known (runtime-anim.md 7); the
// single-player methods' rules are UNKNOWN, so they give nothing.
#using_animtree("generic_human");

main()
{
	self setanim(%idle, -1);                          // nothing: UNKNOWN for cod1
	self setflaggedanimknob("n", %body);              // nothing: UNKNOWN for cod1
	x = getanimlength(%body);                         // E8
	x = getanimlength("idle");                        // E2, in CoD1's words
	x = animhasnotetrack(%idle);                      // E1: parameter 2 does not exist
	x = animhasnotetrack(%idle, "end");               // fine
}
