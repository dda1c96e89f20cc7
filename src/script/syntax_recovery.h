/* Syntax-error recovery: what the driver (run_parse in script_parse.c) does
** around each token so that one mistake gives one error and parsing goes on.
** Lemon's own recovery (the grammar's `error` rules, its three-token silence
** after an error) does the rest; the wording is in syntax_messages.c and the
** error cap in syntax_log.c.
**
** A state machine, one state per file, moved on token by token:
**
**   CLEAN          no error so far, no token read ahead, not verifying: the
**                  driver's fast path feeds the tokens (feed_plain), asking
**                  the lexer's brackets instead of the parser where it can
**                  (recovery_clean_so_far).
**   READING        every token is looked at before it is fed (the repairs
**                  below), then fed.
**   SKIP_STATEMENT the rest of a statement after a syntax error inside it
**                  goes unread, up to its ';' at the statement's '(' depth
**                  (skip_depth), a brace, a '/#' or '#/', the end of file, or
**                  a new line with a bracket of the statement still open.
**   SKIP_ITEM      after a syntax error between functions (outside every
**                  bracket) everything up to the next item is one mistake:
**                  skipped up to a function header at the start of a line, a
**                  directive, a '/#' in column 1, or a ';' outside brackets
**                  (the end of the broken item); the end of file ends it.
**   RESYNC_AT_LINE a statement boundary (';', '{', '}') came with a '(' or
**                  '[' still open (`foo(1, 2;`) where a statement may start:
**                  if the next token starts a new line (or is the end of
**                  file), those brackets count as abandoned and Lemon's
**                  silence ends; either way the next token is READING.
**
** Transitions after a token is fed (recovery_after_feed): an error it caused
** outside every bracket -> SKIP_ITEM; inside a bracket, unless it was a
** closer, ';' or brace or the parser is in an `if` header -> SKIP_STATEMENT;
** a boundary as above -> RESYNC_AT_LINE; otherwise CLEAN when its conditions
** hold, else READING.  Skipping ends in READING (before_feed); a
** skipped token or a stray '#/' marker leaves the state as it is.
**
** Orthogonal to the state: `mute` while the driver feeds tokens of its own
** (no messages), `quiet` after an unterminated string (its line's
** consequences go unreported until the next statement), `fn_error` (an error
** inside the current function makes a stray '}' after it a consequence). */
#ifndef ATRC_SYNTAX_RECOVERY_H
#define ATRC_SYNTAX_RECOVERY_H
#include "gsc_parser.h"
#include "base/inline.h"
#include "script/lexer.h"
#include "script/parse_ctx.h"
#include "script/syntax_log.h"

typedef enum recovery_state {
    RECOVERY_CLEAN,
    RECOVERY_READING,
    RECOVERY_SKIP_STATEMENT,
    RECOVERY_SKIP_ITEM,
    RECOVERY_RESYNC_AT_LINE
} recovery_state;

/* How a file is parsed: for its diagnostics; as the other grammar's silent
** probe (the profile hint, see profile_hint in script_parse.c); or, for the
** tests, checking every shortcut of the CLEAN state against the parser. */
typedef enum recovery_mode { RECOVERY_REPORT, RECOVERY_PROBE, RECOVERY_VERIFY } recovery_mode;

/* Tokens read ahead of the parser (the function-header check). */
#define RECOVERY_LOOKAHEAD 64
/* Entries of the parser's stack kept at a line start (recovery_snapshot_line). */
#define RECOVERY_SNAPSHOT 1024

typedef struct gsc_recovery {
    syntax_log log;      /* the file's error log (the lexer's log points here) */
    gsc_parse_ctx *ctx;
    gsc_lexer *lx;
    void *parser;
    recovery_state state;
    int skip_depth;      /* SKIP_STATEMENT: the '(' depth of the broken statement */
    int syntax_errors;   /* syntax errors the parser met (reported or not) */
    int mute, quiet, fn_error; /* see above */
    gsc_token func_name; /* name of the function whose body is being parsed */
    gsc_token top_name;  /* the last name seen outside any block */
    /* The first token of the line being fed, its code, the token before it,
    ** and whether a ';' could have ended a statement just before it: an error
    ** on that line may really be a missing ';' at the end of the line before. */
    gsc_token line_first;
    int line_first_code;
    gsc_token line_prev;
    int line_semi_ok;    /* -1: not yet asked (recovery_line_semi_ok) */
    /* The lexer's brackets as the line began: how many were open and the
    ** innermost one (kind 0: none).  An error on a line that opened inside
    ** a '(' or '[' of an earlier line and has its own brackets balanced may
    ** be the earlier line left unfinished (unfinished_line_above). */
    size_t line_open_count;
    gsc_opener line_inner;
    int reread_line;     /* after_error puts the line's tokens back to be read as a statement */
    void *line_stack;    /* the parser's states as the line began (the top part) */
    int line_stack_top;
    recovery_mode mode;
    int line_start_mismatches; /* RECOVERY_VERIFY: the shortcuts against the parser */
    /* The lookahead, a ring of ahead_count tokens from ahead_head (last:
    ** recovery_init leaves the ring itself unset). */
    int ahead_head, ahead_count;
    gsc_token ahead[RECOVERY_LOOKAHEAD];
    int ahead_code[RECOVERY_LOOKAHEAD];
} gsc_recovery;

