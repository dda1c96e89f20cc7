"#using_animtree("dup");
a() { x = %shared; }
#using_animtree("sync");
b() { y = %g; z = %both; w = %missing_asset; v = %root; }
