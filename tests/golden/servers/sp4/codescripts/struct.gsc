initstructs() {}
createstruct() {}
