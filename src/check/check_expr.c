/* The compile-stage checks of expressions (grammar.md section 3): reads and
** assignments of locals (3.3), constant folding (3.4), calls recorded for
** resolution, field, vector and debugger-form checks and the operand
** estimate.  Expressions are walked recursively down to EXPR_REC_DEPTH
** levels and iteratively below (a long `a+a+a...` chain is as deep as the
** file is long). */
#include "check/check_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The expression walks that statements start are out of line (in this
** file, and NOINLINE within it), so that their frames never join the
** statement walk's (check_stmt.c; it recurses 2,000 deep). */

static int child_count(const ast_node *n)
{
    int k = 0;
    for (const ast_node *c = n->child; c; c = c->next) k++;
    return k;
}

/* ---------------------------------------------------------------- locals */

static int local_index(check_state *st, const char *name)
{
    char *lower = arena_lower(&st->scratch, name, strlen(name));
    int is_new;
    ns_entry *e = ns_add(&st->locals, lower, strlen(lower), &is_new);
    if (is_new) {
        if (st->locals.entries.count > MAX_LOCALS) {
            st->locals_overflow = 1;
            e->value = -1;
        } else {
            e->value = (int)st->locals.entries.count - 1;
        }
    }
    return e->value;
}

#define BIT_GET(a, i) (((a)[(i) >> 6] >> ((i) & 63)) & 1u)
#define BIT_SET(a, i) ((a)[(i) >> 6] |= (uint64_t)1 << ((i) & 63))

static void tracked_read(check_state *st, const ast_node *n, const flow *f)
{
    if (!n->text || is_object_keyword(n->text)) return;
    int i = local_index(st, n->text);
    if (i < 0 || st->locals_overflow) return;
    int ok = f->left ? BIT_GET(st->known, i) : BIT_GET(f->assigned, i);
    if (ok || BIT_GET(st->reported, i)) return;
    BIT_SET(st->reported, i);
    check_error_at(st, n->line, n->col, "uninitialised variable '%s'", n->text); /* as written */
}

static void tracked_assign(check_state *st, const ast_node *n, flow *f)
{
    if (!n->text || is_object_keyword(n->text)) return;
    int i = local_index(st, n->text);
    if (i < 0 || st->locals_overflow) return;
    if (f->left) {
        if (!BIT_GET(st->known, i) && !BIT_GET(st->reported, i)) {
            BIT_SET(st->reported, i);
            check_error_at(st, n->line, n->col, "unreachable code");
        }
        return;
    }
    BIT_SET(f->assigned, i);
    if (st->rules->max_locals && !BIT_GET(st->known, i) && ++st->local_count == st->rules->max_locals + 1)
        /* An engine drop (Com_Error, grammar.md 3.2) with no position of its
        ** own: reported at the local that does not fit. */
        check_error_at(st, n->line, n->col, "LOCAL_VAR_STACK_SIZE exceeded");
    BIT_SET(st->known, i);
}

/* A read and an assignment of local n: only where locals are tracked
** (tested where they are met). */
static inline void local_read(check_state *st, const ast_node *n, const flow *f)
{
    if (st->rules->definite_assignment) tracked_read(st, n, f);
}

static inline void local_assign(check_state *st, const ast_node *n, flow *f)
{
    if (st->rules->definite_assignment) tracked_assign(st, n, f);
}

/* The same for the statements' assignments and parameters. */
void check_local_read(check_state *st, const ast_node *n, const flow *f)
{
    local_read(st, n, f);
}

void check_local_assign(check_state *st, const ast_node *n, flow *f)
{
    local_assign(st, n, f);
}
/* ---------------------------------------------------------------- constants (3.4) */

static const char *cv_type_name(cv_type t)
{
    switch (t) {
    case CV_UNDEFINED: return "undefined";
    case CV_INT: return "int";
    case CV_FLOAT: return "float";
    case CV_STRING: return "string";
    case CV_ISTRING: return "localized string";
    case CV_VECTOR: return "vector";
    default: return "object";
    }
}

/* The value as the runtime's messages print it. */
static const char *cv_text(check_state *st, const cval *v)
{
    switch (v->type) {
    case CV_INT: return arena_printf(&st->scratch, "%d", (int)v->i);
    case CV_FLOAT: return arena_printf(&st->scratch, "%g", v->f);
    case CV_STRING:
    case CV_ISTRING: return v->s;
    case CV_VECTOR: return arena_printf(&st->scratch, "(%g, %g, %g)", v->v[0], v->v[1], v->v[2]);
    default: return cv_type_name(v->type);
    }
}

