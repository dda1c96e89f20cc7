/* What the checker's files share (check.c, check_expr.c, check_stmt.c,
** check_resolve.c): the per-file state, its name sets and the small helpers
** every walk uses.  Private to the checker; its API is check_stage.h. */
#ifndef ATRC_CHECK_INTERNAL_H
#define ATRC_CHECK_INTERNAL_H
#include "check/check_stage.h"
#include "base/hashtab.h"
#include "base/inline.h"
#include "base/text.h"
#include "base/vec.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- name sets */

/* A hash set of byte strings (case as given) with an int payload, in
** insertion order (vec.h) under a hash index (hashtab.h); keys live in the
** arena the set was made with. */
typedef struct ns_entry {
    const char *key;
    size_t len;
    int value, line, col;
    void *data;
} ns_entry;

typedef struct nameset {
    VEC(ns_entry *) entries;
    hashtab index;
    arena *mem;
} nameset;

static inline void ns_init(nameset *s, arena *mem)
{
    memset(s, 0, sizeof *s);
    s->mem = mem;
}

static inline void ns_free(nameset *s)
{
    VEC_FREE(s->entries);
    hashtab_free(&s->index);
}

/* Names are hashed once per call, local and label. */
static inline uint32_t key_hash(const char *key, size_t len)
{
    return text_hash_bytes(key, len);
}

static inline const char *ns_key_at(const void *entries, size_t i, size_t *len)
{
    const ns_entry *e = ((ns_entry *const *)entries)[i];
    *len = e->len;
    return e->key;
}

static inline ns_entry *ns_find_hashed(const nameset *s, const char *key, size_t len, uint32_t h)
{
    size_t i = hashtab_find_bytes(&s->index, h, key, len, s->entries.items, ns_key_at);
    return i == HASHTAB_END ? NULL : s->entries.items[i];
}

static inline ns_entry *ns_find(const nameset *s, const char *key, size_t len)
{
    return ns_find_hashed(s, key, len, key_hash(key, len));
}

#define NS_FIRST_ROOM 64

/* A new entry for key (h: its key_hash); the key is copied unless it is
** already in the set's arena (owned). */
ns_entry *check_ns_insert(nameset *s, const char *key, size_t len, uint32_t h, int owned);

/* The entry for key, added (key copied) when new; *is_new tells which. */
/* (Inlined: the calls' names go through it once per call.) */
static ALWAYS_INLINE ns_entry *ns_add(nameset *s, const char *key, size_t len, int *is_new)
{
    uint32_t h = key_hash(key, len);
    ns_entry *e = ns_find_hashed(s, key, len, h);
    *is_new = !e;
    return e ? e : check_ns_insert(s, key, len, h, 0);
}

/* ---------------------------------------------------------------- state */

/* Definite assignment (3.3): one bit per local of the function. */
#define MAX_LOCALS 1024
#define LOCAL_WORDS (MAX_LOCALS / 64)

typedef struct flow {
    uint64_t assigned[LOCAL_WORDS];
    int left; /* this path has left: return, break, continue */
} flow;

/* What one walk over an expression does: with `checks`, the per-node
** checks (and constants, where they fold); with `counting`, the operand
** counts.  nodes: how many it met. */
typedef struct expr_walker {
    flow *f;
    int in_dev, checks, counting, folding;
    size_t nodes;
} expr_walker;

/* A name this file calls, once per spelling, and, once check_resolve has looked
** them up, where it is defined and whether it is a builtin. */
typedef struct called_name {
    const char *name;                /* lower case */
    const char *spelling;            /* as first written */
    int suggested;                   /* suggestion looked for (it may be NULL) */
    const char *suggestion;          /* check_ref.suggestion for this name */
    int looked_up;                   /* bit 0: def, bit 1 + kind: builtin of that kind */
    int keyword;                     /* is_call_keyword */
    const ns_entry *def;
    const builtin_entry *builtin[3]; /* by builtin_kind */
    int certain[3];
} called_name;

typedef struct call_rec call_rec;
/* The calls of the file in blocks of the arena (no copying as they grow). */
typedef struct call_block {
    struct call_block *next;
    size_t count, cap; /* cap: this block's fixed room (the next block has twice it), never grown */
    struct call_rec *items;
} call_block;

/* One per call of the file, kept until the file's end (the calls are
** resolved against every definition): 32 bytes on 64-bit systems, the
** name being the callee's. */
struct call_rec {
    called_name *callee;
    /* The call a statement consists of, when this call is inside it (its
    ** arguments or its object), else NULL. */
    const call_rec *statement;
    int line, col, argc;
    unsigned char kind;       /* check_ref_kind */
    unsigned char in_dev, value_used;
};

typedef VEC(check_ref) ref_vec;

