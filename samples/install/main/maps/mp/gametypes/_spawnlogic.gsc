init(columns)
{
	level.spawnColumns = columns;
}
