/* The per-file reference list in emission order (load-order.md 3.7): a pure
** walk of one top-level AST item.  The walk is iterative (the AST can be as
** deep as the file is long) and visits nodes in the order the game's code
** generator emits them: call arguments last to first and then the callee,
** `a = b` right side first, `a[i]` index first, a `for` step after its body. */
#include "script/script_refs.h"
#include "base/text.h"
#include "base/vec.h"

#include <stdlib.h>
#include <string.h>

typedef enum { VISIT = 0, EMIT_CALLEE } step_kind;

typedef struct script_refs_step {
    const ast_node *node;
    step_kind kind;
    int dev;
    int threaded;       /* EMIT_CALLEE: a `thread` call (never a builtin) */
    const ast_node *stmt; /* the call statement it is part of (dev_statement_call), or NULL */
} step;

void script_refs_init(script_refs *r)
{
    memset(r, 0, sizeof *r);
    arena_init(&r->mem);
}

void script_refs_free(script_refs *r)
{
    VEC_FREE(r->refs);
    VEC_FREE(r->funcs);
    VEC_FREE(r->trees);
    VEC_FREE(r->stack);
    arena_free_all(&r->mem);
    memset(r, 0, sizeof *r);
}

char *script_canonical_name(arena *a, const char *name, size_t len)
{
    char *out = arena_alloc(a, len + 1);
    text_canonical_name(out, name, len, 0);
    return out;
}

static script_ref *add_ref(script_refs *r, script_ref_kind kind, const ast_node *n, int dev)
{
    script_ref *x = VEC_PUSH(r->refs);
    memset(x, 0, sizeof *x);
    x->kind = kind;
    x->line = n->line;
    x->col = n->col;
    x->developer = dev;
    return x;
}

/* The statement call a reference is part of (dev_statement.h decides later
** whether the game drops it). */
static void in_statement(script_refs *r, script_ref *x, const ast_node *stmt)
{
    if (!stmt) return;
    const ast_node *name = dev_statement_name(stmt);
    x->stmt_call = arena_lower(&r->mem, name->text, name->len);
    x->stmt_method = stmt->kind == AST_METHOD_CALL;
}

/* A name as written, for messages: its lower-case copy when it is spelled so
** (no second copy). */
static const char *spelling(script_refs *r, const char *lower, const char *text)
{
    return strcmp(lower, text) == 0 ? lower : arena_strdup(&r->mem, text);
}

/* A scoped name "path::func" or "::func" (AST_SCOPED / AST_FUNC_REF text). */
/* Never a builtin: `path::f` and `::f` always name script functions. */
static void scoped_ref(script_refs *r, const ast_node *n, int dev, const ast_node *stmt)
{
    const char *t = n->text ? n->text : "";
    const char *sep = strstr(t, "::");
    if (!sep) return;
    const char *func = sep + 2;
    script_ref *x = add_ref(r, sep == t ? SCRIPT_REF_LOCAL : SCRIPT_REF_FAR, n, dev);
    in_statement(r, x, stmt);
    if (sep != t) x->file = script_canonical_name(&r->mem, t, (size_t)(sep - t));
    x->func = arena_lower(&r->mem, func, strlen(func));
    x->func_spelling = spelling(r, x->func, func);
}

static void callee_ref(script_refs *r, const ast_node *callee, int dev, int threaded, const ast_node *stmt)
{
    if (!callee) return;
    if (callee->kind == AST_SCOPED) {
        scoped_ref(r, callee, dev, stmt);
    } else if (callee->kind == AST_IDENT && callee->text) {
        script_ref *x = add_ref(r, SCRIPT_REF_LOCAL, callee, dev);
        in_statement(r, x, stmt);
        x->func = arena_lower(&r->mem, callee->text, strlen(callee->text));
        x->func_spelling = spelling(r, x->func, callee->text);
        x->maybe_builtin = !threaded;
    }
}

static void add_func(script_refs *r, const ast_node *n, int dev)
{
    if (!n->text) return;
    script_func *f = VEC_PUSH(r->funcs);
    f->name = arena_lower(&r->mem, n->text, strlen(n->text));
    f->spelling = spelling(r, f->name, n->text);
    f->line = n->line;
    f->col = n->col;
    f->developer = dev;
}

static void add_tree(script_refs *r, const ast_node *n)
{
    script_tree *t = VEC_PUSH(r->trees);
    t->name = arena_lower(&r->mem, n->text ? n->text : "", n->len);
    t->line = n->line;
    t->col = n->col;
}

typedef struct walker {
    script_refs *r;
    script_refs_stack stack; /* r->stack, held here while the walk runs */
    const ast_node *stmt; /* the step being expanded's statement call: its children's */
} walker;

static void push(walker *w, const ast_node *n, step_kind kind, int dev, int threaded)
{
    if (!n) return;
    *VEC_PUSH(w->stack) = (step){n, kind, dev, threaded, w->stmt};
}

/* Pushes the children of n so that they pop in source order. */
static void push_children(walker *w, const ast_node *n, int dev)
{
    size_t count = 0;
    for (const ast_node *c = n->child; c; c = c->next) count++;
    VEC_RESERVE(w->stack, w->stack.count + count);
    size_t i = w->stack.count + count;
    for (const ast_node *c = n->child; c; c = c->next) w->stack.items[--i] = (step){c, VISIT, dev, 0, w->stmt};
    w->stack.count += count;
}

