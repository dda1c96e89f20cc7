@proj/badopt.flags
