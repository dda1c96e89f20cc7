/* Growable arrays: the owner keeps a pointer, a count and a size_t capacity
** (any lvalues, evaluated more than once: no side effects in them).  The
** capacity doubles, so a push is amortized O(1); sizes are overflow-checked. */
#ifndef ATRC_VEC_H
#define ATRC_VEC_H
#include <stddef.h>

/* Room for at least `need` elements in items (capacity cap). */
#define vec_reserve(items, cap, need) \
    ((size_t)(need) > (cap) ? (void)((items) = vec_grow((items), &(cap), (need), sizeof *(items))) : (void)0)
/* Appends one element and returns its address: *vec_push(a, n, cap) = x; */
#define vec_push(items, count, cap) (vec_reserve(items, cap, (count) + 1), &(items)[(count)++])

/* vec_reserve's slow path: reallocates items to at least need elements of
** size bytes (at least twice *cap), updating *cap; aborts when out of memory. */
void *vec_grow(void *items, size_t *cap, size_t need, size_t size);

#endif
