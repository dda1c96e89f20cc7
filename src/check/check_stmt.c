/* The compile-stage checks of statements (grammar.md section 3): case and
** default labels, break and continue, /# #/ restrictions, element assignment
** bases, and the flow of definite assignment (3.3) through branches, loops
** and switches; then a function body as a whole (the operand estimate,
** waittill in developer code).  Statements are walked recursively with a
** depth bound (their nesting is bounded by the parser). */
#include "check/check_internal.h"

#include <stdlib.h>
#include <string.h>

/* Deepest statement nesting analysed (else-if ladders nest without braces;
** the parser's stack bounds them, this keeps the C stack small). */
#define MAX_STMT_DEPTH 2000

static void flow_all(flow *f)
{
    memset(f->assigned, 0xff, sizeof f->assigned);
    f->left = 0;
}

/* Intersection of the paths that reach a join (a left path does not). */
static void flow_meet(flow *acc, int *have, const flow *f)
{
    if (f->left) return;
    if (!*have) {
        *acc = *f;
        *have = 1;
        return;
    }
    for (int i = 0; i < LOCAL_WORDS; i++) acc->assigned[i] &= f->assigned[i];
}

/* `(a)[0]`: the name `base` (a variable or field) in parentheses before the
** '['.  (A parenthesised element, `(a[0])[1]`, is not taken for one.) */
static int parenthesised_name(const ast_node *base)
{
    return base->text && base->paren;
}

/* ---------------------------------------------------------------- statements */

typedef struct jump_target {
    int dev_depth;        /* developer-block depth where it starts */
    flow breaks;          /* meet of the states at its breaks */
    int have_breaks;
    /* switches */
    nameset labels;
    int has_default, in_dev;
    int missing_case_reported;
} jump_target;

/* A statement list: plain `{ }` blocks inside share their parent's. */
typedef struct stmt_list {
    int left;             /* a break/return/continue was seen (cod2/cod4 jump rule) */
    int is_switch;
    int case_state;       /* switch lists: 0 before the first label, 1 in a case, 2 after a leave */
    jump_target *sw;
} stmt_list;

typedef struct walk_ctx {
    int dev_depth;
    jump_target *loop, *sw, *brk;
    stmt_list *list;
    int direct_in_switch; /* the statement stands directly in a switch's list */
    int odd_position;     /* inside a while/for body or /# #/: where `missing case statement` goes */
    int depth;
} walk_ctx;

static void stmt_walk(check_state *st, const ast_node *n, walk_ctx *w, flow *f);

static int is_statement_kind(ast_kind k)
{
    switch (k) {
    case AST_BLOCK: case AST_DEVBLOCK: case AST_EXPR_STMT: case AST_ASSIGN: case AST_INCDEC:
    case AST_IF: case AST_WHILE: case AST_FOR: case AST_SWITCH: case AST_CASE: case AST_DEFAULT:
    case AST_BREAK: case AST_CONTINUE: case AST_RETURN: case AST_WAIT: case AST_WAITTILLFRAMEEND:
    case AST_EMPTY: case AST_BREAKPOINT: case AST_USING_ANIMTREE: case AST_ERROR:
        return 1;
    default:
        return 0;
    }
}

/* An expression, as far as this table knows: a kind newer than this file (a
** newer grammar's) counts as a statement when a child is one (`do { } while`),
** else as an expression (`a.size`). */
static int is_expression_kind(const ast_node *n)
{
    if (is_statement_kind(n->kind)) return 0;
    if (n->kind <= AST_BREAKPOINT) return 1; /* ORDER: the last kind of ast.h known here */
    for (const ast_node *c = n->child; c; c = c->next)
        if (is_statement_kind(c->kind)) return 0;
    return 1;
}

