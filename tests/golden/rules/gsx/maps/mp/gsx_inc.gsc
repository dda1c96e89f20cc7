// #include reads the .gsx instead under CoD4x.
g() { readIncludeGsc(); }