/* Pushes the arguments of a call so that they pop last to first. */
static void push_args_reversed(walker *w, const ast_node *args, int dev)
{
    if (!args) return;
    for (const ast_node *c = args->child; c; c = c->next) push(w, c, VISIT, dev, 0);
}

static int is_threaded(const ast_node *call)
{
    return call->text && strcmp(call->text, "thread") == 0;
}

/* Pushes what n's emission visits, last first (the stack pops in order). */
static void expand(walker *w, const ast_node *n, int dev)
{
    const ast_node *a = n->child, *b = a ? a->next : NULL, *c = b ? b->next : NULL;
    switch (n->kind) {
    case AST_CALL: /* callee, args: args last to first, then the callee */
        push(w, a, EMIT_CALLEE, dev, is_threaded(n));
        push_args_reversed(w, b, dev);
        break;
    case AST_METHOD_CALL: /* object, callee, args: args, object, callee */
        push(w, b, EMIT_CALLEE, dev, is_threaded(n));
        push(w, a, VISIT, dev, 0);
        push_args_reversed(w, c, dev);
        break;
    case AST_POINTER_CALL: /* [object,] pointer, args: args, object, pointer */
        if (c) {
            push(w, b, VISIT, dev, 0);
            push(w, a, VISIT, dev, 0);
            push_args_reversed(w, c, dev);
        } else {
            push(w, a, VISIT, dev, 0);
            push_args_reversed(w, b, dev);
        }
        break;
    case AST_ASSIGN: /* `lhs = rhs`: rhs first; `lhs op= rhs`: lhs first */
        if (n->text && strcmp(n->text, "=") == 0) {
            push(w, a, VISIT, dev, 0);
            push(w, b, VISIT, dev, 0);
        } else {
            push(w, b, VISIT, dev, 0);
            push(w, a, VISIT, dev, 0);
        }
        break;
    case AST_INDEX: /* object, index: index first */
        push(w, a, VISIT, dev, 0);
        push(w, b, VISIT, dev, 0);
        break;
    case AST_FOR: /* init, cond, step, body: the step after the body */
        push(w, c, VISIT, dev, 0);
        push(w, c ? c->next : NULL, VISIT, dev, 0);
        push(w, b, VISIT, dev, 0);
        push(w, a, VISIT, dev, 0);
        break;
    default:
        push_children(w, n, dev || n->kind == AST_DEVBLOCK);
        break;
    }
}

void script_refs_collect(script_refs *r, const ast_node *item)
{
    walker w = {r, r->stack, NULL};
    w.stack.count = 0;
    push(&w, item, VISIT, 0, 0);
    while (w.stack.count) {
        step s = w.stack.items[--w.stack.count];
        const ast_node *n = s.node;
        w.stmt = s.stmt;
        if (s.kind == EMIT_CALLEE) {
            callee_ref(r, n, s.dev, s.threaded, s.stmt);
            continue;
        }
        switch (n->kind) {
        case AST_INCLUDE: {
            script_ref *x = add_ref(r, SCRIPT_REF_INCLUDE, n, s.dev);
            x->file = script_canonical_name(&r->mem, n->text ? n->text : "", n->text ? strlen(n->text) : 0);
            continue;
        }
        case AST_USING_ANIMTREE:
            if (!s.dev) add_tree(r, n);
            continue;
        case AST_FUNCTION:
            add_func(r, n, s.dev);
            break;
        case AST_FUNC_REF:
            scoped_ref(r, n, s.dev, s.stmt);
            continue;
        case AST_EXPR_STMT:
            w.stmt = dev_statement_call(n);
            break;
        default:
            break;
        }
        expand(&w, n, s.dev);
    }
    r->stack = w.stack;
}

void script_refs_function_begin(script_refs *r, const ast_node *fn)
{
    r->fn_refs = r->refs.count;
    r->fn_funcs = r->funcs.count;
    r->fn_trees = r->trees.count;
    script_refs_collect(r, fn);
}

void script_refs_function_cut(script_refs *r)
{
    r->refs.count = r->fn_refs;
    r->funcs.count = r->fn_funcs;
    r->trees.count = r->fn_trees;
}

static const char *dup_name(arena *a, const char *s)
{
    return s ? arena_strdup(a, s) : NULL;
}

void script_refs_append_copy(script_refs *to, const script_refs *from)
{
    for (size_t i = 0; i < from->refs.count; i++) {
        script_ref r = from->refs.items[i];
        r.file = dup_name(&to->mem, r.file);
        r.func = dup_name(&to->mem, r.func);
        r.func_spelling = dup_name(&to->mem, r.func_spelling);
        r.stmt_call = dup_name(&to->mem, r.stmt_call);
        *VEC_PUSH(to->refs) = r;
    }
    for (size_t i = 0; i < from->funcs.count; i++) {
        script_func fn = from->funcs.items[i];
        fn.name = dup_name(&to->mem, fn.name);
        fn.spelling = dup_name(&to->mem, fn.spelling);
        *VEC_PUSH(to->funcs) = fn;
    }
    for (size_t i = 0; i < from->trees.count; i++) {
        script_tree t = from->trees.items[i];
        t.name = dup_name(&to->mem, t.name);
        *VEC_PUSH(to->trees) = t;
    }
}
