/* The one hash index: maps a 32-bit hash to indices of entries the caller
** keeps in its own array (insertion order stays the caller's).  The caller
** hashes (text_hash) and compares keys; the table stores each index with its
** hash, so growing never rehashes a key and most mismatches cost no compare.
** Open addressing, linear probing, at most half full. */
#ifndef ATRC_HASHTAB_H
#define ATRC_HASHTAB_H
#include <stddef.h>
#include <stdint.h>

typedef struct hashtab_slot {
    uint32_t hash;
    uint32_t entry;            /* index + 1; 0: empty */
} hashtab_slot;

typedef struct hashtab {
    hashtab_slot *slots;       /* NULL until the first add */
    size_t mask;               /* slot count - 1 */
    size_t count;
} hashtab;

#define HASHTAB_END ((size_t)-1)

/* The next index added with `hash`, probing on from *probe (start at 0), or
** HASHTAB_END.  A lookup compares each candidate's key:
**   size_t probe = 0, i;
**   while ((i = hashtab_next(&t, h, &probe)) != HASHTAB_END)
**       if (strcmp(items[i].name, name) == 0) return &items[i];  */
static inline size_t hashtab_next(const hashtab *t, uint32_t hash, size_t *probe)
{
    if (!t->slots) return HASHTAB_END;
    for (;;) {
        const hashtab_slot *s = &t->slots[(hash + (*probe)++) & t->mask];
        if (!s->entry) return HASHTAB_END;
        if (s->hash == hash) return s->entry - 1;
    }
}

/* Adds index under hash (the caller looked it up first: keys are not compared). */
void hashtab_add(hashtab *t, uint32_t hash, size_t index);
void hashtab_free(hashtab *t);

#endif