struct check_state {
    source_file *src;
    const profile_rules *rules;
    atrc_options opts;
    diag_list *diags;
    size_t diag_first;     /* this file's diagnostics start here */
    arena mem;             /* what is kept for the whole file */
    arena scratch;         /* per item */
    nameset functions;     /* defined, non-dev */
    nameset dev_functions; /* defined in a top-level /# #/ (not registered in retail) */
    struct call_block *calls, *calls_last; /* in mem, in call order */
    nameset callee_names;  /* name as written -> its called_name (data) */
    nameset scoped_names;  /* `path::name` as written -> its check_ref's name and path (data; NULL: no ::) */
    ref_vec scoped, includes;
    const builtin_set *builtins; /* extensions and user lists (check_use_builtins), or NULL */
    int marker_open, marker_line, marker_col; /* cod2/cod4 free-standing top-level /# */
    /* per function */
    const ast_node *fn;    /* the function being walked (for its closing brace) */
    int fn_close_line, fn_close_col; /* its closing brace once found (0: not yet) */
    nameset locals;        /* lower-case name -> bit index */
    uint64_t known[LOCAL_WORDS];    /* assigned somewhere reachable before (unreachable code) */
    uint64_t reported[LOCAL_WORDS]; /* one uninitialised-variable error per local */
    int locals_overflow;   /* more than MAX_LOCALS: no definite-assignment errors */
    int local_count;       /* distinct locals assigned so far (the engine's local stack) */
    int operand_stack;     /* the function's largest operand count (see check_function_body) */
    int depth_warned;
    int dev_seen;          /* a /# #/ block was met or statements were skipped */
    int suggest_queries;   /* names given a suggestion so far (SUGGEST_MAX_QUERIES) */
    unsigned char kind_checked[AST_KIND_COUNT]; /* see kind_checked() in check_expr.c */
    int plain_exprs;       /* neither constants fold nor locals are tracked: see expr_plain */
    /* iterative expression walk; the counts stay 0: the walk keeps its
    ** depths in locals and only the room is kept from walk to walk */
    VEC(struct eframe) frames;
    VEC(struct cval) values;
    /* Kept here rather than in stmt_walk's frame (its depth is 2,000):
    ** where expressions are walked from statements. */
    expr_walker plain_walker; /* expr_plain_root's */
    struct cval *unread;      /* node_done's constant for a one-node expression whose value is not read */
    ast_walk_stack dev_walk;  /* waittill_dev_checks' stack */
    arena fn_mem;             /* per function: its locals */
    struct fn_stream *stream; /* a function checked a statement at a time (check_function_begin) */
};

