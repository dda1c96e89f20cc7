// Shared by every gametype; brings in the flag animations.
#include maps\mp\_flags;

raiseFlags()
{
	flags = getentarray("team_flag", "targetname");
	for (i = 0; i < flags.size; i++)
		flags[i] thread wave();
}
