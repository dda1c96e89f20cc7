@nope.flags
