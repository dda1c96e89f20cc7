// The stock game reads this gametype script: no .gsx is seen.
main()
{
	readGametypeGsc();
}
