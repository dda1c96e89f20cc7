f(a, b, c)
{
	x = (a + b) * c - -a / 2 % 3;
	y = a << 2 | b >> 1 & ~c ^ 7;
	z = !(a == b) && (a != c || a <= b) && a >= c && a < b || a > c;
	v = (1, 2.5, -3);
	arr = [];
	arr[arr.size] = v[0];
	s = "str\"ing\n" + &"LOCALIZED_REF";
	x += 1; x -= 2; x *= 3; x /= 4; x %= 5; x |= 6; x &= 7; x ^= 8; x <<= 1; x >>= 1;
	x++; y--;
	p = ::f;
	q = maps\mp\_utility::g;
	[[p]](1, 2, 3);
	self [[q]]();
	thread f(1, 2, 3);
	self thread maps\mp\_utility::g();
	level.player.origin = (0, 0, 0);
	b = true; c = false; d = undefined;
	n = 0x1F + 017 + 1.5 + .25 + 1e3;
}
