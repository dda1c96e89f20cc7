/* The one context the Lemon parser (grammar/gsc_parser.y) carries as its
** %extra_context, shared with the driver in script_parse.c and the recovery
** in syntax_recovery.c. */
#ifndef ATRC_PARSE_CTX_H
#define ATRC_PARSE_CTX_H
#include <stddef.h>
#include "base/arena.h"
#include "script/ast.h"
#include "script/ast_build.h"
#include "script/lexer.h"
#include "gsc_parser.h"
#include "base/vec.h"
#include "game/anim_builtins.h"

struct gsc_recovery;

typedef struct gsc_parse_ctx {
    arena *a;
    gsc_lexer *lx;     /* source, diagnostics, error cap, open brackets */
    struct gsc_recovery *rec; /* the syntax-error recovery's state (syntax_recovery.h) */
    ast_node *root;    /* AST_FILE; complete top-level items are appended as reduced */
    const gsc_token *cur; /* the token being fed: locates errors and recovery nodes */
    int prev_code;     /* the code of the token fed before it */
    /* Streaming mode (script_parse_each, root NULL): each complete top-level
    ** item goes to on_item (if any), then the arena is reset. */
    void (*on_item)(void *ud, ast_node *item, int holds);
    void *item_ud;
    /* Functions in pieces too (stream_functions; never with root): a
    ** function at file level, not inside a G1 /# #/ item (dev_items: the
    ** dev items being parsed), is open_fn while its body is parsed, its
    ** elements appended to its body (stream_body).  Once they hold more
    ** than stream_chunk bytes of the arena above stmt_mark (taken after the
    ** header; weighed every stream_every elements, counted down in
    ** stream_left; the arena is below stream_limit until then), they go to
    ** on_function (if any) -- after the header, the first time (streamed)
    ** -- and the arena goes back to the mark; at its end the rest follow,
    ** then the end (script_parse.h: SCRIPT_FN_*).  A function that never
    ** reached the chunk goes to on_item whole, as before.  begun_body: the
    ** body of the header just reduced, for gsc_function_body. */
    int stream_functions, dev_items, streamed, stream_every, stream_left;
    size_t stream_chunk, stream_limit;
    void (*on_function)(void *ud, int event, const ast_node *node, int holds);
    ast_node *open_fn, *stream_body, *begun_body;
    arena_mark stmt_mark;
    /* Animation syntax tokens (%name, #animtree, #using_animtree) fed so
    ** far, and at the previous item: an item without any is not walked. */
    int cur_code, anim_tokens, anim_tokens_seen, lookahead_was_anim;
    /* Calls of a name of the animation builtins reduced so far (the
    ** grammar's fcall), and at the previous item: the run-time checks walk
    ** only an item with one.  A call is reduced before its item (or the
    ** piece of a function holding it) is, and never with only the one
    ** token of lookahead that may belong to the next. */
    int anim_calls, anim_calls_seen;
    /* A cod2/cod4 top-level '#/' with no '/#' open: the compile stage's
    ** error, so each becomes a marker item (AST_DEVBLOCK "#/", no children),
    ** handed on after the item before it, which the parser reduces later. */
    VEC(struct gsc_marker { int line; int col; }) markers;
} gsc_parse_ctx;

/* A complete top-level item was reduced: append it to root, or hand it to
** on_item and recycle the arena (nothing on the parser stack points into it
** at that moment: the lookahead token points into the source buffer). */
void gsc_file_item(gsc_parse_ctx *ctx, ast_node *item);

/* A top-level /# #/ item's list begins (dev_items counts it), and the item
** is complete (gsc_profile_dev_item, then the count goes back). */
ast_node *gsc_dev_items(gsc_parse_ctx *ctx);
ast_node *gsc_dev_item(gsc_parse_ctx *ctx, gsc_token open, ast_node *items, gsc_token close);