/* Without a string limit in the profile, concatenations longer than this
** are just not folded. */
#define FOLD_STRING_MAX 8191

static void unmatching(check_state *st, const ast_node *op, const cval *a, const cval *b)
{
    check_error_at(st, op->line, op->col, "pair '%s' and '%s' has unmatching types '%s' and '%s'",
             cv_text(st, a), cv_text(st, b), cv_type_name(a->type), cv_type_name(b->type));
}

static uint32_t u32(int32_t x)
{
    return (uint32_t)x;
}

/* `+` with a string: the runtime's concatenation, limited to what a string
** may hold.  The bound is the profile's string limit (8191 bytes, the
** lexer's, grammar.md 1.3): section 3.4 gives the message but not the
** bound, which is assumed to be the same string buffer.  The left operand's
** buffer is appended to in place when this value owns it (a left-nested
** `"a" + "b" + ...` chain is linear). */
static cval fold_concat(check_state *st, const ast_node *op, const cval *a, const cval *b)
{
    cval r;
    memset(&r, 0, sizeof r);
    int a_str = a->type == CV_STRING || a->type == CV_ISTRING;
    int b_str = b->type == CV_STRING || b->type == CV_ISTRING;
    const char *x = cv_text(st, a), *y = cv_text(st, b);
    size_t xl = a_str ? a->len : strlen(x), yl = b_str ? b->len : strlen(y), n = xl + yl;
    size_t limit = st->rules->max_string_length ? (size_t)st->rules->max_string_length : FOLD_STRING_MAX;
    if (n > limit) {
        if (st->rules->max_string_length)
            check_error_at(st, op->line, op->col, "cannot concat \"%s\" and \"%s\" - max string length exceeded", x, y);
        return r;
    }
    r.type = CV_STRING;
    r.len = n;
    if (a->cap > n) {
        char *buf = (char *)a->s;
        memmove(buf + xl, y, yl);
        buf[n] = 0;
        r.s = buf;
        r.cap = a->cap;
        return r;
    }
    r.cap = n < 32 ? 64 : 2 * n + 1;
    char *buf = arena_alloc(&st->scratch, r.cap);
    memcpy(buf, x, xl);
    memcpy(buf + xl, y, yl);
    buf[n] = 0;
    r.s = buf;
    return r;
}

/* Evaluates a binary operator on two constants as the runtime would; a
** runtime error becomes a compile error at the operator.  Where the runtime's
** rule is not settled by the specification (a float `%`, bitwise operators on
** floats, vectors with numbers, an inexact int division) the result is just
** not a constant: no verdict rather than a wrong one. */
static cval fold_binary(check_state *st, const ast_node *op, const cval *a, const cval *b)
{
    cval r;
    memset(&r, 0, sizeof r);
    const char *o = op->text ? op->text : "";
    int plus = !strcmp(o, "+"), minus = !strcmp(o, "-"), times = !strcmp(o, "*");
    int divide = !strcmp(o, "/"), mod = !strcmp(o, "%");
    int bitwise = !strcmp(o, "&") || !strcmp(o, "|") || !strcmp(o, "^") || !strcmp(o, "<<") ||
                  !strcmp(o, ">>");
    if (!plus && !minus && !times && !divide && !mod && !bitwise) return r; /* && || comparisons */
    int a_str = a->type == CV_STRING || a->type == CV_ISTRING;
    int b_str = b->type == CV_STRING || b->type == CV_ISTRING;
    if (plus && (a_str || b_str) && a->type != CV_UNDEFINED && b->type != CV_UNDEFINED)
        return fold_concat(st, op, a, b);
    if (a_str || b_str || a->type == CV_UNDEFINED || b->type == CV_UNDEFINED) {
        unmatching(st, op, a, b);
        return r;
    }
    if ((divide || mod) && cv_is_num(b) && cv_num(b) == 0) {
        check_error_at(st, op->line, op->col, "divide by 0");
        return r;
    }
    if (a->type == CV_VECTOR || b->type == CV_VECTOR) {
        if (a->type != CV_VECTOR || b->type != CV_VECTOR || !(plus || minus)) return r;
        r.type = CV_VECTOR;
        for (int k = 0; k < 3; k++) r.v[k] = plus ? a->v[k] + b->v[k] : a->v[k] - b->v[k];
        return r;
    }
    if (a->type == CV_INT && b->type == CV_INT) {
        uint32_t x = u32(a->i), y = u32(b->i), z;
        if (plus) z = x + y;
        else if (minus) z = x - y;
        else if (times) z = x * y;
        else if (divide) {
            if (b->i == -1 || a->i % b->i != 0) return r;
            z = u32(a->i / b->i);
        } else if (mod) z = b->i == -1 ? 0 : u32(a->i % b->i);
        else if (!strcmp(o, "&")) z = x & y;
        else if (!strcmp(o, "|")) z = x | y;
        else if (!strcmp(o, "^")) z = x ^ y;
        else if (!strcmp(o, "<<")) z = x << (y & 31);
        else z = u32(a->i >> (y & 31));
        r.type = CV_INT;
        r.i = (int32_t)z;
        return r;
    }
    if (mod || bitwise) return r;
    double x = cv_num(a), y = cv_num(b);
    r.type = CV_FLOAT;
    r.f = plus ? x + y : minus ? x - y : times ? x * y : x / y;
    return r;
}

