f() { /* never closed