/* The function's closing '}': a scan of the source from its '{' that skips
** comments and strings (only needed when `missing case statement` fires). */
static void function_close(check_state *st, int *line, int *col)
{
    const ast_node *body = st->fn ? st->fn->last : NULL;
    if (st->fn_close_line) {
        *line = st->fn_close_line;
        *col = st->fn_close_col;
        return;
    }
    /* Found or not, scanned once per function (many switches: still linear). */
    st->fn_close_line = *line = 1;
    st->fn_close_col = *col = 1;
    if (!body || body->kind != AST_BLOCK) return;
    const char *text;
    if (source_line(st->src, body->line, &text) < 0) return;
    const char *p = text + body->col - 1, *end = st->src->data + st->src->len;
    int depth = 0;
    for (; p < end; p++) {
        if (*p == '/' && p + 1 < end && p[1] == '/') {
            while (p < end && *p != '\n') p++;
        } else if (*p == '/' && p + 1 < end && p[1] == '*') {
            for (p += 2; p + 1 < end && !(p[0] == '*' && p[1] == '/'); p++) {}
            p++;
        } else if (*p == '"') {
            for (p++; p < end && *p != '"' && *p != '\n'; p++)
                if (*p == '\\' && p + 1 < end) p++;
        } else if (*p == '{') {
            depth++;
        } else if (*p == '}' && --depth == 0) {
            source_position(st->src, (size_t)(p - st->src->data), line, col);
            st->fn_close_line = *line;
            st->fn_close_col = *col;
            return;
        }
    }
}

static void missing_case(check_state *st, walk_ctx *w)
{
    stmt_list *l = w->list;
    if (!st->rules->missing_case_statement || !l->is_switch || !l->sw) return;
    if (l->case_state == 1 || l->sw->missing_case_reported) return;
    l->sw->missing_case_reported = 1;
    int line = 1, col = 1;
    if (!w->odd_position) function_close(st, &line, &col);
    check_error_at(st, line, col, "missing case statement");
}

static void leave(walk_ctx *w, flow *f)
{
    f->left = 1;
    w->list->left = 1;
    if (w->list->is_switch) w->list->case_state = 2;
}

static void label(check_state *st, const ast_node *n, walk_ctx *w, flow *f, const flow *before_switch)
{
    int is_case = n->kind == AST_CASE;
    const char *what = is_case ? "case" : "default";
    jump_target *sw = st->rules->labels_nested_in_switch ? w->sw : (w->direct_in_switch ? w->list->sw : NULL);
    if (!sw) {
        check_error_at(st, n->line, n->col, "illegal %s statement", what);
        return;
    }
    /* A label of this switch, even one with a bad value: a case starts here,
    ** from the state before the switch. */
    if (w->list->sw == sw) {
        w->list->case_state = 1;
        w->list->left = 0;
    }
    if (before_switch) *f = *before_switch;
    if (st->rules->devblock_restrictions && sw->dev_depth < w->dev_depth)
        check_error_at(st, n->line, n->col, "cannot use /# ... #/ comments directly around a case statement");
    char key[64];
    const char *k = NULL;
    size_t klen = 0;
    if (is_case) {
        const ast_node *v = n->child;
        /* `case (1):` is a parenthesised expression, not a literal. */
        /* (Read only for a label that would be a literal.) */
        int plain = v && (v->kind == AST_INT || v->kind == AST_STRING) && !v->paren;
        if (plain && v->kind == AST_INT && v->text && v->text[0] != '-') {
            long long x = strtoll(v->text, NULL, 10);
            if (x > 8388607) {
                check_error_at(st, n->line, n->col, "case index %lld out of range", x);
                return;
            }
            /* 'i' and the value's bytes (keys are compared by length and bytes). */
            key[0] = 'i';
            memcpy(key + 1, &x, sizeof x);
            klen = 1 + sizeof x;
            k = key;
        } else if (plain && v->kind == AST_STRING) {
            char *s = arena_alloc(&st->scratch, v->len + 2);
            s[0] = 's';
            memcpy(s + 1, v->text, v->len);
            s[v->len + 1] = 0;
            k = s;
            klen = v->len + 1;
        } else {
            if (v) expr_walk(st, v, ROLE_VALUE, f, w->dev_depth > 0);
            check_error_at(st, n->line, n->col, "case expression must be an int or string");
            return;
        }
    } else {
        k = "d";
        klen = 1;
        sw->has_default = 1;
    }
    if (!sw->in_dev) {
        int is_new;
        ns_add(&sw->labels, k, klen, &is_new);
        if (!is_new) check_error_at(st, n->line, n->col, "duplicate case expression");
    }
}

