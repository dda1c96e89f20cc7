/* The compile stage: walks a script's AST in source order, tracks the file's
** selected tree, registers trees and collects `%name` / `#animtree`
** references (stock-behavior.md section 5). */
#include "profile.h"
#include "context.h"
#include "ast.h"
#include "text.h"

#include <stdlib.h>
#include <string.h>

anim_ref *compile_new_ref(atrc_ctx *ctx, ref_kind kind, source_file *src, int line, int col)
{
    anim_ref *r = arena_zalloc(&ctx->mem, sizeof *r);
    r->kind = kind;
    r->src = src;
    r->line = line;
    r->col = col;
    r->value = -1;
    if (ctx->refs_tail) ctx->refs_tail->next = r;
    else ctx->refs = r;
    ctx->refs_tail = r;
    ctx->ref_count++;
    return r;
}

/* The file's tree selection: none yet, a tree, or a directive that failed
** (already reported: later references stay null without another error). */
typedef struct selection {
    tree_entry *tree;
    int failed;
} selection;

static void error_at(atrc_ctx *ctx, source_file *src, const ast_node *n, const char *msg)
{
    diag_add(&ctx->diags, DIAG_ERROR, src, n->line, n->col, "%s", msg);
}

static void using_animtree(atrc_ctx *ctx, source_file *src, const ast_node *n, int in_dev,
                           selection *sel)
{
    if (in_dev) {
        error_at(ctx, src, n, "cannot put #using_animtree inside /# ... #/ comment");
        return;
    }
    const char *name = n->text ? n->text : "";
    if (!text_is_identifier(name, n->len)) {
        error_at(ctx, src, n, "bad anim tree name");
        sel->tree = NULL;
        sel->failed = 1;
        return;
    }
    tree_entry *t = registry_use_tree(ctx, arena_lower(&ctx->mem, name, n->len), src, n->line, n->col);
    if (!t) {
        sel->tree = NULL;
        sel->failed = 1;
        return;
    }
    sel->tree = t;
    sel->failed = 0;
}

static void anim_literal(atrc_ctx *ctx, source_file *src, const ast_node *n, int in_dev,
                         const selection *sel)
{
    anim_ref *r = compile_new_ref(ctx, REF_ANIM, src, n->line, n->col);
    r->name = arena_lower(&ctx->mem, n->text ? n->text : "", n->len);
    r->tree = sel->tree;
    const profile_rules *rules = profile_get(ctx->opts.profile);
    if (in_dev && rules->devblock_anim_error) {
        error_at(ctx, src, n, "cannot reference animation from /# ... #/ comment");
        return;
    }
    if (in_dev && rules->devblock_anim_dropped && !ctx->opts.developer_script) {
        /* The game emits nothing for it: not in the reference set (load-order.md 4.6). */
        r->developer = 1;
        return;
    }
    if (!sel->tree) {
        if (!sel->failed) error_at(ctx, src, n, "#using_animtree was not specified");
        return;
    }
    registry_add_reference(ctx, sel->tree, r);
}

static void animtree_literal(atrc_ctx *ctx, source_file *src, const ast_node *n,
                             const selection *sel)
{
    anim_ref *r = compile_new_ref(ctx, REF_ANIMTREE, src, n->line, n->col);
    r->tree = sel->tree;
    if (!sel->tree) {
        if (!sel->failed) error_at(ctx, src, n, "#using_animtree was not specified");
        return;
    }
    r->value = sel->tree->index;
}

typedef struct walk_item {
    const ast_node *node;
    int in_dev;
} walk_item;

struct compile_state {
    atrc_ctx *ctx;
    source_file *src;
    selection sel;        /* persists from one top-level item to the next */
    walk_item *stack;
    size_t cap;
};

compile_state *compile_begin(atrc_ctx *ctx, source_file *src)
{
    compile_state *cs = xcalloc(1, sizeof *cs);
    cs->ctx = ctx;
    cs->src = src;
    cs->cap = 256;
    cs->stack = xmalloc(cs->cap * sizeof *cs->stack);
    return cs;
}

void compile_item(compile_state *cs, const ast_node *item)
{
    atrc_ctx *ctx = cs->ctx;
    source_file *src = cs->src;
    /* Iterative pre-order walk: a long `a+a+a+...` chain makes the AST as
    ** deep as the file is long, which recursion could not survive. */
    size_t top = 0;
    if (item) cs->stack[top++] = (walk_item){item, 0};
    while (top) {
        walk_item it = cs->stack[--top];
        const ast_node *n = it.node;
        switch (n->kind) {
        case AST_USING_ANIMTREE: using_animtree(ctx, src, n, it.in_dev, &cs->sel); break;
        case AST_ANIM: anim_literal(ctx, src, n, it.in_dev, &cs->sel); break;
        case AST_ANIMTREE: animtree_literal(ctx, src, n, &cs->sel); break;
        default: break;
        }
        int child_dev = it.in_dev || n->kind == AST_DEVBLOCK;
        size_t count = 0;
        for (const ast_node *c = n->child; c; c = c->next) count++;
        while (top + count > cs->cap) cs->stack = xrealloc(cs->stack, (cs->cap *= 2) * sizeof *cs->stack);
        /* Push children so that the first child is popped first. */
        size_t i = top + count;
        for (const ast_node *c = n->child; c; c = c->next) cs->stack[--i] = (walk_item){c, child_dev};
        top += count;
    }
}

void compile_end(compile_state *cs)
{
    if (!cs) return;
    free(cs->stack);
    free(cs);
}
