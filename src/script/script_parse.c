/* Script front end driver: feeds the re2c lexer's tokens to the Lemon parser
** and owns the per-file state (lexer, parser, error cap) in one place. */
#include "script/script_parse.h"
#include "base/vec.h"
#include "script/ast_build.h"
#include "gsc_parser.h"
#include "script/lexer.h"
#include "base/inline.h"
#include "script/parse_ctx.h"
#include "script/syntax_messages.h"
#include "script/syntax_recovery.h"
#include "os/os.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>


static void *parser_alloc(size_t n)
{
    return xmalloc(n);
}

/* What a token asks of the driver besides being fed, in a clean file (see
** feed_plain).  Most ask nothing.  A name outside every bracket may be the
** next function's (and one in column 1 inside a block may start a function
** after one left unclosed); a '{' may open a function body; a '}' may lack
** the ';' before it; animation syntax is counted; the end of file ends the
** parse.  (A ';' asks nothing there: see at_boundary in syntax_recovery.c.) */
enum { FEED_ONLY, FEED_NAME, FEED_OPEN, FEED_CLOSE, FEED_ANIM, FEED_END };
static const unsigned char token_role[GSC_TOKEN_CODES] = {
    [0] = FEED_END,
    [TK_IDENT] = FEED_NAME,
    [TK_LBRACE] = FEED_OPEN,
    [TK_RBRACE] = FEED_CLOSE,
    [TK_PERCENT] = FEED_ANIM,
    [TK_ANIMTREE] = FEED_ANIM,
    [TK_USING_ANIMTREE] = FEED_ANIM,
};

static int is_anim_syntax(int code)
{
    /* %name is TK_PERCENT then its name (a modulo too: only ever too many). */
    return token_role[code] == FEED_ANIM;
}

static void swap_tokens(gsc_token **a, gsc_token **b)
{
    gsc_token *t = *a;
    *a = *b;
    *b = t;
}

enum { STEP_FED, STEP_LEFT, STEP_ERROR };

/* One token of feed_plain, lexed into tok (prev: the token fed before):
** STEP_FED, or STEP_LEFT when it is left to run_parse (not fed), or
** STEP_ERROR when its feed met the file's first error. */
static ALWAYS_INLINE int plain_step(gsc_parse_ctx *ctx, gsc_recovery *rec, gsc_lexer *lx,
                                    void *parser, gsc_token *tok, const gsc_token *prev,
                                    int *codep)
{
    int code = *codep = gsc_lexer_next(lx, tok);
    if (rec->log.stopped || rec->log.unterminated_string) return STEP_LEFT;
    if (code == TK_DEVCLOSE && rec->log.stray_devclose == lx->token_count) return STEP_LEFT;
    int role = token_role[code];
    if (role != FEED_ONLY || tok->line > prev->line) {
        /* (The file is clean: the parser is at an item start after a boundary.) */
        if (role == FEED_END) return STEP_LEFT;
        if (role == FEED_CLOSE && !recovery_after_boundary(ctx, lx)) return STEP_LEFT;
        if (tok->line > prev->line) {
            if (ctx->prev_code == TK_RP && code != TK_LBRACE && code != TK_SEMI) return STEP_LEFT;
            if (role == FEED_NAME && tok->col == 1 && lx->open.count) return STEP_LEFT;
            recovery_note_line_start(rec, tok, code, prev, prev->z && recovery_after_boundary(ctx, lx));
        }
        if (role == FEED_NAME && lx->open.count == 0) rec->top_name = *tok;
        if (role == FEED_ANIM) ctx->anim_tokens++;
        /* The recovery does this after the feed; before it is the same here:
        ** no message about a '{' names the function, and fn_error is 0 in a
        ** clean file. */
        if (role == FEED_OPEN && lx->open.count == 1) {
            rec->func_name = rec->top_name;
            rec->fn_error = 0;
        }
    }
    ctx->cur = tok;
    ctx->cur_code = code;
    GscParse(parser, code, *tok);
    ctx->prev_code = code;
    if (!recovery_clean_so_far(rec)) return STEP_ERROR;
    return STEP_FED;
}