/* A statement that is the body of if/else/while/for: its own list. */
static void body_walk(check_state *st, const ast_node *n, walk_ctx *w, flow *f, int odd)
{
    stmt_list list = {0, 0, 0, NULL};
    walk_ctx inner = *w;
    inner.list = &list;
    inner.direct_in_switch = 0;
    if (odd) inner.odd_position = 1;
    stmt_walk(st, n, &inner, f);
}

static void list_walk(check_state *st, const ast_node *block, walk_ctx *w, flow *f,
                      const flow *before_switch)
{
    for (const ast_node *c = block->child; c; c = c->next) {
        if (c->kind == AST_CASE || c->kind == AST_DEFAULT) {
            label(st, c, w, f, w->list->sw && w->direct_in_switch ? before_switch : NULL);
            continue;
        }
        if (c->kind != AST_EMPTY && c->kind != AST_ERROR && w->list->is_switch &&
            w->list->case_state != 1)
            missing_case(st, w);
        stmt_walk(st, c, w, f);
    }
}

static int const_true(const cval *v)
{
    return cv_is_num(v) && cv_num(v) != 0;
}

static void loop_walk(check_state *st, const ast_node *cond, const ast_node *step,
                      const ast_node *body, walk_ctx *w, flow *f)
{
    int absent = !cond || cond->kind == AST_EMPTY;
    cval c;
    memset(&c, 0, sizeof c);
    if (!absent) {
        check_expr_eval(st, cond, ROLE_VALUE, f, w->dev_depth > 0, &c);
        if (st->rules->constant_folding && cv_is_num(&c) && cv_num(&c) == 0)
            check_error_at(st, cond->line, cond->col, "conditional expression cannot be always false");
    }
    jump_target loop;
    memset(&loop, 0, sizeof loop);
    loop.dev_depth = w->dev_depth;
    walk_ctx inner = *w;
    inner.loop = inner.brk = &loop;
    flow in = *f;
    if (body) body_walk(st, body, &inner, &in, 1);
    if (step && step->kind != AST_EMPTY) {
        flow post = *f;
        body_walk(st, step, &inner, &post, 1);
    }
    if (absent || const_true(&c)) {
        /* Left only through its breaks. */
        if (loop.have_breaks) *f = loop.breaks;
        else flow_all(f);
    }
}

static void switch_walk(check_state *st, const ast_node *n, walk_ctx *w, flow *f)
{
    const ast_node *e = n->child, *body = e ? e->next : NULL;
    expr_walk(st, e, ROLE_VALUE, f, w->dev_depth > 0);
    jump_target sw;
    memset(&sw, 0, sizeof sw);
    sw.dev_depth = w->dev_depth;
    sw.in_dev = discarded(st, w->dev_depth > 0);
    ns_init(&sw.labels, &st->scratch);
    stmt_list list = {0, 1, 0, &sw};
    walk_ctx inner = *w;
    inner.sw = inner.brk = &sw;
    inner.list = &list;
    inner.direct_in_switch = 1;
    flow before = *f, cur = *f;
    if (body && body->kind == AST_BLOCK) list_walk(st, body, &inner, &cur, &before);
    else if (body) stmt_walk(st, body, &inner, &cur);
    ns_free(&sw.labels);
    if (!sw.has_default) {
        *f = before;
        return;
    }
    flow acc;
    int have = 0;
    if (sw.have_breaks) flow_meet(&acc, &have, &sw.breaks);
    flow_meet(&acc, &have, &cur);
    if (have) *f = acc;
    else {
        *f = before;
        f->left = 1;
    }
}

