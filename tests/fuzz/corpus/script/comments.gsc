// line comment with %notananim
/* block
   comment #using_animtree("x") */
#using_animtree( "Tree_One" ); /**/
k() { a = 1 /* mid */ + 2; /*/ tricky */ return %Mixed_Case; }
