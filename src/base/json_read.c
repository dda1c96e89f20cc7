/* The JSON reader: recursive descent bounded by JSON_MAX_DEPTH.  Array items
** and object members are gathered on one scratch stack shared by all levels
** and copied into the arena when their container closes, so the whole parse
** is linear in the input. */
#include "base/json_read.h"
#include "base/source.h"
#include "base/vec.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct reader {
    unsigned char *p, *end, *start;
    arena *a;
    json_error *err;
    int failed;
    VEC(json_member) scratch; /* pending items (key NULL for array items) */
} reader;

static void fail_at(reader *r, const unsigned char *at, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void fail_at(reader *r, const unsigned char *at, const char *fmt, ...)
{
    if (r->failed) return;
    r->failed = 1;
    r->err->offset = (size_t)(at - r->start);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err->message, sizeof r->err->message, fmt, ap);
    va_end(ap);
}

static void skip_space(reader *r)
{
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r')) r->p++;
}

static int match_word(reader *r, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)(r->end - r->p) < n || memcmp(r->p, w, n) != 0) return 0;
    r->p += n;
    return 1;
}

static size_t encode_utf8(unsigned cp, char *out)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Four hex digits after "\u"; returns the code unit or -1. */
static long hex4(const unsigned char *p, const unsigned char *end)
{
    if (end - p < 4) return -1;
    long v = 0;
    for (int i = 0; i < 4; i++) {
        unsigned char c = p[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) return -1;
        v = v * 16 + d;
    }
    return v;
}

/* r->p is at the opening quote.  The string is decoded in place: the
** decoded form is never longer than the quoted one, so it ends (with a NUL)
** at or before the closing quote. */
static const char *read_string(reader *r, size_t *len_out)
{
    const unsigned char *open = r->p++;
    char *out = (char *)r->p, *w = out;
    for (;;) {
        if (r->p >= r->end) {
            fail_at(r, open, "unterminated string");
            return NULL;
        }
        unsigned char c = *r->p;
        if (c == '"') {
            r->p++;
            break;
        }
        if (c < 0x20) {
            fail_at(r, r->p, "control character 0x%02x in a string (it must be escaped)", c);
            return NULL;
        }
        if (c != '\\') {
            /* A run of plain bytes at once. */
            const unsigned char *s = r->p;
            while (r->p < r->end && *r->p != '"' && *r->p != '\\' && *r->p >= 0x20) {
                if (*r->p < 0x80) {
                    r->p++;
                    continue;
                }
                size_t k = utf8_sequence_length(r->p, (size_t)(r->end - r->p));
                if (!k) {
                    fail_at(r, r->p, "invalid UTF-8 byte 0x%02x in a string", *r->p);
                    return NULL;
                }
                r->p += k;
            }
            size_t n = (size_t)(r->p - s);
            if (w != (const char *)s) memmove(w, s, n);
            w += n;
            continue;
        }
        const unsigned char *esc = r->p;
        if (r->end - r->p < 2) {
            fail_at(r, open, "unterminated string");
            return NULL;
        }
        char e = (char)r->p[1];
        r->p += 2;
        switch (e) {
        case '"': *w++ = '"'; break;
        case '\\': *w++ = '\\'; break;
        case '/': *w++ = '/'; break;
        case 'b': *w++ = '\b'; break;
        case 'f': *w++ = '\f'; break;
        case 'n': *w++ = '\n'; break;
        case 'r': *w++ = '\r'; break;
        case 't': *w++ = '\t'; break;
        case 'u': {
            long u = hex4(r->p, r->end);
            if (u < 0) {
                fail_at(r, esc, "invalid \\u escape (four hex digits expected)");
                return NULL;
            }
            r->p += 4;
            unsigned cp = (unsigned)u;
            if (cp >= 0xD800 && cp <= 0xDBFF && r->end - r->p >= 6 && r->p[0] == '\\' && r->p[1] == 'u') {
                long lo = hex4(r->p + 2, r->end);
                if (lo >= 0xDC00 && lo <= 0xDFFF) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + ((unsigned)lo - 0xDC00);
                    r->p += 6;
                }
            }
            if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD; /* a lone surrogate */
            w += encode_utf8(cp, w); /* at most 3 bytes for 6 read, 4 for 12 */
            break;
        }
        default:
            fail_at(r, esc, "invalid escape in a string");
            return NULL;
        }
    }
    *w = 0;
    *len_out = (size_t)(w - out);
    return out;
}

static void read_number(reader *r, json_value *v)
{
    const unsigned char *s = r->p;
    int neg = 0, integral = 1, overflow = 0;
    uint64_t mag = 0;
    if (r->p < r->end && *r->p == '-') {
        neg = 1;
        r->p++;
    }
    if (r->p >= r->end || *r->p < '0' || *r->p > '9') {
        fail_at(r, s, "invalid number");
        return;
    }
    if (*r->p == '0') {
        r->p++;
        if (r->p < r->end && *r->p >= '0' && *r->p <= '9') {
            fail_at(r, s, "invalid number (no leading zeros)");
            return;
        }
    } else {
        while (r->p < r->end && *r->p >= '0' && *r->p <= '9') {
            unsigned d = (unsigned)(*r->p++ - '0');
            if (mag > (UINT64_MAX - d) / 10) overflow = 1;
            else mag = mag * 10 + d;
        }
    }
    if (r->p < r->end && *r->p == '.') {
        integral = 0;
        r->p++;
        if (r->p >= r->end || *r->p < '0' || *r->p > '9') {
            fail_at(r, s, "invalid number (digits expected after '.')");
            return;
        }
        while (r->p < r->end && *r->p >= '0' && *r->p <= '9') r->p++;
    }
    if (r->p < r->end && (*r->p == 'e' || *r->p == 'E')) {
        integral = 0;
        r->p++;
        if (r->p < r->end && (*r->p == '+' || *r->p == '-')) r->p++;
        if (r->p >= r->end || *r->p < '0' || *r->p > '9') {
            fail_at(r, s, "invalid number (digits expected in the exponent)");
            return;
        }
        while (r->p < r->end && *r->p >= '0' && *r->p <= '9') r->p++;
    }
    v->type = JSON_NUMBER;
    if (integral && !overflow && mag <= (uint64_t)INT64_MAX) {
        v->u.number.is_int = 1;
        v->u.number.i = neg ? -(int64_t)mag : (int64_t)mag;
    }
}

