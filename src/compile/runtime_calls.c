/* The run-time checks' file-local pass (see runtime_anim.h): each call of an
** animation builtin in a file, with its literal arguments, recorded as the
** parser streams the file's items.  A call whose name the file defines as a
** function of its own is the file's function, not the builtin (maps/mp/
** _destructible.gsc defines setanim): those are dropped at the file's end. */
#include "compile/runtime_anim.h"
#include "game/anim_builtins.h"
#include "check/check_stage.h"
#include "compile/frontend.h"
#include "game/profile.h"
#include "script/ast.h"
#include "base/inline.h"
#include "base/vec.h"

#include <stdlib.h>
#include <string.h>

typedef struct rt_record {
    VEC(rt_call) calls;
    VEC(rt_arg) args;
    VEC(char) text;
    rt_calls view;             /* the finished record, as runtime_pass_calls gives it */
    /* Per row of anim_builtins[] (at most 64: a unit test holds the table to it): */
    uint64_t defined;          /* the file defines a function of that name */
    uint64_t looked_up, builtin; /* resolved for the game mode; and it is the builtin */
    size_t fn_calls, fn_args, fn_text; /* a function in pieces: what it recorded starts here */
    ast_walk_stack stack;
    fe_file *f;
} rt_record;

void *runtime_pass_begin(fe_file *f)
{
    if (f->opts->syntax_only) return NULL;
    rt_record *r = xcalloc(1, sizeof *r);
    return r;
}

/* A numeric literal, optionally negated (AST_UNARY "-" over it: ast.h). */
static int number_of(const ast_node *n, double *out, int *is_float)
{
    int neg = 0;
    if (n->kind == AST_UNARY && n->text && !strcmp(n->text, "-") && n->child) {
        neg = 1;
        n = n->child;
    }
    if (n->kind != AST_INT && n->kind != AST_FLOAT) return 0;
    double v = strtod(n->text ? n->text : "0", NULL);
    *out = neg ? -v : v;
    *is_float = n->kind == AST_FLOAT;
    return 1;
}

static void record_arg(rt_record *r, const ast_node *a)
{
    rt_arg *x = VEC_PUSH(r->args);
    memset(x, 0, sizeof *x);
    x->line = a->line;
    x->col = a->col;
    int is_float;
    switch (a->kind) {
    case AST_ANIM: x->lit = RT_LIT_ANIM; break;
    case AST_ANIMTREE: x->lit = RT_LIT_ANIMTREE; break;
    case AST_ISTRING: x->lit = RT_LIT_ISTRING; break;
    case AST_UNDEFINED: x->lit = RT_LIT_UNDEFINED; break;
    case AST_STRING:
        x->lit = RT_LIT_STRING;
        x->text = (uint32_t)r->text.count;
        x->text_len = (uint32_t)a->len;
        VEC_RESERVE(r->text, r->text.count + a->len);
        if (a->len) memcpy(r->text.items + r->text.count, a->text, a->len);
        r->text.count += a->len;
        break;
    case AST_VECTOR: {
        /* Three numeric literals (another count is a compile error already). */
        int n = 0, ok = 1;
        double v;
        for (const ast_node *c = a->child; c; c = c->next, n++) ok &= number_of(c, &v, &is_float);
        if (ok && n == 3) x->lit = RT_LIT_VECTOR;
        break;
    }
    default:
        if (number_of(a, &x->number, &is_float)) x->lit = is_float ? RT_LIT_FLOAT : RT_LIT_INT;
        break;
    }
}

/* Whether row i, called as written, is the game's builtin for the mode. */
static int is_builtin(rt_record *r, const anim_builtin *b, unsigned i)
{
    uint64_t bit = (uint64_t)1 << i;
    if (!(r->looked_up & bit)) {
        const fe_file *f = r->f;
        int certain;
        if (profile_builtin_lookup(f->rules, f->builtins, f->opts->game_mode,
                                 b->method ? BUILTIN_METHOD : BUILTIN_FUNCTION, b->name, &certain))
            r->builtin |= bit;
        r->looked_up |= bit;
    }
    return (r->builtin & bit) != 0;
}

