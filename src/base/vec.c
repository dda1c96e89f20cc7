/* Growable arrays (vec.h): the doubling, overflow-checked reserve behind
** VEC_PUSH and vec_push. */
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
