f() { %a; %B_2; %3c; %_x; #animtree; # animtree; #using_animtree(); #using_animtree(1); }
