/* Inlining hints for the hot paths (GCC and Clang; plain C elsewhere). */
#ifndef ATRC_INLINE_H
#define ATRC_INLINE_H

#ifdef __GNUC__
#define ALWAYS_INLINE inline __attribute__((always_inline))
#define NOINLINE __attribute__((noinline))
/* A rare path kept out of its caller's line (and its registers). */
#define COLD_PATH __attribute__((noinline, cold))
#else
#define ALWAYS_INLINE inline
#define NOINLINE
#define COLD_PATH
#endif

#endif
