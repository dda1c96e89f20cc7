/* The compile stage: walks a script's AST in source order, tracks the file's
** selected tree, registers trees and collects `%name` / `#animtree`
** references (stock-behavior.md section 5). */
#include "game/profile.h"
#include "compile/compile.h"
#include "compile/context.h"
#include "check/dev_statement.h"
#include "script/script_refs.h"
#include "compile/registry.h"
#include "compile/frontend.h"
#include "script/ast.h"
#include "base/text.h"
#include "base/vec.h"
#include "compile/notewait.h"

#include <stdlib.h>
#include <string.h>

/* ---- file-local part (any thread): each item's events, in source order ---- */

typedef enum { EV_USING_ANIMTREE = 0, EV_ANIM, EV_ANIMTREE } event_kind;

/* One event the global part needs, with the number of file-local
** diagnostics reported before it (so the replay keeps their order). */
typedef struct compile_event {
    unsigned char kind;
    unsigned char in_dev;      /* inside a /# ... #/ block */
    unsigned char identifier;  /* #using_animtree: the name passes the identifier test */
    int line, col;
    uint32_t diag_mark;        /* (4 G diagnostics would take far more memory than there is) */
    uint32_t name;             /* index in the record's distinct names */
    uint32_t spelling;         /* %name not in lower case: 1 + index of its spelling there; else 0 */
    uint32_t stmt;             /* inside a call statement (dev_statement.h): 1 + index of its name; else 0 */
    unsigned char stmt_method; /* that statement calls a method */
} compile_event;

/* A distinct lower-cased name of the file, stored once: a file names the
** same animations over and over.  Its hash is the registry's, computed here
** (off the context's thread); `shared` is its copy in the context's arena,
** made by the replay at first use and shared by every reference. */
typedef struct record_name {
    size_t off, len;
    uint32_t hash;
    const char *shared;
    unsigned char function;    /* the file defines a function of this name (outside /# #/) */
} record_name;

typedef struct compile_record {
    VEC(compile_event) ev;
    VEC(char) names;           /* the distinct names' text, each NUL-terminated */
    VEC(record_name) distinct;
    hashtab index;             /* distinct names by hash */
    ast_walk_stack stack;      /* the item walk's, freed at the end of the file */
    size_t fn_first;           /* events of the function in pieces from here on */
    notewait_scan *waits;      /* check E11's waittillmatch calls (notewait.c) */
    size_t fn_first_wait;      /* its waits of the function in pieces from here on */
} compile_record;

void *compile_pass_begin(fe_file *f)
{
    if (f->opts->syntax_only) return NULL;
    compile_record *cr = xcalloc(1, sizeof *cr);
    VEC_RESERVE(cr->stack, 256);
    cr->waits = notewait_scan_new(f->rules, f->builtins);
    return cr;
}

static const char *distinct_at(const void *record, size_t i, size_t *len)
{
    const compile_record *cr = record;
    *len = cr->distinct.items[i].len;
    return cr->names.items + cr->distinct.items[i].off;
}

/* The index of text[0, len) lower-cased (fold) or as written among the
** file's distinct names (a spelling with a capital never equals a
** lower-cased name, so one table holds both); *folded: a byte changed. */
static uint32_t intern(compile_record *cr, const char *text, size_t len, int fold, int *folded)
{
    VEC_RESERVE(cr->names, cr->names.count + len + 1);
    /* Lower-cased in place at the end of the text; kept only if new. */
    char *p = cr->names.items + cr->names.count;
    unsigned changed = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        unsigned upper = fold && c >= 'A' && c <= 'Z';
        changed |= upper;
        p[i] = (char)(upper ? c + 32 : c);
    }
    *folded = (int)changed;
    p[len] = 0;
    uint32_t h = text_hash_bytes(p, len); /* the registry's hash of the name */
    size_t at = hashtab_find_bytes(&cr->index, h, p, len, cr, distinct_at);
    if (at != HASHTAB_END) return (uint32_t)at;
    hashtab_add(&cr->index, h);
    *VEC_PUSH(cr->distinct) = (record_name){cr->names.count, len, h, NULL, 0};
    cr->names.count += len + 1;
    return (uint32_t)(cr->distinct.count - 1);
}

