/* The script AST: one generic n-ary node type, arena-allocated per file.
** Children are in source order, so a pre-order walk visits directives,
** animation literals and `#animtree` in the order the compiler must.
** Shapes a later stage can rely on (grammar.md 2.1):
** - `self`, `level`, `game`, `anim` are keywords, parsed as AST_IDENT nodes
**   with that text: no local variable can have these names.
** - A negative literal is AST_UNARY "-" over AST_INT/AST_FLOAT (there is no
**   other unary minus); `!` and `~` are AST_UNARY over any expression.
** - `( ... )` with one element is that element; with 0, 2, 3, 4... elements it
**   is an AST_VECTOR with that many children (only 3 is valid: compile stage).
** - AST_CASE / AST_DEFAULT may appear in any block (the compile stage judges
**   the place); a G1 switch body may be any statement, not only AST_BLOCK.
** - AST_FOR's init is a whole block element (possibly AST_BLOCK, AST_IF,
**   AST_CASE...); an absent cond/step is AST_EMPTY.
** - G1 drops a leading empty argument/parameter: `f(, x)` has one argument. */
#ifndef ATRC_AST_H
#define ATRC_AST_H
#include <stddef.h>
#include "base/arena.h"
#include "base/vec.h"

/* ORDER: ast_kind_names[] in ast.c */
typedef enum {
    AST_FILE,             /* children: top-level items */
    AST_INCLUDE,          /* text: path as written (maps\mp\_utility) */
    AST_USING_ANIMTREE,   /* text/len: the string's decoded contents; line/col: the '#' */
    AST_FUNCTION,         /* text: name; children: AST_PARAMS, AST_BLOCK */
    AST_PARAMS,           /* children: AST_IDENT */
    AST_BLOCK,            /* children: statements */
    AST_DEVBLOCK,         /* `/# ... #/`; children: statements */
    AST_EXPR_STMT,        /* child: expression */
    AST_ASSIGN,           /* text: operator ("=", "+=", ...); children: lhs, rhs */
    AST_INCDEC,           /* text: "++" or "--"; child: operand */
    AST_IF,               /* children: cond, then[, else] */
    AST_WHILE,            /* children: cond, body */
    AST_FOR,              /* children: init, cond, step, body (absent clauses are AST_EMPTY) */
    AST_SWITCH,           /* children: expr, AST_BLOCK of AST_CASE/AST_DEFAULT and statements */
    AST_CASE,             /* child: label expression */
    AST_DEFAULT,
    AST_BREAK,
    AST_CONTINUE,
    AST_RETURN,           /* optional child */
    AST_WAIT,             /* child: expression */
    AST_WAITTILLFRAMEEND,
    AST_EMPTY,            /* `;`, or an absent for-clause */
    AST_BINARY,           /* text: operator; children: lhs, rhs */
    AST_UNARY,            /* text: "!", "~", "-"; child: operand */
    AST_CALL,             /* children: callee (AST_IDENT or AST_SCOPED), AST_ARGS; text "thread" when threaded */
    AST_METHOD_CALL,      /* children: object, callee, AST_ARGS; text "thread" when threaded */
    AST_POINTER_CALL,     /* children: [object,] pointer expr, AST_ARGS; text "thread" when threaded */
    AST_ARGS,             /* children: arguments */
    AST_SCOPED,           /* path::name; text: "path::name" */
    AST_FUNC_REF,         /* ::f or path::f; text as written */
    AST_MEMBER,           /* text: field name; child: object */
    AST_INDEX,            /* children: object, index */
    AST_EMPTY_ARRAY,      /* [] */
    AST_VECTOR,           /* children: x, y, z */
    AST_INT,              /* text: as written */
    AST_FLOAT,            /* text: as written */
    AST_STRING,           /* text/len: decoded contents */
    AST_ISTRING,          /* &"REF"; text: decoded contents */
    AST_TRUE,
    AST_FALSE,
    AST_UNDEFINED,
    AST_IDENT,            /* text: name */
    AST_ANIM,             /* %name; text: name as written; line/col: the '%' */
    AST_ANIMTREE,         /* #animtree; line/col: the '#' */
    AST_ERROR,            /* what error recovery skipped */
    AST_CAST,             /* G1 (int) (float) (string) (bool); text: the type name; child: operand */
    AST_BREAKPOINT,       /* `breakpoint;` (G2: a debugger stop) */
    AST_DO_WHILE,         /* `do body while (cond);` (G1); children: body, cond */
    AST_WAITTILL,         /* `obj waittill(event, a, b);` statement; children: object, AST_ARGS
                          ** (event expression, then the AST_IDENT variables it assigns) */
    AST_WAITTILLMATCH,    /* `obj waittillmatch(e, ...);`; children: object, AST_ARGS (1+ exprs) */
    AST_NOTIFY,           /* `obj notify(e, ...);`; children: object, AST_ARGS (1+ exprs) */
    AST_ENDON,            /* `obj endon(e);`; children: object, AST_ARGS (exactly 1 expr) */
    AST_SIZE,             /* `obj.size` (the size operator, one token); child: object */
    AST_ENTITY,           /* `$name` (G2 debugger form); text: name; line/col: the '$' */
    AST_BREAKON,          /* `obj breakon(e)` (G2 debugger form); children: object, e */
    AST_PROF,             /* `prof_begin("s");` / `prof_end("s");` (G2); text: the keyword;
                          ** child: AST_STRING */
    AST_KIND_COUNT
} ast_kind;

