// CoD4x's preprocessor: which branch its server compiles.
// A stock function: the #if branch.
#if isSyscallDefined getent
a() { return 1; }
#else
a() { notCompiled1(); }
#endif
// A stock method: the #if branch.
#if isSyscallDefined getorigin
b() {}
#else
b() { notCompiled2(); }
#endif
// A builtin of the extension: the #if branch.
#if isSyscallDefined exec
c() { exec("x"); }
#else
c() { notCompiled3(); }
#endif
// An unknown name: the #else branch.
#if isSyscallDefined noSuchSyscall
d() { noSuchSyscall(); }
#else
d() { compiledElse(); }
#endif
// Nested blocks, an #if without #else that is not taken.
#if isSyscallDefined exec
  #if isSyscallDefined noSuchSyscall
e() { notCompiled4(); }
  #else
e() { compiledNested(); }
  #endif
#else
  #if isSyscallDefined getent
e() { notCompiled5(); }
  #endif
#endif
#if isSyscallDefined noSuchSyscall
f() { notCompiled6(); }
#endif
main() { a(); b(); c(); d(); e(); }
