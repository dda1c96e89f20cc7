/* What one script names outside itself, in the compiler's emission order
** (load-order.md 3.4, 3.7): its `#include`s, its `path::func` references, its
** references to its own functions, the functions it defines and the trees its
** `#using_animtree` directives name.  Collected item by item by a pure
** function of the AST (no registry, no game files), so it can run wherever a
** file is parsed; the load walk (walk.c) and its link step consume the list. */
#ifndef ATRC_SCRIPT_REFS_H
#define ATRC_SCRIPT_REFS_H
#include <stddef.h>
#include "base/arena.h"
#include "script/ast.h"
#include "base/text.h"
#include "base/vec.h"

typedef enum {
    SCRIPT_REF_INCLUDE = 0, /* #include path */
    SCRIPT_REF_FAR,         /* path::func (call, thread, method, pointer) */
    SCRIPT_REF_LOCAL        /* func(), thread func(), obj func(), ::func */
} script_ref_kind;

typedef struct script_ref {
    script_ref_kind kind;
    const char *file;        /* canonical script name (include, far); NULL for local */
    const char *func;        /* lower case; NULL for an include */
    const char *func_spelling; /* func as written (for messages) */
    int line, col;           /* the #include, the path token, or the name / `::` */
    int developer;           /* inside /# #/: the game drops it unless developer_script */
    int maybe_builtin;       /* plain non-thread call: an engine builtin if one has the name */
    /* Inside the call statement `name(...)` / `obj name(...)` (not thread):
    ** its name in lower case (NULL: none) and whether it is a method.  When
    ** that name is a developer builtin the game drops the statement whole in
    ** retail (cod2/cod4), as it drops /# #/ code: the walk decides
    ** (check/dev_statement.h) and sets `dropped`. */
    const char *stmt_call;
    int stmt_method;
    int dropped;
} script_ref;

typedef struct script_func {
    const char *name;        /* lower case */
    const char *spelling;    /* as written (for messages) */
    int line, col;
    int developer;           /* defined inside a top-level /# #/ */
} script_func;

typedef struct script_tree {
    const char *name;        /* as written in #using_animtree (lower-cased) */
    int line, col;
} script_tree;

/* The walk's scratch stack; its steps are script_refs.c's own. */
typedef VEC_STRUCT(script_refs_stack, struct script_refs_step) script_refs_stack;

typedef struct script_refs {
    arena mem;               /* names; lives as long as the list */
    VEC(script_ref) refs;    /* emission order; includes in directive order */
    VEC(script_func) funcs;  /* definition order */
    VEC(script_tree) trees;  /* #using_animtree directives, file order */
    script_refs_stack stack; /* walk scratch, reused from item to item */
    size_t fn_refs, fn_funcs, fn_trees; /* the lists' lengths where a function in pieces began */
} script_refs;

/* The call an expression statement consists of when it may be a builtin
** call: `name(...)` or `obj name(...)`, not `thread`, name a plain word;
** else NULL.  (In retail a developer builtin's statement is dropped whole:
** check/dev_statement.h.) */
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

void script_refs_init(script_refs *r);
void script_refs_free(script_refs *r);
/* Appends from's lists to to (initialized), names copied into to's arena. */
void script_refs_append_copy(script_refs *to, const script_refs *from);
/* Appends what one top-level item (function, directive, developer block)
** names, in emission order.  Reads nothing but the item. */
void script_refs_collect(script_refs *r, const ast_node *item);
/* A function item in pieces: its node (the body still empty) here, then each
** statement of its body to script_refs_collect; script_refs_function_cut
** forgets what they added when the function is dropped unfinished. */
void script_refs_function_begin(script_refs *r, const ast_node *fn);
void script_refs_function_cut(script_refs *r);

/* The engine's canonical script name (load-order.md 3.1), in a: name[0, len)
** through text_canonical_name (bytes below 0x20 skipped, ASCII lower case,
** `\` as `/`, leading and repeated separators dropped); the extension is kept. */
char *script_canonical_name(arena *a, const char *name, size_t len);

#endif
