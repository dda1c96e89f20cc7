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


typedef struct token_info {
    const char *name;     /* in dumps */
    const char *spelling; /* in messages */
} token_info;

/* Designated initializers keep this right whatever order Lemon numbers the
** tokens in; a unit test checks that every token code has an entry. */
static const token_info tokens[] = {
    [0] = {"EOF", "end of file"},
    [TK_IDENT] = {"IDENT", "identifier"},
    [TK_PATH] = {"PATH", "script path"},
    [TK_INT] = {"INT", "integer"},
    [TK_FLOAT] = {"FLOAT", "number"},
    [TK_STRING] = {"STRING", "string"},
    [TK_ISTRING] = {"ISTRING", "localized string"},
    [TK_ANIMTREE] = {"ANIMTREE", "'#animtree'"},
    [TK_CAST] = {"CAST", "cast"},
    [TK_INCLUDE] = {"INCLUDE", "'#include'"},
    [TK_USING_ANIMTREE] = {"USING_ANIMTREE", "'#using_animtree'"},
    [TK_DEVOPEN] = {"DEVOPEN", "'/#'"},
    [TK_DEVCLOSE] = {"DEVCLOSE", "'#/'"},
    [TK_IF] = {"IF", "'if'"},
    [TK_ELSE] = {"ELSE", "'else'"},
    [TK_WHILE] = {"WHILE", "'while'"},
    [TK_FOR] = {"FOR", "'for'"},
    [TK_SWITCH] = {"SWITCH", "'switch'"},
    [TK_CASE] = {"CASE", "'case'"},
    [TK_DEFAULT] = {"DEFAULT", "'default'"},
    [TK_BREAK] = {"BREAK", "'break'"},
    [TK_CONTINUE] = {"CONTINUE", "'continue'"},
    [TK_RETURN] = {"RETURN", "'return'"},
    [TK_WAIT] = {"WAIT", "'wait'"},
    [TK_WAITTILLFRAMEEND] = {"WAITTILLFRAMEEND", "'waittillframeend'"},
    [TK_BREAKPOINT] = {"BREAKPOINT", "'breakpoint'"},
    [TK_THREAD] = {"THREAD", "'thread'"},
    [TK_TRUE] = {"TRUE", "'true'"},
    [TK_FALSE] = {"FALSE", "'false'"},
    [TK_UNDEFINED] = {"UNDEFINED", "'undefined'"},
    [TK_DO] = {"DO", "'do'"},
    [TK_SELF] = {"SELF", "'self'"},
    [TK_LEVEL] = {"LEVEL", "'level'"},
    [TK_GAME] = {"GAME", "'game'"},
    [TK_ANIM] = {"ANIM", "'anim'"},
    [TK_WAITTILL] = {"WAITTILL", "'waittill'"},
    [TK_WAITTILLMATCH] = {"WAITTILLMATCH", "'waittillmatch'"},
    [TK_NOTIFY] = {"NOTIFY", "'notify'"},
    [TK_ENDON] = {"ENDON", "'endon'"},
    [TK_PROF_BEGIN] = {"PROF_BEGIN", "'prof_begin'"},
    [TK_PROF_END] = {"PROF_END", "'prof_end'"},
    [TK_BREAKON] = {"BREAKON", "'breakon'"},
    [TK_SIZE] = {"SIZE", "'.size'"},
    [TK_DOLLAR] = {"DOLLAR", "'$'"},
    [TK_HASH] = {"HASH", "'#'"},
    [TK_QUESTION] = {"QUESTION", "'?'"},
    [TK_LP] = {"LP", "'('"},
    [TK_RP] = {"RP", "')'"},
    [TK_LBRACKET] = {"LBRACKET", "'['"},
    [TK_RBRACKET] = {"RBRACKET", "']'"},
    [TK_LBRACE] = {"LBRACE", "'{'"},
    [TK_RBRACE] = {"RBRACE", "'}'"},
    [TK_SEMI] = {"SEMI", "';'"},
    [TK_COMMA] = {"COMMA", "','"},
    [TK_COLON] = {"COLON", "':'"},
    [TK_DCOLON] = {"DCOLON", "'::'"},
    [TK_DOT] = {"DOT", "'.'"},
    [TK_ASSIGN] = {"ASSIGN", "'='"},
    [TK_PLUSEQ] = {"PLUSEQ", "'+='"},
    [TK_MINUSEQ] = {"MINUSEQ", "'-='"},
    [TK_STAREQ] = {"STAREQ", "'*='"},
    [TK_SLASHEQ] = {"SLASHEQ", "'/='"},
    [TK_PERCENTEQ] = {"PERCENTEQ", "'%='"},
    [TK_ANDEQ] = {"ANDEQ", "'&='"},
    [TK_OREQ] = {"OREQ", "'|='"},
    [TK_XOREQ] = {"XOREQ", "'^='"},
    [TK_SHLEQ] = {"SHLEQ", "'<<='"},
    [TK_SHREQ] = {"SHREQ", "'>>='"},
    [TK_INC] = {"INC", "'++'"},
    [TK_DEC] = {"DEC", "'--'"},
    [TK_OROR] = {"OROR", "'||'"},
    [TK_ANDAND] = {"ANDAND", "'&&'"},
    [TK_BITOR] = {"BITOR", "'|'"},
    [TK_BITXOR] = {"BITXOR", "'^'"},
    [TK_BITAND] = {"BITAND", "'&'"},
    [TK_EQ] = {"EQ", "'=='"},
    [TK_NE] = {"NE", "'!='"},
    [TK_LT] = {"LT", "'<'"},
    [TK_GT] = {"GT", "'>'"},
    [TK_LE] = {"LE", "'<='"},
    [TK_GE] = {"GE", "'>='"},
    [TK_SHL] = {"SHL", "'<<'"},
    [TK_SHR] = {"SHR", "'>>'"},
    [TK_PLUS] = {"PLUS", "'+'"},
    [TK_MINUS] = {"MINUS", "'-'"},
    [TK_STAR] = {"STAR", "'*'"},
    [TK_SLASH] = {"SLASH", "'/'"},
    [TK_PERCENT] = {"PERCENT", "'%'"},
    [TK_BANG] = {"BANG", "'!'"},
    [TK_TILDE] = {"TILDE", "'~'"},
};