static cval literal_value(const ast_node *n)
{
    cval r;
    memset(&r, 0, sizeof r);
    switch (n->kind) {
    case AST_INT: {
        long long v = strtoll(n->text ? n->text : "0", NULL, 10);
        r.type = CV_INT;
        r.i = (int32_t)(uint32_t)v;
        break;
    }
    case AST_FLOAT:
        r.type = CV_FLOAT;
        r.f = strtod(n->text ? n->text : "0", NULL);
        break;
    case AST_STRING:
    case AST_ISTRING:
        r.type = n->kind == AST_STRING ? CV_STRING : CV_ISTRING;
        r.s = n->text ? n->text : "";
        r.len = n->len;
        break;
    case AST_TRUE: r.type = CV_INT; r.i = 1; break;
    case AST_FALSE: r.type = CV_INT; r.i = 0; break;
    case AST_UNDEFINED: r.type = CV_UNDEFINED; break;
    default: break;
    }
    return r;
}

/* ---------------------------------------------------------------- expressions */

/* A node of the expression walk whose children are being walked.  The
** operand counts (see operand_add) are summed up as each child is done, so
** that a child without children of its own needs no frame. */
typedef struct eframe {
    const ast_node *node;
    const ast_node *next_child;
    int role, nkids;
    int callee_index;     /* calls: which child is the callee (-1: none) */
    int params;           /* the AST_ARGS of waittill: children after the first are assigned */
    int additive;         /* children held on the stack add up (see operand_add) */
    int call_args;        /* the AST_ARGS of a call: 32 more per nested call */
    int waittill;         /* a waittill call: its AST_ARGS assign variables */
    int held, stack, nested; /* operands over the children done so far */
    int argc;             /* calls: children of the first AST_ARGS child (-1: none yet) */
    size_t value_base;    /* folding profiles: the children's constants in values[] */
} eframe;

/* The entry of a called name as written: each spelling is lower-cased, and
** later looked up, once per file (calls repeat names). */
static inline called_name *called(check_state *st, const char *text, size_t len)
{
    int is_new;
    ns_entry *e = ns_add(&st->callee_names, text, len, &is_new);
    if (is_new) {
        called_name *cn = arena_zalloc(&st->mem, sizeof *cn);
        cn->name = arena_lower(&st->mem, text, len);
        cn->spelling = e->key;
        e->data = cn;
    }
    return e->data;
}

/* The first `::` of s[0, len), NULL when there is none (strstr, for a text
** whose length is known). */
static const char *find_scope(const char *s, size_t len)
{
    const char *end = s + len, *p = s;
    while ((p = memchr(p, ':', (size_t)(end - p))) != NULL && end - p >= 2) {
        if (p[1] == ':') return p;
        p++;
    }
    return NULL;
}

/* A call of `path::name` (callee: AST_SCOPED). */
static void record_scoped(check_state *st, const ast_node *callee, int in_dev)
{
    if (discarded(st, in_dev)) return; /* retail: references in /# #/ are not recorded */
    /* Split and lower-cased once per spelling (a file calls the same
    ** few paths over and over). */
    int is_new;
    ns_entry *e = ns_add(&st->scoped_names, callee->text, callee->len, &is_new);
    if (is_new) {
        const char *sep = find_scope(callee->text, callee->len);
        if (sep) {
            /* The split and its copy of the path are one allocation. */
            size_t path_len = (size_t)(sep - callee->text);
            check_ref *r = arena_alloc(&st->mem, sizeof *r + path_len + 1);
            char *path = (char *)(r + 1);
            memcpy(path, callee->text, path_len);
            path[path_len] = 0;
            r->path = path;
            r->name = arena_lower(&st->mem, sep + 2, callee->len - path_len - 2);
            e->data = r;
        }
    }
    const check_ref *split = e->data;
    if (!split) return;
    check_ref r = {split->name, split->path, callee->line, callee->col, CHECK_REF_SCRIPT, 1, .spelling = NULL};
    ref_push(&st->scoped, r);
}