static void push_scratch(reader *r, const char *key, size_t key_len, json_value *v)
{
    json_member *m = VEC_PUSH(r->scratch);
    m->key = key;
    m->key_len = key_len;
    m->value = v;
}

static json_value *read_value(reader *r, int depth)
{
    skip_space(r);
    json_value *v = arena_zalloc(r->a, sizeof *v);
    v->offset = (size_t)(r->p - r->start);
    if (r->p >= r->end) {
        fail_at(r, r->p, "expected a value, found the end of the file");
        return NULL;
    }
    unsigned char c = *r->p;
    if (c == '{' || c == '[') {
        if (depth >= JSON_MAX_DEPTH) {
            fail_at(r, r->p, "nesting too deep (max %d)", JSON_MAX_DEPTH);
            return NULL;
        }
        int is_object = c == '{';
        char close = is_object ? '}' : ']';
        size_t base = r->scratch.count;
        r->p++;
        skip_space(r);
        if (r->p < r->end && *r->p == close) {
            r->p++;
        } else {
            for (;;) {
                const char *key = NULL;
                size_t key_len = 0;
                if (is_object) {
                    skip_space(r);
                    if (r->p >= r->end || *r->p != '"') {
                        fail_at(r, r->p, "expected a string (an object key)");
                        return NULL;
                    }
                    key = read_string(r, &key_len);
                    if (!key) return NULL;
                    skip_space(r);
                    if (r->p >= r->end || *r->p != ':') {
                        fail_at(r, r->p, "expected ':' after an object key");
                        return NULL;
                    }
                    r->p++;
                }
                json_value *item = read_value(r, depth + 1);
                if (!item) return NULL;
                push_scratch(r, key, key_len, item);
                skip_space(r);
                if (r->p < r->end && *r->p == ',') {
                    r->p++;
                    continue;
                }
                if (r->p < r->end && *r->p == close) {
                    r->p++;
                    break;
                }
                fail_at(r, r->p, is_object ? "expected ',' or '}' after an object member"
                                           : "expected ',' or ']' after an array element");
                return NULL;
            }
        }
        size_t count = r->scratch.count - base;
        if (is_object) {
            v->type = JSON_OBJECT;
            v->u.object.count = count;
            v->u.object.members = arena_alloc(r->a, array_size(count ? count : 1, sizeof(json_member)));
            if (count) memcpy(v->u.object.members, r->scratch.items + base, array_size(count, sizeof(json_member)));
        } else {
            v->type = JSON_ARRAY;
            v->u.array.count = count;
            v->u.array.items = arena_alloc(r->a, array_size(count ? count : 1, sizeof(json_value *)));
            for (size_t i = 0; i < count; i++) v->u.array.items[i] = r->scratch.items[base + i].value;
        }
        r->scratch.count = base;
        return v;
    }
    if (c == '"') {
        v->type = JSON_STRING;
        v->u.string.s = read_string(r, &v->u.string.len);
        return v->u.string.s ? v : NULL;
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        read_number(r, v);
        return r->failed ? NULL : v;
    }
    if (match_word(r, "true")) v->type = JSON_TRUE;
    else if (match_word(r, "false")) v->type = JSON_FALSE;
    else if (match_word(r, "null")) v->type = JSON_NULL;
    else {
        if (c >= 0x20 && c < 0x7F) fail_at(r, r->p, "expected a value, found '%c'", c);
        else fail_at(r, r->p, "expected a value, found byte 0x%02x", c);
        return NULL;
    }
    return v;
}

json_value *json_parse(char *text, size_t len, arena *a, json_error *err)
{
    reader r;
    memset(&r, 0, sizeof r);
    r.start = r.p = (unsigned char *)text;
    r.end = r.start + len;
    /* A byte order mark is allowed before the text (RFC 8259 8.1). */
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) r.p += 3;
    r.a = a;
    r.err = err;
    memset(err, 0, sizeof *err);
    json_value *v = read_value(&r, 0);
    if (v) {
        skip_space(&r);
        if (r.p < r.end) {
            fail_at(&r, r.p, "unexpected data after the JSON value");
            v = NULL;
        }
    }
    VEC_FREE(r.scratch);
    return v;
}

const json_value *json_get(const json_value *obj, const char *key)
{
    if (!obj || obj->type != JSON_OBJECT) return NULL;
    size_t n = strlen(key);
    for (size_t i = 0; i < obj->u.object.count; i++) {
        const json_member *m = &obj->u.object.members[i];
        if (m->key_len == n && memcmp(m->key, key, n) == 0) return m->value;
    }
    return NULL;
}
