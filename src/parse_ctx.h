/* The one context the Lemon parser (grammar/gsc_parser.y) carries as its
** %extra_context, shared with the driver in script_parse.c and the recovery
** in syntax_recovery.c. */
#ifndef ATRC_PARSE_CTX_H
#define ATRC_PARSE_CTX_H
#include <stddef.h>
#include "arena.h"
#include "ast.h"
#include "lexer.h"
#include "vec.h"

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
    void (*on_item)(void *ud, ast_node *item, int anim_syntax);
    void *item_ud;
    /* Streaming functions too (stream_functions; never with root): a
    ** function at file level, not inside a G1 /# #/ item (dev_items: the
    ** dev items being parsed), goes to on_function (if any) as its header,
    ** each element of its body's own list as it is reduced -- after which
    ** the arena goes back to stmt_mark, taken after the header -- and its
    ** end (script_parse.h: SCRIPT_FN_*).  streamed: that function's node
    ** while it is open; open_body: a function's body block to build whole,
    ** from its header to the body's first reduction (gsc_function_body). */
    int stream_functions, dev_items;
    void (*on_function)(void *ud, int event, const ast_node *node, int anim_syntax);
    const ast_node *streamed;
    ast_node *open_body;
    arena_mark stmt_mark;
    /* Animation syntax tokens (%name, #animtree, #using_animtree) fed so
    ** far, and at the previous item: an item without any is not walked. */
    int cur_code, anim_tokens, anim_tokens_seen, lookahead_was_anim;
    /* A cod2/cod4 top-level '#/' with no '/#' open: the compile stage's
    ** error, so each becomes a marker item (AST_DEVBLOCK "#/", no children),
    ** handed on after the item before it, which the parser reduces later. */
    VEC(struct gsc_marker { int line; int col; }) markers;
} gsc_parse_ctx;

/* A complete top-level item was reduced: append it to root, or hand it to
** on_item and recycle the arena (nothing on the parser stack points into it
** at that moment: the lookahead token points into the source buffer). */
void gsc_file_item(gsc_parse_ctx *ctx, ast_node *item);

/* A function's header was reduced (its '{' is lbrace): returns its node, the
** body an empty block, and starts streaming it when ctx says so. */
ast_node *gsc_function_begin(gsc_parse_ctx *ctx, gsc_token name, gsc_token lparen, ast_node *params,
                             gsc_token lbrace);
/* The body block the elements are appended to, or NULL when the function
** is streamed. */
ast_node *gsc_function_body(gsc_parse_ctx *ctx);
/* An element of a streamed function's body: handed on, then its memory is
** released (nothing on the parser stack points into it: the function's
** node and parameters were allocated before the mark, and tokens point
** into the source buffer).  Returns NULL (the body list of a streamed
** function). */
ast_node *gsc_function_stmt(gsc_parse_ctx *ctx, ast_node *stmt);

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
