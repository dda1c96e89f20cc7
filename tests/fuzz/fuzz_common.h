/* Helpers shared by the fuzz harnesses (tests/fuzz/fuzz_*.c).  The harnesses
** are also compiled together into one translation unit by the seed replay
** suite (tests/test_fuzz_replay.c), so everything here is static inline and
** guarded, and each harness names its entry point through FUZZ_ENTRY. */
#ifndef ATRC_FUZZ_COMMON_H
#define ATRC_FUZZ_COMMON_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Diagnostics and output go here: printing them is part of what is tested
** (excerpts, carets), but nobody needs to read them. */
static inline FILE *fuzz_sink(void)
{
    static FILE *sink;
    if (!sink) sink = fopen("/dev/null", "w");
    if (!sink) abort();
    return sink;
}

/* FNV-1a over a NUL-terminated string, mixed with a seed: the harnesses use
** it to turn a name into a stable pseudo-random choice. */
static inline uint32_t fuzz_hash(const char *s, uint32_t seed)
{
    uint32_t h = 2166136261u ^ (seed * 0x9e3779b9u);
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    return h ^ (h >> 15);
}

#endif
