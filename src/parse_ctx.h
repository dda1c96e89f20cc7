/* The one context the Lemon parser (grammar/gsc_parser.y) carries as its
** %extra_context, shared with the driver in script_parse.c. */
#ifndef ATRC_PARSE_CTX_H
#define ATRC_PARSE_CTX_H
#include <stddef.h>
#include "arena.h"
#include "ast.h"
#include "lexer.h"

typedef struct gsc_parse_ctx {
    arena *a;
    gsc_lexer *lx;     /* source, diagnostics, error cap, open brackets */
    ast_node *root;    /* AST_FILE; complete top-level items are appended as reduced */
    gsc_token cur;     /* the token being fed: locates errors and recovery nodes */
    /* Streaming mode (script_parse_each, root NULL): each complete top-level
    ** item goes to on_item (if any), then the arena is reset. */
    void (*on_item)(void *ud, ast_node *item);
    void *item_ud;
} gsc_parse_ctx;

/* A complete top-level item was reduced: append it to root, or hand it to
** on_item and recycle the arena (nothing on the parser stack points into it
** at that moment: the lookahead token points into the source buffer). */
void gsc_file_item(gsc_parse_ctx *ctx, ast_node *item);

/* Lemon's generated entry points (%name GscParse). */
void *GscParseAlloc(void *(*alloc)(size_t), gsc_parse_ctx *ctx);
void GscParse(void *parser, int code, gsc_token tok);
void GscParseFree(void *parser, void (*release)(void *));
/* Ends Lemon's error-silence window at a statement boundary (gsc_parser.y). */
void GscParseResync(void *parser);

#endif
