@proj/atrc.flags