/* A call or a function definition (visit's rare case, kept out of the walk's loop). */
NOINLINE static void visit_named(rt_record *r, const ast_node *n, int in_dev)
{
    if (n->kind == AST_FUNCTION) {
        const anim_builtin *b = n->text ? anim_builtin_find(n->text, -1) : NULL;
        if (b) r->defined |= (uint64_t)1 << (b - anim_builtins);
        return;
    }
    if ((n->kind != AST_CALL && n->kind != AST_METHOD_CALL) || n->text /* thread */) return;
    const ast_node *callee = n->kind == AST_CALL ? n->child : n->child ? n->child->next : NULL;
    if (!callee || callee->kind != AST_IDENT || !callee->text) return;
    const anim_builtin *b = anim_builtin_find(callee->text, n->kind == AST_METHOD_CALL);
    if (!b) return;
    unsigned row = (unsigned)(b - anim_builtins);
    if (!is_builtin(r, b, row)) return;
    const ast_node *args = n->last && n->last->kind == AST_ARGS ? n->last : NULL;
    rt_call *c = VEC_PUSH(r->calls);
    c->row = (uint16_t)row;
    c->in_dev = (unsigned char)in_dev;
    c->line = callee->line;
    c->col = callee->col;
    c->argc = 0;
    c->first = (uint32_t)r->args.count;
    for (const ast_node *a = args ? args->child : NULL; a; a = a->next)
        if (c->argc++ < ANIM_MAX_ARGS) record_arg(r, a);
}

static void visit(void *ud, const ast_node *n, int in_dev)
{
    if (n->kind == AST_CALL || n->kind == AST_METHOD_CALL || n->kind == AST_FUNCTION) visit_named(ud, n, in_dev);
}

void runtime_pass_item(void *state, fe_file *f, const ast_node *item)
{
    rt_record *r = state;
    if (!item) return;
    r->f = f;
    /* Most items call no animation builtin (the parser's count, frontend.h):
    ** of those only a function's name matters, and functions are items or
    ** inside a file-level /# #/ item. */
    if (f->item_anim_call || item->kind == AST_DEVBLOCK) ast_walk(&r->stack, item, 0, visit, r);
    else visit(r, item, 0);
}

void runtime_pass_fn_begin(void *state, fe_file *f, const ast_node *fn)
{
    rt_record *r = state;
    r->f = f;
    visit(r, fn, 0); /* its name */
    r->fn_calls = r->calls.count;
    r->fn_args = r->args.count;
    r->fn_text = r->text.count;
}

void runtime_pass_stmts(void *state, fe_file *f, const ast_node *first)
{
    /* (A statement is no function, nor holds one.) */
    for (const ast_node *s = first; s && f->item_anim_call; s = s->next) runtime_pass_item(state, f, s);
}

void runtime_pass_fn_end(void *state, fe_file *f, const ast_node *fn, int complete)
{
    (void)f;
    (void)fn;
    rt_record *r = state;
    if (complete) return;
    /* Dropped unfinished: as if never seen (its name stays defined, as the
    ** checks' resolution keeps it: harmless, it only silences calls). */
    r->calls.count = r->fn_calls;
    r->args.count = r->fn_args;
    r->text.count = r->fn_text;
}

void runtime_pass_end(void *state, fe_file *f)
{
    (void)f;
    rt_record *r = state;
    ast_walk_stack_free(&r->stack);
    /* The file's own functions shadow the builtins of their names. */
    size_t kept = 0;
    for (size_t i = 0; i < r->calls.count; i++)
        if (!(r->defined & (uint64_t)1 << r->calls.items[i].row)) r->calls.items[kept++] = r->calls.items[i];
    r->calls.count = kept;
    r->view = (rt_calls){r->calls.items, r->calls.count, r->args.items, r->args.count, r->text.items, r->text.count};
}

const rt_calls *runtime_pass_calls(const void *state)
{
    return state ? &((const rt_record *)state)->view : NULL;
}

void runtime_pass_release(void *state)
{
    rt_record *r = state;
    ast_walk_stack_free(&r->stack);
    VEC_FREE(r->calls);
    VEC_FREE(r->args);
    VEC_FREE(r->text);
    free(r);
}

/* A finished record's copy (records kept across compilations). */
void *runtime_pass_copy(const void *state)
{
    const rt_record *from = state;
    rt_record *r = xcalloc(1, sizeof *r);
    VEC_APPEND_ALL(r->calls, from->calls);
    VEC_APPEND_ALL(r->args, from->args);
    VEC_APPEND_ALL(r->text, from->text);
    r->view = (rt_calls){r->calls.items, r->calls.count, r->args.items, r->args.count, r->text.items, r->text.count};
    return r;
}