/* `$name` or `x.self` assigned (or the array base of an element
** assignment, which the compiler also takes as a variable to write). */
static inline int debugger_target(check_state *st, const ast_node *t, walk_ctx *w, flow *f)
{
    if (t->kind == AST_ENTITY) {
        check_error_at(st, t->line, t->col, "$ and self field can only be used in the script debugger");
        return 1;
    }
    if (!is_self_field(st, t)) return 0;
    check_error_at(st, t->child->line, t->child->col, "$ and self field can only be used in the script debugger");
    expr_walk(st, t->child, ROLE_VALUE, f, w->dev_depth > 0);
    return 1;
}

/* Targets of an assignment: `x = ...` assigns x, `x[i] = ...` creates x,
** `x.f = ...`, `x op= ...`, `x++` read x first. */
static void lvalue_walk(check_state *st, const ast_node *lhs, int plain_assign, walk_ctx *w, flow *f)
{
    int in_dev = w->dev_depth > 0;
    if (!lhs) return;
    if (debugger_target(st, lhs, w, f)) return;
    if (lhs->kind == AST_IDENT) {
        if (!plain_assign) check_local_read(st, lhs, f);
        check_local_assign(st, lhs, f);
        return;
    }
    if (lhs->kind == AST_INDEX) {
        /* Down the chain of element bases: indices are read, the base is checked. */
        const ast_node *base = lhs;
        while (base->kind == AST_INDEX && base->child) {
            if (base->child->next) expr_walk(st, base->child->next, ROLE_VALUE, f, in_dev);
            base = base->child;
        }
        if (base == lhs) return;
        if (debugger_target(st, base, w, f)) return;
        int ok = (((base->kind == AST_IDENT && (name_is(base, "game") || !is_object_keyword(base->text))) ||
                   base->kind == AST_MEMBER) &&
                  (st->rules->index_base_paren_ok || !parenthesised_name(base))) ||
                 (st->rules->index_base_call_ok &&
                  (base->kind == AST_CALL || base->kind == AST_METHOD_CALL || base->kind == AST_POINTER_CALL));
        /* Kinds this table does not know (new grammar forms) are not judged. */
        int known = base->kind == AST_IDENT || base->kind == AST_MEMBER || base->kind == AST_CALL ||
                    base->kind == AST_METHOD_CALL || base->kind == AST_POINTER_CALL || not_an_object(base);
        if (!ok && known) check_error_at(st, base->line, base->col, "%s", st->rules->msg_index_base);
        if (base->kind == AST_IDENT) {
            if (!plain_assign) check_local_read(st, base, f);
            check_local_assign(st, base, f);
        } else {
            expr_walk(st, base, ROLE_VALUE, f, in_dev);
        }
        return;
    }
    expr_walk(st, lhs, ROLE_VALUE, f, in_dev); /* x.f: reads x, checks the object */
}

static void dev_restricted(check_state *st, const ast_node *at, walk_ctx *w, const char *msg)
{
    if (st->rules->devblock_restrictions && w->dev_depth > 0) check_error_at(st, at->line, at->col, "%s", msg);
}

static void depth_exceeded(check_state *st, const ast_node *n)
{
    if (st->depth_warned) return;
    st->depth_warned = 1;
    st->locals_overflow = 1; /* no definite-assignment verdicts for the rest */
    diag_add(st->diags, DIAG_WARNING, st->src, n->line, n->col,
             "statements nested deeper than %d: the compile-stage checks skip what is inside",
             MAX_STMT_DEPTH);
}

/* A statement that holds no statement: a call, an assignment, `x++`. */
static inline int is_simple_stmt(ast_kind k)
{
    return k == AST_EXPR_STMT || k == AST_ASSIGN || k == AST_INCDEC;
}

