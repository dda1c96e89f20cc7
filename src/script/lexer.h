/* GSC lexer (grammar/gsc_lexer.re): tokens point into the source buffer and
** are passed by value; nothing is allocated per token.  Token codes are the
** parser's TK_* (build/gsc_parser.h). */
#ifndef ATRC_LEXER_H
#define ATRC_LEXER_H
#include <stddef.h>
#include "base/diag.h"
#include "base/source.h"
#include "script/syntax_log.h"
#include "base/vec.h"
#include "atrc.h"
#include "game/builtins.h"

typedef struct gsc_token {
    const char *z; /* first byte of the token in the source buffer */
    int n;         /* length in bytes */
    int line, col; /* 1-based; col counts bytes */
} gsc_token;

/* Deepest bracket nesting a script may have; deeper input is reported once and
** the file is abandoned (hostile input must not exhaust the parser stack). */
#define GSC_MAX_NESTING 1000

typedef struct gsc_opener {
    int kind; /* token code of the opening bracket */
    int line, col;
} gsc_opener;

struct profile_rules;

/* CoD4x's script preprocessor (`#if isSyscallDefined NAME`, `#else`,
** `#endif`): on when the run's builtin set holds the cod4x extension, the
** condition asked of the builtins the run resolves calls against.  Data from
** the context, so that the script stage needs nothing above it. */
typedef struct gsc_preproc {
    const struct profile_rules *rules;
    const builtin_set *set;  /* the run's extensions and user lists */
    atrc_game_mode mode;
} gsc_preproc;

/* Whether pp (may be NULL) runs CoD4x's preprocessor. */
int gsc_preproc_on(const gsc_preproc *pp);

/* An open `#if` block of the preprocessor. */
typedef struct gsc_cond {
    int line, col;  /* the #if */
    int in_else;    /* its #else was seen */
    int active;     /* the branch being read is compiled */
} gsc_cond;

typedef struct gsc_lexer {
    source_file *src;
    const struct profile_rules *rules; /* the game's keywords and tokens */
    syntax_log *log;     /* the file's error cap and what recovery notes */
    const unsigned char *cur, *end, *line_start;
    int line;
    VEC(gsc_opener) open; /* unclosed brackets, innermost last */
    int token_count;     /* tokens returned so far */
    const gsc_preproc *pp; /* CoD4x's preprocessor when on, else NULL (the stock game's) */
    VEC(gsc_cond) conds;  /* open #if blocks, innermost last */
} gsc_lexer;

/* Errors go to log (syntax_log_init'ed by the caller, who frees it after the
** lexer). */
void gsc_lexer_init(gsc_lexer *lx, source_file *src, const struct profile_rules *rules,
                    syntax_log *log);
void gsc_lexer_free(gsc_lexer *lx);
/* Runs CoD4x's preprocessor on the file when pp says so (call before the
** first token). */
void gsc_lexer_use_preproc(gsc_lexer *lx, const gsc_preproc *pp);
/* Next token; 0 at end of file (also once log->stopped). */
int gsc_lexer_next(gsc_lexer *lx, gsc_token *tok);
/* Reports a located error to the log (syntax_log_reportv); the report that
** exceeds the cap stops the file. */
void gsc_lexer_error(gsc_lexer *lx, int line, int col, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* The innermost bracket still open, or NULL. */
const gsc_opener *gsc_lexer_innermost_open(const gsc_lexer *lx);
/* Forgets the '(' and '[' left open on the top of the bracket stack
** (above the innermost '{' or '/#'): the driver calls this where error
** recovery has put the parser back at the start of a statement on a new
** line, so they were abandoned by an error (`foo(1, 2;`).  They no longer
** mute later errors nor are named at end of file; a closer that comes later
** without an opener answers one of them (see syntax_log's abandoned_closer). */
void gsc_lexer_abandon_brackets(gsc_lexer *lx);
/* Inserts an opener below the top `below_top` entries of the bracket stack
** (the driver supplies a '{' the script forgot). */
void gsc_lexer_insert_open(gsc_lexer *lx, int below_top, int kind, int line, int col);
/* Token names for dumps ("SEMI") and how to spell a token kind in a message
** ("';'", "identifier"); NULL for codes that are not tokens. */
const char *gsc_token_name(int code);
const char *gsc_token_spelling(int code);
/* Highest token code + 1 (for tables and tests). */
int gsc_token_count(void);
/* Every token code is below this (tokens.c checks it when it is compiled):
** the length of tables indexed by token code. */
#define GSC_TOKEN_CODES 128

#endif
