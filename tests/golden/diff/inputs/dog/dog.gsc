#using_animtree("dog");

bark() { self setAnim(%bark); }
