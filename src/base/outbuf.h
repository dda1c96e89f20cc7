/* Text output, one helper for every writer (the listings and JSON, the
** diagnostics, the diff's lines): text is assembled with block copies, never
** a library call per character.  An outbuf is either
**  - a stream buffer (outbuf_stream): a fixed block written to its stream
**    when full and at outbuf_flush, or
**  - a string (a zeroed outbuf): grown as needed.
** Either way s[len] is 0 once anything was written (s is NULL before). */
#ifndef ATRC_OUTBUF_H
#define ATRC_OUTBUF_H
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct outbuf {
    FILE *out; /* NULL: a string */
    char *s;
    size_t len, cap; /* a stream's fixed block, or the string's room (grown by outbuf.c) */
    int failed; /* a write to out failed (stream) */
} outbuf;

/* A stream buffer in front of out. */
void outbuf_stream(outbuf *b, FILE *out);
/* A stream buffer writes what it holds; a string forgets its text (keeping
** its memory).  -1 when a write to the stream failed since the last flush. */
int outbuf_flush(outbuf *b);
/* Flushes a stream buffer, then frees the memory. */
void outbuf_free(outbuf *b);

/* outbuf_put's and outbuf_reserve's slow paths: a full block, a string to
** grow. */
void outbuf_put_slow(outbuf *b, const void *p, size_t n);
void outbuf_reserve_slow(outbuf *b, size_t n);
/* Decimal, as printf's %d / %ld / PRId64 spell it. */
void outbuf_int(outbuf *b, int64_t v);
void outbuf_printf(outbuf *b, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The n bytes at s as a JSON string with its quotes: '"', '\\' and control
** bytes escaped (NUL too), bytes that are not UTF-8 as U+FFFD, so the
** document always parses whatever bytes a name held.  Every JSON writer's
** one escaper. */
void outbuf_json_string(outbuf *b, const char *s, size_t n);

/* Room for n more bytes and the 0, so that the next n bytes written stay
** together at s + len: a stream buffer writes what it holds when it lacks
** the room (n must be below its 64 KB block), a string grows. */
static inline void outbuf_reserve(outbuf *b, size_t n)
{
    if (n >= b->cap - b->len) outbuf_reserve_slow(b, n);
}

static inline void outbuf_put(outbuf *b, const void *p, size_t n)
{
    if (n < b->cap - b->len) { /* room for the bytes and the 0 */
        memcpy(b->s + b->len, p, n);
        b->len += n;
        b->s[b->len] = 0;
    } else {
        outbuf_put_slow(b, p, n);
    }
}

/* Inline: most pieces are literals, whose strlen the compiler counts. */
static inline void outbuf_str(outbuf *b, const char *s)
{
    outbuf_put(b, s, strlen(s));
}

static inline void outbuf_char(outbuf *b, char c)
{
    if (b->len + 1 < b->cap) {
        b->s[b->len++] = c;
        b->s[b->len] = 0;
    } else {
        outbuf_put(b, &c, 1);
    }
}

#endif
