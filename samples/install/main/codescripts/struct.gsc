// Script structs: plain objects the level scripts use as data.
initstructs()
{
	level.struct = [];
}

createstruct()
{
	s = spawnstruct();
	level.struct[level.struct.size] = s;
	return s;
}
