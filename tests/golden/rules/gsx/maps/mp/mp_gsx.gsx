// The map script exists only as .gsx: the stock game has none.
main() { readMapGsx(); }
