/* The run-time animation checks (runtime-anim.md sections 5 and 6, E1-E10
** and E12): the errors the engines raise while a level runs when a script
** hands an animation builtin a wrong argument, predicted from the literal
** arguments of each call once the trees are built.
**
** In two parts, like the compile stage (frontend.h):
**   FILE-LOCAL (runtime_calls.c, a per-item pass on the worker): each call
**   of an animation builtin (src/anim_builtins.h) that the file does not
**   define itself, with its argument count and what each literal argument
**   is (kind, value, position) — a few bytes per call;
**   GLOBAL (runtime_anim.c, the context's thread): the replay keeps each
**   file's calls in compile order and binds their %name arguments to the
**   file's references; after link (link_trees) every call is decided in
**   that order and its first certain failure, in the handler's step order,
**   is one warning at the offending argument (or the call, for counts). */
#ifndef ATRC_RUNTIME_ANIM_H
#define ATRC_RUNTIME_ANIM_H
#include <stdint.h>
#include "atrc.h"
#include "base/source.h"

struct ast_node;
struct fe_file;
struct anim_ref;

/* What a literal argument is (runtime-anim.md's "Literal"). */
typedef enum {
    RT_LIT_NONE = 0, /* not a literal: decided at run time */
    RT_LIT_ANIM,     /* %name */
    RT_LIT_ANIMTREE, /* #animtree (an int to the engine) */
    RT_LIT_STRING,
    RT_LIT_ISTRING,  /* &"..." */
    RT_LIT_INT,
    RT_LIT_FLOAT,
    RT_LIT_VECTOR,   /* (x, y, z) of numeric literals */
    RT_LIT_UNDEFINED
} rt_literal;

typedef struct rt_arg {
    unsigned char lit;           /* rt_literal */
    int line, col;               /* its first token ('%' of %name, '-' of -1) */
    double number;               /* RT_LIT_INT, RT_LIT_FLOAT */
    uint32_t text, text_len;     /* RT_LIT_STRING: its bytes in the record's text */
    const struct anim_ref *ref;  /* RT_LIT_ANIM: its reference, bound by the replay (or NULL) */
} rt_arg;

typedef struct rt_call {
    uint16_t row;                /* index in anim_builtins[] */
    unsigned char in_dev;        /* inside /# #/ */
    int line, col;               /* the builtin's name */
    uint32_t argc;               /* arguments as written */
    uint32_t first;              /* its first argument in args (at most ANIM_MAX_ARGS kept) */
} rt_call;

/* One file's calls: filled by the pass, replayed, then kept by the context
** (the arrays in its arena) until the checks have run. */
typedef struct rt_calls {
    rt_call *calls;
    size_t call_count;
    rt_arg *args;
    size_t arg_count;
    char *text;                  /* string literals' bytes */
    size_t text_len;
} rt_calls;

/* ---- the pass (FE_PASS_RUNTIME in the driver's table; runtime_calls.c) ---- */
void *runtime_pass_begin(struct fe_file *f);
void runtime_pass_item(void *state, struct fe_file *f, const struct ast_node *item);
void runtime_pass_fn_begin(void *state, struct fe_file *f, const struct ast_node *fn);
void runtime_pass_stmts(void *state, struct fe_file *f, const struct ast_node *first);
void runtime_pass_fn_end(void *state, struct fe_file *f, const struct ast_node *fn, int complete);
void runtime_pass_end(void *state, struct fe_file *f);
void runtime_pass_release(void *state);
void *runtime_pass_copy(const void *state);
/* The calls a finished pass recorded (NULL state: none). */
const rt_calls *runtime_pass_calls(const void *state);

/* ---- the global part (runtime_anim.c) ---- */
/* Keeps f's calls (FE_PASS_RUNTIME's record) for the checks, their %name
** arguments bound to the references the compile replay has just made for
** src, from first_ref on (NULL: none). */
void runtime_replay(atrc_ctx *ctx, struct fe_file *f, source_file *src, struct anim_ref *first_ref);
/* After link: every kept call decided, warnings in compile order. */
void runtime_check(atrc_ctx *ctx);

#endif
