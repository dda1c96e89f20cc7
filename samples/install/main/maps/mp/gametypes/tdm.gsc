// Team deathmatch: the gametype script the engine loads first.
#include maps\mp\gametypes\_common;

main()
{
	level.teamBased = true;
	// Both files are new here: the arguments are compiled last to first, so
	// _scoreboard is loaded before _spawnlogic.
	maps\mp\gametypes\_spawnlogic::init(maps\mp\gametypes\_scoreboard::columns());
	raiseFlags();
}
