/* The compact tree build (stock-behavior.md section 4): node count, the
** engine's index assignment (4.3, and the cod4 two-pass order of 4.4),
** reference binding and the checksum (4.6).  The walk keeps its own stack of
** containers so that any depth the parser accepted builds without recursion. */
#include "game/profile.h"
#include "tree/atr.h"
#include "base/vec.h"

#include <stdlib.h>
#include <string.h>

/* A container being laid out: its children occupy first .. first+n-1. */
typedef struct build_frame {
    atr_node *node;
    int index;
    int first;
    int ordinal;          /* children handed out so far */
    atr_node *iter;       /* next child to look at in list order */
    int pass;             /* cod4: 0 = non-additive children, 1 = additive containers */
    int in_additive;      /* cod4: this container or an ancestor below node 0 is additive */
} build_frame;

typedef struct builder {
    atrc_tree *out;
    const char *tree_name;
    source_file *src;
    const atr_binder *binder;
    diag_list *diags;
    int cod4;
    int next_free;
    uint32_t checksum;
    VEC(build_frame) stack;
} builder;

/* The engine's checksum of the built tree (4.6), folded as the engine folds
** it: a value the output reports, not a hash any table is keyed by. */
static void fold(builder *b, uint32_t x)
{
    b->checksum = b->checksum * 31u + x;
}

static int is_container(const atr_node *n)
{
    return n->is_container && n->child_count > 0;
}

static int is_additive(const atr_node *n)
{
    return is_container(n) && (n->flags & ATRC_FLAG_ADDITIVE) != 0;
}

/* 4.3 step 1-3: fold P, F, n, flags, write the parent entry, reserve the block. */
static void start_container(builder *b, atr_node *n, int index, int in_additive)
{
    atrc_node *e = &b->out->nodes[index];
    int first = b->next_free;
    fold(b, (uint32_t)index);
    fold(b, (uint32_t)first);
    fold(b, (uint32_t)n->child_count);
    fold(b, n->flags);
    e->child_count = n->child_count;
    e->first_child = first;
    e->parse_flags = b->out->state->flags[index] = n->flags;
    b->next_free = first + n->child_count;
    build_frame *f = VEC_PUSH(b->stack);
    memset(f, 0, sizeof *f);
    f->node = n;
    f->index = index;
    f->first = first;
    f->iter = n->first;
    f->in_additive = in_additive;
}

/* The next child in index order: list order, and in cod4 the additive
** containers after all the others. */
static atr_node *next_child(builder *b, build_frame *f)
{
    for (;;) {
        while (f->iter) {
            atr_node *c = f->iter;
            f->iter = c->next;
            if (!b->cod4 || is_additive(c) == (f->pass == 1)) return c;
        }
        if (!b->cod4 || f->pass == 1) return NULL;
        f->pass = 1;
        f->iter = f->node->first;
    }
}

static void bind_node(builder *b, int index)
{
    if (!b->binder || !b->binder->bind || index == 0) return;
    atrc_node *e = &b->out->nodes[index];
    if (b->binder->bind(b->binder->ud, e->name, index) != 1) return;
    int line, col;
    atr_node_position(b->out, index, &line, &col);
    diag_add(b->diags, DIAG_ERROR, b->src, line, col, "duplicate animation '%s' in 'animtrees/%s.atr'",
             atr_node_spelling(b->out, index), b->tree_name);
}

const char *atr_node_spelling(const atrc_tree *t, int index)
{
    const char *s = t->nodes[index].spelling;
    return s ? s : t->nodes[index].name;
}

unsigned atr_runtime_flags(const atrc_tree *t, int node)
{
    if (!t || !t->state || node < 0 || node >= t->node_count) return 0;
    return t->state->flags[node];
}

void atr_node_position(const atrc_tree *t, int index, int *line, int *col)
{
    const atrc_node *n = &t->nodes[index];
    const atrc_node *p = n->parent >= 0 ? &t->nodes[n->parent] : NULL;
    if (n->line) {
        *line = n->line;
        *col = n->column;
    } else if (p && p->line) {
        *line = p->line;
        *col = p->column;
    } else {
        *line = 1;
        *col = 1;
    }
}

