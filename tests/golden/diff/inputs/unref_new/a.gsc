// a.gsc: references every name of animtrees/example.atr (README, "The packing, worked through")
#using_animtree("example");

main()
{
    self setAnim(%d, 1);
    self setAnim(%c, 1);
    self setAnim(%a, 1);
    self setAnim(%e, 1);
}
