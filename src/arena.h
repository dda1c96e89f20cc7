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

void arena_init(arena *a);
/* Never returns NULL: aborts the process with a message when memory is exhausted. */
void *arena_alloc(arena *a, size_t n);
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

/* malloc/realloc that abort with "atrc: out of memory" instead of returning NULL. */
void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
void *xcalloc(size_t n, size_t size);
char *xstrdup(const char *s);

#endif
