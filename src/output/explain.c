/* Why a node has its index (explain.h): the block it is laid out in and the
** blocks before it, and what pruning moved — the reasons --explain prints
** (emit.c) and hover shows (editor/lookup.c), kept as data. */
#include "output/explain.h"
#include "compile/context.h"
#include "output/diff.h"
#include "tree/atr.h"
#include "game/profile.h"

#include <stdlib.h>
#include <string.h>

static const char *spelled(const char *name, const char *spelling)
{
    return spelling ? spelling : name;
}

/* "block 4..6", "block 4" */
static void block_range(outbuf *b, int first, int count)
{
    if (count == 1) outbuf_printf(b, "block %d", first);
    else outbuf_printf(b, "block %d..%d", first, first + count - 1);
}

/* The block node k of t belongs to: its parent's children, laid out at
** first_child after the blocks with a lower first index (stock-behavior.md
** 4.3; cod4 lays additive groups' blocks out after their siblings'). */
static void explain_block(const tree_entry *t, int k, const profile_rules *rules, outbuf *b)
{
    const atrc_tree *tr = &t->tree;
    if (k == 0) {
        outbuf_str(b, "node 0 is the root, always");
        return;
    }
    const atrc_node *n = &tr->nodes[k], *p = &tr->nodes[n->parent];
    int first = p->first_child, pos = k - first;
    outbuf_printf(b, "node %d = %d + %d: child %d of %d of '%s' (", k, first, pos, pos + 1, p->child_count,
                  spelled(p->name, p->spelling));
    block_range(b, first, p->child_count);
    outbuf_str(b, "), laid out after node 0");
    /* The blocks before it, nearest last: groups by first child (a block per group, ascending). */
    int before = 0, shown = 0, additive = 0;
    int near[3];
    for (int q = 0; q < tr->node_count; q++) {
        const atrc_node *g = &tr->nodes[q];
        if ((g->child_count == 0 && q != 0) || g->first_child >= first) continue;
        before++;
        if (g->parse_flags & ATRC_FLAG_ADDITIVE) additive = 1;
    }
    /* the 3 nearest: highest first indices below `first` */
    for (int want = 0; want < 3 && want < before; want++) {
        int best = -1;
        for (int q = 0; q < tr->node_count; q++) {
            const atrc_node *g = &tr->nodes[q];
            if ((g->child_count == 0 && q != 0) || g->first_child >= first) continue;
            int taken = 0;
            for (int i = 0; i < shown; i++) taken |= near[i] == q;
            if (!taken && (best < 0 || g->first_child > tr->nodes[best].first_child)) best = q;
        }
        near[shown++] = best;
    }
    if (before) outbuf_printf(b, " and %d block%s", before, before == 1 ? "" : "s");
    if (before > shown) outbuf_str(b, ", the last");
    for (int i = shown; i-- > 0;) {
        const atrc_node *g = &tr->nodes[near[i]];
        outbuf_printf(b, "%s '%s' (", i == shown - 1 ? (before > shown ? "" : ":") : ",", spelled(g->name, g->spelling));
        block_range(b, g->first_child, g->child_count);
        outbuf_str(b, ")");
    }
    if (rules->atr_additive && (additive || (p->parse_flags & ATRC_FLAG_ADDITIVE) || n->parent))
        for (int x = k; x > 0; x = tr->nodes[x].parent)
            if (tr->nodes[x].parse_flags & ATRC_FLAG_ADDITIVE) {
                outbuf_printf(b, "; cod4 lays additive '%s' out in a second pass, after its siblings' blocks",
                              spelled(tr->nodes[x].name, tr->nodes[x].spelling));
                break;
            }
}

static int bind_nothing(void *ud, const char *name, int node_index)
{
    (void)ud, (void)name, (void)node_index;
    return 0;
}

/* Why node k has its index against the tree laid out with nothing pruned
** (the diff's reasoning, diff.h): "with nothing pruned it would be node 9:
** ...".  Nothing when the .atr cannot be read again or nothing moved it. */
static void explain_pruning(const atrc_ctx *ctx, const tree_entry *t, int k, outbuf *b, int *unpruned)
{
    *unpruned = k;
    if (!t->atr_src || ctx->opts.anim_check) return;
    arena a;
    arena_init(&a);
    diag_list quiet;
    diag_init(&quiet);
    atr_file *f = atr_parse(t->atr_src, NULL, 1, ctx->rules, &a, &quiet);
    atr_binder none = {NULL, bind_nothing};
    atrc_tree full;
    memset(&full, 0, sizeof full);
    if (f && atr_build(f, t->name, t->atr_src, &none, ctx->rules, &a, &quiet, &full) == 0) {
        char *why = diff_node_reason(&full, &t->tree, ctx->opts.profile, k, unpruned);
        if (*unpruned < 0) {
            outbuf_str(b, why ? why : "it is not in the .atr");
        } else if (why) {
            outbuf_printf(b, "with nothing pruned it would be node %d: ", *unpruned);
            outbuf_str(b, why);
        } else {
            outbuf_str(b, "pruning moved nothing before it");
        }
        free(why);
    }
    diag_free(&quiet);
    arena_free_all(&a);
}

void explain_reason_of(const atrc_ctx *ctx, const tree_entry *t, int k, explain_reason *r)
{
    memset(r, 0, sizeof *r);
    explain_block(t, k, ctx->rules, &r->block);
    explain_pruning(ctx, t, k, &r->pruning, &r->unpruned);
}

void explain_reason_free(explain_reason *r)
{
    outbuf_free(&r->block);
    outbuf_free(&r->pruning);
}
