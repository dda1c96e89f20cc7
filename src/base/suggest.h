/* Nearest-name suggestions for diagnostics ("did you mean 'windmill'?"):
** the one helper every message that names an unknown thing uses.  Names are
** compared with ASCII case folded (the games fold names), by the optimal
** string alignment (restricted Damerau-Levenshtein) distance, bounded: a
** candidate whose length differs by more than the bound is never compared,
** and a comparison stops as soon as every cell of a row exceeds it, so one
** comparison costs O(length x bound).  Only a close candidate is offered:
** the bound grows with the name (suggest_max_distance), and a name of fewer
** than three bytes gets none; better nothing than a bad guess.
**
** Callers compute suggestions only for diagnostics they print, at most
** SUGGEST_MAX_QUERIES distinct names per scope (a file's checks, a file's
** link, a tree, a run's missing scripts), so a run with many unknown names
** stays linear in its candidates. */
#ifndef ATRC_SUGGEST_H
#define ATRC_SUGGEST_H
#include <stddef.h>
#include <stdint.h>

/* The most names one query keeps (the nearest first). */
#define SUGGEST_MAX_KEPT 3
/* Distinct names per scope that get a suggestion; later ones get none. */
#define SUGGEST_MAX_QUERIES 32

typedef struct suggestion {
    const char *name;
    size_t len;
    int dist;
    const void *data; /* the caller's, passed to suggest_add */
} suggestion;

typedef struct suggest {
    const char *target;
    size_t target_len;
    uint64_t target_bytes; /* which byte values (folded, mod 64) the target holds */
    int bound;       /* largest distance still offered */
    size_t want;     /* names kept, 1..SUGGEST_MAX_KEPT */
    size_t count;    /* names kept so far, nearest first */
    suggestion best[SUGGEST_MAX_KEPT];
} suggest;

/* The largest distance offered for a name of len bytes: 0 (none) below 3
** bytes, 1 up to 7, 2 up to 11, then 3. */
int suggest_max_distance(size_t len);
/* Starts a query for target[0, len): keep the `want` nearest names. */
void suggest_init(suggest *s, const char *target, size_t len, size_t want);
/* Considers one candidate (not copied: it must outlive the query).  Ties are
** broken by the folded name, so the answer does not depend on the order
** candidates come in; a name equal (folded) to one kept is skipped. */
void suggest_add(suggest *s, const char *name, size_t len, const void *data);
/* suggest_add(query, name, len, NULL) as a callback (listings of names:
** gamefs_list_dir). */
void suggest_add_listed(void *query, const char *name, size_t len);
/* The distance of a and b with case folded, or bound + 1 when it exceeds bound. */
int suggest_distance(const char *a, size_t la, const char *b, size_t lb, int bound);

#endif