/* A call of a name (callee: AST_IDENT), inlined where calls are met. */
static inline void record_named(check_state *st, const ast_node *callee, check_ref_kind kind, int in_dev,
                                int value_used, int argc)
{
    call_block *b = st->calls_last;
    if (!b || b->count == b->cap) {
        call_block *nb = arena_alloc(&st->mem, sizeof *nb);
        nb->next = NULL;
        nb->count = 0;
        nb->cap = b ? b->cap * 2 : 64;
        nb->items = arena_alloc(&st->mem, array_size(nb->cap, sizeof *nb->items));
        if (b) b->next = nb;
        else st->calls = nb;
        st->calls_last = b = nb;
    }
    call_rec *c = &b->items[b->count++];
    c->callee = called(st, callee->text, callee->len);
    c->line = callee->line;
    c->col = callee->col;
    c->kind = (unsigned char)kind;
    c->in_dev = in_dev != 0;
    c->value_used = value_used != 0;
    c->argc = argc;
    c->statement = NULL;
}

static inline void record_call(check_state *st, const ast_node *callee, check_ref_kind kind, int in_dev,
                               int value_used, int argc)
{
    if (!callee || !callee->text) return;
    if (callee->kind == AST_SCOPED) record_scoped(st, callee, in_dev);
    else if (callee->kind == AST_IDENT) record_named(st, callee, kind, in_dev, value_used, argc);
}

static void func_ref(check_state *st, const ast_node *n, int in_dev)
{
    if (!n->text || discarded(st, in_dev)) return;
    const char *sep = find_scope(n->text, n->len);
    if (!sep) return;
    if (sep == n->text) {
        /* `::foo`: this file's function (n is at the '::'). */
        ast_node callee = *n;
        callee.kind = AST_IDENT;
        callee.text = sep + 2;
        callee.len = n->len - 2;
        record_call(st, &callee, CHECK_REF_SCRIPT, 0, 1, 0);
        return;
    }
    ast_node callee = *n;
    callee.kind = AST_SCOPED;
    record_call(st, &callee, CHECK_REF_SCRIPT, 0, 1, 0);
}

static void on_call(check_state *st, const ast_node *n, int role, int in_dev, int argc)
{
    const ast_node *callee = call_callee(n);
    if (!callee) return;
    int threaded = name_is(n, "thread");
    check_ref_kind kind = threaded ? CHECK_REF_SCRIPT
                          : n->kind == AST_METHOD_CALL ? CHECK_REF_METHOD : CHECK_REF_FUNCTION;
    record_call(st, callee, kind, in_dev, role != ROLE_STATEMENT, argc);
}

static int is_waittill(const ast_node *call)
{
    return call->kind == AST_WAITTILL ||
           (call->kind == AST_METHOD_CALL && !name_is(call, "thread") && name_is(call_callee(call), "waittill"));
}

static void check_vector(check_state *st, const ast_node *n, const cval *parts, int count, cval *out)
{
    if (count != 3) {
        check_error_at(st, n->line, n->col, "expression list must have 1 or 3 parameters");
        return;
    }
    if (!st->rules->constant_folding) return;
    for (int k = 0; k < 3; k++)
        if (parts[k].type == CV_NONE) return;
    const ast_node *c = n->child;
    for (int k = 0; k < 3; k++, c = c->next)
        if (!cv_is_num(&parts[k])) {
            check_error_at(st, c->line, c->col, "type %s is not a float", cv_type_name(parts[k].type));
            return;
        }
    out->type = CV_VECTOR;
    for (int k = 0; k < 3; k++) out->v[k] = cv_num(&parts[k]);
}

/* Engine drops of grammar.md 3.2 not reported, because the specification
** gives no bound or no exact count for them: MAX_SWITCH_CASES (what a
** "break/case path" is, per switch or per function), VALUE_STACK_SIZE (the
** folding stack's size), SCR_FUNC_TABLE_SIZE and MAX_PRECACHE_ENTRIES (table
** sizes), the cod2 file-name length bound, cod1's DEV_OP_BUF_SIZE.  The
** games' own (RECON-ONLY) rule that a cod2 name stops being a builtin
** candidate after a `::name` reference is not modelled either. */

