// #include reads this one under CoD4x.
g() { readIncludeGsx(); }
