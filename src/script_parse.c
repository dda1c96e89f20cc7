/* Script front end driver: feeds the re2c lexer's tokens to the Lemon parser
** and owns the per-file state (lexer, parser, error cap) in one place. */
#include "script_parse.h"
#include "vec.h"
#include "ast_build.h"
#include "gsc_parser.h"
#include "lexer.h"
#include "inline.h"
#include "parse_ctx.h"
#include "os.h"

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

/* What a token asks of the driver besides being fed, in a plain file (see
** feed_plain).  Most ask nothing.  A name outside every bracket may be the
** next function's (and one in column 1 inside a block may start a function
** after one left unclosed); a '{' may open a function body; a '}' may lack
** the ';' before it; animation syntax is counted; the end of file ends the
** parse.  (A ';' asks nothing there: see at_boundary.) */
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
    for (size_t i = 0; i < ctx->marker_count; i++)
        file_item(ctx, ast_text_node(ctx->a, AST_DEVBLOCK, ctx->markers[i].line, ctx->markers[i].col, "#/", 2));
    ctx->marker_count = 0;
}

void gsc_file_item(gsc_parse_ctx *ctx, ast_node *item)
{
    file_item(ctx, item);
    flush_marker(ctx);
}

static void file_item(gsc_parse_ctx *ctx, ast_node *item)
{
    if (ctx->root) {
        ast_append(ctx->root, item);
        return;
    }
    /* The item's tokens have all been fed, and one more: the lookahead that
    ** reduced it, which belongs to the next item. */
    int lookahead_anim = is_anim_syntax(ctx->cur_code);
    int anim_syntax = ctx->anim_tokens - lookahead_anim != ctx->anim_tokens_seen || ctx->lookahead_was_anim;
    ctx->anim_tokens_seen = ctx->anim_tokens;
    ctx->lookahead_was_anim = lookahead_anim;
    if (item && ctx->on_item) ctx->on_item(ctx->item_ud, item, anim_syntax);
    arena_reset(ctx->a);
}

static int inside_brackets(const gsc_lexer *lx)
{
    /* Read in place (gsc_lexer_innermost_open): this runs at every ';'. */
    if (!lx->open_count) return 0;
    int kind = lx->open[lx->open_count - 1].kind;
    return kind != TK_LBRACE && kind != TK_DEVOPEN;
}

/* In a file without any error so far, the lexer's brackets and the last
** token tell where the parser stands, which spares it a simulation:
** - after a ';', '{' or '}' outside any '(' or '[', the parser is where a
**   statement or a top-level item begins (every ';' outside brackets ends a
**   statement or a directive; braces open and close blocks): a ';' there
**   could not end anything (at_item_start);
** - with a '{' open, the parser is inside a function body, where a '{' is
**   taken exactly where a statement may start: no function header can be
**   missing its '{' there (in_body);
** - the parser is not recovering (only an error starts that), and with a
**   '(' or '[' open it is inside an expression or a `for` header, where no
**   statement can start: a boundary there ends no recovery (at_boundary).
** The tests check all three against the parser on every parse
** (script_verify_line_starts). */
static int clean_so_far(const gsc_parse_ctx *ctx, const gsc_lexer *lx)
{
    return ctx->syntax_errors == 0 && lx->log->errors == 0;
}

/* The token fed last was a ';', '{' or '}' outside any '(' or '['. */
static ALWAYS_INLINE int after_boundary(const gsc_parse_ctx *ctx, const gsc_lexer *lx)
{
    return (ctx->prev_code == TK_SEMI || ctx->prev_code == TK_LBRACE || ctx->prev_code == TK_RBRACE) &&
           !inside_brackets(lx);
}

/* (Without any error, the parser is not recovering: no need to ask it.) */
static ALWAYS_INLINE int at_item_start(const gsc_parse_ctx *ctx, const gsc_lexer *lx)
{
    return clean_so_far(ctx, lx) && after_boundary(ctx, lx);
}