/* Before the file's first event or name: room for a typical file's. */
static void first_use(compile_record *cr)
{
    if (cr->ev.items) return;
    VEC_RESERVE(cr->ev, 64);
    VEC_RESERVE(cr->distinct, 64);
    VEC_RESERVE(cr->names, 1024);
    hashtab_reserve(&cr->index, 64);
}

typedef struct visit_ctx {
    compile_record *cr;
    fe_file *f;
    uint32_t stmt;             /* the call statement being walked: as compile_event's */
    unsigned char stmt_method;
    const ast_node *stmt_last; /* its last node in the walk's order (where it ends) */
} visit_ctx;

static void record(visit_ctx *v, event_kind kind, const ast_node *n, int in_dev)
{
    compile_record *cr = v->cr;
    fe_file *f = v->f;
    first_use(cr);
    compile_event *e = VEC_PUSH(cr->ev);
    const char *text = n->text ? n->text : "";
    size_t len = n->text ? n->len : 0;
    e->kind = (unsigned char)kind;
    e->in_dev = (unsigned char)in_dev;
    e->identifier = kind == EV_USING_ANIMTREE && text_is_identifier(text, len);
    e->line = n->line;
    e->col = n->col;
    e->diag_mark = (uint32_t)f->diags.count;
    int folded;
    e->name = intern(cr, text, kind == EV_ANIMTREE ? 0 : len, 1, &folded);
    /* Messages name a %name as written. */
    e->spelling = kind == EV_ANIM && folded ? intern(cr, text, len, 0, &folded) + 1 : 0;
    e->stmt = v->stmt;
    e->stmt_method = v->stmt_method;
}

/* The last node of n's subtree in a pre-order walk: the last child's, down. */
static const ast_node *last_in_walk(const ast_node *n)
{
    while (n->child) {
        n = n->child;
        while (n->next) n = n->next;
    }
    return n;
}

static void visit(void *ud, const ast_node *n, int in_dev)
{
    visit_ctx *v = ud;
    const ast_node *call;
    int folded;
    notewait_visit(v->cr->waits, n);
    switch (n->kind) {
    case AST_USING_ANIMTREE: record(v, EV_USING_ANIMTREE, n, in_dev); break;
    case AST_ANIM:
        notewait_anim(v->cr->waits, n, (uint32_t)v->cr->ev.count);
        record(v, EV_ANIM, n, in_dev);
        break;
    case AST_ANIMTREE: record(v, EV_ANIMTREE, n, in_dev); break;
    case AST_EXPR_STMT:
        if (!v->stmt_last && (call = dev_statement_call(n)) != NULL) {
            const ast_node *name = dev_statement_name(call);
            v->stmt = intern(v->cr, name->text, name->len, 1, &folded) + 1;
            v->stmt_method = call->kind == AST_METHOD_CALL;
            v->stmt_last = last_in_walk(n);
        }
        break;
    default: break;
    }
    if (n == v->stmt_last) *v = (visit_ctx){v->cr, v->f, 0, 0, NULL};
}

/* A function the file defines (outside /# #/): a statement calling its name
** calls it, not a developer builtin. */
static void note_function(compile_record *cr, const ast_node *fn)
{
    int folded;
    if (fn->kind != AST_FUNCTION || !fn->text) return;
    first_use(cr);
    uint32_t i = intern(cr, fn->text, strlen(fn->text), 1, &folded); /* (may move the array) */
    cr->distinct.items[i].function = 1;
}

