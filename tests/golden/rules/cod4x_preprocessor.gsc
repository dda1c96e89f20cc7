#if isSyscallDefined exec
f() { exec("x"); }
#else
f() {}
#endif
