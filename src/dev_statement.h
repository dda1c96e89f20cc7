/* A statement that calls a developer-only builtin (grammar.md 3.1, 3.2):
** with developer_script 0, CoD2 and CoD4 drop such a statement whole,
** arguments and object included, as they drop /# #/ code, so nothing inside
** it is resolved, loaded or counted.  The checks (check_resolve.c), the load
** walk's reference lists (script_refs.c, walk.c) and the compile records
** (compile.c) each note which statement a reference is part of and ask
** dev_statement_dropped here, once the file's own functions are known. */
#ifndef ATRC_DEV_STATEMENT_H
#define ATRC_DEV_STATEMENT_H
#include "ast.h"
#include "builtins.h"
#include "profile.h"
#include "text.h"

#include <string.h>

/* The call an expression statement consists of when it may be a builtin
** call: `name(...)` or `obj name(...)`, not `thread`, name a plain word;
** else NULL. */
static inline const ast_node *dev_statement_call(const ast_node *stmt)
{
    const ast_node *call = stmt && stmt->kind == AST_EXPR_STMT ? stmt->child : NULL;
    if (!call || (call->kind != AST_CALL && call->kind != AST_METHOD_CALL)) return NULL;
    if (call->text && text_equal_nocase(call->text, "thread")) return NULL;
    const ast_node *callee = call->kind == AST_CALL ? call->child : call->child ? call->child->next : NULL;
    return callee && callee->kind == AST_IDENT && callee->text ? call : NULL;
}

/* The called name of a dev_statement_call. */
static inline const ast_node *dev_statement_name(const ast_node *call)
{
    return call->kind == AST_CALL ? call->child : call->child->next;
}

/* Whether the game drops a statement calling `name` (lower case; a method
** when `method`) that the file does not define as a function: retail
** (developer_script 0) cod2/cod4, and `name` a developer builtin of the run's
** lists for its game mode (set: the extensions and user lists, may be NULL). */
int dev_statement_dropped(const profile_rules *rules, const builtin_set *set, const atrc_options *opts,
                          const char *name, int method);

#endif