static int count_nodes(const atr_node *root)
{
    /* Every kept container has at least one child (placeholders see to it), so
    ** the engine's size formula (4.1) equals the number of nodes. */
    VEC(const atr_node *) stack = {0};
    long count = 0;
    *VEC_PUSH(stack) = root;
    while (stack.count) {
        const atr_node *n = stack.items[--stack.count];
        count++;
        for (const atr_node *c = n->first; c; c = c->next) *VEC_PUSH(stack) = c;
    }
    VEC_FREE(stack);
    return (int)count;
}

int atr_build(atr_file *f, const char *tree_name, source_file *src, const atr_binder *bnd,
              const profile_rules *rules, arena *a, diag_list *diags, atrc_tree *out)
{
    memset(out, 0, sizeof *out);
    out->name = arena_strdup(a, tree_name);
    int count = count_nodes(f->root);
    if (count > ATRC_MAX_NODES) {
        diag_add(diags, DIAG_ERROR, src, 1, 1, "anim tree '%s' has too many nodes (%d, max %d)",
                 tree_name, count, ATRC_MAX_NODES);
        return -1;
    }
    out->node_count = count;
    out->nodes = arena_zalloc(a, array_size((size_t)count, sizeof *out->nodes));
    out->state = arena_zalloc(a, sizeof *out->state);
    out->state->flags = arena_zalloc(a, array_size((size_t)count, sizeof *out->state->flags));
    out->state->default_asset = arena_zalloc(a, (size_t)count);

    builder b;
    memset(&b, 0, sizeof b);
    b.out = out;
    b.tree_name = tree_name;
    b.src = src;
    b.binder = bnd;
    b.diags = diags;
    b.cod4 = rules->numbering_two_pass;
    b.next_free = 1;

    atrc_node *root = &out->nodes[0];
    root->name = "root";
    root->spelling = "root";
    root->parent = -1;
    root->looping = -1;
    start_container(&b, f->root, 0, 0);
    while (b.stack.count) {
        build_frame *fr = &b.stack.items[b.stack.count - 1];
        atr_node *c = next_child(&b, fr);
        if (!c) {
            int done = fr->index;
            b.stack.count--;
            if (b.cod4) bind_node(&b, done); /* cod4 binds after the subtree */
            continue;
        }
        int index = fr->first + fr->ordinal++;
        c->index = index;
        atrc_node *e = &out->nodes[index];
        e->name = c->name;
        e->spelling = c->spelling;
        e->parent = fr->index;
        e->line = c->line;
        e->column = c->col;
        e->looping = -1;
        e->placeholder = c->placeholder;
        if (is_container(c)) {
            if (!b.cod4) bind_node(&b, index);
            int additive = b.cod4 && is_additive(c);
            if (additive && fr->in_additive) /* XAnimBlend's check of the ancestors (6.1) */
                diag_add(diags, DIAG_ERROR, src, c->line, c->col, "Do not nest additives");
            start_container(&b, c, index, fr->in_additive || additive); /* moves the stack: fr is dead */
        } else {
            fold(&b, (uint32_t)index);
            bind_node(&b, index);
        }
    }
    VEC_FREE(b.stack);
    out->checksum = b.checksum;
    return 0;
}

static int by_declaration(const void *x, const void *y)
{
    unsigned a = (*(atr_node *const *)x)->order, b = (*(atr_node *const *)y)->order;
    return a < b ? -1 : a > b;
}

size_t atr_pruned_list(atr_file *f, arena *a, atr_pruned **out)
{
    size_t n = f->pruned_count;
    *out = NULL;
    if (!n) return 0;
    qsort(f->pruned, n, sizeof *f->pruned, by_declaration);
    atr_pruned *list = arena_zalloc(a, array_size(n, sizeof *list));
    for (size_t i = 0; i < n; i++) f->pruned[i]->index = (int)i;
    for (size_t i = 0; i < n; i++) {
        const atr_node *x = f->pruned[i];
        atr_pruned *e = &list[i];
        e->name = x->name;
        e->spelling = x->spelling;
        e->line = x->line;
        e->col = x->col;
        e->is_group = x->is_container;
        e->parent = x->parent && !x->parent->pruned ? x->parent->index : -1;
        e->pruned_parent = x->parent && x->parent->pruned ? x->parent->index : -1;
    }
    *out = list;
    return n;
}
