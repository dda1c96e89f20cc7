// pruned.gsc: references only %d and %a of animtrees/example.atr; c and e are
// pruned before numbering, so d and a get other indices than in a.gsc
#using_animtree("example");

main()
{
    self setAnim(%d, 1);
    self setAnim(%a, 1);
}