typedef struct ast_node {
    ast_kind kind;
    int line, col;          /* 1-based; col counts bytes */
    unsigned char paren;    /* the whole of a parenthesised expression: `(a)` */
    const char *text;       /* may be NULL; NUL-terminated, may contain NULs when len says so */
    size_t len;
    struct ast_node *child; /* first child */
    struct ast_node *last;  /* last child */
    struct ast_node *next;  /* next sibling */
} ast_node;

const char *ast_kind_name(ast_kind k);

/* A pre-order walk of a node and everything below it, with each node's
** `/# #/` state: iterative, as a long `a+a+a+...` chain makes the AST as
** deep as the file is long.  It goes down to first children and on to next
** siblings; the stack (the caller's, kept to be reused) holds only the next
** sibling of each node it went down from, with the state it shares with
** that node.  in_dev: the walk starts inside a /# #/ block; it is set below
** an AST_DEVBLOCK. */
typedef struct ast_walk_item {
    const ast_node *node;
    int in_dev;
} ast_walk_item;
/* Its count stays 0: a walk keeps its depth in a local (a register, not a
** store per node), and only the room is kept from walk to walk. */
typedef VEC_STRUCT(ast_walk_stack, ast_walk_item) ast_walk_stack;

/* Frees a walk stack's memory (it stays usable: the next walk grows it again). */
static inline void ast_walk_stack_free(ast_walk_stack *stack)
{
    VEC_FREE(*stack);
}

/* visit(ud, node, in_dev) for each node (inlined with its visitor where the
** caller names a static function). */
static inline void ast_walk(ast_walk_stack *stack, const ast_node *root, int in_dev,
                            void (*visit)(void *ud, const ast_node *n, int in_dev), void *ud)
{
    size_t top = 0;
    const ast_node *n = root;
    visit(ud, n, in_dev);
    in_dev |= n->kind == AST_DEVBLOCK;
    for (n = n->child; n;) {
        visit(ud, n, in_dev);
        if (n->child) {
            if (n->next) {
                VEC_RESERVE(*stack, top + 1);
                stack->items[top++] = (ast_walk_item){n->next, in_dev};
            }
            in_dev |= n->kind == AST_DEVBLOCK;
            n = n->child;
        } else if (n->next) {
            n = n->next;
        } else if (top) {
            top--;
            in_dev = stack->items[top].in_dev;
            n = stack->items[top].node;
        } else {
            n = NULL;
        }
    }
}

#endif