#define N_TOKENS ((int)(sizeof tokens / sizeof tokens[0]))

const char *gsc_token_name(int code)
{
    return code >= 0 && code < N_TOKENS ? tokens[code].name : NULL;
}

const char *gsc_token_spelling(int code)
{
    return code >= 0 && code < N_TOKENS ? tokens[code].spelling : NULL;
}

int gsc_token_count(void)
{
    return N_TOKENS;
}

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
static const unsigned char token_role[N_TOKENS] = {
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

/* Whether the item (or streamed piece) reduced now holds animation syntax,
** counted since the one before.  Its tokens have all been fed, and perhaps
** one more: the lookahead that reduced it, which belongs to the next one
** (a piece's last token, ';', '}', ':' or '#/', never counts). */
static int take_anim_syntax(gsc_parse_ctx *ctx)
{
    int lookahead_anim = is_anim_syntax(ctx->cur_code);
    int anim_syntax = ctx->anim_tokens - lookahead_anim != ctx->anim_tokens_seen || ctx->lookahead_was_anim;
    ctx->anim_tokens_seen = ctx->anim_tokens;
    ctx->lookahead_was_anim = lookahead_anim;
    return anim_syntax;
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
static void hand_on(gsc_parse_ctx *ctx, ast_node *body, int anim_syntax)
{
    ast_node *first = body->child;
    body->child = body->last = NULL;
    if (!ctx->on_function) return;
    if (!ctx->streamed) ctx->on_function(ctx->item_ud, SCRIPT_FN_BEGIN, ctx->open_fn, 0);
    if (first) ctx->on_function(ctx->item_ud, SCRIPT_FN_STMTS, first, anim_syntax);
}

void gsc_function_chunk(gsc_parse_ctx *ctx)
{
    if (!ctx->stream_body) { /* a body built whole: INT_MAX more elements */
        ctx->stream_left = INT_MAX;
        return;
    }
    ctx->stream_left = ctx->stream_every;
    if (arena_used(ctx->a) <= ctx->stream_limit) return;
    /* One flag for the chunk: a statement without animation syntax may be
    ** walked for it, never the other way. */
    hand_on(ctx, ctx->stream_body, ctx->on_function ? take_anim_syntax(ctx) : 0);
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
    int anim_syntax = take_anim_syntax(ctx);
    if (ctx->open_fn && item == ctx->open_fn && ctx->streamed) {
        hand_on(ctx, ctx->stream_body, anim_syntax);
        if (ctx->on_function) ctx->on_function(ctx->item_ud, SCRIPT_FN_END, item, anim_syntax);
    } else {
        if (ctx->open_fn && item != ctx->open_fn) function_dropped(ctx);
        if (item && ctx->on_item) ctx->on_item(ctx->item_ud, item, anim_syntax);
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

static int run_parse(source_file *src, const profile_rules *rules, diag_list *diags,
                     gsc_parse_ctx *pctx, recovery_mode mode);

static void drop_item(void *ud, ast_node *item, int anim_syntax)
{
    (void)ud;
    (void)item;
    (void)anim_syntax;
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
    run_parse(src, other, &quiet, &probe, RECOVERY_PROBE);
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
static int run_parse(source_file *src, const profile_rules *rules, diag_list *diags,
                     gsc_parse_ctx *pctx, recovery_mode mode)
{
    gsc_parse_ctx ctx = *pctx;
    gsc_recovery rec;
    recovery_init(&rec, src, diags, mode);
    gsc_lexer lx;
    gsc_lexer_init(&lx, src, rules, &rec.log);
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
    if (ctx.open_fn) function_dropped(&ctx); /* the end of file came inside it */
    flush_marker(&ctx); /* a '#/' after the last item */
    VEC_FREE(ctx.markers);
    GscParseFree(parser, free);
    int mismatches = rec.line_start_mismatches;
    if (rec.log.reported.count && mode == RECOVERY_REPORT) profile_hint(src, rules, &rec.log);
    recovery_free(&rec);
    gsc_lexer_free(&lx);
    return mismatches;
}

ast_node *script_parse(source_file *src, const profile_rules *rules, arena *a, diag_list *diags)
{
    gsc_parse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.a = a;
    ctx.root = ast_new(a, AST_FILE, 1, 1);
    run_parse(src, rules, diags, &ctx, RECOVERY_REPORT);
    return ctx.root;
}

static void parse_items(source_file *src, const profile_rules *rules, arena *scratch, diag_list *diags,
                        void (*on_item)(void *ud, ast_node *item, int anim_syntax),
                        void (*on_function)(void *ud, int event, const ast_node *node, int anim_syntax),
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
    run_parse(src, rules, diags, &ctx, RECOVERY_REPORT);
}

void script_parse_each(source_file *src, const profile_rules *rules, arena *scratch,
                       diag_list *diags,
                       void (*on_item)(void *ud, ast_node *item, int anim_syntax), void *ud)
{
    parse_items(src, rules, scratch, diags, on_item, NULL, ud, 0, 0);
}

void script_parse_stream(source_file *src, const profile_rules *rules, arena *scratch,
                         diag_list *diags, void (*on_item)(void *ud, ast_node *item, int anim_syntax),
                         void (*on_function)(void *ud, int event, const ast_node *node, int anim_syntax),
                         void *ud, size_t chunk)
{
    parse_items(src, rules, scratch, diags, on_item, on_function, ud, 1, chunk);
}

int script_verify_line_starts(source_file *src, const profile_rules *rules, arena *scratch,
                              diag_list *diags)
{
    gsc_parse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.a = scratch;
    ctx.stream_functions = 1;
    ctx.stream_chunk = SCRIPT_STREAM_CHUNK;
    return run_parse(src, rules, diags, &ctx, RECOVERY_VERIFY);
}

char *script_dump_tokens(source_file *src, const profile_rules *rules, diag_list *diags)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = os_memstream_open(&buf, &len);
    if (!out) return xstrdup("");
    syntax_log log;
    syntax_log_init(&log, src, diags);
    gsc_lexer lx;
    gsc_lexer_init(&lx, src, rules, &log);
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
