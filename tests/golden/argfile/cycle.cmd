@proj/cycle.flags