/* The recovery's CLEAN state (syntax_recovery.h): no error so far (so the
** parser is not recovering, has no error symbol on its stack and says
** nothing at a statement boundary), nothing being skipped, no token read
** ahead.  Feeds the tokens for which that leaves the recovery nothing to do
** -- noting line starts, counting animation syntax, the last name outside
** any block, the function a '{' opens -- and returns the first one that
** needs more, lexed into *tokp but not fed (nothing done for it yet): the
** end of file, a '}' after which a missing ';' must be looked for, a line
** that may follow a function header missing its '{' (after a ')') or start
** a function after an unclosed one (a name in column 1 inside a block), or
** anything after the lexer stopped or met an unterminated string.  With
** *fed set, it returns instead the token whose feed met the first error of
** the file (now *prevp), for the recovery to do what follows. */
static int feed_plain(gsc_parse_ctx *ctx, gsc_recovery *rec, gsc_token **tokp, gsc_token **prevp,
                      int *fed)
{
    gsc_lexer *lx = ctx->lx;
    void *parser = rec->parser;
    gsc_token *a = *tokp, *b = *prevp;
    int code, step;
    /* Two tokens a turn, the buffers trading roles: nothing to swap. */
    for (;;) {
        step = plain_step(ctx, rec, lx, parser, a, b, &code);
        if (step != STEP_FED) break;
        step = plain_step(ctx, rec, lx, parser, b, a, &code);
        if (step != STEP_FED) {
            swap_tokens(&a, &b);
            break;
        }
    }
    /* a holds the token lexed last. */
    if (step == STEP_ERROR) {
        *fed = 1;
        swap_tokens(&a, &b);
    }
    *tokp = a;
    *prevp = b;
    return code;
}

static int run_parse(source_file *src, const profile_rules *rules, const gsc_preproc *pp,
                     diag_list *diags, gsc_parse_ctx *pctx, recovery_mode mode);

static void drop_item(void *ud, ast_node *item, int holds)
{
    (void)ud;
    (void)item;
    (void)holds;
}

/* A syntax error before the first one the other grammar family (grammar.md
** 2: cod1/uo against cod2/cod4) meets in the same file is a construct of
** the other games: its message says which --profile accepts it.  The other
** grammar's parse is silent and stops at its first error, and runs only for
** a file with syntax errors. */
static void profile_hint(source_file *src, const profile_rules *rules, const syntax_log *log)
{
    int g2 = rules->kw_include;
    const profile_rules *other = rules->other_grammar;
    const char *hint = syntax_msg_profile_hint(g2);
    diag_list quiet;
    diag_init(&quiet);
    quiet.max_errors = 1; /* its first error is all that is asked */
    arena scratch;
    arena_init(&scratch);
    gsc_parse_ctx probe;
    memset(&probe, 0, sizeof probe);
    probe.a = &scratch;
    probe.on_item = drop_item;
    probe.stream_functions = 1;
    probe.stream_chunk = SCRIPT_STREAM_CHUNK;
    run_parse(src, other, NULL, &quiet, &probe, RECOVERY_PROBE);
    int qline = -1, qcol = 0; /* its first error (a NUL byte's warning may come first) */
    for (size_t i = 0; i < quiet.count && qline < 0; i++)
        if (quiet.items[i].severity == DIAG_ERROR) {
            qline = quiet.items[i].line;
            qcol = quiet.items[i].col;
        }
    diag_free(&quiet);
    arena_free_all(&scratch);
    diag_list *d = log->diags;
    size_t extra = strlen(hint);
    for (size_t i = 0; i < log->reported.count; i++) {
        diag *g = &d->items[log->reported.items[i]];
        if (qline >= 0 && (g->line > qline || (g->line == qline && g->col >= qcol))) break;
        size_t n = strlen(g->message);
        g->message = xrealloc(g->message, n + extra + 1);
        memcpy(g->message + n, hint, extra + 1);
    }
}

