/* Growable arrays.  A VEC(T) is a pointer, a count and a size_t capacity in
** one struct; the capacity doubles, so a push is amortized O(1); sizes are
** overflow-checked.  Converting a loose triple `T *xs; size_t n, cap;` is
** mechanical: it becomes `VEC(T) xs;`, its elements xs.items[i], its count
** xs.count, and vec_push(xs, n, cap) becomes VEC_PUSH(xs).  The arguments are
** evaluated more than once: no side effects in them. */
#ifndef ATRC_VEC_H
#define ATRC_VEC_H
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* An anonymous struct: a VEC shared between declarations (a function
** parameter, two fields assigned to each other) needs a typedef of its own,
** or a tag (VEC_STRUCT) where other headers declare it forward. */
#define VEC(T) struct { VEC_FIELDS(T); }
#define VEC_STRUCT(tag, T) struct tag { VEC_FIELDS(T); }
/* A VEC's fields, for a struct that is a growable array with fields of its
** own after them (diag_list): the VEC_* macros take it as they take a VEC.
** The one place a struct declares items, count and cap. */
#define VEC_FIELDS(T) T *items; size_t count, cap

/* Appends one element and returns its address: *VEC_PUSH(v) = x; */
#define VEC_PUSH(v) vec_push((v).items, (v).count, (v).cap)
/* Room for at least `need` elements without growing. */
#define VEC_RESERVE(v, need) vec_reserve((v).items, (v).cap, need)
/* Appends src's elements (a VEC of the same element type) to dst. */
#define VEC_APPEND_ALL(dst, src)                                                                   \
    ((src).count ? (VEC_RESERVE(dst, (dst).count + (src).count),                                 \
                    memcpy((dst).items + (dst).count, (src).items, (src).count * sizeof *(src).items), \
                    (void)((dst).count += (src).count))                                          \
                 : (void)0)
/* dst (empty) becomes a copy of src's elements with a capacity of exactly
** their count (a copy that is kept, not grown). */
#define VEC_COPY(dst, src) \
    ((dst).items = vec_copy((src).items, (src).count, sizeof *(src).items), (void)((dst).count = (dst).cap = (src).count))
/* Frees the elements and leaves v empty, ready to be pushed to again. */
#define VEC_FREE(v) (free((v).items), (v).items = NULL, (v).count = (v).cap = 0)

/* The same over a triple kept in separate lvalues (the owner's names). */
/* Room for at least `need` elements in items (capacity cap). */
#define vec_reserve(items, cap, need) \
    ((size_t)(need) > (cap) ? (void)((items) = vec_grow((items), &(cap), (need), sizeof *(items))) : (void)0)
/* Appends one element and returns its address: *vec_push(a, n, cap) = x; */
#define vec_push(items, count, cap) (vec_reserve(items, cap, (count) + 1), &(items)[(count)++])

/* vec_reserve's slow path: reallocates items to at least need elements of
** size bytes (at least twice *cap), updating *cap; aborts when out of memory. */
void *vec_grow(void *items, size_t *cap, size_t need, size_t size);
/* VEC_COPY's: a malloc'ed copy of count elements of size bytes (NULL for none). */
void *vec_copy(const void *items, size_t count, size_t size);

#endif
