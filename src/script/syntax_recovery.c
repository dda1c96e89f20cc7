/* Syntax-error recovery: the driver's state machine (see syntax_recovery.h). */
#include "script/syntax_recovery.h"
#include "game/profile.h"
#include "script/syntax_messages.h"
#include "base/text.h"
#include "base/vec.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- the parser's state, as recovery asks it ---- */

/* An error was reported and Lemon is still muting the next ones. */
static int parser_recovering(void *parser)
{
    return GscParseErrorCountdown(parser) >= 0;
}

/* No token shifted since the last error: the token just fed was the one in
** error, or recovery threw it away. */
static int parser_discarded_last(void *parser)
{
    return GscParseErrorCountdown(parser) == 3;
}

static int parser_accepts(void *parser, int code)
{
    int top;
    const void *stack = GscParseStack(parser, &top);
    return GscParseStackAccepts(stack, top, code);
}

/* A statement or a top-level item may begin here (a bounded check, so
** asking at every boundary keeps parsing linear). */
static int parser_at_statement_start(void *parser)
{
    return parser_accepts(parser, TK_IF) || parser_accepts(parser, TK_USING_ANIMTREE);
}

/* The error symbol is on top of the stack and `code` cannot follow it, so
** Lemon's recovery would throw `code` away. */
static int parser_stuck_on_error(void *parser, int code)
{
    return GscParseTopIsError(parser) && !parser_accepts(parser, code);
}

/* A ';' would end a statement on this stack (and a new one could not start).
** Cheapest answer first: most lines start where a statement may. */
static int semi_would_end(const void *stack, int top)
{
    return !GscParseStackAccepts(stack, top, TK_IF) &&
           !GscParseStackAccepts(stack, top, TK_USING_ANIMTREE) &&
           GscParseStackAccepts(stack, top, TK_SEMI);
}

static int parser_semi_would_end(void *parser)
{
    int top;
    const void *stack = GscParseStack(parser, &top);
    return semi_would_end(stack, top);
}

/* ---- the line start record ----
** The question "could a ';' have ended a statement just before this line?"
** matters only when the line then has a syntax error, so it is answered
** then, on a copy of the parser's stack taken as the line began: copying a
** few entries per line costs far less than simulating the automaton.  Only
** the top RECOVERY_SNAPSHOT entries are kept: GSC_SIM_STEPS reductions of
** rules of at most GscParseLongestRule() symbols never read deeper (a unit
** test checks the bound against the generated tables). */

void recovery_snapshot_line(gsc_recovery *rec)
{
    if (!rec->line_stack) rec->line_stack = xmalloc(RECOVERY_SNAPSHOT * GscParseStackEntrySize());
    rec->line_stack_top = GscParseCopyStack(rec->parser, rec->line_stack, RECOVERY_SNAPSHOT);
    rec->line_semi_ok = -1;
}

void recovery_verify_item_start(gsc_recovery *rec)
{
    if (parser_semi_would_end(rec->parser) || parser_recovering(rec->parser)) rec->line_start_mismatches++;
}

int recovery_line_semi_ok(gsc_recovery *rec)
{
    if (rec->line_semi_ok < 0)
        rec->line_semi_ok = rec->line_prev.z && semi_would_end(rec->line_stack, rec->line_stack_top);
    return rec->line_semi_ok;
}

/* ---- the reports ---- */

/* What ends a statement or makes one and no argument can hold: a ';' after
** a call's ')', an assignment, '++' or '--'. */
static int statement_token(int major, int prev_code)
{
    switch (major) {
    case TK_SEMI: return prev_code == TK_RP;
    case TK_ASSIGN: case TK_PLUSEQ: case TK_MINUSEQ: case TK_STAREQ: case TK_SLASHEQ: case TK_PERCENTEQ:
    case TK_ANDEQ: case TK_OREQ: case TK_XOREQ: case TK_SHLEQ: case TK_SHREQ: case TK_INC: case TK_DEC:
        return 1;
    default:
        return 0;
    }
}