/* Lexes and parses one file: the tokens go to the parser, each through the
** recovery's state machine (syntax_recovery.h), or several at a time by the
** fast path while it is CLEAN.  Returns the shortcuts' mismatches
** (RECOVERY_VERIFY). */
static int run_parse(source_file *src, const profile_rules *rules, const gsc_preproc *pp,
                     diag_list *diags, gsc_parse_ctx *pctx, recovery_mode mode)
{
    gsc_parse_ctx ctx = *pctx;
    gsc_recovery rec;
    recovery_init(&rec, src, diags, mode);
    gsc_lexer lx;
    gsc_lexer_init(&lx, src, rules, &rec.log);
    gsc_lexer_use_preproc(&lx, pp);
    ctx.lx = &lx;
    void *parser = GscParseAlloc(parser_alloc, &ctx);
    recovery_attach(&rec, &ctx, parser);
    /* The token being fed and the one fed before it: two buffers that swap
    ** roles after each token, so that no token is copied. */
    gsc_token toks[2];
    memset(toks, 0, sizeof toks);
    gsc_token *tok = &toks[0], *prev = &toks[1];
    for (;;) {
        int fed = 0; /* by feed_plain: only what follows the feed is left */
        int code = rec.state == RECOVERY_CLEAN ? feed_plain(&ctx, &rec, &tok, &prev, &fed)
                                               : recovery_next_token(&rec, tok);
        if (rec.log.stopped) break;
        if (fed) {
            if (recovery_after_feed(&rec, code, 0)) break; /* (no error before it) */
            continue;
        }
        ctx.cur = tok;
        ctx.cur_code = code;
        ctx.anim_tokens += is_anim_syntax(code); /* skipped ones too: only ever too many */
        int step = recovery_feed(&rec, code, tok, prev);
        if (step == RECOVERY_STOP) break;
        swap_tokens(&tok, &prev);
    }
    gsc_items_end(&ctx);
    VEC_FREE(ctx.markers);
    GscParseFree(parser, free);
    int mismatches = rec.line_start_mismatches;
    if (rec.log.reported.count && mode == RECOVERY_REPORT) profile_hint(src, rules, &rec.log);
    recovery_free(&rec);
    gsc_lexer_free(&lx);
    return mismatches;
}

ast_node *script_parse(source_file *src, const profile_rules *rules, const gsc_preproc *pp, arena *a,
                       diag_list *diags)
{
    gsc_parse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.a = a;
    ctx.root = ast_new(a, AST_FILE, 1, 1);
    run_parse(src, rules, pp, diags, &ctx, RECOVERY_REPORT);
    return ctx.root;
}

static void parse_items(source_file *src, const profile_rules *rules, const gsc_preproc *pp,
                        arena *scratch, diag_list *diags,
                        void (*on_item)(void *ud, ast_node *item, int holds),
                        void (*on_function)(void *ud, int event, const ast_node *node, int holds),
                        void *ud, int stream_functions, size_t chunk)
{
    gsc_parse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.a = scratch;
    ctx.on_item = on_item;
    ctx.item_ud = ud;
    ctx.on_function = on_function;
    ctx.stream_functions = stream_functions;
    ctx.stream_chunk = chunk;
    run_parse(src, rules, pp, diags, &ctx, RECOVERY_REPORT);
}

void script_parse_each(source_file *src, const profile_rules *rules, arena *scratch,
                       diag_list *diags,
                       void (*on_item)(void *ud, ast_node *item, int holds), void *ud)
{
    parse_items(src, rules, NULL, scratch, diags, on_item, NULL, ud, 0, 0);
}

void script_parse_stream(source_file *src, const profile_rules *rules, const gsc_preproc *pp, arena *scratch,
                         diag_list *diags, void (*on_item)(void *ud, ast_node *item, int holds),
                         void (*on_function)(void *ud, int event, const ast_node *node, int holds),
                         void *ud, size_t chunk)
{
    parse_items(src, rules, pp, scratch, diags, on_item, on_function, ud, 1, chunk);
}

int script_verify_line_starts(source_file *src, const profile_rules *rules, arena *scratch,
                              diag_list *diags)
{
    gsc_parse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.a = scratch;
    ctx.stream_functions = 1;
    ctx.stream_chunk = SCRIPT_STREAM_CHUNK;
    return run_parse(src, rules, NULL, diags, &ctx, RECOVERY_VERIFY);
}

char *script_dump_tokens(source_file *src, const profile_rules *rules, const gsc_preproc *pp, diag_list *diags)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = os_memstream_open(&buf, &len);
    if (!out) return xstrdup("");
    syntax_log log;
    syntax_log_init(&log, src, diags);
    gsc_lexer lx;
    gsc_lexer_init(&lx, src, rules, &log);
    gsc_lexer_use_preproc(&lx, pp);
    for (;;) {
        gsc_token t;
        int code = gsc_lexer_next(&lx, &t);
        fprintf(out, "%d:%d %s", t.line, t.col, gsc_token_name(code));
        if (code != 0) {
            fputc(' ', out);
            for (int i = 0; i < t.n; i++) {
                unsigned char c = (unsigned char)t.z[i];
                if (c == '\n') fputs("\\n", out);
                else if (c < 0x20 || c >= 0x7f) fprintf(out, "\\x%02X", c);
                else fputc(c, out);
            }
        }
        fputc('\n', out);
        if (code == 0) break;
    }
    gsc_lexer_free(&lx);
    syntax_log_free(&log);
    if (os_memstream_close(out, &buf, &len) != 0) return xstrdup("");
    return buf;
}
