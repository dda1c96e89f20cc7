/* The one hash index over an array the caller keeps: entry i of the table is
** element i of that array (both grow in step, so the caller's order is the
** insertion order).  The caller hashes (text_hash) and compares keys; the
** table keeps each entry's hash, so growing never rehashes a key and most
** mismatches cost no compare.  Chained through one node per entry, at most
** one entry per two buckets, so a lookup of an absent key usually ends at
** once; nodes and buckets share one allocation, doubled together. */
#ifndef ATRC_HASHTAB_H
#define ATRC_HASHTAB_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "base/arena.h"
#include "base/text.h"

typedef struct hashtab_node {
    uint32_t hash;
    uint32_t next;             /* entry + 1 in the same bucket, 0: none */
} hashtab_node;

typedef struct hashtab {
    hashtab_node *nodes;       /* one per entry, room for half the bucket count; NULL until the first add */
    uint32_t *buckets;         /* entry + 1, 0: empty (after the nodes, same allocation) */
    size_t mask;               /* bucket count - 1 */
    size_t count;
} hashtab;

#define HASHTAB_END ((size_t)-1)
/* The `next` of an entry linked into no chain (hashtab_add_unlinked). */
#define HASHTAB_UNLINKED UINT32_MAX

static inline size_t hashtab_scan(const hashtab *t, uint32_t hash, size_t n)
{
    for (; n; n = t->nodes[n - 1].next)
        if (t->nodes[n - 1].hash == hash) return n - 1;
    return HASHTAB_END;
}

/* The entries added with `hash`, newest first, then HASHTAB_END: what the
** lookups below walk (a table is searched through hashtab_find_string,
** hashtab_find_bytes or hashtab_find, never by a loop of its own). */
static inline size_t hashtab_first(const hashtab *t, uint32_t hash)
{
    return hashtab_scan(t, hash, t->buckets ? t->buckets[hash & t->mask] : 0);
}

static inline size_t hashtab_next(const hashtab *t, uint32_t hash, size_t i)
{
    return hashtab_scan(t, hash, t->nodes[i].next);
}

/* Entry i's key in the caller's array, for hashtab_find_string. */
typedef const char *hashtab_key_fn(const void *items, size_t i);

/* The one lookup of a string-keyed table: the newest entry added under
** `hash` whose key, key_at(items, i), equals `key` (strcmp, or ASCII
** case-insensitively with fold_case), or HASHTAB_END.  Inlined with the
** caller's static key_at. */
static inline size_t hashtab_find_string(const hashtab *t, uint32_t hash, const char *key, int fold_case,
                                         const void *items, hashtab_key_fn *key_at)
{
    for (size_t i = hashtab_first(t, hash); i != HASHTAB_END; i = hashtab_next(t, hash, i)) {
        const char *k = key_at(items, i);
        if (fold_case ? text_equal_nocase(k, key) : strcmp(k, key) == 0) return i;
    }
    return HASHTAB_END;
}

/* Entry i's key and its length (*len) in the caller's array, for
** hashtab_find_bytes. */
typedef const char *hashtab_bytes_fn(const void *items, size_t i, size_t *len);

/* hashtab_find_string for keys that are byte runs (key[0, len): a name in
** the middle of a text, or bytes that may hold a NUL): the newest entry
** added under `hash` whose key, key_at(items, i, &n), is these n == len
** bytes, or HASHTAB_END. */
static inline size_t hashtab_find_bytes(const hashtab *t, uint32_t hash, const char *key, size_t len,
                                        const void *items, hashtab_bytes_fn *key_at)
{
    for (size_t i = hashtab_first(t, hash); i != HASHTAB_END; i = hashtab_next(t, hash, i)) {
        size_t n;
        const char *k = key_at(items, i, &n);
        if (n == len && memcmp(k, key, len) == 0) return i;
    }
    return HASHTAB_END;
}

/* The hash of a table keyed by an object's address (its bytes, never
** compared: only the address's identity matters). */
static inline uint32_t hashtab_pointer_hash(const void *p)
{
    uintptr_t u = (uintptr_t)p;
    return text_hash_bytes((const char *)&u, sizeof u);
}

/* Whether element i of the caller's array (items) is the key sought. */
typedef int hashtab_match_fn(const void *items, size_t i, const void *key);

/* The lookup of a table whose key is more than one string (a parent and a
** name, a path and a kind, a tag and bytes) or no string (a position): the
** newest entry added under `hash` after entry `after` (HASHTAB_END: from the
** newest) that match(items, i, key) accepts, or HASHTAB_END.  Inlined with
** the caller's static match. */
static inline size_t hashtab_find_next(const hashtab *t, uint32_t hash, size_t after, const void *items,
                                       const void *key, hashtab_match_fn *match)
{
    size_t i = after == HASHTAB_END ? hashtab_first(t, hash) : hashtab_next(t, hash, after);
    for (; i != HASHTAB_END; i = hashtab_next(t, hash, i))
        if (match(items, i, key)) return i;
    return HASHTAB_END;
}

static inline size_t hashtab_find(const hashtab *t, uint32_t hash, const void *items, const void *key,
                                  hashtab_match_fn *match)
{
    return hashtab_find_next(t, hash, HASHTAB_END, items, key, match);
}

/* Room for count entries without growing (the table also grows by itself). */
void hashtab_reserve(hashtab *t, size_t count);

/* Adds an entry under hash (the caller looked it up first: keys are not
** compared) and returns its number, the table's count before. */
static inline size_t hashtab_add(hashtab *t, uint32_t hash)
{
    if ((t->count + 1) * 2 > t->mask + 1) hashtab_reserve(t, t->count + 1);
    uint32_t *b = &t->buckets[hash & t->mask];
    t->nodes[t->count] = (hashtab_node){hash, *b};
    *b = (uint32_t)++t->count;
    return t->count - 1;
}

/* Adds an entry no lookup finds and returns its number: it keeps the
** numbering in step with the caller's array for an element listed only for
** its place (a repeated name, a later definition), and, linked into no
** chain, any number of them never lengthens one. */
static inline size_t hashtab_add_unlinked(hashtab *t)
{
    if ((t->count + 1) * 2 > t->mask + 1) hashtab_reserve(t, t->count + 1);
    t->nodes[t->count] = (hashtab_node){0, HASHTAB_UNLINKED};
    return t->count++;
}

/* Forgets every entry, keeping the memory. */
void hashtab_clear(hashtab *t);
void hashtab_free(hashtab *t);

#endif
