/* The grammar's item hooks (parse_ctx.h): what the parser's actions do when
** a top-level item, a function header, a chunk of a long function's body or
** a /# #/ item is reduced -- appended to the file's root, or handed on to
** the per-item passes with the arena recycled (script_parse.h's streaming). */
#include "script/parse_ctx.h"
#include "script/script_parse.h"
#include "script/syntax_messages.h"
#include "gsc_parser.h"

#include <limits.h>

static void file_item(gsc_parse_ctx *ctx, ast_node *item);

/* The marker item of a stray top-level '#/' (see gsc_parse_ctx). */
static void flush_marker(gsc_parse_ctx *ctx)
{
    for (size_t i = 0; i < ctx->markers.count; i++)
        file_item(ctx, ast_text_node(ctx->a, AST_DEVBLOCK, ctx->markers.items[i].line, ctx->markers.items[i].col,
                                     "#/", 2));
    ctx->markers.count = 0;
}

void gsc_file_item(gsc_parse_ctx *ctx, ast_node *item)
{
    ctx->dev_items = 0; /* at file level (an error may have dropped a /# item) */
    file_item(ctx, item);
    flush_marker(ctx);
}

/* What the item (or streamed piece) reduced now holds (SCRIPT_HOLDS_*),
** counted since the one before.  Its tokens have all been fed, and perhaps
** one more: the lookahead that reduced it, which belongs to the next one
** (a piece's last token, ';', '}', ':' or '#/', never counts). */
static int take_holds(gsc_parse_ctx *ctx)
{
    int lookahead_anim = gsc_anim_token(ctx->cur_code);
    int anim_syntax = ctx->anim_tokens - lookahead_anim != ctx->anim_tokens_seen || ctx->lookahead_was_anim;
    int anim_call = ctx->anim_calls != ctx->anim_calls_seen;
    ctx->anim_tokens_seen = ctx->anim_tokens;
    ctx->lookahead_was_anim = lookahead_anim;
    ctx->anim_calls_seen = ctx->anim_calls;
    return (anim_syntax ? SCRIPT_HOLDS_ANIM_SYNTAX : 0) | (anim_call ? SCRIPT_HOLDS_ANIM_CALL : 0);
}

/* The function open at file level will not be reduced (the parser dropped
** it): cut, if it was handed on in part. */
static void function_dropped(gsc_parse_ctx *ctx)
{
    if (ctx->streamed && ctx->on_function) ctx->on_function(ctx->item_ud, SCRIPT_FN_CUT, ctx->open_fn, 0);
    ctx->open_fn = ctx->stream_body = NULL;
    ctx->streamed = 0;
}

/* The elements of body (detached from it) to on_function, as one run. */
static void hand_on(gsc_parse_ctx *ctx, ast_node *body, int holds)
{
    ast_node *first = body->child;
    body->child = body->last = NULL;
    if (!ctx->on_function) return;
    if (!ctx->streamed) ctx->on_function(ctx->item_ud, SCRIPT_FN_BEGIN, ctx->open_fn, 0);
    if (first) ctx->on_function(ctx->item_ud, SCRIPT_FN_STMTS, first, holds);
}

void gsc_function_chunk(gsc_parse_ctx *ctx)
{
    if (!ctx->stream_body) { /* a body built whole: INT_MAX more elements */
        ctx->stream_left = INT_MAX;
        return;
    }
    ctx->stream_left = ctx->stream_every;
    if (arena_used(ctx->a) <= ctx->stream_limit) return;
    /* One set of flags for the chunk: a statement without animation syntax
    ** may be walked for it, never the other way. */
    hand_on(ctx, ctx->stream_body, ctx->on_function ? take_holds(ctx) : 0);
    arena_release(ctx->a, ctx->stmt_mark);
    if (!ctx->streamed) {
        /* A long function: room for its chunks from now on (one block, not
        ** the small ones a fresh arena grows by, taken per chunk). */
        ctx->streamed = 1;
        arena_reserve(ctx->a, 2 * ctx->stream_chunk);
        ctx->stmt_mark = arena_get_mark(ctx->a);
        ctx->stream_limit = arena_used(ctx->a) + ctx->stream_chunk;
    }
}

static void file_item(gsc_parse_ctx *ctx, ast_node *item)
{
    if (ctx->root) {
        ast_append(ctx->root, item);
        return;
    }
    int holds = take_holds(ctx);
    if (ctx->open_fn && item == ctx->open_fn && ctx->streamed) {
        hand_on(ctx, ctx->stream_body, holds);
        if (ctx->on_function) ctx->on_function(ctx->item_ud, SCRIPT_FN_END, item, holds);
    } else {
        if (ctx->open_fn && item != ctx->open_fn) function_dropped(ctx);
        if (item && ctx->on_item) ctx->on_item(ctx->item_ud, item, holds);
    }
    ctx->open_fn = ctx->stream_body = NULL;
    ctx->streamed = 0;
    arena_reset(ctx->a);
}

/* How often (in elements) a function's body is weighed against the chunk. */
#define WEIGH_EVERY 16

ast_node *gsc_function_begin(gsc_parse_ctx *ctx, gsc_token name, gsc_token lparen, ast_node *params,
                             gsc_token lbrace)
{
    if (ctx->open_fn) function_dropped(ctx); /* the one before was dropped */
    ast_node *body = ast_finish(ast_list(ctx->a, AST_BLOCK), AST_BLOCK, lbrace);
    ast_node *fn = ast_function(ctx->a, name, lparen, params, body);
    ctx->begun_body = body;
    ctx->stream_left = INT_MAX; /* built whole */
    if (!ctx->stream_functions || ctx->root || ctx->dev_items > 0) return fn;
    ctx->open_fn = fn;
    ctx->stream_body = body;
    ctx->stmt_mark = arena_get_mark(ctx->a);
    ctx->stream_limit = arena_used(ctx->a) + ctx->stream_chunk;
    ctx->stream_every = ctx->stream_left = ctx->stream_chunk ? WEIGH_EVERY : 1;
    return fn;
}

ast_node *gsc_function_body(gsc_parse_ctx *ctx)
{
    return ctx->begun_body;
}

ast_node *gsc_dev_items(gsc_parse_ctx *ctx)
{
    ctx->dev_items++;
    return ast_list(ctx->a, AST_DEVBLOCK);
}

ast_node *gsc_dev_item(gsc_parse_ctx *ctx, gsc_token open, ast_node *items, gsc_token close)
{
    ctx->dev_items--;
    return gsc_profile_dev_item(ctx, open, items, close);
}

void gsc_items_end(gsc_parse_ctx *ctx)
{
    if (ctx->open_fn) function_dropped(ctx); /* the end of file came inside it */
    flush_marker(ctx); /* a '#/' after the last item */
}
