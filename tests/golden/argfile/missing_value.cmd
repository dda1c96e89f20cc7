@proj/badvalue.flags
