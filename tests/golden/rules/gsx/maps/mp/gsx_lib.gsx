// path::f reads this one under CoD4x.
f() { readLibGsx(); }
