#using_animtree("t");
m(a, b)
{
	x = a % b;
	y = a%b;
	z = a % %b;
	w = (a) % 2 + %c;
	v[0] = %d % 3;
}
