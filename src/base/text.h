/* Byte-string helpers shared by every stage: the engine's identifier test,
** ASCII case folding (the engines fold names per byte, never by locale), the
** engine's canonical script name and the one hash all name tables use. */
#ifndef ATRC_TEXT_H
#define ATRC_TEXT_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Scr_IsIdentifier (stock-behavior.md 1.6): every byte an ASCII letter, digit
** or '_'; leading digits allowed, and the empty string passes. */
int text_is_identifier(const char *s, size_t n);
/* ASCII case-insensitive equality of two NUL-terminated strings. */
int text_equal_nocase(const char *a, const char *b);
/* The engine's canonical script or tree name (load-order.md 3.1,
** stock-behavior.md 5.6, Scr_CreateCanonicalFilename): of name[0, len),
** bytes below 0x20 skipped, ASCII lower case, '\\' as '/', leading and
** repeated separators dropped.  Every stage that names a script by what a
** script wrote uses this one rule; a caller with another (the file system's
** keys) states its difference with `keep` (TEXT_NAME_*) or as a step of its
** own around this call.  Writes out (room for len + 1 bytes; out may be
** name: the result never runs ahead of what it reads) and returns the
** result's length. */
enum {
    TEXT_NAME_KEEP_CASE = 1,    /* letters as spelled (a name quoted in a message) */
    TEXT_NAME_KEEP_CONTROL = 2, /* bytes below 0x20 kept (a file name: the file system keeps them) */
};
size_t text_canonical_name(char *out, const char *name, size_t len, unsigned keep);
/* FNV-1a of s (ASCII-folded when fold_case), started from seed (0 for none). */
uint32_t text_hash(uint32_t seed, const char *s, int fold_case);

/* A hash of s[0, len) (NULs included), read 8 bytes at a time: for tables
** whose keys' lengths are known and that are hashed often (names per call,
** per reference).  Inlined where it is used. */
static inline uint32_t text_hash_bytes(const char *s, size_t len)
{
    const size_t total = len;
    uint64_t h = (uint64_t)len * 0x9E3779B97F4A7C15u, w;
    for (; len >= 8; s += 8, len -= 8) {
        memcpy(&w, s, 8);
        h = (h ^ w) * 0xFF51AFD7ED558CCDu;
        h ^= h >> 32;
    }
    /* The last len < 8 bytes: a key of 8 bytes or more reads its last 8
    ** (overlapping what was hashed), a shorter one two 4-byte words (which
    ** may overlap) or its bytes (a memcpy of a variable length is a call). */
    w = 0;
    if (len && total >= 8) {
        memcpy(&w, s + len - 8, 8);
    } else if (len >= 4) {
        uint32_t lo, hi;
        memcpy(&lo, s, 4);
        memcpy(&hi, s + len - 4, 4);
        w = (uint64_t)hi << 32 | lo;
    } else {
        for (size_t i = 0; i < len; i++) w |= (uint64_t)(unsigned char)s[i] << (8 * i);
    }
    h = (h ^ w) * 0xC4CEB9FE1A85EC53u;
    return (uint32_t)(h ^ (h >> 29));
}

#endif
