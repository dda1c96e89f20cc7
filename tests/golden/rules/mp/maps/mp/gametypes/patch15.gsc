main()
{
	precacheturret("mg42_bipod_stand_mp");
	t = spawnturret("misc_turret", (0, 0, 0), "mg42_bipod_stand_mp");
	if (self getstance() == "prone")
		t delete();
}