static int in_body(const gsc_parse_ctx *ctx, const gsc_lexer *lx)
{
    if (!clean_so_far(ctx, lx)) return 0;
    for (int i = lx->open_count - 1; i >= 0; i--)
        if (lx->open[i].kind == TK_LBRACE) return 1;
    return 0;
}

/* At a statement boundary (';', '{', '}' just fed): once the parser is back
** at the start of a statement, let the next error be reported even within
** Lemon's three-token silence.  Outside brackets that happens at once.  With
** a '(' or '[' still open (`foo(1, 2;`), only if the next token starts a new
** line (or is the end of file), and then those brackets count as abandoned:
** the boundary may sit inside a header spread over lines (`for (i = 0`
** NEWLINE `i < 3; i++)`).  Returns 1 when the caller must wait for that.
** Without any error so far there is nothing to end (see clean_so_far): the
** fast path of run_parse feeds a ';' without asking. */
static int at_boundary(gsc_parse_ctx *ctx, gsc_lexer *lx, void *parser)
{
    int in_brackets = inside_brackets(lx);
    if (clean_so_far(ctx, lx)) {
        if (ctx->verify_line_starts &&
            (GscParseRecovering(parser) || (in_brackets && GscParseAtStatementStart(parser))))
            ctx->line_start_mismatches++;
        return 0;
    }
    if (!in_brackets && !GscParseRecovering(parser)) return 0;
    /* A closer that recovery threw away ends nothing (`/# x(); }`). */
    if (GscParseDiscardedLast(parser)) return 0;
    if (!GscParseAtStatementStart(parser)) return 0;
    if (in_brackets) return 1;
    GscParseResync(parser);
    return 0;
}

/* Tokens read ahead of the parser (the function-header check below). */
#define LOOKAHEAD_MAX 64

typedef struct token_source {
    gsc_lexer *lx;
    gsc_token tok[LOOKAHEAD_MAX];
    int code[LOOKAHEAD_MAX];
    int head, count;
} token_source;

static int next_token(token_source *ts, gsc_token *tok)
{
    if (ts->count) {
        *tok = ts->tok[ts->head];
        int code = ts->code[ts->head];
        ts->head = (ts->head + 1) % LOOKAHEAD_MAX;
        ts->count--;
        return code;
    }
    return gsc_lexer_next(ts->lx, tok);
}

/* The k-th token after the current one (0 = the next), lexed on demand. */
static int peek_token(token_source *ts, int k, gsc_token *tok)
{
    while (ts->count <= k) {
        int at = (ts->head + ts->count) % LOOKAHEAD_MAX;
        ts->code[at] = gsc_lexer_next(ts->lx, &ts->tok[at]);
        ts->count++;
        if (ts->code[at] == 0) break;
    }
    if (k >= ts->count) k = ts->count - 1;
    int at = (ts->head + k) % LOOKAHEAD_MAX;
    *tok = ts->tok[at];
    return ts->code[at];
}

/* '(' and '[' open above the innermost '{' or '/#'. */
static int open_parens(const gsc_lexer *lx)
{
    int n = 0;
    for (int i = lx->open_count - 1; i >= 0; i--, n++)
        if (lx->open[i].kind == TK_LBRACE || lx->open[i].kind == TK_DEVOPEN) break;
    return n;
}

/* Inside a function body with only '{' and '/#' open (no '(' or '['). */
static int only_blocks_open(const gsc_lexer *lx)
{
    int braces = 0;
    for (int i = 0; i < lx->open_count; i++) braces += lx->open[i].kind == TK_LBRACE;
    if (!braces) return 0;
    for (int i = 0; i < lx->open_count; i++)
        if (lx->open[i].kind != TK_LBRACE && lx->open[i].kind != TK_DEVOPEN) return 0;
    return 1;
}