/* The operands a node must hold at once are found from its children's, in
** order: children that stay on the stack while the next is evaluated add
** up (arguments, vector parts, arithmetic operands); `&&`/`||` drop the left
** value first, and where the engine's order is not known (method object,
** index) only the largest child counts.  `nested` adds 32 for each call
** whose arguments (the frame, when call_args) are being evaluated.  A
** frame starts at 1 operand (0 for AST_ARGS); operand_add takes in one
** child's (stack, nested). */
static inline void operand_add(eframe *p, int stack, int nested)
{
    int base = p->additive ? p->held : 0;
    if (base + stack > p->stack) p->stack = base + stack;
    int deep = base + nested + (p->call_args && stack > 0 ? 32 : 0);
    if (deep > p->nested) p->nested = deep;
    if (stack > 0) p->held++;
}

static int is_and_or(const ast_node *n)
{
    const char *t = n->text;
    return t && (t[0] == '&' || t[0] == '|') && t[1] == t[0] && !t[2];
}

/* Sets up the frame of n (which has children); parent_call: n's parent is
** a call whose AST_ARGS hold its arguments (frame_calls), 0 for the root. */
static inline void frame_init(eframe *fr, const ast_node *n, int role, int parent_call, size_t vbase)
{
    fr->node = n;
    fr->next_child = n->child;
    fr->role = role;
    fr->nkids = 0;
    fr->callee_index = -1;
    fr->params = fr->additive = fr->call_args = fr->waittill = fr->held = 0;
    fr->stack = fr->nested = 1;
    fr->argc = -1;
    fr->value_base = vbase;
    switch (n->kind) {
    case AST_CALL: fr->callee_index = 0; break;
    case AST_METHOD_CALL:
        fr->callee_index = 1;
        fr->waittill = is_waittill(n);
        break;
    case AST_WAITTILL: fr->waittill = 1; break;
    case AST_ARGS:
        fr->params = role == ROLE_WAITTILL_PARAM;
        fr->additive = 1;
        fr->call_args = parent_call;
        fr->stack = fr->nested = 0;
        break;
    case AST_VECTOR: fr->additive = 1; break;
    case AST_BINARY: fr->additive = !is_and_or(n); break;
    default: break;
    }
}

/* Whether an AST_ARGS child of the frame's node holds a call's arguments. */
static inline int frame_calls(const eframe *fr)
{
    ast_kind k = fr->node->kind;
    return k == AST_CALL || k == AST_POINTER_CALL || (k == AST_METHOD_CALL && !fr->waittill);
}

/* The role of the frame's next child c (counted as done). */
static inline int child_role(eframe *fr, const ast_node *c)
{
    int idx = fr->nkids++;
    int crole = idx == fr->callee_index ? ROLE_CALLEE
                : fr->params && idx > 0 ? ROLE_WAITTILL_PARAM : ROLE_VALUE;
    if (c->kind == AST_ARGS && fr->waittill) crole = ROLE_WAITTILL_PARAM;
    return crole;
}

static void push_value(check_state *st, size_t *top, const cval *v)
{
    VEC_RESERVE(st->values, *top + 1);
    st->values.items[(*top)++] = *v;
}

/* `x.f`: x must be an object (and `x.self` is the debugger's). */
static inline void member_check(check_state *st, const ast_node *n)
{
    if (n->child && is_self_field(st, n))
        check_error_at(st, n->child->line, n->child->col, "self field can only be used in the script debugger");
    else if (n->child && not_an_object(n->child))
        check_error_at(st, n->child->line, n->child->col, "not an object");
}

