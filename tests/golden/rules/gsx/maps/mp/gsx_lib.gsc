// path::f reads the .gsx instead under CoD4x.
f() { readLibGsc(); }
