// Compile-stage errors: every one is reported, in source order.
main(a)
{
	switch (a)
	{
		case 1:
			thread helper();
			break;
		case 1:
			break;
	}
	level.pos = (1, 2, 3);
	if (isdefined(a))
		counter++;
	spawnhelper();
	self setorigin(level.pos);
	game.x = 1;
	/# /# wait 1; #/ #/
	break;
}

main()
{
}
