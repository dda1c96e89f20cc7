#include maps\mp\devstmt_helpers;

main()
{
	assert(notDefinedAnywhere(1));
	println(maps\mp\nowhere::f());
	print3d((0, 0, 0), helper(maps\mp\nowhere2::g()));
	println(::notHere);
	keep(alsoNotDefined(1));
	thread maps\mp\devstmt_helpers::h();
}

keep(x)
{
}
