#include "hashtab.h"
#include "vec.h"

#include <stdlib.h>
#include <string.h>

void hashtab_reserve(hashtab *t, size_t count)
{
    if (count >= UINT32_MAX) out_of_memory(); /* more entries than a bucket can name */
    vec_reserve(t->nodes, t->cap, count);
    size_t n = t->buckets ? t->mask + 1 : 16;
    while (n < count * 2) n *= 2;
    if (t->buckets && n == t->mask + 1) return;
    free(t->buckets);
    t->buckets = xcalloc(n, sizeof *t->buckets);
    t->mask = n - 1;
    for (size_t i = 0; i < t->count; i++) {
        uint32_t *b = &t->buckets[t->nodes[i].hash & t->mask];
        t->nodes[i].next = *b;
        *b = (uint32_t)i + 1;
    }
}

void hashtab_clear(hashtab *t)
{
    if (t->buckets) memset(t->buckets, 0, (t->mask + 1) * sizeof *t->buckets);
    t->count = 0;
}

void hashtab_free(hashtab *t)
{
    free(t->buckets);
    free(t->nodes);
    t->buckets = NULL;
    t->nodes = NULL;
    t->mask = t->count = t->cap = 0;
}