/* After the current IDENT: `( [name {, name}] ) {` -- a function header,
** never a statement (a call statement needs its ';').  Returns the number of
** tokens of the header after the name, 0 when it is none. */
static int header_follows(token_source *ts)
{
    gsc_token t;
    int k = 0;
    if (peek_token(ts, k++, &t) != TK_LP) return 0;
    int code = peek_token(ts, k++, &t);
    if (code == TK_IDENT) {
        for (;;) {
            code = peek_token(ts, k++, &t);
            if (code != TK_COMMA) break;
            if (k + 2 >= LOOKAHEAD_MAX || peek_token(ts, k++, &t) != TK_IDENT) return 0;
        }
    }
    if (code != TK_RP) return 0;
    return peek_token(ts, k, &t) == TK_LBRACE ? k + 1 : 0;
}

/* A function header inside a function body: the body lacks its '}'.  Report
** it once, naming the function, close every open block for the parser and
** resume with the new function.  The header's own '{' (already lexed, the
** innermost opener) stays the only open bracket. */
static int close_unclosed_function(gsc_parse_ctx *ctx, void *parser, gsc_token name,
                                   int header_len)
{
    gsc_lexer *lx = ctx->lx;
    if (!GscParseAtStatementStart(parser)) return 0;
    gsc_lexer_error(lx, name.line, name.col,
                    "expected '}' before '%.*s': function '%.*s' (line %d) is not closed",
                    name.n > 40 ? 40 : name.n, name.z, ctx->func_name.n > 40 ? 40 : ctx->func_name.n,
                    ctx->func_name.z, ctx->func_name.line);
    int blocks = lx->open_count - 1; /* minus the new header's '{' */
    ctx->mute = 1;
    for (int i = blocks - 1; i >= 0; i--) {
        gsc_token closer = name;
        closer.n = 0;
        GscParse(parser, lx->open[i].kind == TK_DEVOPEN ? TK_DEVCLOSE : TK_RBRACE, closer);
    }
    ctx->mute = 0;
    lx->open[0] = lx->open[lx->open_count - 1];
    lx->open_count = 1;
    (void)header_len;
    return 1;
}

/* After `name(...)` and a new line: the parser takes a '{' but no statement,
** nor `code`: a function header whose '{' is missing. */
static int missing_brace(void *parser, int code)
{
    return GscParseAccepts(parser, TK_LBRACE) && !GscParseAccepts(parser, TK_IF) &&
           !GscParseAccepts(parser, TK_SEMI) && !GscParseAccepts(parser, code);
}

