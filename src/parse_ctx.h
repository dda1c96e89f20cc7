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
} gsc_parse_ctx;

/* Lemon's generated entry points (%name GscParse). */
void *GscParseAlloc(void *(*alloc)(size_t), gsc_parse_ctx *ctx);
void GscParse(void *parser, int code, gsc_token tok);
void GscParseFree(void *parser, void (*release)(void *));
/* Ends Lemon's error-silence window at a statement boundary (gsc_parser.y). */
void GscParseResync(void *parser);

#endif