/* The checks on node n once its children are walked (kids: their constants,
** only in profiles that fold; argc: a call's argument count); *v: its
** constant value, CV_NONE when not constant. */
static void node_done(check_state *st, const ast_node *n, int role, const cval *kids, int nkids,
                      int argc, flow *f, int in_dev, cval *v)
{
    switch (n->kind) {
    case AST_IDENT:
        if (role == ROLE_VALUE) local_read(st, n, f);
        else if (role == ROLE_WAITTILL_PARAM) local_assign(st, n, f);
        break;
    case AST_INT: case AST_FLOAT: case AST_STRING: case AST_ISTRING: case AST_TRUE:
    case AST_FALSE: case AST_UNDEFINED:
        if (st->rules->constant_folding) *v = literal_value(n);
        break;
    case AST_UNARY:
        /* `-INT` / `-FLOAT` literals are constants; other prefixes are not. */
        if (st->rules->constant_folding && name_is(n, "-") && n->child &&
            (n->child->kind == AST_INT || n->child->kind == AST_FLOAT) && nkids == 1) {
            *v = kids[0];
            if (v->type == CV_INT) v->i = (int32_t)(0u - u32(v->i));
            else v->f = -v->f;
        }
        break;
    case AST_BINARY:
        if (st->rules->constant_folding && nkids == 2 && kids[0].type != CV_NONE &&
            kids[1].type != CV_NONE)
            *v = fold_binary(st, n, &kids[0], &kids[1]);
        break;
    case AST_VECTOR: check_vector(st, n, kids, nkids, v); break;
    case AST_MEMBER: member_check(st, n); break;
    case AST_ENTITY: /* `$name` read (G2 debugger form) */
        check_error_at(st, n->line, n->col, "$ can only be used in the script debugger");
        break;
    case AST_BREAKON:
        /* cod4's text; cod2's binary lacks the string, its reconstruction
        ** has the same check (grammar.md 3.2: RECON-ONLY for cod2). */
        check_error_at(st, n->line, n->col, "illegal function name");
        break;
    case AST_CALL:
    case AST_METHOD_CALL: on_call(st, n, role, in_dev, argc < 0 ? 0 : argc); break;
    case AST_FUNC_REF: func_ref(st, n, in_dev); break;
    case AST_DEVBLOCK: st->dev_seen = 1; break; /* inside a newer grammar's form */
    default: break;
    }
}

/* Whether node_done has anything to do for a node of kind k in this
** profile (ORDER: its cases): most nodes are names, literals, argument
** lists and operators with nothing to check unless locals are tracked or
** constants folded, and the walk skips the call for them. */
static int kind_checked(const profile_rules *rules, ast_kind k)
{
    switch (k) {
    case AST_IDENT: return rules->definite_assignment;
    case AST_INT: case AST_FLOAT: case AST_STRING: case AST_ISTRING: case AST_TRUE:
    case AST_FALSE: case AST_UNDEFINED: case AST_UNARY: case AST_BINARY:
        return rules->constant_folding;
    case AST_VECTOR: case AST_MEMBER: case AST_ENTITY: case AST_BREAKON: case AST_CALL:
    case AST_METHOD_CALL: case AST_FUNC_REF: case AST_DEVBLOCK:
        return 1;
    default: return 0;
    }
}

void check_expr_begin(check_state *st)
{
    const profile_rules *rules = st->rules;
    for (int k = 0; k < AST_KIND_COUNT; k++) st->kind_checked[k] = (unsigned char)kind_checked(rules, (ast_kind)k);
    st->plain_exprs = !rules->constant_folding && !rules->definite_assignment;
    st->unread = xcalloc(1, sizeof *st->unread);
}

/* A child c of fr's node without children of its own: done at once; it
** holds one operand (an empty AST_ARGS none) unless it is a callee or a
** variable waittill assigns. */
static inline void leaf_done(check_state *st, expr_walker *x, eframe *fr, const ast_node *c, int crole,
                             size_t *vtop)
{
    cval v;
    if (x->folding) memset(&v, 0, sizeof v); /* else never read */
    if (x->checks && st->kind_checked[c->kind]) node_done(st, c, crole, NULL, 0, -1, x->f, x->in_dev, &v);
    if (c->kind == AST_ARGS && fr->argc < 0) fr->argc = 0;
    if (x->counting) {
        int ops = crole == ROLE_CALLEE || crole == ROLE_WAITTILL_PARAM || c->kind == AST_ARGS ? 0 : 1;
        operand_add(fr, ops, ops);
    }
    if (x->folding) push_value(st, vtop, &v);
}

/* All children of fr's node done (their constants: values[fr->value_base
** ..]): its checks; *v its constant (folding profiles), *stack and *nested
** its operands (when counting). */
static inline void frame_done(check_state *st, expr_walker *x, const eframe *fr, cval *v, int *stack,
                              int *nested)
{
    if (x->folding) memset(v, 0, sizeof *v);
    if (x->checks && st->kind_checked[fr->node->kind]) {
        const cval *kids = x->folding && st->values.items ? &st->values.items[fr->value_base] : NULL;
        node_done(st, fr->node, fr->role, kids, fr->nkids, fr->argc, x->f, x->in_dev, v);
    }
    *stack = *nested = 0;
    if (x->counting) {
        int s = fr->stack, d = fr->nested;
        if (fr->role == ROLE_CALLEE || fr->role == ROLE_WAITTILL_PARAM) s = d = 0;
        else if (x->folding && v->type != CV_NONE) s = d = 1;
        /* The function's operand stack, as far as it can be known (see check_function_body). */
        int estimate = d - 32 > s ? d - 32 : s;
        if (estimate > st->operand_stack) st->operand_stack = estimate;
        *stack = s;
        *nested = d;
    }
}