void compile_pass_item(void *state, fe_file *f, const ast_node *item)
{
    compile_record *cr = state;
    if (item) note_function(cr, item);
    if (!f->item_anim_syntax || !item) return;
    visit_ctx v = {cr, f, 0, 0, NULL};
    ast_walk(&cr->stack, item, 0, visit, &v);
}

void compile_pass_fn_begin(void *state, fe_file *f, const ast_node *fn)
{
    (void)f; /* a header holds no animation syntax */
    compile_record *cr = state;
    note_function(cr, fn);
    cr->fn_first = cr->ev.count;
    cr->fn_first_wait = notewait_count(cr->waits);
    notewait_function(cr->waits);
}

void compile_pass_stmts(void *state, fe_file *f, const ast_node *first)
{
    compile_record *cr = state;
    if (!f->item_anim_syntax) notewait_blind(cr->waits); /* (a script call may be among them) */
    for (const ast_node *s = first; s && f->item_anim_syntax; s = s->next) compile_pass_item(state, f, s);
}

void compile_pass_fn_end(void *state, fe_file *f, const ast_node *fn, int complete)
{
    (void)fn;
    compile_record *cr = state;
    if (!complete) {
        cr->ev.count = cr->fn_first;
        notewait_truncate(cr->waits, cr->fn_first_wait);
        return;
    }
    /* The whole item's events would follow all of its diagnostics (the
    ** checks' of the function join the file's list at its end). */
    for (size_t i = cr->fn_first; i < cr->ev.count; i++) cr->ev.items[i].diag_mark = (uint32_t)f->diags.count;
}

void compile_pass_end(void *state, fe_file *f)
{
    (void)f;
    compile_record *cr = state;
    ast_walk_stack_free(&cr->stack);
    hashtab_free(&cr->index); /* the replay needs the names, not the lookup */
    notewait_scan_end(cr->waits);
}

void compile_pass_release(void *state)
{
    compile_record *cr = state;
    free(cr->stack.items);
    VEC_FREE(cr->ev);
    VEC_FREE(cr->names);
    VEC_FREE(cr->distinct);
    hashtab_free(&cr->index);
    notewait_scan_free(cr->waits);
    free(cr);
}

void *compile_pass_copy(const void *state)
{
    const compile_record *from = state;
    compile_record *cr = xcalloc(1, sizeof *cr);
    cr->waits = notewait_scan_copy(from->waits);
    VEC_APPEND_ALL(cr->ev, from->ev);
    VEC_COPY(cr->names, from->names);
    VEC_COPY(cr->distinct, from->distinct);
    for (size_t i = 0; i < cr->distinct.count; i++)
        cr->distinct.items[i].shared = NULL; /* the copy in a context's arena: made by the replay */
    return cr;
}

/* ---- global part (the context's thread): the events replayed in order ---- */

/* The file's tree selection: none yet, a tree, or a directive that failed
** (already reported: later references stay null without another error). */
typedef struct selection {
    tree_entry *tree;
    int failed;
} selection;

static void error_at(atrc_ctx *ctx, source_file *src, const compile_event *e, const char *msg)
{
    diag_add(&ctx->diags, DIAG_ERROR, src, e->line, e->col, "%s", msg);
}

static void using_animtree(atrc_ctx *ctx, source_file *src, const compile_event *e,
                           const char *name, selection *sel)
{
    if (e->in_dev) {
        error_at(ctx, src, e, "cannot put #using_animtree inside /# ... #/ comment");
        return;
    }
    if (!e->identifier) {
        error_at(ctx, src, e, "bad anim tree name");
        sel->tree = NULL;
        sel->failed = 1;
        return;
    }
    tree_entry *t = registry_use_tree(ctx, name, src, e->line, e->col);
    if (!t) {
        sel->tree = NULL;
        sel->failed = 1;
        return;
    }
    sel->tree = t;
    sel->failed = 0;
}

