main(, a)
{
	x = (int)a;
	do { wait 1; } while (x);
}
