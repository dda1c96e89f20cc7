// Deletes the entities a level marks for removal.
main()
{
	self delete();
}
