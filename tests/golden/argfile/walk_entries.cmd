@proj/walk.flags
