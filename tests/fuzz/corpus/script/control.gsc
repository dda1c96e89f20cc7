g()
{
	for (i = 0; i < 10; i++)
	{
		if (i == 3) continue;
		else if (i == 8) break;
		else wait 0.05;
	}
	for (;;) { waittillframeend; break; }
	while (isdefined(self)) wait .1;
	switch (self.state)
	{
	case "a":
	case 1:
		break;
	default:
		return;
	}
	;;
}
