/* `atrc diff`: the changes grouped by what caused them.  A cause is the one
** reference, tree or option change that the engine's numbering turns into
** many changes (a `%name` no longer referenced prunes its node, and every
** node laid out after it moves, and every reference to those).  diff_compare.c names
** each change's cause by a key; this table counts what each one moved, numbers
** the causes by reach and writes the summary that leads the output. */
#ifndef ATRC_DIFF_CAUSE_H
#define ATRC_DIFF_CAUSE_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "base/arena.h"
#include "base/hashtab.h"
#include "base/vec.h"

typedef struct diff_cause {
    const char *key;             /* diff_compare.c's identity of the cause (binary) */
    size_t key_len;
    const char *kind;            /* "reference", "tree", "tree-content", "script", "profile", "diagnostics" */
    const char *tree, *name;     /* what it concerns, or NULL; lengths below (may hold NUL bytes) */
    size_t tree_len, name_len;
    const char *text;            /* one line for people (control bytes already escaped) */
    long moved_nodes;            /* node-index changes */
    long nodes;                  /* nodes added or removed */
    long refs;                   /* reference changes */
    long trees;                  /* tree-index changes */
    long changes;                /* every change it caused */
    uint32_t first;              /* order of first use */
    int id;                      /* 1.. by reach, after causes_number */
} diff_cause;

typedef struct diff_causes {
    VEC(diff_cause) list;
    hashtab index;               /* list by key */
    arena *mem;                  /* keys and texts */
    uint32_t *by_id;             /* after causes_number: list index of id 1.. */
    size_t listed;               /* causes with changes: ids 1..listed */
} diff_causes;

#define CAUSE_NONE UINT32_MAX

/* The cause with this key; a new one (*is_new = 1) has no text yet: the
** caller fills kind, tree, name and text (arena strings). */
uint32_t causes_intern(diff_causes *c, const char *key, size_t key_len, int *is_new);
/* One change of kind (atrc diff's change kinds) caused by cause i. */
void causes_count(diff_causes *c, uint32_t i, const char *change_kind);
/* Numbers the causes that caused a change from 1: most changes first, then
** first use (others get id 0). */
void causes_number(diff_causes *c);
/* The summary: a count line, then one line per cause in id order. */
void causes_write_text(const diff_causes *c, FILE *out);
/* `"causes": [...]` members, each string written with str. */
void causes_write_json(const diff_causes *c, FILE *out, void (*str)(FILE *, const char *, size_t));
void causes_free(diff_causes *c);

#endif
