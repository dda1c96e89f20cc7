/* Text output (outbuf.h): the stream block and the growing string, and the
** writers of numbers, JSON strings and escapes over them. */
#include "base/outbuf.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h" /* xmalloc */
#include "base/source.h" /* utf8_sequence_length */
#include "base/vec.h"

/* A stream buffer's block (one byte of it keeps the terminating 0). */
#define STREAM_BLOCK ((size_t)1 << 16)

void outbuf_stream(outbuf *b, FILE *out)
{
    memset(b, 0, sizeof *b);
    b->out = out;
    b->s = xmalloc(STREAM_BLOCK);
    b->s[0] = 0;
    b->cap = STREAM_BLOCK;
}

static void write_out(outbuf *b, const void *p, size_t n)
{
    /* (Some streams report a failed write only through ferror.) */
    if (n && (fwrite(p, 1, n, b->out) != n || ferror(b->out))) b->failed = 1;
}

/* Forgets the text, a stream buffer after writing it (a failure is kept
** for outbuf_flush to report). */
static void drain(outbuf *b)
{
    if (b->out) write_out(b, b->s, b->len);
    b->len = 0;
    if (b->s) b->s[0] = 0;
}

int outbuf_flush(outbuf *b)
{
    drain(b);
    int rc = b->failed ? -1 : 0;
    b->failed = 0;
    return rc;
}

void outbuf_free(outbuf *b)
{
    if (b->out) outbuf_flush(b);
    free(b->s);
    memset(b, 0, sizeof *b);
}

void outbuf_reserve_slow(outbuf *b, size_t n)
{
    if (b->out) {
        drain(b); /* n is below the block: it fits now */
        return;
    }
    if (n > (size_t)-1 - 1 - b->len) out_of_memory();
    /* the string's own shape (text, len, cap beside a stream), grown as a VEC is */
    if (b->len + n + 1 > b->cap) b->s = vec_grow(b->s, &b->cap, b->len + n + 1, 1);
    b->s[b->len] = 0;
}

void outbuf_put_slow(outbuf *b, const void *p, size_t n)
{
    if (b->out && n >= b->cap - 1) {
        /* As large as the block: written as it is, not copied. */
        drain(b);
        write_out(b, p, n);
        return;
    }
    outbuf_reserve_slow(b, n);
    memcpy(b->s + b->len, p, n);
    b->len += n;
    b->s[b->len] = 0;
}

void outbuf_int(outbuf *b, int64_t v)
{
    /* Two digits per division (lines, columns and packed values have up to 10). */
    static const char pairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                "4041424344454647484950515253545556575859606162636465666768697071727374757677787980"
                                "81828384858687888990919293949596979899";
    /* The digits end at tmp + 24; the room after them lets a fixed 24 bytes
    ** be copied from the first (no call for a variable length). */
    char tmp[48];
    int i = 24;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    while (u >= 100) {
        unsigned d = (unsigned)(u % 100);
        u /= 100;
        i -= 2;
        memcpy(tmp + i, pairs + 2 * d, 2);
    }
    if (u >= 10) {
        i -= 2;
        memcpy(tmp + i, pairs + 2 * u, 2);
    } else {
        tmp[--i] = (char)('0' + u);
    }
    if (v < 0) tmp[--i] = '-';
    size_t n = 24 - (size_t)i;
    outbuf_reserve(b, 24);
    memcpy(b->s + b->len, tmp + i, 24);
    b->len += n;
    b->s[b->len] = 0;
}

void outbuf_printf(outbuf *b, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n <= 0) return;
    if ((size_t)n < sizeof small) {
        outbuf_put(b, small, (size_t)n);
        return;
    }
    char *big = xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    outbuf_put(b, big, (size_t)n);
    free(big);
}

/* ---- JSON strings ---- */

/* Are the 8 bytes at p all printable ASCII other than '"' and '\\' (JSON's
** bytes to copy as they are)?  A byte test on all 8 at once: a byte below
** 0x20, from 0x80, or equal to one of the two sets its high bit. */
static inline int plain_word(const unsigned char *p)
{
    const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
    uint64_t w, q, bs;
    memcpy(&w, p, 8);
    q = w ^ (ones * '"');
    bs = w ^ (ones * '\\');
    /* (x - ones) & ~x & high: a zero byte in x (exact when x has no byte >= 0x80,
    ** and a byte >= 0x80 in w is caught by w itself). */
    uint64_t bad = w | ((w - ones * 0x20) & ~w) | ((q - ones) & ~q) | ((bs - ones) & ~bs);
    return !(bad & high);
}

void outbuf_json_string(outbuf *b, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    const unsigned char *end = p + n;
    outbuf_char(b, '"');
    while (p < end) {
        /* The common case: a run of printable ASCII, copied in one block
        ** and scanned 8 bytes at a time. */
        const unsigned char *run = p;
        while (end - p >= 8 && plain_word(p)) p += 8;
        /* Fewer than 8 bytes left: the string's last 8 bytes, when it has
        ** as many, cover them in one more test. */
        if (end - p < 8 && n >= 8 && plain_word(end - 8)) p = end;
        while (p < end && *p >= 0x20 && *p < 0x80 && *p != '"' && *p != '\\') p++;
        if (p > run) outbuf_put(b, (const char *)run, (size_t)(p - run));
        if (p == end) break;
        unsigned char c = *p;
        if (c == '"' || c == '\\') {
            outbuf_char(b, '\\');
            outbuf_char(b, (char)c);
            p++;
        } else if (c < 0x20) {
            switch (c) {
            case '\n': outbuf_put(b, "\\n", 2); break;
            case '\t': outbuf_put(b, "\\t", 2); break;
            case '\r': outbuf_put(b, "\\r", 2); break;
            default: {
                char esc[8];
                snprintf(esc, sizeof esc, "\\u%04x", c);
                outbuf_str(b, esc);
                break;
            }
            }
            p++;
        } else {
            size_t k = utf8_sequence_length(p, (size_t)(end - p));
            if (k) {
                outbuf_put(b, (const char *)p, k);
                p += k;
            } else {
                outbuf_put(b, "\\ufffd", 6);
                p++;
            }
        }
    }
    outbuf_char(b, '"');
}