/* After an expression statement's walk: the calls recorded from block b0,
** item `first` on (b0 NULL: from the file's first call) are inside the
** statement's call when the last of them is that call (the walk records a
** call after its arguments). */
static void mark_statement_calls(check_state *st, call_block *b0, size_t first)
{
    call_block *last = st->calls_last;
    if (!last || !last->count) return;
    call_rec *stmt = &last->items[last->count - 1];
    if (stmt->value_used) return; /* not the statement's own call (e.g. path::f()) */
    call_block *b = b0 ? b0 : st->calls;
    size_t i = b0 ? first : 0;
    for (;; b = b->next, i = 0) {
        if (i >= b->count && b != last) continue;
        for (; i < b->count; i++) {
            if (&b->items[i] == stmt) return;
            b->items[i].statement = stmt;
        }
        if (b == last) return;
    }
}

/* stmt_walk of a simple statement, inlined where a list walks one (most
** statements are): with no statement inside, it needs no depth count. */
static inline void simple_stmt(check_state *st, const ast_node *n, walk_ctx *w, flow *f)
{
    int in_dev = w->dev_depth > 0;
    if (n->kind == AST_EXPR_STMT) {
        call_block *b0 = st->calls_last;
        size_t first = b0 ? b0->count : 0;
        expr_walk(st, n->child, ROLE_STATEMENT, f, in_dev);
        if (st->rules->dev_statement_drops_args) mark_statement_calls(st, b0, first);
    } else if (n->kind == AST_ASSIGN) {
        const ast_node *lhs = n->child, *rhs = lhs ? lhs->next : NULL;
        expr_walk(st, rhs, ROLE_VALUE, f, in_dev);
        /* The operator's text is its spelling (no case to fold). */
        lvalue_walk(st, lhs, n->text && n->text[0] == '=' && !n->text[1], w, f);
    } else {
        lvalue_walk(st, n->child, 0, w, f);
    }
}

/* A plain block shares its parent's list; labels directly in it are no
** longer directly in the switch (cod2/cod4). */
/* One element of a plain block's list (or of a streamed function's body). */
static inline void block_element(check_state *st, const ast_node *c, walk_ctx *w, flow *f)
{
    if (c->kind == AST_CASE || c->kind == AST_DEFAULT) {
        label(st, c, w, f, NULL);
        return;
    }
    if (c->kind != AST_EMPTY && c->kind != AST_ERROR && w->list->is_switch && w->list->case_state != 1)
        missing_case(st, w);
    if (is_simple_stmt(c->kind) && w->depth < MAX_STMT_DEPTH) simple_stmt(st, c, w, f);
    else stmt_walk(st, c, w, f);
}

static void block_walk(check_state *st, const ast_node *n, walk_ctx *w, flow *f)
{
    int direct = w->direct_in_switch;
    w->direct_in_switch = 0;
    for (const ast_node *c = n->child; c; c = c->next) block_element(st, c, w, f);
    w->direct_in_switch = direct;
}

/* A /# #/ block inside a function: a list of its own; nothing assigned
** inside counts after it. */
static void devblock_walk(check_state *st, const ast_node *n, walk_ctx *w, const flow *f)
{
    st->dev_seen = 1;
    if (w->dev_depth > 0) check_error_at(st, n->line, n->col, "cannot recurse /#");
    stmt_list list = {0, 0, 0, NULL};
    walk_ctx inner = *w;
    inner.dev_depth++;
    inner.list = &list;
    inner.direct_in_switch = 0;
    inner.odd_position = 1;
    flow dev = *f;
    for (const ast_node *c = n->child; c; c = c->next) {
        if (c->kind == AST_CASE || c->kind == AST_DEFAULT) label(st, c, &inner, &dev, NULL);
        else stmt_walk(st, c, &inner, &dev);
    }
}

/* if/else: what both branches assign is assigned after it. */
static void if_walk(check_state *st, const ast_node *n, walk_ctx *w, flow *f)
{
    const ast_node *cond = n->child, *then = cond ? cond->next : NULL, *els = then ? then->next : NULL;
    expr_walk(st, cond, ROLE_VALUE, f, w->dev_depth > 0);
    flow t = *f;
    body_walk(st, then, w, &t, 0);
    if (!els) return; /* nothing first assigned inside is assigned after */
    flow e = *f;
    body_walk(st, els, w, &e, 0);
    flow acc;
    int have = 0;
    flow_meet(&acc, &have, &t);
    flow_meet(&acc, &have, &e);
    if (have) *f = acc;
    else f->left = 1;
}

