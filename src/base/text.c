/* Byte-string helpers (text.h): the engine's identifier test, ASCII case
** folding, the canonical script name and the one name hash. */
#include "base/text.h"

static unsigned char fold(unsigned char c)
{
    return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

int text_is_identifier(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
            return 0;
    }
    return 1;
}

int text_equal_nocase(const char *a, const char *b)
{
    for (;; a++, b++) {
        unsigned char x = (unsigned char)*a, y = (unsigned char)*b;
        /* Equal bytes (most, where names are written one way) need no folding. */
        if (x == y) {
            if (!x) return 1;
        } else if (fold(x) != fold(y)) {
            return 0;
        }
    }
}

size_t text_canonical_name(char *out, const char *name, size_t len, unsigned keep)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)name[i];
        if (c < 0x20 && !(keep & TEXT_NAME_KEEP_CONTROL)) continue;
        if (c == '\\') c = '/';
        if (c == '/' && (n == 0 || out[n - 1] == '/')) continue;
        out[n++] = (char)(keep & TEXT_NAME_KEEP_CASE ? c : fold(c));
    }
    out[n] = 0;
    return n;
}

uint32_t text_hash(uint32_t seed, const char *s, int fold_case)
{
    uint32_t h = 2166136261u ^ (seed * 0x9E3779B1u);
    /* Two loops: the exact-case one, most tables', tests nothing but the byte. */
    if (fold_case)
        for (; *s; s++) h = (h ^ fold((unsigned char)*s)) * 16777619u;
    else
        for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}
