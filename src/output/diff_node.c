/* diff.h's reasoning for one tree against another (hover and --explain's
** "why" of a node's index against the tree with nothing pruned): the two
** trees loaded as two runs of one tree each and compared as `atrc diff`
** compares a tree of two runs (diff_compare.c), counting only. */
#include "output/diff_internal.h"
#include "output/diff.h"

char *diff_node_reason(const atrc_tree *base, const atrc_tree *now, atrc_profile profile, int node,
                       int *base_index)
{
    differ d;
    memset(&d, 0, sizeof d);
    arena_init(&d.mem);
    d.causes.mem = &d.mem;
    d.counting = 1; /* the reasons only: nothing is written */
    diff_tree_as_run(&d, 0, base, atrc_profile_name(profile));
    diff_tree_as_run(&d, 1, now, atrc_profile_name(profile));
    tree_pair p;
    memset(&p, 0, sizeof p);
    p.t[0] = &d.run[0].trees[0];
    p.t[1] = &d.run[1].trees[0];
    p.content = p.tree_move = CAUSE_NONE;
    pair_prepare(&d, &p);
    for (int i = 0; i < p.gone_count; i++) add_to_set(&d, &d.run[1].pruned, p.t[0]->name, p.t[0]->nodes[p.gone[i]].name, 0);
    pair_causes(&d, &p);
    compare_nodes(&d, &p);
    char *reason = NULL;
    *base_index = -1;
    if (node >= 0 && node < now->node_count) {
        *base_index = p.pos[0][p.t[1]->nodes[node].id];
        if (p.reason[node]) {
            reason = xstrdup(p.reason[node]);
        } else if (*base_index < 0) {
            diff_begin_change(&d);
            node_clause(&d, &d.reason, &p, 1, node, 0, 1);
            reason = xstrdup(d.reason.s);
        }
    }
    free_pair(&p);
    diff_free(&d);
    return reason;
}