static void for_walk(check_state *st, const ast_node *n, walk_ctx *w, flow *f)
{
    const ast_node *init = n->child, *cond = init ? init->next : NULL;
    const ast_node *step = cond ? cond->next : NULL, *body = step ? step->next : NULL;
    if (init && init->kind != AST_EMPTY) {
        /* The init part is a block element of its own (`for (case 1: ;)`). */
        stmt_list list = {0, 0, 0, NULL};
        walk_ctx inner = *w;
        inner.list = &list;
        inner.direct_in_switch = 0;
        stmt_walk(st, init, &inner, f);
    }
    loop_walk(st, cond, step, body, w, f);
}

/* break and continue: legal inside their loop or switch (and, in cod2/cod4,
** not after a leave in the same list); a break's state joins the target's. */
static void jump_walk(check_state *st, const ast_node *n, walk_ctx *w, flow *f)
{
    int brk = n->kind == AST_BREAK;
    jump_target *t = brk ? w->brk : w->loop;
    const char *what = brk ? "break" : "continue";
    if (!t || (st->rules->jump_after_leave_illegal && w->list->left)) {
        check_error_at(st, n->line, n->col, "illegal %s statement", what);
    } else {
        if (st->rules->devblock_restrictions && t->dev_depth < w->dev_depth)
            check_error_at(st, n->line, n->col, "cannot use /# ... #/ comments directly around a %s statement", what);
        if (brk) flow_meet(&t->breaks, &t->have_breaks, f);
    }
    leave(w, f);
}

/* A kind that is no statement this table knows: an expression, or a
** statement form of a newer grammar (such as do-while), whose children are
** walked in order, as a loop for break/continue. */
static void other_walk(check_state *st, const ast_node *n, walk_ctx *w, flow *f)
{
    int in_dev = w->dev_depth > 0;
    if (is_expression_kind(n)) {
        expr_walk(st, n, ROLE_VALUE, f, in_dev);
        return;
    }
    jump_target loop;
    memset(&loop, 0, sizeof loop);
    loop.dev_depth = w->dev_depth;
    walk_ctx inner = *w;
    inner.loop = inner.brk = &loop;
    for (const ast_node *c = n->child; c; c = c->next) {
        if (is_expression_kind(c)) expr_walk(st, c, ROLE_VALUE, f, in_dev);
        else body_walk(st, c, &inner, f, 1);
    }
    f->left = 0;
}

static void stmt_walk(check_state *st, const ast_node *n, walk_ctx *w, flow *f)
{
    if (!n) return;
    if (w->depth >= MAX_STMT_DEPTH) {
        st->dev_seen = 1; /* not seen: may be there */
        depth_exceeded(st, n);
        return;
    }
    w->depth++; /* back at the end: the one way out from here */
    int in_dev = w->dev_depth > 0;
    switch (n->kind) {
    case AST_BLOCK: block_walk(st, n, w, f); break;
    case AST_DEVBLOCK: devblock_walk(st, n, w, f); break;
    case AST_CASE:
    case AST_DEFAULT: label(st, n, w, f, NULL); break; /* a label as an if/loop body */
    case AST_EXPR_STMT:
    case AST_ASSIGN:
    case AST_INCDEC: simple_stmt(st, n, w, f); break;
    case AST_IF: if_walk(st, n, w, f); break;
    case AST_WHILE: {
        const ast_node *cond = n->child;
        loop_walk(st, cond, NULL, cond ? cond->next : NULL, w, f);
        break;
    }
    case AST_FOR: for_walk(st, n, w, f); break;
    case AST_SWITCH: switch_walk(st, n, w, f); break;
    case AST_BREAK:
    case AST_CONTINUE: jump_walk(st, n, w, f); break;
    case AST_RETURN:
        expr_walk(st, n->child, ROLE_VALUE, f, in_dev);
        leave(w, f);
        break;
    case AST_WAIT:
        dev_restricted(st, n, w, "wait not allowed in /# ... #/ comment");
        expr_walk(st, n->child, ROLE_VALUE, f, in_dev);
        break;
    case AST_USING_ANIMTREE:
        /* Every game's parser rejects it here (grammar.md 2.2): the syntax
        ** error is already reported. */
        break;
    case AST_EMPTY:
    case AST_ERROR:
    case AST_WAITTILLFRAMEEND:
    case AST_BREAKPOINT:
        break;
    default: other_walk(st, n, w, f); break;
    }
    w->depth--;
}

