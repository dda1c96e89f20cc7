/* Sync setup (stock-behavior.md 6.1): find the sync roots from node 0, mark
** them, propagate the group's kind into every container below, and check
** each leaf's looping bit against the group.  The engine stops at the first
** error; this walk reports every one, each node at most once, and does not
** enter a subtree it has rejected.  Iterative: an explicit stack of nodes. */
#include "game/profile.h"
#include "tree/atr.h"
#include "base/vec.h"

#include <stdlib.h>
#include <string.h>

#define SYNC_KIND 3u

typedef struct sync_item {
    int node;
    int in_group;  /* 0: searching for sync roots; 1: filling a group */
    int require_looping;
} sync_item;

typedef struct sync_walk {
    atrc_tree *t;
    source_file *src;
    diag_list *diags;
    const profile_rules *rules;
    VEC(sync_item) stack;
} sync_walk;

static void push(sync_walk *w, int node, int in_group, int require_looping)
{
    sync_item *it = VEC_PUSH(w->stack);
    it->node = node;
    it->in_group = in_group;
    it->require_looping = require_looping;
}

/* Children are pushed last-first so that they are visited in index order. */
static void push_children(sync_walk *w, const atrc_node *n, int in_group, int require_looping)
{
    for (int i = n->child_count - 1; i >= 0; i--) push(w, n->first_child + i, in_group, require_looping);
}

/* cod2/cod4: a default (missing-file) leaf in a mismatched group silently
** becomes `void_loop`: the game's file, precached on demand (6.1), which
** asset resolution loaded into the tree's void_loop (else the built-in one). */
static void swap_to_void_loop(sync_walk *w, atrc_node *leaf)
{
    const atrc_node *v = &w->t->state->void_loop;
    leaf->looping = v->has_asset ? v->looping : 1;
    leaf->frames = v->has_asset ? v->frames : 1;
    leaf->frame_rate = v->has_asset ? v->frame_rate : 30;
}

static void fill(sync_walk *w, int index, int require_looping)
{
    atrc_tree *t = w->t;
    atrc_node *n = &t->nodes[index];
    unsigned *flags = &t->state->flags[index];
    if (n->child_count > 0) {
        if (*flags & SYNC_KIND) {
            int steps = 0, leaf = index;
            while (t->nodes[leaf].child_count > 0) {
                leaf = t->nodes[leaf].first_child;
                steps++;
            }
            int uo = w->rules->sync_error_names_leaf;
            int line, col;
            atr_node_position(w->t, index, &line, &col);
            diag_add(w->diags, DIAG_ERROR, w->src, line, col,
                     "duplicate specification of animation sync in '%s', %d nodes above '%s'", t->name,
                     steps, atr_node_spelling(t, uo ? leaf : index));
            return;
        }
        *flags |= require_looping ? ATRC_FLAG_LOOPSYNC : ATRC_FLAG_NONLOOPSYNC;
        push_children(w, n, 1, require_looping);
        return;
    }
    if (n->looping < 0 || (n->looping != 0) == (require_looping != 0)) return;
    if (w->rules->default_asset_swap && t->state->default_asset[index]) {
        swap_to_void_loop(w, n);
        return;
    }
    int line, col;
    atr_node_position(w->t, index, &line, &col);
    diag_add(w->diags, DIAG_ERROR, w->src, line, col, "animation '%s' in '%s' cannot be sync %s",
             atr_node_spelling(t, index), t->name, require_looping ? "looping and nonlooping" : "nonlooping and looping");
}

void atr_sync_setup(atrc_tree *t, source_file *src, const profile_rules *rules, diag_list *diags)
{
    if (!t || t->node_count == 0) return;
    sync_walk w;
    memset(&w, 0, sizeof w);
    w.t = t;
    w.src = src;
    w.diags = diags;
    w.rules = rules;
    push(&w, 0, 0, 0);
    while (w.stack.count) {
        sync_item it = w.stack.items[--w.stack.count];
        atrc_node *n = &t->nodes[it.node];
        if (it.in_group) {
            fill(&w, it.node, it.require_looping);
            continue;
        }
        if (n->child_count == 0) continue;
        unsigned kind = t->state->flags[it.node] & SYNC_KIND;
        if (kind == 0) {
            push_children(&w, n, 0, 0);
        } else if (kind == SYNC_KIND) {
            int line, col;
            atr_node_position(t, it.node, &line, &col);
            diag_add(diags, DIAG_ERROR, src, line, col, "animation cannot be sync looping and sync nonlooping");
        } else {
            t->state->flags[it.node] |= ATR_FLAG_SYNC_ROOT;
            push_children(&w, n, 1, kind == ATRC_FLAG_LOOPSYNC);
        }
    }
    VEC_FREE(w.stack);
}
