@proj/missing.flags