/* Takes a finished child c of fr's node (c_kids: its children) into fr. */
static inline void child_done(check_state *st, expr_walker *x, eframe *fr, const ast_node *c, int c_kids,
                              int stack, int nested, const cval *v, size_t *vtop)
{
    if (c->kind == AST_ARGS && fr->argc < 0) fr->argc = c_kids;
    if (x->counting) operand_add(fr, stack, nested);
    if (x->folding) push_value(st, vtop, v);
}

/* Walks the subtree of root (which has children) in evaluation order with
** a stack of frames, as deep as the input needs (a long `a+a+a...` chain is
** as deep as the file is long); its constants go on the value stack from
** vtop.  Returns root's child count; *v, *stack, *nested: see frame_done. */
static int expr_loop(check_state *st, expr_walker *x, const ast_node *root, int role, int parent_call,
                     size_t vtop, cval *v, int *stack, int *nested)
{
    size_t top = 0;
    /* The next node to push (one place, so frame_init is inlined once). */
    const ast_node *push = root;
    int push_role = role;
    for (;;) {
        if (push) {
            VEC_RESERVE(st->frames, top + 1);
            frame_init(&st->frames.items[top], push, push_role, top ? frame_calls(&st->frames.items[top - 1]) : parent_call,
                       vtop);
            top++;
            push = NULL;
        }
        eframe *fr = &st->frames.items[top - 1];
        const ast_node *c = fr->next_child;
        if (c) {
            fr->next_child = c->next;
            x->nodes++;
            int crole = child_role(fr, c);
            if (c->child) {
                push = c;
                push_role = crole;
            } else {
                leaf_done(st, x, fr, c, crole, &vtop);
            }
            continue;
        }
        frame_done(st, x, fr, v, stack, nested);
        vtop = fr->value_base;
        if (--top == 0) return fr->nkids;
        child_done(st, x, &st->frames.items[top - 1], fr->node, fr->nkids, *stack, *nested, v, &vtop);
    }
}

/* How deep expr_rec recurses on the C stack; a deeper subtree is handed
** to expr_loop. */
#define EXPR_REC_DEPTH 48

/* expr_loop's walk with the frames on the C stack, down to a bounded depth:
** expressions are mostly shallow, and a frame kept in registers costs much
** less than one kept in memory. */
static int expr_rec(check_state *st, expr_walker *x, const ast_node *n, int role, int parent_call, size_t vtop,
                    int depth, cval *v, int *stack, int *nested)
{
    eframe fr;
    frame_init(&fr, n, role, parent_call, vtop);
    for (const ast_node *c = n->child; c; c = c->next) {
        x->nodes++;
        int crole = child_role(&fr, c);
        if (!c->child) {
            leaf_done(st, x, &fr, c, crole, &vtop);
            continue;
        }
        cval cv;
        int cs, cn;
        int kids = depth < EXPR_REC_DEPTH
                       ? expr_rec(st, x, c, crole, frame_calls(&fr), vtop, depth + 1, &cv, &cs, &cn)
                       : expr_loop(st, x, c, crole, frame_calls(&fr), vtop, &cv, &cs, &cn);
        child_done(st, x, &fr, c, kids, cs, cn, &cv, &vtop);
    }
    frame_done(st, x, &fr, v, stack, nested);
    return fr.nkids;
}

/* The checks alone (no operand counts), in profiles that neither fold
** constants nor track locals: there node_done tells roles apart only for a
** call that is a statement, which only the root can be, and needs of the
** children only a call's argument count.  So no frame is set up: the walk
** visits the nodes in the same order (children first) and hands every node
** below the root ROLE_VALUE.  Returns n's child count. */
static int expr_plain(check_state *st, expr_walker *x, const ast_node *n, int role, int depth);

/* A node's own checks in expr_plain: node_done's most frequent cases are
** called directly.  A call's argument count is read here (node_done needs
** it for calls only): the children of its first AST_ARGS child. */
static inline void plain_done(check_state *st, expr_walker *x, const ast_node *n, int role, int nkids)
{
    cval unused; /* node_done sets no constant where none fold */
    if (!st->kind_checked[n->kind]) return;
    switch (n->kind) {
    case AST_MEMBER: member_check(st, n); break;
    case AST_CALL:
    case AST_METHOD_CALL: {
        int argc = 0;
        for (const ast_node *c = n->child; c; c = c->next)
            if (c->kind == AST_ARGS) {
                argc = child_count(c);
                break;
            }
        on_call(st, n, role, x->in_dev, argc);
        break;
    }
    default: node_done(st, n, role, NULL, nkids, -1, x->f, x->in_dev, &unused); break;
    }
}

