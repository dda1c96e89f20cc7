/* The reasoning of `atrc diff` that other outputs share: why a node of one
** tree is not at the index it has in another (--explain compares a tree
** with the same tree laid out with nothing pruned). */
#ifndef ATRC_DIFF_H
#define ATRC_DIFF_H
#include "atrc.h"

/* Why node `node` of `now` is not where it is in `base` (nodes matched by
** their path of names): "sibling 'run' (node 6) was pruned; ...", counting
** every node of base that now lacks as pruned; malloc'd, or NULL when it
** has the same index.  *base_index: its index in base, -1 when base lacks it
** (then the text says what it is, e.g. a placeholder). */
char *diff_node_reason(const atrc_tree *base, const atrc_tree *now, atrc_profile profile, int node,
                       int *base_index);

#endif