/* The first token of a line, before it is fed: what the missing-';'
** diagnosis needs (see GscParseNoteLineStart).  item_start: at_item_start
** holds, after a token. */
static ALWAYS_INLINE void note_line_start(gsc_parse_ctx *ctx, void *parser, const gsc_token *tok,
                                          int code, const gsc_token *prev, int item_start)
{
    ctx->line_first = *tok;
    ctx->line_first_code = code;
    ctx->line_prev = *prev;
    if (item_start) {
        ctx->line_semi_ok = 0; /* known without the stack */
        if (ctx->verify_line_starts && (GscParseSemiWouldEnd(parser) || GscParseRecovering(parser)))
            ctx->line_start_mismatches++;
    } else {
        GscParseNoteLineStart(parser, ctx);
    }
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
static ALWAYS_INLINE int plain_step(gsc_parse_ctx *ctx, gsc_lexer *lx, void *parser,
                                    gsc_token *tok, const gsc_token *prev, gsc_token *top_name,
                                    int *codep)
{
    int code = *codep = gsc_lexer_next(lx, tok);
    if (lx->log->stopped || lx->log->unterminated_string) return STEP_LEFT;
    if (code == TK_DEVCLOSE && lx->log->stray_devclose == lx->token_count) return STEP_LEFT;
    int role = token_role[code];
    if (role != FEED_ONLY || tok->line > prev->line) {
        /* (The file is clean: at_item_start is after_boundary.) */
        if (role == FEED_END) return STEP_LEFT;
        if (role == FEED_CLOSE && !after_boundary(ctx, lx)) return STEP_LEFT;
        if (tok->line > prev->line) {
            if (ctx->prev_code == TK_RP && code != TK_LBRACE && code != TK_SEMI) return STEP_LEFT;
            if (role == FEED_NAME && tok->col == 1 && lx->open_count) return STEP_LEFT;
            note_line_start(ctx, parser, tok, code, prev, prev->z && after_boundary(ctx, lx));
        }
        if (role == FEED_NAME && lx->open_count == 0) *top_name = *tok;
        if (role == FEED_ANIM) ctx->anim_tokens++;
        /* run_parse does this after the feed; before it is the same here:
        ** no message about a '{' names the function, and fn_error is 0 in a
        ** clean file. */
        if (role == FEED_OPEN && lx->open_count == 1) {
            ctx->func_name = *top_name;
            ctx->fn_error = 0;
        }
    }
    ctx->cur = tok;
    ctx->cur_code = code;
    GscParse(parser, code, *tok);
    ctx->prev_code = code;
    if (!clean_so_far(ctx, lx)) return STEP_ERROR;
    return STEP_FED;
}

/* The fast path of run_parse, for a plain file: no error so far (so the
** parser is not recovering, has no error symbol on its stack and says
** nothing at a statement boundary, see clean_so_far), nothing being
** skipped, no token read ahead.  Feeds the tokens for which that leaves
** run_parse little to do -- noting line starts, counting animation syntax,
** the last name outside any block, the function a '{' opens -- and returns
** the first one that needs more, lexed into *tokp but not fed (nothing done
** for it yet): the end of file, a '}' after which a missing ';' must be
** looked for, a line that may follow a function header missing its '{'
** (after a ')') or start a function after an unclosed one (a name in
** column 1 inside a block), or anything after the lexer stopped or met an
** unterminated string.  With *fed set, it returns instead the token whose
** feed met the first error of the file (now *prevp), for run_parse to do
** what follows. */
static int feed_plain(gsc_parse_ctx *ctx, gsc_lexer *lx, void *parser, gsc_token **tokp,
                      gsc_token **prevp, gsc_token *top_name, int *fed)
{
    gsc_token *a = *tokp, *b = *prevp;
    int code, step;
    /* Two tokens a turn, the buffers trading roles: nothing to swap. */
    for (;;) {
        step = plain_step(ctx, lx, parser, a, b, top_name, &code);
        if (step != STEP_FED) break;
        step = plain_step(ctx, lx, parser, b, a, top_name, &code);
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

static void run_parse(source_file *src, const profile_rules *rules, diag_list *diags,
                      gsc_parse_ctx *pctx);

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
    const profile_rules *other = profile_get(g2 ? ATRC_PROFILE_UO : ATRC_PROFILE_COD2);
    const char *hint = g2 ? "; cod1 and uo accept this (--profile uo or --profile cod1)"
                          : "; cod2 and cod4 accept this (--profile cod2 or --profile cod4)";
    diag_list quiet;
    diag_init(&quiet);
    quiet.max_errors = 1; /* its first error is all that is asked */
    arena scratch;
    arena_init(&scratch);
    gsc_parse_ctx probe;
    memset(&probe, 0, sizeof probe);
    probe.a = &scratch;
    probe.on_item = drop_item;
    probe.no_profile_hint = 1;
    run_parse(src, other, &quiet, &probe);
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
    for (size_t i = 0; i < log->reported_count; i++) {
        diag *g = &d->items[log->reported[i]];
        if (qline >= 0 && (g->line > qline || (g->line == qline && g->col >= qcol))) break;
        size_t n = strlen(g->message);
        g->message = xrealloc(g->message, n + extra + 1);
        memcpy(g->message + n, hint, extra + 1);
    }
}

static void run_parse(source_file *src, const profile_rules *rules, diag_list *diags,
                      gsc_parse_ctx *pctx)
{
    gsc_parse_ctx ctx = *pctx;
    syntax_log log;
    syntax_log_init(&log, src, diags);
    gsc_lexer lx;
    gsc_lexer_init(&lx, src, rules, &log);
    ctx.lx = &lx;
    token_source ts;
    memset(&ts, 0, sizeof ts);
    ts.lx = &lx;
    void *parser = GscParseAlloc(parser_alloc, &ctx);
    /* The token being fed and the one fed before it: two buffers that swap
    ** roles after each token, so that no token is copied. */
    gsc_token toks[2];
    memset(toks, 0, sizeof toks);
    gsc_token *tok = &toks[0], *prev = &toks[1];
    gsc_token top_name = *prev; /* the last name seen outside any block */
    int resync_on_new_line = 0; /* see at_boundary */
    int skip_parens = -1; /* skipping the rest of a broken statement: its '(' depth */
    int top_skip = 0;     /* skipping to the next top-level item after an error there */
    /* No error so far, none of the above pending, no token read ahead (and
    ** the shortcuts not being verified): feed_plain can take the tokens. */
    int plain = !ctx.verify_line_starts;
    for (;;) {
        int fed = 0; /* by feed_plain: only what follows the feed is left */
        int code = plain ? feed_plain(&ctx, &lx, parser, &tok, &prev, &top_name, &fed)
                         : next_token(&ts, tok);
        if (log.stopped) break;
        int errors_before = 0; /* none in a plain file */
        if (fed) goto after_feed;
        ctx.cur = tok;
        ctx.cur_code = code;
        ctx.anim_tokens += is_anim_syntax(code); /* skipped ones too: only ever too many */
        if (log.unterminated_string) {
            /* The string ate the rest of its line: what the parser says about
            ** that line is a consequence, until the next statement. */
            log.unterminated_string = 0;
            ctx.quiet = 1;
        }
        int starts_line = tok->line > prev->line;
        /* After a syntax error inside a statement, the rest of that statement
        ** goes unread up to its ';' (or a brace, or the end of file), so one
        ** mistake gives one error.  A new line with a bracket of the statement
        ** still open ends the skipping too (`foo(1, 2` NEWLINE): the bracket
        ** was abandoned, see at_boundary. */
        if (skip_parens >= 0) {
            int parens = open_parens(&lx);
            int at_end = code == 0 || code == TK_LBRACE || code == TK_RBRACE ||
                         code == TK_DEVCLOSE || code == TK_DEVOPEN ||
                         (code == TK_SEMI && parens <= skip_parens) ||
                         (starts_line && parens > 0);
            if (!at_end) {
                swap_tokens(&tok, &prev);
                continue;
            }
            skip_parens = -1;
        }
        /* After an error between functions (statements outside a function,
        ** a stray '}'), everything up to the next item is one mistake: skip
        ** to a function header at the start of a line, a directive or the end. */
        int resumed = 0; /* this token ends a top_skip */
        if (top_skip) {
            int len = 0;
            if (code == 0) break; /* the end of file is no news after that error */
            if (code == TK_SEMI && lx.open_count == 0) { /* the end of the broken item */
                ctx.mute = 1;
                GscParse(parser, code, *tok);
                ctx.mute = 0;
                GscParseResync(parser);
                ctx.quiet = 0;
                top_skip = 0;
                swap_tokens(&tok, &prev);
                ctx.prev_code = code;
                continue;
            }
            int resume = code == TK_USING_ANIMTREE || code == TK_INCLUDE ||
                         (code == TK_DEVOPEN && tok->col == 1) ||
                         (code == TK_IDENT && tok->col == 1 && (len = header_follows(&ts)) > 0);
            if (!resume) {
                swap_tokens(&tok, &prev);
                continue;
            }
            top_skip = 0;
            resumed = 1;
            /* Brackets of the skipped text are forgotten; a peeked header
            ** keeps its own '{'. */
            if (len && lx.open_count) {
                lx.open[0] = lx.open[lx.open_count - 1];
                lx.open_count = 1;
            } else if (!len) {
                lx.open_count = 0;
            }
            GscParseResync(parser);
            ctx.quiet = 0;
        }
        if (starts_line)
            note_line_start(&ctx, parser, tok, code, prev, prev->z && at_item_start(&ctx, &lx));
        if (resync_on_new_line && (starts_line || code == 0)) {
            gsc_lexer_abandon_brackets(&lx);
            GscParseResync(parser);
            ctx.quiet = 0;
        }
        resync_on_new_line = 0;
        if (code == TK_IDENT && starts_line && tok->col == 1 && ctx.func_name.z && !resumed &&
            only_blocks_open(&lx)) {
            int len = header_follows(&ts);
            if (len && close_unclosed_function(&ctx, parser, *tok, len))
                top_name = *tok; /* now outside any function: this one's name */
        }
        /* A function header without its '{' (`f()` NEWLINE `x = 1;`): say so
        ** once and go on as if it were there.  (`f();` at file level is a
        ** statement out of place, not a header.) */
        int header_gap = ctx.prev_code == TK_RP && starts_line && code != TK_LBRACE &&
                         code != TK_SEMI && code != 0;
        if (header_gap && in_body(&ctx, &lx)) {
            header_gap = 0;
            if (ctx.verify_line_starts && missing_brace(parser, code)) ctx.line_start_mismatches++;
        }
        if (header_gap && missing_brace(parser, code)) {
            char found[64];
            snprintf(found, sizeof found, "%.40s", tok->z);
            found[tok->n < 40 ? tok->n : 40] = 0;
            gsc_lexer_error(&lx, tok->line, tok->col, "expected '{' before '%s'", found);
            gsc_token brace = *tok;
            brace.n = 0;
            ctx.mute = 1;
            GscParse(parser, TK_LBRACE, brace);
            ctx.mute = 0;
            int is_opener = code == TK_LP || code == TK_LBRACKET || code == TK_LBRACE ||
                            code == TK_DEVOPEN;
            gsc_lexer_insert_open(&lx, is_opener, TK_LBRACE, tok->line, tok->col);
            ctx.func_name = top_name;
            ctx.fn_error = 1;
        }
        if (code == TK_IDENT && ts.count == 0 && lx.open_count == 0) top_name = *tok;
        /* `x = 1` NEWLINE `}`: the missing ';' is reported after the statement
        ** and supplied, so that the '}' still closes its block. */
        int semi_before_brace = code == TK_RBRACE && !GscParseRecovering(parser) && !ctx.quiet;
        if (semi_before_brace && at_item_start(&ctx, &lx)) {
            semi_before_brace = 0; /* known without the stack */
            if (ctx.verify_line_starts && !GscParseAccepts(parser, TK_RBRACE) && GscParseSemiWouldEnd(parser))
                ctx.line_start_mismatches++;
        }
        if (semi_before_brace && !GscParseAccepts(parser, TK_RBRACE) && GscParseSemiWouldEnd(parser)) {
            gsc_lexer_error(&lx, prev->line, prev->col + prev->n, "expected ';' before '}'");
            gsc_token semi = *tok;
            semi.n = 0;
            GscParse(parser, TK_SEMI, semi);
        }
        /* Recovery throws away what cannot follow the error it shifted; a '}'
        ** closing an enclosing block must not go (`if x` NEWLINE `}`): when a
        ** ';' would end the broken statement, feed one, empty, first. */
        if (code == TK_RBRACE && GscParseStuckOnError(parser, TK_RBRACE) &&
            !GscParseStuckOnError(parser, TK_SEMI)) {
            gsc_token semi = *tok;
            semi.n = 0;
            GscParse(parser, TK_SEMI, semi);
        }
        if (code == TK_DEVCLOSE && rules->devblock_toplevel_markers && log.stray_devclose == lx.token_count &&
            ts.count == 0 && lx.open_count == 0 && !GscParseRecovering(parser) &&
            GscParseAtStatementStart(parser)) {
            /* Not fed: the parser goes on as if the '#/' were not there. */
            struct gsc_marker *m = vec_push(ctx.markers, ctx.marker_count, ctx.marker_cap);
            m->line = tok->line;
            m->col = tok->col;
            /* The other grammar's probe: that game refuses the stray '#/' too
            ** (a compile error there), so it is no construct it accepts. */
            if (ctx.no_profile_hint) diag_add(diags, DIAG_ERROR, src, tok->line, tok->col, "%s", "#/ has no matching /#");
            swap_tokens(&tok, &prev);
            continue;
        }
        errors_before = ctx.syntax_errors;
        GscParse(parser, code, *tok);
        swap_tokens(&tok, &prev);
        ctx.prev_code = code;
    after_feed:
        if (ctx.syntax_errors > errors_before && code != 0) {
            if (lx.open_count == 0) {
                top_skip = 1;
                ctx.fn_error = 1; /* a stray '}' before the next function is its consequence */
            } else {
                ctx.fn_error = 1;
                if (code != TK_SEMI && code != TK_LBRACE && code != TK_RBRACE &&
                    code != TK_DEVCLOSE && code != TK_RP && code != TK_RBRACKET &&
                    !GscParseAccepts(parser, TK_RP)) /* not in an `if` header */
                    skip_parens = open_parens(&lx);
            }
        }
        if (code == TK_LBRACE && lx.open_count == 1 && ts.count == 0) {
            ctx.func_name = top_name;
            ctx.fn_error = 0;
        }
        if (log.stopped || code == 0) break;
        if (code == TK_SEMI || code == TK_LBRACE || code == TK_RBRACE) {
            resync_on_new_line = at_boundary(&ctx, &lx, parser);
            if (ctx.quiet && !inside_brackets(&lx) && GscParseAtStatementStart(parser)) {
                ctx.quiet = 0;
                GscParseResync(parser);
            }
        }
        plain = !ctx.verify_line_starts && clean_so_far(&ctx, &lx) && !ctx.quiet &&
                skip_parens < 0 && !top_skip && !resync_on_new_line && ts.count == 0;
    }
    flush_marker(&ctx); /* a '#/' after the last item */
    free(ctx.markers);
    GscParseFree(parser, free);
    free(ctx.line_stack);
    if (log.reported_count && !ctx.no_profile_hint && !ctx.verify_line_starts) profile_hint(src, rules, &log);
    gsc_lexer_free(&lx);
    syntax_log_free(&log);
    pctx->line_start_mismatches = ctx.line_start_mismatches;
}

ast_node *script_parse(source_file *src, const profile_rules *rules, arena *a, diag_list *diags)
{
    gsc_parse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.a = a;
    ctx.root = ast_new(a, AST_FILE, 1, 1);
    run_parse(src, rules, diags, &ctx);
    return ctx.root;
}

void script_parse_each(source_file *src, const profile_rules *rules, arena *scratch,
                       diag_list *diags,
                       void (*on_item)(void *ud, ast_node *item, int anim_syntax), void *ud)
{
    gsc_parse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.a = scratch;
    ctx.on_item = on_item;
    ctx.item_ud = ud;
    run_parse(src, rules, diags, &ctx);
}

int script_verify_line_starts(source_file *src, const profile_rules *rules, arena *scratch,
                              diag_list *diags)
{
    gsc_parse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.a = scratch;
    ctx.verify_line_starts = 1;
    run_parse(src, rules, diags, &ctx);
    return ctx.line_start_mismatches;
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
