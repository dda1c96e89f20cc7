#include maps\mp\_utility;

main()
{
	waittillframeend;
	level.x = $player;
	wait 1
}
