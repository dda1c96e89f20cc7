/* AST builders called by the grammar actions (one call per action).  Every
** builder accepts NULL children and never fails: arena allocation aborts the
** process on exhaustion, so no action needs to check anything.
** The builders of the frequent nodes (names, operators, calls, members,
** lists) are inline: the generated parser makes one per token or so, and a
** call per node (with its tokens passed by value) cost more than the node. */
#ifndef ATRC_AST_BUILD_H
#define ATRC_AST_BUILD_H
#include <stdint.h>
#include <string.h>
#include "base/arena.h"
#include "script/ast.h"
#include "script/lexer.h"

static inline ast_node *ast_new(arena *a, ast_kind kind, int line, int col)
{
    ast_node *n = arena_alloc(a, sizeof *n);
    *n = (ast_node){.kind = kind, .line = line, .col = col};
    return n;
}

/* Appends child (may be NULL) to parent (may be NULL); returns parent. */
static inline ast_node *ast_append(ast_node *parent, ast_node *child)
{
    if (!parent || !child) return parent;
    if (parent->last) parent->last->next = child;
    else parent->child = child;
    parent->last = child;
    return parent;
}

/* Gives a new node (no children yet) its children c1, c2 (either may be
** NULL): ast_append twice, without re-reading what was just written. */
static inline ast_node *ast_adopt2(ast_node *n, ast_node *c1, ast_node *c2)
{
    if (c1) {
        n->child = c1;
        if (c2) c1->next = c2;
        n->last = c2 ? c2 : c1;
    } else if (c2) {
        n->child = n->last = c2;
    }
    return n;
}

/* Copies n bytes without a libc call (most names are shorter than 16
** bytes): fixed-size moves that may overlap, never reading or writing
** outside [s, s + n) and [d, d + n). */
static inline void ast_copy_text(char *d, const char *s, size_t n)
{
    if (n >= 16) {
        char x[16];
        for (size_t i = 0; i + 16 < n; i += 16) {
            memcpy(x, s + i, 16);
            memcpy(d + i, x, 16);
        }
        memcpy(x, s + n - 16, 16);
        memcpy(d + n - 16, x, 16);
    } else if (n >= 8) {
        uint64_t x, y;
        memcpy(&x, s, 8);
        memcpy(&y, s + n - 8, 8);
        memcpy(d, &x, 8);
        memcpy(d + n - 8, &y, 8);
    } else if (n >= 4) {
        uint32_t x, y;
        memcpy(&x, s, 4);
        memcpy(&y, s + n - 4, 4);
        memcpy(d, &x, 4);
        memcpy(d + n - 4, &y, 4);
    } else if (n) {
        d[0] = s[0];
        d[n / 2] = s[n / 2];
        d[n - 1] = s[n - 1];
    }
}

/* A node and its NUL-terminated text in one allocation. */
ast_node *ast_text_node(arena *a, ast_kind kind, int line, int col, const char *s, size_t len);

/* A node at tok with no text. */
static inline ast_node *ast_leaf(arena *a, ast_kind kind, gsc_token tok)
{
    return ast_new(a, kind, tok.line, tok.col);
}

/* A node at tok whose text is the token as written (identifiers, numbers, paths). */
static inline ast_node *ast_text_leaf(arena *a, ast_kind kind, gsc_token tok)
{
    /* The token's fields go in registers (a struct argument goes on the stack). */
    return ast_text_node(a, kind, tok.line, tok.col, tok.z, (size_t)tok.n);
}

/* "..." and &"..." with escapes decoded; the token includes the quotes. */
ast_node *ast_string_at(arena *a, ast_kind kind, int line, int col, const char *z, size_t n);
static inline ast_node *ast_string(arena *a, ast_kind kind, gsc_token tok)
{
    return ast_string_at(a, kind, tok.line, tok.col, tok.z, (size_t)tok.n);
}

/* % name: text is the name as written; position is the '%'. */
ast_node *ast_anim(arena *a, gsc_token percent, gsc_token name);
/* (int) / (float) / (string) / (bool) cast of operand. */
ast_node *ast_cast(arena *a, gsc_token tok, ast_node *operand);

/* An empty list node (position set later by ast_finish). */
static inline ast_node *ast_list(arena *a, ast_kind kind)
{
    return ast_new(a, kind, 0, 0);
}

/* A list node holding first. */
static inline ast_node *ast_list1(arena *a, ast_kind kind, ast_node *first)
{
    if (!first) return ast_list(a, kind);
    ast_node *n = ast_new(a, kind, first->line, first->col);
    n->child = n->last = first;
    return n;
}

/* Sets kind and position of a list once its opening token is known. */
static inline ast_node *ast_finish(ast_node *list, ast_kind kind, gsc_token open)
{
    if (!list) return NULL;
    list->kind = kind;
    list->line = open.line;
    list->col = open.col;
    return list;
}

