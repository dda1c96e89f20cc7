/* A strict JSON reader (RFC 8259) for `atrc diff`: it reads files a user
** hands it, so it is bounded (nesting depth), linear in the input and exact
** about where a document goes wrong. */
#ifndef ATRC_JSON_READ_H
#define ATRC_JSON_READ_H
#include <stddef.h>
#include <stdint.h>
#include "base/arena.h"

#define JSON_MAX_DEPTH 256

typedef enum { JSON_NULL = 0, JSON_FALSE, JSON_TRUE, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } json_type;

typedef struct json_value json_value;

typedef struct json_member {
    const char *key;      /* decoded in place, NUL-terminated (may also hold NUL bytes: see key_len) */
    size_t key_len;
    json_value *value;
} json_member;

struct json_value {
    json_type type;
    size_t offset;        /* of the value's first byte in the text */
    union {
        struct {
            int is_int;   /* an integer in int64 range, written without fraction or exponent */
            int64_t i;
        } number;
        struct {
            const char *s; /* decoded UTF-8, NUL-terminated */
            size_t len;
        } string;
        struct {
            json_value **items;
            size_t count;
        } array;
        struct {
            json_member *members;
            size_t count;
        } object;
    } u;
};

typedef struct json_error {
    size_t offset;        /* where the text stops being JSON */
    char message[96];
} json_error;

/* Parses text[0, len) as one JSON value (surrounding whitespace allowed).
** Strings must be valid UTF-8; \u escapes are decoded (a lone surrogate
** becomes U+FFFD).  Strings are decoded in place, so text is modified and
** must outlive the values; everything else is allocated in a.  Returns NULL
** and fills err on the first error (its offset is valid in the original
** text). */
json_value *json_parse(char *text, size_t len, arena *a, json_error *err);

/* The first member named key of an object; NULL when absent or obj is not an object. */
const json_value *json_get(const json_value *obj, const char *key);

#endif
