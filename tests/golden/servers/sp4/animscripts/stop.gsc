main() {}
