/* Growable arrays (vec.h): the doubling, overflow-checked reserve behind
** VEC_PUSH and vec_push, and VEC_COPY's exact copy. */
#include "base/vec.h"
#include "base/arena.h"

#include <stdint.h>

void *vec_grow(void *items, size_t *cap, size_t need, size_t size)
{
    size_t n = *cap > 8 ? *cap : 8;
    while (n < need) n = n > SIZE_MAX / 2 ? need : n * 2;
    items = xrealloc(items, array_size(n, size));
    *cap = n;
    return items;
}

void *vec_copy(const void *items, size_t count, size_t size)
{
    if (!count) return NULL;
    void *copy = xmalloc(array_size(count, size));
    memcpy(copy, items, count * size); /* the product was checked just above */
    return copy;
}
