main() {}
init() {}
