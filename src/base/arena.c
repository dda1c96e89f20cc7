/* The region allocator (arena.h), the overflow-checked allocation helpers
** (xmalloc, array_size) and the arena's string copies. */
#include "base/arena.h"
#include "atrc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct arena_block {
    arena_block *next;
    size_t cap; /* the bytes of data, fixed when the block is made */
    /* data follows, max-aligned */
};

#define BLOCK_HEADER ((sizeof(arena_block) + 15u) & ~(size_t)15u)
typedef char block_header_in_sync[BLOCK_HEADER == ARENA_BLOCK_HEADER ? 1 : -1];
#define MIN_BLOCK ((size_t)1024)
#define MAX_BLOCK ((size_t)16 << 20)

/* Process-wide, as running out of memory is: set once by the program
** (atrc_set_out_of_memory_handler), before any context exists. */
static void (*oom_handler)(void);

void atrc_set_out_of_memory_handler(void (*handler)(void))
{
    oom_handler = handler;
}

void out_of_memory(void)
{
    fputs("atrc: out of memory\n", stderr);
    if (oom_handler) oom_handler();
    abort();
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) out_of_memory();
    return p;
}

void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) out_of_memory();
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) out_of_memory();
    return p;
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xmalloc(n), s, n);
}

void arena_init(arena *a)
{
    memset(a, 0, sizeof *a);
}

void arena_reserve(arena *a, size_t n)
{
    n = n ? (n + 15u) & ~(size_t)15u : 16;
    if (n == 0) out_of_memory(); /* the rounding wrapped: a size near SIZE_MAX */
    if (n <= (size_t)((uintptr_t)a->end - (uintptr_t)a->cur)) return;
    /* Blocks grow with the arena (up to 16 MiB) so a huge input costs few blocks. */
    if (a->head) a->total += (size_t)(a->cur - ((char *)a->head + BLOCK_HEADER));
    size_t cap = a->total / 2;
    if (cap < MIN_BLOCK) cap = MIN_BLOCK;
    if (cap > MAX_BLOCK) cap = MAX_BLOCK;
    if (cap < n) cap = n;
    if (cap > (size_t)-1 - BLOCK_HEADER) out_of_memory();
    arena_block *b = xmalloc(BLOCK_HEADER + cap);
    b->cap = cap;
    a->held += cap;
    if (a->held > a->peak) a->peak = a->held;
    b->next = a->head;
    a->head = b;
    a->cur = (char *)b + BLOCK_HEADER;
    a->end = a->cur + cap;
}

void *arena_alloc_block(arena *a, size_t n)
{
    arena_reserve(a, n);
    void *p = a->cur;
    a->cur += n ? (n + 15u) & ~(size_t)15u : 16;
    return p;
}

void *arena_zalloc(arena *a, size_t n)
{
    return memset(arena_alloc(a, n), 0, n);
}

char *arena_strndup(arena *a, const char *s, size_t n)
{
    char *p = arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

char *arena_strdup(arena *a, const char *s)
{
    return arena_strndup(a, s, strlen(s));
}

/* ASCII lower-casing of 8 bytes at once: a byte gets 0x20 added when it is
** 'A'..'Z'.  Each test adds to the byte's low 7 bits, so no carry crosses
** bytes; bytes >= 0x80 are left alone, as the per-byte rule does. */
static inline uint64_t lower8(uint64_t w)
{
    const uint64_t ones = 0x0101010101010101u, high = ones * 0x80;
    uint64_t low7 = w & ~high;
    uint64_t ge_a = low7 + ones * (0x80 - 'A');     /* high bit: >= 'A' */
    uint64_t gt_z = low7 + ones * (0x80 - 'Z' - 1); /* high bit: > 'Z' */
    uint64_t upper = ge_a & ~gt_z & ~w & high;
    return w | (upper >> 2);
}

char *arena_lower(arena *a, const char *s, size_t n)
{
    char *p = arena_alloc(a, n + 1);
    if (n >= 8) {
        /* Whole words; the last one overlaps the one before. */
        uint64_t w;
        for (size_t i = 0; i + 8 < n; i += 8) {
            memcpy(&w, s + i, 8);
            w = lower8(w);
            memcpy(p + i, &w, 8);
        }
        memcpy(&w, s + n - 8, 8);
        w = lower8(w);
        memcpy(p + n - 8, &w, 8);
    } else {
        for (size_t i = 0; i < n; i++) {
            unsigned char c = (unsigned char)s[i];
            p[i] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
        }
    }
    p[n] = 0;
    return p;
}

char *arena_printf(arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) n = 0;
    char *p = arena_alloc(a, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

static void free_blocks(arena *a, arena_block *b)
{
    while (b) {
        arena_block *next = b->next;
        a->held -= b->cap;
        free(b);
        b = next;
    }
}

void arena_free_all(arena *a)
{
    size_t peak = a->peak;
    free_blocks(a, a->head);
    arena_init(a);
    a->peak = peak;
}

void arena_release_blocks(arena *a, arena_mark m)
{
    if (!m.head) { /* marked empty: everything goes (one block is kept) */
        arena_reset(a);
        return;
    }
    while (a->head != m.head) {
        arena_block *b = a->head;
        a->head = b->next;
        a->held -= b->cap;
        free(b);
    }
    a->cur = m.cur;
    a->end = (char *)m.head + BLOCK_HEADER + m.head->cap;
    a->total = m.total;
}

void arena_reset(arena *a)
{
    if (!a->head) return;
    arena_block *keep = a->head;
    if (keep->next) {
        /* The round used several blocks: next time one block holds it all
        ** (up to the largest block size), so a loop that fills and resets
        ** the arena stops allocating once it has seen its largest round --
        ** no malloc, free or fresh pages per round. */
        size_t used = a->total + (size_t)(a->cur - ((char *)keep + BLOCK_HEADER));
        if (used > MAX_BLOCK) used = MAX_BLOCK;
        if (used > keep->cap) {
            arena_free_all(a);
            arena_reserve(a, used);
            return;
        }
        free_blocks(a, keep->next);
        keep->next = NULL;
    }
    a->cur = (char *)keep + BLOCK_HEADER;
    a->end = a->cur + keep->cap;
    a->total = 0;
}
