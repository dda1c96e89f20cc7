/* Region allocator: every AST node, name and tree entry of a run lives in one
** arena and is freed in one place, whatever happened. */
#ifndef ATRC_ARENA_H
#define ATRC_ARENA_H
#include <stddef.h>

typedef struct arena_block arena_block;
typedef struct arena {
    arena_block *head;
    size_t used;   /* bytes used in head */
    size_t cap;    /* capacity of head */
    size_t total;  /* bytes handed out (for measurements) */
} arena;

/* Bytes before a block's data (the block header, max-aligned). */
#define ARENA_BLOCK_HEADER ((size_t)16)

void arena_init(arena *a);
/* A new block for n (rounded) bytes: arena_alloc's slow path. */
void *arena_alloc_block(arena *a, size_t n);
/* Never returns NULL: aborts the process with a message when memory is
** exhausted.  The common case (room in the current block) is inline: the
** parser allocates a node or a name per token. */
static inline void *arena_alloc(arena *a, size_t n)
{
    n = n ? (n + 15u) & ~(size_t)15u : 16;
    if (!a->head || a->cap - a->used < n || n == 0) return arena_alloc_block(a, n);
    void *p = (char *)a->head + ARENA_BLOCK_HEADER + a->used;
    a->used += n;
    a->total += n;
    return p;
}
void *arena_zalloc(arena *a, size_t n);
char *arena_strndup(arena *a, const char *s, size_t n);
char *arena_strdup(arena *a, const char *s);
/* Copy with ASCII lower-casing (the engine's per-byte tolower). */
char *arena_lower(arena *a, const char *s, size_t n);
char *arena_printf(arena *a, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void arena_free_all(arena *a);
/* Forgets every allocation but keeps the newest (largest) block for reuse:
** a loop that fills and resets an arena allocates nothing in steady state. */
void arena_reset(arena *a);

/* Writes "atrc: out of memory" and aborts. */
void out_of_memory(void)
#ifdef __GNUC__
    __attribute__((noreturn))
#endif
    ;
/* malloc/realloc that abort with "atrc: out of memory" instead of returning NULL. */
void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
void *xcalloc(size_t n, size_t size);
char *xstrdup(const char *s);

#endif