/* Whether e lies in a developer builtin statement the game drops
** (dev_statement.h): a function the file defines is called instead. */
static int dropped_statement(const atrc_ctx *ctx, const compile_event *e, const compile_record *cr)
{
    if (!e->stmt) return 0;
    const record_name *nm = &cr->distinct.items[e->stmt - 1];
    return !nm->function &&
           dev_statement_dropped(ctx->rules, &ctx->builtins, &ctx->opts, cr->names.items + nm->off, e->stmt_method);
}

static anim_ref *anim_literal(atrc_ctx *ctx, source_file *src, const compile_event *e,
                              record_name *nm, const char *name, const selection *sel, compile_record *cr)
{
    anim_ref *r = registry_new_ref(ctx, REF_ANIM, src, e->line, e->col);
    if (!nm->shared) nm->shared = arena_strndup(&ctx->mem, name, nm->len);
    r->name = nm->shared;
    if (e->spelling) {
        record_name *sp = &cr->distinct.items[e->spelling - 1];
        if (!sp->shared) sp->shared = arena_strndup(&ctx->mem, cr->names.items + sp->off, sp->len);
        r->spelling = sp->shared;
    }
    r->tree = sel->tree;
    const profile_rules *rules = ctx->rules;
    if (dropped_statement(ctx, e, cr)) {
        r->developer = 1; /* the game skips the statement's arguments: nothing emitted */
        return r;
    }
    if (e->in_dev && rules->devblock_anim_error) {
        error_at(ctx, src, e, "cannot reference animation from /# ... #/ comment");
        return r;
    }
    if (e->in_dev && rules->devblock_anim_dropped && !ctx->opts.developer_script) {
        /* The game emits nothing for it: not in the reference set (load-order.md 4.6). */
        r->developer = 1;
        return r;
    }
    if (!sel->tree) {
        if (!sel->failed) error_at(ctx, src, e, "#using_animtree was not specified");
        return r;
    }
    registry_add_reference_hashed(ctx, sel->tree, r, nm->hash);
    return r;
}

static void animtree_literal(atrc_ctx *ctx, source_file *src, const compile_event *e,
                             const selection *sel, const compile_record *cr)
{
    anim_ref *r = registry_new_ref(ctx, REF_ANIMTREE, src, e->line, e->col);
    r->tree = sel->tree;
    if (dropped_statement(ctx, e, cr)) {
        r->developer = 1;
        return;
    }
    if (!sel->tree) {
        if (!sel->failed) error_at(ctx, src, e, "#using_animtree was not specified");
        return;
    }
    r->value = sel->tree->index;
}

void compile_replay(atrc_ctx *ctx, fe_file *f, source_file *src)
{
    compile_record *cr = f->state[FE_PASS_COMPILE];
    if (!cr) return;
    selection sel = {NULL, 0};
    /* the references of the anim events, for the waits' candidates */
    size_t waits = notewait_count(cr->waits);
    anim_ref **by_event = waits ? xcalloc(cr->ev.count ? cr->ev.count : 1, sizeof *by_event) : NULL;
    for (size_t i = 0; i < cr->ev.count; i++) {
        const compile_event *e = &cr->ev.items[i];
        fe_replay_diags(f, &ctx->diags, e->diag_mark);
        record_name *nm = &cr->distinct.items[e->name];
        const char *name = cr->names.items + nm->off;
        switch ((event_kind)e->kind) {
        case EV_USING_ANIMTREE: using_animtree(ctx, src, e, name, &sel); break;
        case EV_ANIM: {
            anim_ref *r = anim_literal(ctx, src, e, nm, name, &sel, cr);
            if (by_event) by_event[i] = r;
            break;
        }
        case EV_ANIMTREE: animtree_literal(ctx, src, e, &sel, cr); break;
        }
    }
    if (waits) notewait_replay(ctx, cr->waits, src, by_event, cr->ev.count);
    free(by_event);
}
