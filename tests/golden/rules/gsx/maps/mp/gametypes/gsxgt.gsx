// CoD4x reads this gametype script, not gsxgt.gsc beside it (the second
// h() is an error of its own, reported in every mode).
#include maps\mp\gsx_inc;
main()
{
	readGametypeGsx();
	maps\mp\gsx_lib::f();
	g();
}
h() {}
h() {}
