/* Region allocator: every AST node, name and tree entry of a run lives in one
** arena and is freed in one place, whatever happened. */
#ifndef ATRC_ARENA_H
#define ATRC_ARENA_H
#include <stddef.h>
#include <stdint.h>

typedef struct arena_block arena_block;
typedef struct arena {
    arena_block *head;
    char *cur;     /* next free byte in head (NULL when there is no block) */
    char *end;     /* end of head's data */
    size_t total;  /* bytes handed out from the blocks before head */
    size_t held;   /* bytes of the blocks held now (their capacity) */
    size_t peak;   /* the most `held` has been (kept across resets) */
} arena;

/* Bytes before a block's data (the block header, max-aligned). */
#define ARENA_BLOCK_HEADER ((size_t)16)

void arena_init(arena *a);
/* arena_alloc's slow path: a new block (or the zero-size case). */
void *arena_alloc_block(arena *a, size_t n);
/* Never returns NULL: aborts the process with a message when memory is
** exhausted.  The common case (room in the current block) is inline and
** only moves a pointer: the parser allocates a node or a name per token.
** One unsigned test sends the rest to the slow path: an empty arena
** (cur == end == NULL, compared as integers), n == 0 (rounds to 0, so
** m - 1 wraps) and a size near SIZE_MAX whose rounding wraps to 0. */
static inline void *arena_alloc(arena *a, size_t n)
{
    size_t m = (n + 15u) & ~(size_t)15u;
    char *p = a->cur;
    if (m - 1 >= (size_t)((uintptr_t)a->end - (uintptr_t)p)) return arena_alloc_block(a, n);
    a->cur = p + m;
    return p;
}
/* arena_alloc's fast path in two halves, for a hot function that would
** otherwise save registers around arena_alloc's rare call: when the current
** block lacks room for n bytes (and always for n == 0) arena_fits says no,
** and that function's slow path can be a tail call (arena_reserve, then
** again).  arena_take hands out n bytes that arena_fits accepted. */
static inline int arena_fits(const arena *a, size_t n)
{
    size_t m = (n + 15u) & ~(size_t)15u;
    return m - 1 < (size_t)((uintptr_t)a->end - (uintptr_t)a->cur);
}
static inline void *arena_take(arena *a, size_t n)
{
    char *p = a->cur;
    a->cur = p + ((n + 15u) & ~(size_t)15u);
    return p;
}
/* Makes room for n bytes in the current block (a new block when needed). */
void arena_reserve(arena *a, size_t n);
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
/* Forgets every allocation but keeps one block for reuse, large enough for
** everything the arena held (up to 16 MiB): a loop that fills and resets an
** arena allocates nothing once it has seen its largest round. */
void arena_reset(arena *a);

/* A point in an arena's allocations: arena_release forgets everything
** allocated after it (and frees the blocks taken since), so a loop that
** allocates per round above a mark holds one round at a time.  The arena
** must not have been reset or freed since the mark was taken. */
typedef struct arena_mark {
    arena_block *head;
    char *cur;
    size_t total;
} arena_mark;
static inline arena_mark arena_get_mark(const arena *a)
{
    arena_mark m = {a->head, a->cur, a->total};
    return m;
}
/* Bytes handed out so far (since the last reset). */
static inline size_t arena_used(const arena *a)
{
    return a->head ? a->total + (size_t)(a->cur - ((char *)a->head + ARENA_BLOCK_HEADER)) : 0;
}
/* arena_release's slow path: blocks were taken since the mark. */
void arena_release_blocks(arena *a, arena_mark m);
static inline void arena_release(arena *a, arena_mark m)
{
    if (a->head == m.head && m.head) a->cur = m.cur; /* no block since: the same end and total */
    else arena_release_blocks(a, m);
}

/* Writes "atrc: out of memory", then calls the handler of
** atrc_set_out_of_memory_handler (the CLI's exits 2), else aborts. */
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
/* The bytes of n elements of size bytes, for any allocator:
** xmalloc(array_size(n, sizeof *p)).  A count that does not fit in size_t
** is out of memory, never a wrapped, short allocation. */
static inline size_t array_size(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size) out_of_memory();
    return n * size;
}

#endif