/* A function's header was reduced (its '{' is lbrace): returns its node, the
** body an empty block; a function at file level may be handed on in pieces. */
ast_node *gsc_function_begin(gsc_parse_ctx *ctx, gsc_token name, gsc_token lparen, ast_node *params,
                             gsc_token lbrace);
/* The body block of the header just reduced (its elements' list). */
ast_node *gsc_function_body(gsc_parse_ctx *ctx);
/* Every stream_every elements of open_fn's body: once they hold more than
** the chunk, hands them on and releases their memory (nothing on the parser
** stack points into it: the function's node, parameters and body were
** allocated before the mark, and tokens point into the source buffer). */
void gsc_function_chunk(gsc_parse_ctx *ctx);
/* An element of a function's body, appended (inline: it runs per statement). */
static inline ast_node *gsc_function_element(gsc_parse_ctx *ctx, ast_node *body, ast_node *stmt)
{
    ast_append(body, stmt);
    /* (Only open_fn's body counts down: a body built whole starts at INT_MAX.) */
    if (--ctx->stream_left == 0) gsc_function_chunk(ctx);
    return body;
}

/* The end of the file: a function left open is cut, a last stray '#/'
** handed on. */
void gsc_items_end(gsc_parse_ctx *ctx);
/* Animation syntax: %name (TK_PERCENT, then its name: a modulo too, so only
** ever too many), #animtree, #using_animtree -- the driver's FEED_ANIM tokens. */
static inline int gsc_anim_token(int code)
{
    return code == TK_PERCENT || code == TK_ANIMTREE || code == TK_USING_ANIMTREE;
}

/* f(args) by its name (the grammar's fcall): a call of a name of the
** animation builtins is counted (anim_calls; a thread call or a script
** function of that name too: only ever too many). */
static inline ast_node *gsc_call(gsc_parse_ctx *ctx, gsc_token name, gsc_token lparen, ast_node *args)
{
    size_t len = (size_t)name.n;
    if (anim_builtin_may_be(name.z, len)) ctx->anim_calls += anim_builtin_find_len(name.z, len, -1) != NULL;
    return ast_call(ctx->a, name, lparen, args);
}

/* Lemon's generated entry points (%name GscParse). */
void *GscParseAlloc(void *(*alloc)(size_t), gsc_parse_ctx *ctx);
void GscParse(void *parser, int code, gsc_token tok);
void GscParseFree(void *parser, void (*release)(void *));

/* The automaton, as the recovery asks it (gsc_parser.y's %code).
** Error countdown: -1 when no error is pending; else Lemon stays silent until
** it reaches 0, set to 3 at an error and counted down at each shift (3: no
** token shifted since the error).  Resync: end the silence.  Top is error:
** the error symbol is on top of the stack. */
int GscParseErrorCountdown(void *parser);
void GscParseResync(void *parser);
int GscParseTopIsError(void *parser);
/* The parser's stack and its top index; whether `code` could come next on a
** stack (the parser's own or a copy from GscParseCopyStack).  The answer is
** simulated within GSC_SIM_STEPS reductions, so that asking at every
** statement boundary keeps parsing linear: deeper stacks (hostile `if`
** ladders) just answer no. */
#define GSC_SIM_STEPS 64
const void *GscParseStack(void *parser, int *top);
int GscParseStackAccepts(const void *stack, int top, int code);
/* Copies the top `max` entries (or all) of the stack to `to` (room for max
** entries of GscParseStackEntrySize() bytes); returns the copy's top index. */
size_t GscParseStackEntrySize(void);
int GscParseCopyStack(void *parser, void *to, int max);
/* Sets ok[t] for every terminal t the parser could take next (ok[0], the end
** of file, is 0); returns the number of terminals (at most GSC_TERMINALS_MAX). */
#define GSC_TERMINALS_MAX 128
int GscParseExpected(void *parser, unsigned char *ok);
/* The longest rule's length (a unit test checks the line snapshot's bound). */
int GscParseLongestRule(void);

#endif
