/* The hash index over a caller's array (hashtab.h): chains of entry
** numbers, the string- and byte-keyed lookups. */
#include "base/hashtab.h"

#include <stdlib.h>
#include <string.h>

void hashtab_reserve(hashtab *t, size_t count)
{
    if (count >= UINT32_MAX || count > SIZE_MAX / 16) out_of_memory(); /* more than a bucket can name */
    size_t n = t->nodes ? t->mask + 1 : 16;
    while (n < count * 2) n *= 2;
    if (t->nodes && n == t->mask + 1) return;
    /* n is a power of two: the nodes (n / 2) and the buckets (n) in one block */
    hashtab_node *nodes = xmalloc(array_size(n / 2, sizeof *nodes + 2 * sizeof *t->buckets));
    if (t->count) memcpy(nodes, t->nodes, array_size(t->count, sizeof *nodes));
    free(t->nodes);
    t->nodes = nodes;
    t->buckets = memset(nodes + n / 2, 0, array_size(n, sizeof *t->buckets));
    t->mask = n - 1;
    for (size_t i = 0; i < t->count; i++) {
        if (t->nodes[i].next == HASHTAB_UNLINKED) continue;
        uint32_t *b = &t->buckets[t->nodes[i].hash & t->mask];
        t->nodes[i].next = *b;
        *b = (uint32_t)i + 1;
    }
}

void hashtab_clear(hashtab *t)
{
    if (t->buckets) memset(t->buckets, 0, array_size(t->mask + 1, sizeof *t->buckets));
    t->count = 0;
}

void hashtab_free(hashtab *t)
{
    free(t->nodes);
    t->nodes = NULL;
    t->buckets = NULL;
    t->mask = t->count = 0;
}