/* waittill's extra arguments and the dev restrictions on waittill/waittillmatch
** are found on the call: they are statements written as method calls. */
static void waittill_dev_checks(check_state *st, const ast_node *n, int dev_depth);

/* ---------------------------------------------------------------- functions */

/* A function's walk begins: its parameters are its first locals. */
static void function_setup(check_state *st, const ast_node *fn, int is_dev, flow *f, stmt_list *list,
                           walk_ctx *w)
{
    st->fn = fn;
    st->fn_close_line = st->fn_close_col = 0;
    ns_init(&st->locals, &st->fn_mem);
    if (st->rules->definite_assignment) { /* else never read */
        memset(st->known, 0, sizeof st->known);
        memset(st->reported, 0, sizeof st->reported);
    }
    st->locals_overflow = 0;
    st->local_count = 0;
    st->operand_stack = 0;
    st->depth_warned = 0;
    st->dev_seen = 0;
    memset(f, 0, sizeof *f);
    const ast_node *params = fn->child;
    if (params && params->kind == AST_PARAMS)
        for (const ast_node *p = params->child; p; p = p->next) check_local_assign(st, p, f);
    *list = (stmt_list){0, 0, 0, NULL};
    memset(w, 0, sizeof *w);
    w->dev_depth = is_dev;
    w->list = list;
    if (is_dev) w->odd_position = 1;
}

/* The function's own state let go (its locals). */
static void function_forget(check_state *st)
{
    ns_free(&st->locals);
    st->fn = NULL;
    arena_reset(&st->fn_mem);
}

/* After the whole body: the function as a whole. */
static void function_finish(check_state *st, const ast_node *fn)
{
    /* The engine's estimate is max value-stack depth + 32 x max nested-call
    ** depth > 2047 (grammar.md 3.2); how it counts either term per construct
    ** (and whether a call not inside another's arguments has depth 0 or 1)
    ** is not specified, so only a sure lower bound is used: the largest of
    ** operands that must be on the stack together (call arguments, vector
    ** parts, both sides of an arithmetic operator, a cod2/cod4 folded
    ** constant as one) and, at any one point, those operands plus 32 per
    ** enclosing call beyond the first.  Cases between that bound and the
    ** engine's figure are missed, never the other way. */
    if (st->operand_stack > OPERAND_STACK_MAX && fn->text)
        check_error_at(st, fn->line, fn->col, "function exceeds operand stack size");
    function_forget(st);
}

void check_function_body(check_state *st, const ast_node *fn, int is_dev)
{
    flow f;
    stmt_list list;
    walk_ctx w;
    function_setup(st, fn, is_dev, &f, &list, &w);
    const ast_node *params = fn->child, *body = params ? params->next : NULL;
    if (body) stmt_walk(st, body, &w, &f);
    /* Only code inside /# #/ can break those rules: the walk above meets
    ** every /# #/ block of the body (or notes that it skipped some). */
    if (is_dev || st->dev_seen) waittill_dev_checks(st, body, is_dev);
    function_finish(st, fn);
}

/* What check_function_body keeps on its stack, for a function walked a
** statement at a time, and what undoes the statements' records when the
** function is dropped unfinished. */
struct fn_stream {
    int is_dev;
    flow f;
    stmt_list list;
    walk_ctx w;
    arena_mark scratch_mark;  /* what a statement's walk leaves in scratch goes after it */
    call_block *calls_last;   /* the file's calls where the function began */
    size_t calls_count, scoped_count;
    diag_list *file_diags;    /* st->diags again at the end */
    diag_list diags;          /* the function's own until then */
};

