#include "hashtab.h"
#include "arena.h"

#include <stdlib.h>

static void put(hashtab_slot *slots, size_t mask, uint32_t hash, uint32_t entry)
{
    size_t i = hash & mask;
    while (slots[i].entry) i = (i + 1) & mask;
    slots[i].hash = hash;
    slots[i].entry = entry;
}

void hashtab_add(hashtab *t, uint32_t hash, size_t index)
{
    if (index >= UINT32_MAX) out_of_memory(); /* more entries than a slot can name */
    if (!t->slots || (t->count + 1) * 2 > t->mask + 1) {
        size_t n = t->slots ? (t->mask + 1) * 2 : 64;
        hashtab_slot *slots = xcalloc(n, sizeof *slots);
        for (size_t i = 0; t->slots && i <= t->mask; i++)
            if (t->slots[i].entry) put(slots, n - 1, t->slots[i].hash, t->slots[i].entry);
        free(t->slots);
        t->slots = slots;
        t->mask = n - 1;
    }
    put(t->slots, t->mask, hash, (uint32_t)index + 1);
    t->count++;
}

void hashtab_free(hashtab *t)
{
    free(t->slots);
    t->slots = NULL;
    t->mask = t->count = 0;
}