/* Starts the recovery of a file: its log first (for the lexer), then, once
** the lexer is ctx->lx and the parser allocated, recovery_attach sets
** ctx->rec.  recovery_free frees the log too. */
void recovery_init(gsc_recovery *rec, source_file *src, diag_list *diags, recovery_mode mode);
void recovery_attach(gsc_recovery *rec, gsc_parse_ctx *ctx, void *parser);
void recovery_free(gsc_recovery *rec);

/* The next token for the READING and skipping states: read ahead, or lexed. */
static ALWAYS_INLINE int recovery_next_token(gsc_recovery *rec, gsc_token *tok)
{
    if (rec->ahead_count) {
        *tok = rec->ahead[rec->ahead_head];
        int code = rec->ahead_code[rec->ahead_head];
        rec->ahead_head = (rec->ahead_head + 1) % RECOVERY_LOOKAHEAD;
        rec->ahead_count--;
        return code;
    }
    return gsc_lexer_next(rec->lx, tok);
}

/* One token (code; prev: the token fed before it) through the state machine
** in every state but CLEAN: the skipping and the repairs, then the feed, then
** the transition.  RECOVERY_FED: fed; RECOVERY_DONE: dealt with otherwise
** (skipped, or fed here); RECOVERY_STOP: the parse is over. */
enum { RECOVERY_FED, RECOVERY_DONE, RECOVERY_STOP, RECOVERY_FEED };
int recovery_feed(gsc_recovery *rec, int code, const gsc_token *tok, const gsc_token *prev);
/* The transition after the CLEAN state's fast path fed a token (code) that
** caused the file's first error (or ended it).  Returns 1 when the parse is
** over. */
int recovery_after_feed(gsc_recovery *rec, int code, int errors_before);

/* Lemon's %syntax_error: counts the error, and reports it
** (syntax_msg_expected) unless it is the consequence of one already
** reported. */
void recovery_syntax_error(void *parser, gsc_parse_ctx *ctx, int major, gsc_token tok);

/* At the first token of a line, before it is fed: there was a token before
** the line and a ';' could have ended a statement just before it (answered
** once per line, when asked: see recovery_note_line_start). */
int recovery_line_semi_ok(gsc_recovery *rec);

/* ---- for the CLEAN state's fast path (inline: it runs at every token) ---- */

/* No error so far: then the lexer's brackets and the last token tell where
** the parser stands, which spares it a simulation:
** - after a ';', '{' or '}' outside any '(' or '[', the parser is where a
**   statement or a top-level item begins (every ';' outside brackets ends a
**   statement or a directive; braces open and close blocks): a ';' there
**   could not end anything (recovery_after_boundary);
** - with a '{' open, the parser is inside a function body, where a '{' is
**   taken exactly where a statement may start: no function header can be
**   missing its '{' there;
** - the parser is not recovering (only an error starts that), and with a
**   '(' or '[' open it is inside an expression or a `for` header, where no
**   statement can start: a boundary there ends no recovery.
** The tests check all three against the parser on every parse
** (RECOVERY_VERIFY, script_verify_line_starts). */
static ALWAYS_INLINE int recovery_clean_so_far(const gsc_recovery *rec)
{
    return rec->syntax_errors == 0 && rec->log.errors == 0;
}

static ALWAYS_INLINE int recovery_inside_brackets(const gsc_lexer *lx)
{
    /* Read in place (gsc_lexer_innermost_open): this runs at every ';'. */
    if (!lx->open.count) return 0;
    int kind = lx->open.items[lx->open.count - 1].kind;
    return kind != TK_LBRACE && kind != TK_DEVOPEN;
}

/* The token fed last was a ';', '{' or '}' outside any '(' or '['. */
static ALWAYS_INLINE int recovery_after_boundary(const gsc_parse_ctx *ctx, const gsc_lexer *lx)
{
    return (ctx->prev_code == TK_SEMI || ctx->prev_code == TK_LBRACE || ctx->prev_code == TK_RBRACE) &&
           !recovery_inside_brackets(lx);
}

void recovery_snapshot_line(gsc_recovery *rec);
void recovery_verify_item_start(gsc_recovery *rec);

/* The first token of a line, before it is fed: what the missing-';'
** diagnosis needs.  item_start: the parser is known to be where an item
** begins (a token came before, and the file is clean after a boundary). */
static ALWAYS_INLINE void recovery_note_line_start(gsc_recovery *rec, const gsc_token *tok, int code,
                                                   const gsc_token *prev, int item_start)
{
    rec->line_first = *tok;
    rec->line_first_code = code;
    rec->line_prev = *prev;
    /* The token is lexed: a bracket it opens is on the stack but is the
    ** line's own; one it closes is gone (then, and with tokens read ahead
    ** of it, nothing is recorded). */
    const gsc_lexer *lx = rec->lx;
    size_t n = lx->open.count;
    if (n && (code == TK_LP || code == TK_LBRACKET || code == TK_LBRACE || code == TK_DEVOPEN)) n--;
    rec->line_open_count = n;
    rec->line_inner.kind = 0;
    if (n && rec->ahead_count == 0 && code != TK_RP && code != TK_RBRACKET && code != TK_RBRACE && code != TK_DEVCLOSE)
        rec->line_inner = lx->open.items[n - 1];
    if (item_start) {
        rec->line_semi_ok = 0; /* known without the stack */
        if (rec->mode == RECOVERY_VERIFY) recovery_verify_item_start(rec);
    } else {
        recovery_snapshot_line(rec);
    }
}

#endif