void check_stream_begin(check_state *st, const ast_node *fn, int is_dev)
{
    struct fn_stream *s = st->stream;
    if (!s) {
        s = st->stream = xcalloc(1, sizeof *s);
        diag_init(&s->diags);
    }
    s->is_dev = is_dev;
    s->calls_last = st->calls_last;
    s->calls_count = st->calls_last ? st->calls_last->count : 0;
    s->scoped_count = st->scoped.count;
    s->file_diags = st->diags;
    /* The file's policy; its cap is applied when they join (diag_move_all). */
    s->diags.no_warnings = st->diags->no_warnings;
    s->diags.warnings_as_errors = st->diags->warnings_as_errors;
    s->diags.max_errors = 0;
    st->diags = &s->diags;
    function_setup(st, fn, is_dev, &s->f, &s->list, &s->w);
    s->w.depth = 1; /* as in stmt_walk of the body block */
    arena_reserve(&st->scratch, 1); /* a block to go back to (not a reset per statement) */
    s->scratch_mark = arena_get_mark(&st->scratch);
}

void check_stream_stmt(check_state *st, const ast_node *stmt)
{
    struct fn_stream *s = st->stream;
    /* As check_function_body does for the whole body, statement by
    ** statement: a statement without /# #/ has no waittill to report. */
    st->dev_seen = 0;
    block_element(st, stmt, &s->w, &s->f);
    if (s->is_dev || st->dev_seen) waittill_dev_checks(st, stmt, s->is_dev);
    arena_release(&st->scratch, s->scratch_mark);
}

void check_stream_end(check_state *st, const ast_node *fn, int complete)
{
    struct fn_stream *s = st->stream;
    st->diags = s->file_diags;
    if (complete) {
        /* In check_item's order: the definition, the body, the whole. */
        check_register_function(st, fn, s->is_dev);
        diag_move_all(st->diags, &s->diags);
        function_finish(st, fn);
        return;
    }
    diag_free(&s->diags);
    if (s->calls_last) {
        s->calls_last->count = s->calls_count;
        s->calls_last->next = NULL;
    } else {
        st->calls = NULL;
    }
    st->calls_last = s->calls_last;
    st->scoped.count = s->scoped_count;
    function_forget(st);
}

void check_stream_free(check_state *st)
{
    if (!st->stream) return;
    diag_free(&st->stream->diags);
    free(st->stream);
    st->stream = NULL;
}

/* CoD1/UO: waittill / waittillmatch inside /# #/ or a dev function.  A
** separate iterative pass over the body tracking developer-block depth. */
/* The checks of one node of waittill_dev_checks' walk. */
static inline void waittill_dev_node(check_state *st, const ast_node *n, int dev)
{
    if (!dev) return;
    if (n->kind == AST_WAITTILL || n->kind == AST_WAITTILLMATCH)
        check_error_at(st, n->line, n->col, "%s not allowed in developer script",
                 n->kind == AST_WAITTILL ? "waittill" : "waittillmatch");
    if (n->kind == AST_METHOD_CALL && !name_is(n, "thread")) {
        const ast_node *callee = call_callee(n);
        if (name_is(callee, "waittill") || name_is(callee, "waittillmatch"))
            check_error_at(st, callee->line, callee->col, "%s not allowed in developer script",
                     name_is(callee, "waittill") ? "waittill" : "waittillmatch");
    }
}

static void waittill_dev_visit(void *ud, const ast_node *n, int dev)
{
    waittill_dev_node(ud, n, dev);
}

static void waittill_dev_checks(check_state *st, const ast_node *body, int dev_depth)
{
    if (!st->rules->devblock_restrictions || !body) return;
    ast_walk(&st->dev_walk, body, dev_depth, waittill_dev_visit, st);
}
