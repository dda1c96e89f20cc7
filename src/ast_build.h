/* AST builders called by the grammar actions (one call per action).  Every
** builder accepts NULL children and never fails: arena allocation aborts the
** process on exhaustion, so no action needs to check anything. */
#ifndef ATRC_AST_BUILD_H
#define ATRC_AST_BUILD_H
#include "arena.h"
#include "ast.h"
#include "lexer.h"

ast_node *ast_new(arena *a, ast_kind kind, int line, int col);
/* Appends child (may be NULL) to parent (may be NULL); returns parent. */
ast_node *ast_append(ast_node *parent, ast_node *child);
/* A node at tok with no text. */
ast_node *ast_leaf(arena *a, ast_kind kind, gsc_token tok);
/* A node at tok whose text is the token as written (identifiers, numbers, paths). */
ast_node *ast_text_leaf(arena *a, ast_kind kind, gsc_token tok);
/* "..." and &"..." with escapes decoded; the token includes the quotes. */
ast_node *ast_string(arena *a, ast_kind kind, gsc_token tok);
/* % name: text is the name as written; position is the '%'. */
ast_node *ast_anim(arena *a, gsc_token percent, gsc_token name);
/* (int) / (float) / (string) / (bool) cast of operand. */
ast_node *ast_cast(arena *a, gsc_token tok, ast_node *operand);
/* An empty list node (position set later by ast_finish). */
ast_node *ast_list(arena *a, ast_kind kind);
/* A list node holding first. */
ast_node *ast_list1(arena *a, ast_kind kind, ast_node *first);
/* Sets kind and position of a list once its opening token is known. */
ast_node *ast_finish(ast_node *list, ast_kind kind, gsc_token open);
ast_node *ast_node1(arena *a, ast_kind kind, gsc_token tok, ast_node *c1);
ast_node *ast_node2(arena *a, ast_kind kind, gsc_token tok, ast_node *c1, ast_node *c2);
ast_node *ast_include(arena *a, gsc_token hash, gsc_token path);
ast_node *ast_using_animtree(arena *a, gsc_token hash, gsc_token str);
ast_node *ast_function(arena *a, gsc_token name, gsc_token lparen, ast_node *params,
                       ast_node *body);
/* Appends parameter name to params, creating the list when params is NULL. */
ast_node *ast_param(arena *a, ast_node *params, gsc_token name);
ast_node *ast_expr_stmt(arena *a, ast_node *call);
ast_node *ast_assign(arena *a, gsc_token op, ast_node *lhs, ast_node *rhs);
ast_node *ast_incdec(arena *a, gsc_token op, ast_node *operand);
ast_node *ast_if(arena *a, gsc_token kw, ast_node *cond, ast_node *then, ast_node *otherwise);
ast_node *ast_if_broken(arena *a, gsc_token kw, ast_node *then, ast_node *otherwise);
/* Absent clauses (NULL) become AST_EMPTY at the `for`. */
ast_node *ast_for(arena *a, gsc_token kw, ast_node *init, ast_node *cond, ast_node *step,
                  ast_node *body);
ast_node *ast_switch(arena *a, gsc_token kw, ast_node *expr, gsc_token lbrace, ast_node *body);
ast_node *ast_binary(arena *a, gsc_token op, ast_node *lhs, ast_node *rhs);
ast_node *ast_unary(arena *a, gsc_token op, ast_node *operand);
/* f(args) */
ast_node *ast_call(arena *a, gsc_token name, gsc_token lparen, ast_node *args);
/* path::f(args) */
ast_node *ast_scoped_call(arena *a, gsc_token path, gsc_token name, gsc_token lparen,
                          ast_node *args);
/* [[ pointer ]](args) */
ast_node *ast_pointer_call(arena *a, gsc_token open, ast_node *pointer, gsc_token lparen,
                           ast_node *args);
/* [object] [thread] call: turns a call into a method call on object (may be NULL). */
ast_node *ast_call_on(arena *a, ast_node *object, ast_node *call, int threaded);
/* ::f (path NULL) or path::f */
ast_node *ast_func_ref(arena *a, const gsc_token *path, gsc_token dcolon, gsc_token name);
ast_node *ast_member(arena *a, ast_node *object, gsc_token name);
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
