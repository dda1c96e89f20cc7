/* Diagnostic codes (diag_code.c): the stable name of each message, found
** from its text through an index by first word. */
#ifndef ATRC_DIAG_CODE_H
#define ATRC_DIAG_CODE_H
#include <stddef.h>
#include "base/hashtab.h"

typedef struct diag_code_index {
    hashtab words;             /* first words of the patterns: entry b is bucket b */
    int *head, *tail;          /* per bucket: first and last rule */
    int *next;                 /* per rule: the next rule of its bucket, -1 */
    int *wild;                 /* rules whose first word holds a '*', in table order */
    size_t wild_count;
} diag_code_index;

void diag_code_index_init(diag_code_index *x);
void diag_code_index_free(diag_code_index *x);
/* The code of message, or NULL when no row matches. */
const char *diag_code_find(const diag_code_index *x, const char *message);

#endif
