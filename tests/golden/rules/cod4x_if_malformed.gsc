#if isSyscallDefined
#endif
#if exec
#endif
#if isSyscallDefined exec junk
#endif
#else
#endif
#if isSyscallDefined exec
#else
#else
#endif
#if isSyscallDefined exec // a comment may follow
#endif extra
f() {}
#if isSyscallDefined getent
  #if isSyscallDefined exec
g() {}
  #endif