/* An error of the file being checked. */
void check_error_at(check_state *st, int line, int col, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static inline void ref_push(ref_vec *v, check_ref r)
{
    /* As for name sets: room for dozens at once (a file calls other files'
    ** functions over and over). */
    if (!v->cap) VEC_RESERVE(*v, NS_FIRST_ROOM);
    *VEC_PUSH(*v) = r;
}

/* s is lower case.  Names mostly differ in their first byte, compared
** here before the rest. */
static inline int name_is(const ast_node *n, const char *s)
{
    if (!n || !n->text) return 0;
    unsigned char c = (unsigned char)n->text[0];
    if ((c >= 'A' && c <= 'Z' ? c + 32 : c) != (unsigned char)s[0]) return 0;
    return !s[0] || text_equal_nocase(n->text + 1, s + 1);
}

/* self, level, game, anim: the engine's objects, never locals. */
static inline int is_object_keyword(const char *name)
{
    return text_equal_nocase(name, "self") || text_equal_nocase(name, "level") ||
           text_equal_nocase(name, "game") || text_equal_nocase(name, "anim");
}

/* Constant values (3.4): the expression walk folds them, a loop reads its condition's. */
typedef enum { CV_NONE = 0, CV_UNDEFINED, CV_INT, CV_FLOAT, CV_STRING, CV_ISTRING, CV_VECTOR } cv_type;

typedef struct cval {
    cv_type type;
    int32_t i;
    double f;
    const char *s;
    size_t len;
    size_t cap;     /* > 0: s is a buffer of the scratch arena owned by this value (appendable) */
    double v[3];
} cval;

static inline double cv_num(const cval *v)
{
    return v->type == CV_INT ? (double)v->i : v->f;
}

static inline int cv_is_num(const cval *v)
{
    return v->type == CV_INT || v->type == CV_FLOAT;
}

/* How an expression is used: its value, a call statement, a call's callee,
** a variable waittill assigns. */
typedef enum { ROLE_VALUE = 0, ROLE_STATEMENT, ROLE_CALLEE, ROLE_WAITTILL_PARAM } expr_role;

/* Kinds that can never have a field: `not an object` (3.2).  Unknown kinds
** (new grammar forms) are given the benefit of the doubt. */
static inline int not_an_object(const ast_node *o)
{
    switch (o->kind) {
    case AST_INT: case AST_FLOAT: case AST_STRING: case AST_ISTRING: case AST_TRUE:
    case AST_FALSE: case AST_UNDEFINED: case AST_EMPTY_ARRAY: case AST_VECTOR:
    case AST_BINARY: case AST_UNARY: case AST_CAST: case AST_ANIM: case AST_ANIMTREE:
    case AST_FUNC_REF:
        return 1;
    case AST_IDENT: return name_is(o, "game");
    case AST_MEMBER: return name_is(o, "size");
    default: return 0;
    }
}

/* `x.self` (G2 debugger form): the grammar makes SELF after '.' a field
** only where the profile allows it. */
static inline int is_self_field(const check_state *st, const ast_node *n)
{
    return st->rules->self_field && n->kind == AST_MEMBER && n->child && name_is(n, "self");
}

/* Code inside /# #/ that the game throws away: all of it unless the
** developer_script dvar is set (grammar.md 3.1). */
static inline int discarded(const check_state *st, int in_dev)
{
    return in_dev && !st->opts.developer_script;
}

static inline const ast_node *call_callee(const ast_node *call)
{
    if (call->kind == AST_CALL) return call->child;
    if (call->kind == AST_METHOD_CALL) return call->child ? call->child->next : NULL;
    return NULL;
}

/* The engine's bound on a function's operand stack (grammar.md 3.2; see
** check_function_body). */
#define OPERAND_STACK_MAX 2047

/* ---------------------------------------------------------------- between the files */

/* check_expr.c: the expression walks (an expression with children in the
** profile's walk, a single node, a loop's condition with its constant), the
** locals that statements read and assign (definite assignment). */
int check_expr_plain(check_state *st, expr_walker *x, const ast_node *root, int role);
void check_expr_count(check_state *st, const ast_node *root, int role, flow *f, int in_dev);
void check_expr_tree(check_state *st, const ast_node *root, int role, flow *f, int in_dev, cval *out);
void check_expr_leaf(check_state *st, const ast_node *n, int role, flow *f, int in_dev);
void check_expr_eval(check_state *st, const ast_node *root, int role, flow *f, int in_dev, cval *out);
void check_local_read(check_state *st, const ast_node *n, const flow *f);
void check_local_assign(check_state *st, const ast_node *n, flow *f);
/* The expression walk's part of a new file's state: which node kinds it
** checks in the profile, whether expressions are walked plainly. */
void check_expr_begin(check_state *st);

/* Operand counts can pass the engine's bound only in a large expression:
** a node's count is at most its subtree's size plus 32 per call nested in
** it (each call with its arguments is 2 nodes or more), so at most 17 times
** its size, and an expression of up to 120 nodes stays below 2047. */
#define SMALL_EXPR_NODES 120

/* check_expr_eval of an expression with children where st->plain_exprs
** (inlined where expressions are walked): the checks, and the operand
** counts in a second pass only for a large expression. */
static inline void expr_plain_root(check_state *st, const ast_node *root, int role, flow *f, int in_dev)
{
    expr_walker *x = &st->plain_walker;
    *x = (expr_walker){f, in_dev, 1, 0, 0, 1};
    check_expr_plain(st, x, root, role);
    if (x->nodes > SMALL_EXPR_NODES) check_expr_count(st, root, role, f, in_dev);
}

/* check_expr_eval when the value is not needed, inlined where it is called:
** most conditions, waits and right-hand sides are a single name or literal,
** checked here with one call or none. */
static inline void expr_walk(check_state *st, const ast_node *root, int role, flow *f, int in_dev)
{
    if (!root) return;
    if (root->child) {
        if (st->plain_exprs) expr_plain_root(st, root, role, f, in_dev);
        else check_expr_tree(st, root, role, f, in_dev, NULL);
    } else if (st->kind_checked[root->kind]) {
        check_expr_leaf(st, root, role, f, in_dev);
    }
}

/* check_stmt.c: the statements of one function's body (is_dev: the
** function is defined inside /# #/). */
void check_function_body(check_state *st, const ast_node *fn, int is_dev);
/* The same walk a statement at a time (check_function_begin and after in
** check_stage.h): the function's diagnostics are held back and join the
** file's at its end, where check_function_body would have made them. */
void check_stream_begin(check_state *st, const ast_node *fn, int is_dev);
void check_stream_stmt(check_state *st, const ast_node *stmt);
void check_stream_end(check_state *st, const ast_node *fn, int complete);
void check_stream_free(check_state *st);

/* check.c: a function's definition registered (dev: between /# and #/),
** before its body is checked. */
void check_register_function(check_state *st, const ast_node *fn, int dev);

/* check_resolve.c: the file's calls looked up (3.5), reported or left in
** out for the load walk. */
void check_resolve(check_state *st, check_file_result *out);

#endif