static inline ast_node *ast_node1(arena *a, ast_kind kind, gsc_token tok, ast_node *c1)
{
    ast_node *n = ast_leaf(a, kind, tok);
    n->child = n->last = c1;
    return n;
}

static inline ast_node *ast_node2(arena *a, ast_kind kind, gsc_token tok, ast_node *c1,
                                  ast_node *c2)
{
    return ast_adopt2(ast_leaf(a, kind, tok), c1, c2);
}

ast_node *ast_include(arena *a, gsc_token hash, gsc_token path);
ast_node *ast_using_animtree(arena *a, gsc_token hash, gsc_token str);
ast_node *ast_function(arena *a, gsc_token name, gsc_token lparen, ast_node *params,
                       ast_node *body);

/* Appends parameter name to params, creating the list when params is NULL. */
ast_node *ast_param(arena *a, ast_node *params, gsc_token name);

static inline ast_node *ast_expr_stmt(arena *a, ast_node *call)
{
    if (!call) return ast_new(a, AST_EXPR_STMT, 0, 0);
    ast_node *n = ast_new(a, AST_EXPR_STMT, call->line, call->col);
    n->child = n->last = call;
    return n;
}

/* Operator nodes: text is the operator's constant spelling (no copy). */
ast_node *ast_assign(arena *a, gsc_token op, ast_node *lhs, ast_node *rhs);

ast_node *ast_incdec(arena *a, gsc_token op, ast_node *operand);

static inline ast_node *ast_if(arena *a, gsc_token kw, ast_node *cond, ast_node *then,
                               ast_node *otherwise)
{
    return ast_append(ast_node2(a, AST_IF, kw, cond, then), otherwise);
}

ast_node *ast_if_broken(arena *a, gsc_token kw, ast_node *then, ast_node *otherwise);
/* Absent clauses (NULL) become AST_EMPTY at the `for`. */
ast_node *ast_for(arena *a, gsc_token kw, ast_node *init, ast_node *cond, ast_node *step,
                  ast_node *body);
ast_node *ast_switch(arena *a, gsc_token kw, ast_node *expr, gsc_token lbrace, ast_node *body);

ast_node *ast_binary(arena *a, gsc_token op, ast_node *lhs, ast_node *rhs);

ast_node *ast_unary(arena *a, gsc_token op, ast_node *operand);

/* A call's AST_ARGS: the list the grammar built, or an empty one. */
static inline ast_node *ast_args(arena *a, gsc_token lparen, ast_node *args)
{
    if (!args) args = ast_list(a, AST_ARGS);
    return ast_finish(args, AST_ARGS, lparen);
}

/* f(args): the call node and the callee's AST_IDENT (with its name) are one
** allocation. */
ast_node *ast_call(arena *a, gsc_token name, gsc_token lparen, ast_node *args);

/* path::f(args) */
ast_node *ast_scoped_call(arena *a, gsc_token path, gsc_token name, gsc_token lparen,
                          ast_node *args);
/* [[ pointer ]](args) */
ast_node *ast_pointer_call(arena *a, gsc_token open, ast_node *pointer, gsc_token lparen,
                           ast_node *args);

/* [object] [thread] call: turns a call into a method call on object (may be NULL). */
static inline ast_node *ast_call_on(arena *a, ast_node *object, ast_node *call, int threaded)
{
    (void)a;
    if (!call) return NULL;
    if (threaded) {
        call->text = "thread";
        call->len = 6;
    }
    if (object) {
        if (call->kind == AST_CALL) call->kind = AST_METHOD_CALL;
        object->next = call->child;
        call->child = object;
        if (!call->last) call->last = object;
        call->line = object->line;
        call->col = object->col;
    }
    return call;
}

/* ::f (path NULL) or path::f */
ast_node *ast_func_ref(arena *a, const gsc_token *path, gsc_token dcolon, gsc_token name);

static inline ast_node *ast_member(arena *a, ast_node *object, gsc_token name)
{
    ast_node *n = ast_text_node(a, AST_MEMBER, name.line, name.col, name.z, (size_t)name.n);
    n->child = n->last = object;
    return n;
}

/* ( items ): one item is itself (parentheses), any other count an AST_VECTOR. */
ast_node *ast_paren(arena *a, gsc_token lparen, ast_node *items);
/* Puts first before the children of list (may be NULL) and moves the list there. */
ast_node *ast_prepend(ast_node *list, ast_node *first);
/* obj waittill/waittillmatch/notify/endon ( args ): kind, object, AST_ARGS. */
ast_node *ast_event(arena *a, ast_kind kind, ast_node *object, gsc_token keyword, gsc_token lparen,
                    ast_node *args);
/* prof_begin("s") / prof_end("s") */
ast_node *ast_prof(arena *a, gsc_token kw, gsc_token str);
/* $name */
ast_node *ast_entity(arena *a, gsc_token dollar, gsc_token name);

#endif