/* The opener o, of an earlier line than the token at z (line, col), opens
** a control statement's header (`if (`, `while (`, `for (`, `switch (`):
** the parser's error recovery keeps such a header, so the line after it is
** no statement of its own.  Read from the text, back from z to o's line
** (only when an error asks). */
static int opens_header(const gsc_opener *o, const char *data, const char *z, int line, int col)
{
    if (o->kind != TK_LP) return 0;
    const char *p = z - (col - 1); /* the start of z's line */
    for (; line > o->line && p > data; line--) {
        p--; /* the '\n' ending the line before */
        while (p > data && p[-1] != '\n') p--;
    }
    if (line != o->line) return 0;
    const char *e = p + (o->col - 1); /* the '(' */
    while (e > p && (e[-1] == ' ' || e[-1] == '\t')) e--;
    const char *w = e;
    while (w > p && text_is_identifier(w - 1, 1)) w--;
    static const char *const words[] = {"if", "while", "for", "switch"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if ((size_t)(e - w) == strlen(words[i]) && strncasecmp(w, words[i], (size_t)(e - w)) == 0) return 1;
    return 0;
}

/* The error at tok (major) is on a line that began inside a '(' or '[' of
** an earlier line, the line's own brackets are balanced up to it (the same
** innermost bracket as the line began), and tok makes the line a statement
** no argument list can hold: the earlier line was left unfinished
** (`self setanim(` NEWLINE `self setanim(%b, 1);`, as while it is being
** typed) and this line is a statement of its own (after_error reads it
** again).  A call spread over lines never meets this: its ';' follows the
** ')' of the earlier line's bracket. */
static int unfinished_line_above(const gsc_recovery *rec, int major, const gsc_token *tok)
{
    const gsc_lexer *lx = rec->lx;
    const gsc_opener *inner = gsc_lexer_innermost_open(lx);
    if (rec->ahead_count || !rec->line_prev.z || rec->line_prev.line >= tok->line ||
        tok->line != rec->line_first.line || tok->z == rec->line_first.z)
        return 0;
    if ((rec->line_inner.kind != TK_LP && rec->line_inner.kind != TK_LBRACKET) || rec->line_inner.line >= tok->line ||
        !statement_token(major, rec->ctx->prev_code))
        return 0;
    return inner && lx->open.count == rec->line_open_count && inner->kind == rec->line_inner.kind &&
           inner->line == rec->line_inner.line && inner->col == rec->line_inner.col &&
           !opens_header(inner, lx->src->data, rec->line_first.z, rec->line_first.line, rec->line_first.col);
}

void recovery_syntax_error(void *parser, gsc_parse_ctx *ctx, int major, gsc_token tok)
{
    gsc_recovery *rec = ctx->rec;
    gsc_lexer *lx = ctx->lx;
    if (rec->mute) return;
    rec->syntax_errors++;
    if (rec->quiet) return;
    /* Between functions after an error inside one: the unbalanced '}' or
    ** statement is that error's consequence. */
    if (rec->fn_error && lx->open.count == 0 && major != 0) return;
    /* Just after a lexer error (a dropped stray byte), the parser's complaint
    ** is a consequence, not news. */
    if (lx->log->lexical_errors && lx->token_count - lx->log->lexical_error_token <= 2) return;
    /* The closer of a bracket that an earlier error abandoned: `f(a;` NEWLINE
    ** `b);` is one mistake, already reported. */
    int closer = major == TK_RP || major == TK_RBRACKET || major == TK_RBRACE || major == TK_DEVCLOSE;
    if (closer && lx->log->abandoned_closer == lx->token_count) return;
    if (unfinished_line_above(rec, major, &tok)) {
        syntax_msg_unfinished_line(lx, &rec->line_prev, &rec->line_first, rec->line_first_code,
                                   rec->line_inner.kind == TK_LBRACKET ? TK_RBRACKET : TK_RP);
        rec->reread_line = 1;
        return;
    }
    syntax_msg_expected(parser, ctx, major, tok);
}

/* ---- brackets ---- */

static int in_body(const gsc_recovery *rec)
{
    const gsc_lexer *lx = rec->lx;
    if (!recovery_clean_so_far(rec)) return 0;
    for (size_t i = lx->open.count; i-- > 0;)
        if (lx->open.items[i].kind == TK_LBRACE) return 1;
    return 0;
}

/* '(' and '[' open above the innermost '{' or '/#'. */
static int open_parens(const gsc_lexer *lx)
{
    int n = 0;
    for (size_t i = lx->open.count; i-- > 0; n++)
        if (lx->open.items[i].kind == TK_LBRACE || lx->open.items[i].kind == TK_DEVOPEN) break;
    return n;
}

/* Inside a function body with only '{' and '/#' open (no '(' or '['). */
static int only_blocks_open(const gsc_lexer *lx)
{
    int braces = 0;
    for (size_t i = 0; i < lx->open.count; i++) braces += lx->open.items[i].kind == TK_LBRACE;
    if (!braces) return 0;
    for (size_t i = 0; i < lx->open.count; i++)
        if (lx->open.items[i].kind != TK_LBRACE && lx->open.items[i].kind != TK_DEVOPEN) return 0;
    return 1;
}

/* Only the innermost opener stays (a header's own '{'), or none. */
static void keep_innermost_open(gsc_lexer *lx)
{
    lx->open.items[0] = lx->open.items[lx->open.count - 1];
    lx->open.count = 1;
}

/* ---- the lookahead ---- */

/* The k-th token after the current one (0 = the next), lexed on demand. */
static int peek_token(gsc_recovery *rec, int k)
{
    while (rec->ahead_count <= k) {
        int at = (rec->ahead_head + rec->ahead_count) % RECOVERY_LOOKAHEAD;
        rec->ahead_code[at] = gsc_lexer_next(rec->lx, &rec->ahead[at]);
        rec->ahead_count++;
        if (rec->ahead_code[at] == 0) break;
    }
    if (k >= rec->ahead_count) k = rec->ahead_count - 1;
    return rec->ahead_code[(rec->ahead_head + k) % RECOVERY_LOOKAHEAD];
}

/* After the current IDENT: `( [name {, name}] ) {` -- a function header,
** never a statement (a call statement needs its ';').  Returns the number of
** tokens of the header after the name, 0 when it is none. */
static int header_follows(gsc_recovery *rec)
{
    int k = 0;
    if (peek_token(rec, k++) != TK_LP) return 0;
    int code = peek_token(rec, k++);
    if (code == TK_IDENT) {
        for (;;) {
            code = peek_token(rec, k++);
            if (code != TK_COMMA) break;
            if (k + 2 >= RECOVERY_LOOKAHEAD || peek_token(rec, k++) != TK_IDENT) return 0;
        }
    }
    if (code != TK_RP) return 0;
    return peek_token(rec, k) == TK_LBRACE ? k + 1 : 0;
}

/* ---- skipping ---- */

/* SKIP_STATEMENT: whether tok ends the skipping (then READING), else it is
** skipped.  A new line with a bracket of the statement still open ends it
** (`foo(1, 2` NEWLINE): the bracket was abandoned, see at_boundary. */
static int ends_statement_skip(gsc_recovery *rec, int code, int starts_line)
{
    int parens = open_parens(rec->lx);
    int at_end = code == 0 || code == TK_LBRACE || code == TK_RBRACE || code == TK_DEVCLOSE ||
                 code == TK_DEVOPEN || (code == TK_SEMI && parens <= rec->skip_depth) ||
                 (starts_line && parens > 0);
    if (at_end) rec->state = RECOVERY_READING;
    return at_end;
}

/* SKIP_ITEM: RECOVERY_DONE while skipping (a ';' that ends the broken item is
** fed here, muted), RECOVERY_STOP at the end of file (no news after that
** error), RECOVERY_FEED at the next item (then READING, *resumed set). */
NOINLINE static int skip_item_step(gsc_recovery *rec, int code, const gsc_token *tok, int *resumed)
{
    gsc_lexer *lx = rec->lx;
    int len = 0;
    if (code == 0) return RECOVERY_STOP;
    if (code == TK_SEMI && lx->open.count == 0) { /* the end of the broken item */
        rec->mute = 1;
        GscParse(rec->parser, code, *tok);
        rec->mute = 0;
        GscParseResync(rec->parser);
        rec->quiet = 0;
        rec->state = RECOVERY_READING;
        rec->ctx->prev_code = code;
        return RECOVERY_DONE;
    }
    int resume = code == TK_USING_ANIMTREE || code == TK_INCLUDE ||
                 (code == TK_DEVOPEN && tok->col == 1) ||
                 (code == TK_IDENT && tok->col == 1 && (len = header_follows(rec)) > 0);
    if (!resume) return RECOVERY_DONE;
    rec->state = RECOVERY_READING;
    *resumed = 1;
    /* Brackets of the skipped text are forgotten; a peeked header keeps its
    ** own '{'. */
    if (len && lx->open.count) keep_innermost_open(lx);
    else if (!len) lx->open.count = 0;
    GscParseResync(rec->parser);
    rec->quiet = 0;
    return RECOVERY_FEED;
}

/* ---- the repairs made before a token is fed ---- */

/* A function header (tok, a name in column 1) inside a function body: the
** body lacks its '}'.  Report it once, naming the function, close every open
** block for the parser and resume with the new function.  The header's own
** '{' (already lexed, the innermost opener) stays the only open bracket. */
NOINLINE static void close_unclosed_function(gsc_recovery *rec, const gsc_token *tok)
{
    gsc_lexer *lx = rec->lx;
    if (!header_follows(rec) || !parser_at_statement_start(rec->parser)) return;
    syntax_msg_unclosed_function(lx, *tok, rec->func_name);
    int blocks = (int)lx->open.count - 1; /* minus the new header's '{' */
    rec->mute = 1;
    for (int i = blocks - 1; i >= 0; i--) {
        gsc_token closer = *tok;
        closer.n = 0;
        GscParse(rec->parser, lx->open.items[i].kind == TK_DEVOPEN ? TK_DEVCLOSE : TK_RBRACE, closer);
    }
    rec->mute = 0;
    keep_innermost_open(lx);
    rec->top_name = *tok; /* now outside any function: this one's name */
}

/* After `name(...)` and a new line: the parser takes a '{' but no statement,
** nor `code`: a function header whose '{' is missing. */
static int missing_brace(void *parser, int code)
{
    return parser_accepts(parser, TK_LBRACE) && !parser_accepts(parser, TK_IF) &&
           !parser_accepts(parser, TK_SEMI) && !parser_accepts(parser, code);
}

/* A function header without its '{' (`f()` NEWLINE `x = 1;`): say so once
** and go on as if it were there.  (`f();` at file level is a statement out
** of place, not a header.)  Asked at a line start after a ')'. */
NOINLINE static void supply_missing_brace(gsc_recovery *rec, int code, const gsc_token *tok)
{
    int header_gap = code != TK_LBRACE && code != TK_SEMI && code != 0;
    if (header_gap && in_body(rec)) {
        header_gap = 0;
        if (rec->mode == RECOVERY_VERIFY && missing_brace(rec->parser, code)) rec->line_start_mismatches++;
    }
    if (!header_gap || !missing_brace(rec->parser, code)) return;
    syntax_msg_missing_brace(rec->lx, tok);
    gsc_token brace = *tok;
    brace.n = 0;
    rec->mute = 1;
    GscParse(rec->parser, TK_LBRACE, brace);
    rec->mute = 0;
    int is_opener = code == TK_LP || code == TK_LBRACKET || code == TK_LBRACE || code == TK_DEVOPEN;
    gsc_lexer_insert_open(rec->lx, is_opener, TK_LBRACE, tok->line, tok->col);
    rec->func_name = rec->top_name;
    rec->fn_error = 1;
}

/* Before a '}': `x = 1` NEWLINE `}` lacks its ';', which is reported after
** the statement and supplied, so that the '}' still closes its block.  And
** recovery throws away what cannot follow the error it shifted; a '}'
** closing an enclosing block must not go (`if x` NEWLINE `}`): when a ';'
** would end the broken statement, feed one, empty, first. */
NOINLINE static void before_closing_brace(gsc_recovery *rec, const gsc_token *tok, const gsc_token *prev)
{
    void *parser = rec->parser;
    int semi_before_brace = !parser_recovering(parser) && !rec->quiet;
    if (semi_before_brace && recovery_clean_so_far(rec) &&
        recovery_after_boundary(rec->ctx, rec->lx)) {
        semi_before_brace = 0; /* known without the stack */
        if (rec->mode == RECOVERY_VERIFY && !parser_accepts(parser, TK_RBRACE) &&
            parser_semi_would_end(parser))
            rec->line_start_mismatches++;
    }
    gsc_token semi = *tok;
    semi.n = 0;
    if (semi_before_brace && !parser_accepts(parser, TK_RBRACE) && parser_semi_would_end(parser)) {
        syntax_msg_semi_before_brace(rec->lx, prev);
        GscParse(parser, TK_SEMI, semi);
    }
    if (parser_stuck_on_error(parser, TK_RBRACE) && !parser_stuck_on_error(parser, TK_SEMI))
        GscParse(parser, TK_SEMI, semi);
}

/* A cod2/cod4 top-level '#/' with no '/#' open becomes a marker item (see
** gsc_parse_ctx), not fed: the parser goes on as if it were not there. */
NOINLINE static int stray_devclose_marker(gsc_recovery *rec, const gsc_token *tok)
{
    gsc_parse_ctx *ctx = rec->ctx;
    gsc_lexer *lx = rec->lx;
    if (!lx->rules->devblock_toplevel_markers || lx->log->stray_devclose != lx->token_count ||
        rec->ahead_count != 0 || lx->open.count != 0 || parser_recovering(rec->parser) ||
        !parser_at_statement_start(rec->parser))
        return 0;
    struct gsc_marker *m = VEC_PUSH(ctx->markers);
    m->line = tok->line;
    m->col = tok->col;
    /* The other grammar's probe: that game refuses the stray '#/' too (a
    ** compile error there), so it is no construct it accepts. */
    if (rec->mode == RECOVERY_PROBE) syntax_msg_stray_devclose(lx->log, tok);
    return 1;
}

static ALWAYS_INLINE int before_feed(gsc_recovery *rec, int code, const gsc_token *tok, const gsc_token *prev)
{
    gsc_lexer *lx = rec->lx;
    if (rec->log.unterminated_string) {
        /* The string ate the rest of its line: what the parser says about
        ** that line is a consequence, until the next statement. */
        rec->log.unterminated_string = 0;
        rec->quiet = 1;
    }
    int starts_line = tok->line > prev->line;
    if (rec->state == RECOVERY_SKIP_STATEMENT && !ends_statement_skip(rec, code, starts_line))
        return RECOVERY_DONE;
    int resumed = 0; /* this token ends a SKIP_ITEM */
    if (rec->state == RECOVERY_SKIP_ITEM) {
        int step = skip_item_step(rec, code, tok, &resumed);
        if (step != RECOVERY_FEED) return step;
    }
    if (starts_line)
        recovery_note_line_start(rec, tok, code, prev,
                                 prev->z && recovery_clean_so_far(rec) &&
                                     recovery_after_boundary(rec->ctx, lx));
    if (rec->state == RECOVERY_RESYNC_AT_LINE) {
        if (starts_line || code == 0) {
            gsc_lexer_abandon_brackets(lx);
            GscParseResync(rec->parser);
            rec->quiet = 0;
        }
        rec->state = RECOVERY_READING;
    }
    if (code == TK_IDENT && starts_line && tok->col == 1 && rec->func_name.z && !resumed &&
        only_blocks_open(lx))
        close_unclosed_function(rec, tok);
    if (starts_line && rec->ctx->prev_code == TK_RP) supply_missing_brace(rec, code, tok);
    if (code == TK_IDENT && rec->ahead_count == 0 && lx->open.count == 0) rec->top_name = *tok;
    if (code == TK_RBRACE) before_closing_brace(rec, tok, prev);
    if (code == TK_DEVCLOSE && stray_devclose_marker(rec, tok)) return RECOVERY_DONE;
    return RECOVERY_FEED;
}

/* At a statement boundary (';', '{', '}' just fed): once the parser is back
** at the start of a statement, let the next error be reported even within
** Lemon's three-token silence.  Outside brackets that happens at once.  With
** a '(' or '[' still open (`foo(1, 2;`), only if the next token starts a new
** line (or is the end of file), and then those brackets count as abandoned:
** the boundary may sit inside a header spread over lines (`for (i = 0`
** NEWLINE `i < 3; i++)`).  Returns 1 when the caller must wait for that
** (RESYNC_AT_LINE).  In a clean file there is nothing to end: the fast path
** feeds a ';' without asking. */
static int at_boundary(gsc_recovery *rec)
{
    void *parser = rec->parser;
    int in_brackets = recovery_inside_brackets(rec->lx);
    if (recovery_clean_so_far(rec)) {
        if (rec->mode == RECOVERY_VERIFY &&
            (parser_recovering(parser) || (in_brackets && parser_at_statement_start(parser))))
            rec->line_start_mismatches++;
        return 0;
    }
    if (!in_brackets && !parser_recovering(parser)) return 0;
    /* A closer that recovery threw away ends nothing (`/# x(); }`). */
    if (parser_discarded_last(parser)) return 0;
    if (!parser_at_statement_start(parser)) return 0;
    if (in_brackets) return 1;
    GscParseResync(parser);
    return 0;
}

/* The token in error starts its line, a '(' or '[' opened on an earlier
** line is still open, and the parser, once the broken statement became an
** error, took the token as the start of the next one: the line before is
** unfinished (`self setanim(%` NEWLINE `self setanim(%b);`, as while it is
** being typed).  Its brackets count as abandoned and the new line is read,
** not skipped, so one unfinished line does not swallow the finished
** statement after it (and its references, which would change the tree's
** pruning and so the values of the others). */
static int unfinished_line_before(gsc_recovery *rec)
{
    gsc_lexer *lx = rec->lx;
    const gsc_token *tok = rec->ctx->cur;
    const gsc_opener *inner = gsc_lexer_innermost_open(lx);
    if (!tok || tok->z != rec->line_first.z || tok->line != rec->line_first.line || !rec->line_prev.z) return 0;
    if (!inner || inner->kind == TK_LBRACE || inner->kind == TK_DEVOPEN || inner->line >= tok->line) return 0;
    if (parser_discarded_last(rec->parser) || GscParseTopIsError(rec->parser)) return 0;
    gsc_lexer_abandon_brackets(lx);
    GscParseResync(rec->parser);
    rec->quiet = 0;
    return 1;
}

/* The line whose error unfinished_line_above took for an unfinished line
** above it: its tokens up to the one in error, lexed again from its first
** (a copy of the lexer, its messages dropped: the first reading made
** them), go back in front of the lookahead, to be read as a statement once
** the earlier line's brackets are abandoned.  0 when they do not fit. */
static int reread_line(gsc_recovery *rec, const gsc_token *upto)
{
    gsc_lexer *lx = rec->lx;
    gsc_token toks[RECOVERY_LOOKAHEAD];
    int codes[RECOVERY_LOOKAHEAD];
    int room = RECOVERY_LOOKAHEAD - rec->ahead_count, k = 0, whole = 0;
    diag_list dropped;
    diag_init(&dropped);
    syntax_log log = *lx->log;
    log.diags = &dropped;
    memset(&log.reported, 0, sizeof log.reported);
    gsc_lexer again = *lx;
    again.log = &log;
    memset(&again.open, 0, sizeof again.open);
    memset(&again.conds, 0, sizeof again.conds);
    VEC_APPEND_ALL(again.open, lx->open);
    again.cur = (const unsigned char *)rec->line_first.z;
    again.line = rec->line_first.line;
    again.line_start = again.cur - (rec->line_first.col - 1);
    while (k < room) {
        codes[k] = gsc_lexer_next(&again, &toks[k]);
        if (codes[k] == 0 || toks[k].z > upto->z) break;
        if (toks[k++].z == upto->z) {
            whole = 1;
            break;
        }
    }
    VEC_FREE(again.open);
    VEC_FREE(again.conds);
    syntax_log_free(&log);
    diag_free(&dropped);
    if (!whole) return 0;
    rec->ahead_head = (rec->ahead_head - k + RECOVERY_LOOKAHEAD) % RECOVERY_LOOKAHEAD;
    for (int i = 0; i < k; i++) {
        int at = (rec->ahead_head + i) % RECOVERY_LOOKAHEAD;
        rec->ahead[at] = toks[i];
        rec->ahead_code[at] = codes[i];
    }
    rec->ahead_count += k;
    gsc_lexer_abandon_brackets(lx);
    GscParseResync(rec->parser);
    rec->quiet = 0;
    return 1;
}

/* The token just fed (code, not the end of file) caused a syntax error. */
NOINLINE static void after_error(gsc_recovery *rec, int code)
{
    gsc_lexer *lx = rec->lx;
    rec->fn_error = 1; /* a stray '}' before the next function is its consequence */
    int reread = rec->reread_line;
    rec->reread_line = 0;
    if (reread && reread_line(rec, rec->ctx->cur)) {
        rec->state = RECOVERY_READING;
    } else if (unfinished_line_before(rec)) {
        rec->state = RECOVERY_READING;
    } else if (lx->open.count == 0) {
        rec->state = RECOVERY_SKIP_ITEM;
    } else if (code != TK_SEMI && code != TK_LBRACE && code != TK_RBRACE && code != TK_DEVCLOSE &&
               code != TK_RP && code != TK_RBRACKET &&
               !parser_accepts(rec->parser, TK_RP)) { /* not in an `if` header */
        rec->state = RECOVERY_SKIP_STATEMENT;
        rec->skip_depth = open_parens(lx);
    }
}

/* After a ';', '{' or '}' (see at_boundary); and after an unterminated
** string's line, the next statement is news again. */
NOINLINE static void after_boundary_token(gsc_recovery *rec)
{
    if (at_boundary(rec)) rec->state = RECOVERY_RESYNC_AT_LINE;
    if (rec->quiet && !recovery_inside_brackets(rec->lx) && parser_at_statement_start(rec->parser)) {
        rec->quiet = 0;
        GscParseResync(rec->parser);
    }
}

static ALWAYS_INLINE int after_feed(gsc_recovery *rec, int code, int errors_before)
{
    gsc_lexer *lx = rec->lx;
    if (rec->syntax_errors > errors_before && code != 0) after_error(rec, code);
    if (code == TK_LBRACE && lx->open.count == 1 && rec->ahead_count == 0) {
        rec->func_name = rec->top_name;
        rec->fn_error = 0;
    }
    if (rec->log.stopped || code == 0) return 1;
    if (code == TK_SEMI || code == TK_LBRACE || code == TK_RBRACE) after_boundary_token(rec);
    if (rec->state == RECOVERY_CLEAN || rec->state == RECOVERY_READING)
        rec->state = rec->mode != RECOVERY_VERIFY && recovery_clean_so_far(rec) && !rec->quiet &&
                             rec->ahead_count == 0
                         ? RECOVERY_CLEAN
                         : RECOVERY_READING;
    return 0;
}

int recovery_feed(gsc_recovery *rec, int code, const gsc_token *tok, const gsc_token *prev)
{
    int step = before_feed(rec, code, tok, prev);
    if (step != RECOVERY_FEED) return step;
    int errors_before = rec->syntax_errors;
    GscParse(rec->parser, code, *tok);
    rec->ctx->prev_code = code;
    return after_feed(rec, code, errors_before) ? RECOVERY_STOP : RECOVERY_FED;
}

int recovery_after_feed(gsc_recovery *rec, int code, int errors_before)
{
    return after_feed(rec, code, errors_before);
}

void recovery_init(gsc_recovery *rec, source_file *src, diag_list *diags, recovery_mode mode)
{
    memset(rec, 0, offsetof(gsc_recovery, ahead)); /* the lookahead is read only once filled */
    syntax_log_init(&rec->log, src, diags);
    rec->mode = mode;
    rec->state = mode == RECOVERY_VERIFY ? RECOVERY_READING : RECOVERY_CLEAN;
}

void recovery_attach(gsc_recovery *rec, gsc_parse_ctx *ctx, void *parser)
{
    rec->ctx = ctx;
    rec->lx = ctx->lx;
    rec->parser = parser;
    ctx->rec = rec;
}

void recovery_free(gsc_recovery *rec)
{
    free(rec->line_stack);
    rec->line_stack = NULL;
    syntax_log_free(&rec->log);
}
