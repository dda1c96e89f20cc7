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
    const gsc_token *cur; /* the token being fed: locates errors and recovery nodes */
    int prev_code;     /* the code of the token fed before it */
    /* The first token of the line being fed, its code, the token before it,
    ** and whether a ';' could have ended a statement just before it: an error
    ** on that line may really be a missing ';' at the end of the line before. */
    gsc_token line_first;
    int line_first_code;
    gsc_token line_prev;
    int line_semi_ok;       /* -1: not yet asked (GscParseLineSemiOk) */
    void *line_stack;       /* the parser's states as the line began (the top part) */
    int line_stack_top;
    int verify_line_starts;    /* tests: check each line start known without */
    int no_profile_hint;       /* the other grammar's probe (profile_hint): no probe of its own */
    int line_start_mismatches; /* the stack against the parser (see run_parse) */
    gsc_token func_name; /* name of the function whose body is being parsed */
    int mute;            /* the driver feeds synthetic closers: no messages */
    int syntax_errors;   /* syntax errors the parser met (reported or not) */
    int quiet;           /* after an unterminated string: consequences unreported */
    int fn_error;        /* an error inside the current function: a stray '}'
                         ** after it is its consequence */
    /* Streaming mode (script_parse_each, root NULL): each complete top-level
    ** item goes to on_item (if any), then the arena is reset. */
    void (*on_item)(void *ud, ast_node *item, int anim_syntax);
    void *item_ud;
    /* Animation syntax tokens (%name, #animtree, #using_animtree) fed so
    ** far, and at the previous item: an item without any is not walked. */
    int cur_code, anim_tokens, anim_tokens_seen, lookahead_was_anim;
    /* A cod2/cod4 top-level '#/' with no '/#' open: the compile stage's
    ** error, so each becomes a marker item (AST_DEVBLOCK "#/", no children),
    ** handed on after the item before it, which the parser reduces later. */
    struct gsc_marker { int line, col; } *markers;
    size_t marker_count, marker_cap;
} gsc_parse_ctx;

/* A complete top-level item was reduced: append it to root, or hand it to
** on_item and recycle the arena (nothing on the parser stack points into it
** at that moment: the lookahead token points into the source buffer). */
void gsc_file_item(gsc_parse_ctx *ctx, ast_node *item);

/* Lemon's generated entry points (%name GscParse). */
void *GscParseAlloc(void *(*alloc)(size_t), gsc_parse_ctx *ctx);
void GscParse(void *parser, int code, gsc_token tok);
void GscParseFree(void *parser, void (*release)(void *));
/* Statement-boundary hooks for the driver (gsc_parser.y).  Recovering: an
** error was reported and Lemon is still muting the next ones.  Discarded
** last: the token just fed did not shift (recovery threw it away).  At
** statement start: a statement or a top-level item may begin here (a bounded
** check, so calling it at every boundary keeps parsing linear).  Resync: end
** the mute.  Stuck on error: the error symbol is on top of the stack and
** `code` cannot follow it, so recovery would throw `code` away. */
int GscParseRecovering(void *parser);
int GscParseDiscardedLast(void *parser);
int GscParseAtStatementStart(void *parser);
int GscParseStuckOnError(void *parser, int code);
/* The parser could take `code` next. */
int GscParseAccepts(void *parser, int code);
/* A ';' would end a statement here (and a new one could not start). */
int GscParseSemiWouldEnd(void *parser);
/* At the first token of a line, before it is fed: keep what
** GscParseLineSemiOk needs (a copy of the stack's top part).  Then
** GscParseLineSemiOk: there was a token before the line and a ';' could have
** ended a statement just before it; answered once per line, when asked. */
void GscParseNoteLineStart(void *parser, gsc_parse_ctx *ctx);
int GscParseLineSemiOk(gsc_parse_ctx *ctx);
/* For the unit test of the snapshot's bound: the longest rule's length, the
** snapshot's entries and the simulation's step budget. */
int GscParseLongestRule(void);
int GscParseSnapshotBound(void);
int GscParseSimSteps(void);
void GscParseResync(void *parser);

#endif
