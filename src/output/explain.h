/* Why a node of a built tree has its index (explain.c), as data: the text
** of --explain's "why:" and "pruning:" lines, which emit.c prints and the
** position queries give as hover's reason. */
#ifndef ATRC_EXPLAIN_H
#define ATRC_EXPLAIN_H
#include "atrc.h"
#include "base/outbuf.h"
#include "compile/registry.h"

typedef struct explain_reason {
    outbuf block;              /* "why": its block and the blocks laid out before it (never empty) */
    outbuf pruning;            /* "pruning": what pruning moved before it; len 0 when nothing is said */
    int unpruned;              /* its index with nothing pruned; -1 when it is not in the .atr */
} explain_reason;

/* Fills r for node k (below node_count) of the built tree t of ctx. */
void explain_reason_of(const atrc_ctx *ctx, const tree_entry *t, int k, explain_reason *r);
void explain_reason_free(explain_reason *r);

#endif