/* A child of a node in expr_plain without children of its own. */
static inline void plain_leaf(check_state *st, expr_walker *x, const ast_node *c)
{
    cval unused;
    if (st->kind_checked[c->kind]) node_done(st, c, ROLE_VALUE, NULL, 0, -1, x->f, x->in_dev, &unused);
}

/* expr_plain on a node n below the root, at depth, inlined in it: one call
** walks two levels (most expressions are a call with names or literals
** for arguments, or a field of a name). */
static inline int plain_inner(check_state *st, expr_walker *x, const ast_node *n, int depth)
{
    int nkids = 0;
    for (const ast_node *c = n->child; c; c = c->next) {
        nkids++;
        if (c->child) expr_plain(st, x, c, ROLE_VALUE, depth + 1);
        else plain_leaf(st, x, c);
    }
    x->nodes += (size_t)nkids;
    plain_done(st, x, n, ROLE_VALUE, nkids);
    return nkids;
}

static int expr_plain(check_state *st, expr_walker *x, const ast_node *n, int role, int depth)
{
    int nkids = 0;
    for (const ast_node *c = n->child; c; c = c->next) {
        nkids++;
        if (c->child) {
            if (depth < EXPR_REC_DEPTH) {
                plain_inner(st, x, c, depth + 1);
            } else {
                cval unused;
                int cs, cn;
                expr_loop(st, x, c, ROLE_VALUE, 0, 0, &unused, &cs, &cn);
            }
        } else {
            plain_leaf(st, x, c);
        }
    }
    x->nodes += (size_t)nkids;
    plain_done(st, x, n, role, nkids);
    return nkids;
}

/* The operand counts of a large expression where constants do not fold,
** in a second pass that checks nothing. */
NOINLINE void check_expr_count(check_state *st, const ast_node *root, int role, flow *f, int in_dev)
{
    expr_walker x = {f, in_dev, 0, 1, 0, 1};
    cval v;
    int stack, nested;
    expr_rec(st, &x, root, role, 0, 0, 0, &v, &stack, &nested);
}

/* expr_plain from an expression's root, for expr_plain_root. */
int check_expr_plain(check_state *st, expr_walker *x, const ast_node *root, int role)
{
    return expr_plain(st, x, root, role, 0);
}

NOINLINE void check_expr_tree(check_state *st, const ast_node *root, int role, flow *f, int in_dev, cval *out)
{
    /* Where constants fold, a folded constant counts as one operand: the
    ** counts need the checks' values and are made in the same pass.
    ** Elsewhere they are made only for a large expression, in a second
    ** pass that checks nothing. */
    const int folding = st->rules->constant_folding;
    expr_walker x = {f, in_dev, 1, folding, folding, 1};
    cval v;
    int stack, nested;
    expr_rec(st, &x, root, role, 0, 0, 0, &v, &stack, &nested);
    if (out) {
        if (!folding) memset(&v, 0, sizeof v);
        *out = v;
    }
    if (!folding && x.nodes > SMALL_EXPR_NODES) check_expr_count(st, root, role, f, in_dev);
}

/* Walks an expression in evaluation order: reads of locals, calls, field
** and vector checks, constant folding.  *out (when asked for): the constant
** value (CV_NONE when not constant).  Constants are kept on the value stack only in
** profiles that fold (no other check reads them). */
void check_expr_eval(check_state *st, const ast_node *root, int role, flow *f, int in_dev, cval *out)
{
    if (root && root->child) {
        if (!st->plain_exprs) {
            check_expr_tree(st, root, role, f, in_dev, out);
            return;
        }
        expr_plain_root(st, root, role, f, in_dev);
        memset(out, 0, sizeof *out);
        return;
    }
    /* Nothing, or a single name or literal: no frame; one operand at most. */
    cval v;
    memset(&v, 0, sizeof v);
    if (root && st->kind_checked[root->kind]) node_done(st, root, role, NULL, 0, -1, f, in_dev, &v);
    *out = v;
}

/* A single name or literal whose value is not needed (node_done's constant
** goes unread), for expr_walk. */
void check_expr_leaf(check_state *st, const ast_node *n, int role, flow *f, int in_dev)
{
    node_done(st, n, role, NULL, 0, -1, f, in_dev, st->unread);
}
