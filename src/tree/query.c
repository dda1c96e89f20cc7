/* Tree queries of the runtime (stock-behavior.md 6.2) over a built tree.
** An out-of-range node or a NULL tree answers 0 (predicates), -1 (counts,
** lengths) or NULL (names). */
#include "game/profile.h"
#include "tree/atr.h"

static const atrc_node *node_at(const atrc_tree *t, int node)
{
    if (!t || !t->nodes || node < 0 || node >= t->node_count) return NULL;
    return &t->nodes[node];
}

int atrc_is_primitive(const atrc_tree *t, int node)
{
    const atrc_node *n = node_at(t, node);
    return n && n->child_count == 0;
}

/* A leaf, or a container with a sync kind (sync roots and, after sync setup,
** every container inside a sync group). */
int atrc_has_time(const atrc_tree *t, int node)
{
    const atrc_node *n = node_at(t, node);
    if (!n) return 0;
    return n->child_count == 0 || (atr_runtime_flags(t, node) & (ATRC_FLAG_LOOPSYNC | ATRC_FLAG_NONLOOPSYNC)) != 0;
}

/* Container: its loopsync bit.  Leaf: the asset's looping bit, or -1 when the
** asset is unknown (--no-xanim, or a missing asset under uo/cod1). */
int atrc_is_looped(const atrc_tree *t, int node)
{
    const atrc_node *n = node_at(t, node);
    if (!n) return 0;
    if (n->child_count > 0) return (atr_runtime_flags(t, node) & ATRC_FLAG_LOOPSYNC) != 0;
    return n->looping;
}

const char *atrc_anim_name(const atrc_tree *t, int node, atrc_profile profile)
{
    const atrc_node *n = node_at(t, node);
    if (!n) return NULL;
    if (n->child_count == 0) return n->name;
    return profile_get(profile)->nonleaf_anim_name;
}

/* 7.2: N / frame rate with T = frames (+1 if looping) and N = T - 1. */
int atrc_anim_length(const atrc_tree *t, int node, double *seconds)
{
    const atrc_node *n = node_at(t, node);
    if (!n || n->child_count != 0 || !n->has_asset || n->frame_rate == 0) return -1;
    long total = (long)n->frames + (n->looping == 1 ? 1 : 0);
    long frames = total - 1;
    if (frames < 0) return -1; /* a non-looping asset stored with 0 frames */
    if (seconds) *seconds = (double)frames / (double)n->frame_rate;
    return 0;
}

int atrc_child_count(const atrc_tree *t, int node)
{
    const atrc_node *n = node_at(t, node);
    return n ? n->child_count : -1;
}
