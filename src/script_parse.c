/* Script front end driver: feeds the re2c lexer's tokens to the Lemon parser
** and owns the per-file state (lexer, parser, error cap) in one place. */
#include "script_parse.h"
#include "ast_build.h"
#include "gsc_parser.h"
#include "lexer.h"
#include "parse_ctx.h"

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
    [TK_ANIM] = {"ANIM", "animation"},
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
    [TK_LP] = {"LP", "'('"},
    [TK_RP] = {"RP", "')'"},
    [TK_LBRACKET] = {"LBRACKET", "'['"},
    [TK_RBRACKET] = {"RBRACKET", "']'"},
    [TK_LDBRACKET] = {"LDBRACKET", "'[['"},
    [TK_RDBRACKET] = {"RDBRACKET", "']]'"},
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

static int is_anim_syntax(int code)
{
    /* One load per token: this runs for every token fed. */
    static const unsigned char anim_syntax[N_TOKENS] = {[TK_ANIM] = 1, [TK_ANIMTREE] = 1, [TK_USING_ANIMTREE] = 1};
    return code >= 0 && code < N_TOKENS && anim_syntax[code];
}

void gsc_file_item(gsc_parse_ctx *ctx, ast_node *item)
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
    const gsc_opener *o = gsc_lexer_innermost_open(lx);
    return o && o->kind != TK_LBRACE && o->kind != TK_DEVOPEN;
}

/* At a statement boundary (';', '{', '}' just fed): once the parser is back
** at the start of a statement, let the next error be reported even within
** Lemon's three-token silence.  Outside brackets that happens at once.  With
** a '(' or '[' still open (`foo(1, 2;`), only if the next token starts a new
** line (or is the end of file), and then those brackets count as abandoned:
** the boundary may sit inside a header spread over lines (`for (i = 0`
** NEWLINE `i < 3; i++)`).  Returns 1 when the caller must wait for that. */
static int at_boundary(gsc_lexer *lx, void *parser)
{
    int in_brackets = inside_brackets(lx);
    if (!in_brackets && !GscParseRecovering(parser)) return 0;
    /* A closer that recovery threw away ends nothing (`/# x(); }`). */
    if (GscParseDiscardedLast(parser)) return 0;
    if (!GscParseAtStatementStart(parser)) return 0;
    if (in_brackets) return 1;
    GscParseResync(parser);
    return 0;
}

static void run_parse(source_file *src, diag_list *diags, gsc_parse_ctx *pctx)
{
    gsc_parse_ctx ctx = *pctx;
    gsc_lexer lx;
    gsc_lexer_init(&lx, src, diags);
    ctx.lx = &lx;
    void *parser = GscParseAlloc(parser_alloc, &ctx);
    int prev_end_line = 0; /* line on which the previous token ended */
    int resync_on_new_line = 0; /* see at_boundary */
    for (;;) {
        gsc_token tok;
        int code = gsc_lexer_next(&lx, &tok);
        if (lx.stopped) break;
        ctx.cur = tok;
        ctx.cur_code = code;
        ctx.anim_tokens += is_anim_syntax(code);
        int starts_line = tok.line > prev_end_line;
        prev_end_line = lx.line; /* the lexer stops right after the token */
        if (starts_line) {
            ctx.line_first = tok;
            ctx.line_first_code = code;
        }
        if (resync_on_new_line && (starts_line || code == 0)) {
            gsc_lexer_abandon_brackets(&lx);
            GscParseResync(parser);
        }
        resync_on_new_line = 0;
        /* Recovery throws away what cannot follow the error it shifted; a '}'
        ** closing an enclosing block must not go (`if x` NEWLINE `}`): when a
        ** ';' would end the broken statement, feed one, empty, first. */
        if (code == TK_RBRACE && GscParseStuckOnError(parser, TK_RBRACE) &&
            !GscParseStuckOnError(parser, TK_SEMI)) {
            gsc_token semi = tok;
            semi.n = 0;
            GscParse(parser, TK_SEMI, semi);
        }
        GscParse(parser, code, tok);
        if (lx.stopped || code == 0) break;
        if (code == TK_SEMI || code == TK_LBRACE || code == TK_RBRACE)
            resync_on_new_line = at_boundary(&lx, parser);
    }
    GscParseFree(parser, free);
    gsc_lexer_free(&lx);
}

ast_node *script_parse(source_file *src, arena *a, diag_list *diags)
{
    gsc_parse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.a = a;
    ctx.root = ast_new(a, AST_FILE, 1, 1);
    run_parse(src, diags, &ctx);
    return ctx.root;
}

void script_parse_each(source_file *src, arena *scratch, diag_list *diags,
                       void (*on_item)(void *ud, ast_node *item, int anim_syntax), void *ud)
{
    gsc_parse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.a = scratch;
    ctx.on_item = on_item;
    ctx.item_ud = ud;
    run_parse(src, diags, &ctx);
}

char *script_dump_tokens(source_file *src, diag_list *diags)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    if (!out) return xstrdup("");
    gsc_lexer lx;
    gsc_lexer_init(&lx, src, diags);
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
    fclose(out);
    return buf;
}
