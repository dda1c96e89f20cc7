/* The wording of the syntax errors (see syntax_messages.h). */
#include "script/syntax_messages.h"
#include "script/ast_build.h"
#include "gsc_parser.h"
#include "game/profile.h"
#include "script/syntax_recovery.h"

#include <stdio.h>
#include <string.h>

void syntax_msg_describe_token(char *buf, size_t cap, int major, gsc_token tok)
{
    if (major == 0) {
        snprintf(buf, cap, "end of file");
        return;
    }
    size_t k = 0;
    buf[k++] = '\'';
    for (int i = 0; i < tok.n && k + 8 < cap; i++) {
        unsigned char c = (unsigned char)tok.z[i];
        if (i == 32) {
            k += (size_t)snprintf(buf + k, cap - k, "...");
            break;
        }
        if (c < 0x20 || c >= 0x7f) k += (size_t)snprintf(buf + k, cap - k, "\\x%02X", c);
        else buf[k++] = (char)c;
    }
    buf[k++] = '\'';
    buf[k] = 0;
}

/* ---- constructs of the other game grammar (the actions' profile checks) ---- */

/* "expected WHAT before TOKEN" at the token, as the parser of this profile
** would say it. */
static void profile_reject(gsc_parse_ctx *ctx, gsc_token at, int code, const char *what)
{
    char found[160];
    syntax_msg_describe_token(found, sizeof found, code, at);
    gsc_lexer_error(ctx->lx, at.line, at.col, "expected %s before %s", what, found);
}

/* G1: an empty first argument or parameter is dropped (`f(, x)`). */
ast_node *gsc_profile_leading_empty(gsc_parse_ctx *ctx, gsc_token comma, ast_node *list,
                                    const char *what)
{
    if (!ctx->lx->rules->leading_empty_arg) profile_reject(ctx, comma, TK_COMMA, what);
    return list;
}

ast_node *gsc_empty_body(gsc_parse_ctx *ctx, gsc_token semi)
{
    profile_reject(ctx, semi, TK_SEMI, "statement");
    return ast_leaf(ctx->a, AST_EMPTY, semi);
}

/* G1: any number of ';' before the first top-level item. */
void gsc_profile_leading_semi(gsc_parse_ctx *ctx, gsc_token semi)
{
    if (!ctx->lx->rules->leading_semis)
        profile_reject(ctx, semi, TK_SEMI, "function definition");
}

/* G2: a switch body is a block. */
ast_node *gsc_profile_switch(gsc_parse_ctx *ctx, gsc_token kw, ast_node *e, gsc_token body_start,
                             ast_node *body)
{
    if (!ctx->lx->rules->switch_body_any_stmt && body && body->kind != AST_BLOCK)
        profile_reject(ctx, body_start, TK_IDENT, "'{'");
    return ast_node2(ctx->a, AST_SWITCH, kw, e, body);
}

/* How a top-level item starts, for a message about it. */
static const char *item_spelling(const ast_node *n, char *buf, size_t cap)
{
    if (n->kind == AST_FUNCTION) snprintf(buf, cap, "'%.40s'", n->text);
    else if (n->kind == AST_USING_ANIMTREE) snprintf(buf, cap, "'#using_animtree'");
    else snprintf(buf, cap, "'/#'");
    return buf;
}

/* G1: a top-level `/# ... #/` wraps exactly one function. */
ast_node *gsc_profile_dev_item(gsc_parse_ctx *ctx, gsc_token open, ast_node *items,
                               gsc_token close)
{
    ast_node *n = ast_finish(items, AST_DEVBLOCK, open);
    if (!n || !ctx->lx->rules->dev_wraps_one_function) return n;
    char what[64];
    const ast_node *first = n->child;
    if (!first) {
        profile_reject(ctx, close, TK_DEVCLOSE, "function definition");
    } else if (first->kind != AST_FUNCTION) {
        gsc_lexer_error(ctx->lx, first->line, first->col, "expected function definition before %s",
                        item_spelling(first, what, sizeof what));
    } else if (first->next) {
        gsc_lexer_error(ctx->lx, first->next->line, first->next->col,
                        "expected '#/' before %s (a /# #/ block holds one function in %s)",
                        item_spelling(first->next, what, sizeof what), ctx->lx->rules->name);
    }
    return n;
}

/* G2 only: `a.self` (the debugger's self field; a compile error later). */
ast_node *gsc_profile_self_field(gsc_parse_ctx *ctx, ast_node *object, gsc_token self)
{
    if (!ctx->lx->rules->self_field) profile_reject(ctx, self, TK_SELF, "identifier");
    return ast_member(ctx->a, object, self);
}

void syntax_msg_stack_overflow(gsc_parse_ctx *ctx, int depth)
{
    gsc_lexer_error(ctx->lx, ctx->cur->line, ctx->cur->col,
                    "nesting too deep (parser stack of %d entries exhausted)", depth);
}

/* ---- "expected X before Y" ---- */

static int is_closer(int code)
{
    return code == TK_RP || code == TK_RBRACKET || code == TK_RBRACE || code == TK_DEVCLOSE;
}

/* What a message names, most useful first: the terminator, closing brackets,
** the case colon, '=', an operand, then the openers and names of headers.
** "expression" stands for every terminal that starts one (INT is accepted
** exactly where an expression is). */
static const int preferred[] = {
    TK_SEMI, TK_RP, TK_RBRACKET, TK_RBRACE, TK_DEVCLOSE, TK_COLON, TK_ASSIGN,
    TK_INT /* expression */, TK_LP, TK_LBRACE, TK_IDENT, TK_STRING, TK_COMMA, TK_DCOLON,
};

/* ok[t]: the parser could take terminal t (1 <= t < terminals). */
static const char *expected_what(const unsigned char *ok, int terminals, int major)
{
    if (ok[TK_IF]) {
        /* A statement list: ';' (the empty statement) says nothing useful.  Name
        ** the closer when a wrong one was found, else ask for a statement. */
        if (is_closer(major)) {
            if (ok[TK_RBRACE]) return gsc_token_spelling(TK_RBRACE);
            if (ok[TK_DEVCLOSE]) return gsc_token_spelling(TK_DEVCLOSE);
        }
        return "statement";
    }
    if (ok[TK_USING_ANIMTREE]) {
        if (ok[TK_DEVCLOSE] && is_closer(major)) return gsc_token_spelling(TK_DEVCLOSE);
        return "function definition";
    }
    for (size_t i = 0; i < sizeof preferred / sizeof preferred[0]; i++) {
        int t = preferred[i];
        if (ok[t]) return t == TK_INT ? "expression" : gsc_token_spelling(t);
    }
    for (int t = 1; t < terminals; t++)
        if (ok[t] && gsc_token_spelling(t)) return gsc_token_spelling(t);
    return NULL;
}

/* Is this error really a missing ';' at the end of the line before?  The
** driver noted, before feeding the first token of the line, whether a ';'
** could have ended a statement there (and a new one could not start).  Then
** an error at that first token is the missing ';' (`foo()` NEWLINE `wait 1;`
** reads on as a method call `foo() wait`), and so is an error later on a
** line that starts like a statement (`x = 1` NEWLINE `y = 2;` reads as
** `1 y(...)` and stumbles on the '=').  Reported as gcc and clang do: after
** the last token of the unterminated statement, on its line. */
static int missing_semi_before_line(gsc_recovery *rec, gsc_token tok)
{
    if (tok.line != rec->line_first.line || tok.z < rec->line_first.z || !recovery_line_semi_ok(rec))
        return 0;
    if (tok.z == rec->line_first.z) return 1;
    switch (rec->line_first_code) {
    case TK_IDENT: case TK_PATH: case TK_SELF: case TK_LEVEL: case TK_GAME: case TK_ANIM:
    case TK_THREAD: case TK_WAIT: case TK_RETURN: case TK_IF: case TK_WHILE: case TK_FOR:
    case TK_SWITCH: case TK_BREAK: case TK_CONTINUE:
        return 1;
    default:
        return 0;
    }
}

/* Tokens that start a statement but never a top-level item. */
static int starts_statement(int code)
{
    switch (code) {
    case TK_SELF: case TK_LEVEL: case TK_GAME: case TK_ANIM: case TK_IF: case TK_WHILE:
    case TK_FOR: case TK_SWITCH: case TK_RETURN: case TK_WAIT: case TK_THREAD: case TK_BREAK:
    case TK_CONTINUE: case TK_DO: case TK_WAITTILLFRAMEEND: case TK_CASE: case TK_DEFAULT:
        return 1;
    default:
        return 0;
    }
}

/* The unclosed bracket worth naming at end of file: the innermost one, unless
** it is a '(' or '[' opened before the last error (that error explained it);
** then the innermost '{' or '/#'.  NULL when there is none. */
static const gsc_opener *unclosed_bracket(const gsc_lexer *lx)
{
    const syntax_log *log = lx->log;
    for (size_t i = lx->open.count; i-- > 0;) {
        const gsc_opener *o = &lx->open.items[i];
        if (o->kind == TK_LBRACE || o->kind == TK_DEVOPEN) return o;
        int after_last_error = o->line > log->error_line ||
                               (o->line == log->error_line && o->col > log->error_col);
        if (i + 1 == lx->open.count && (!log->errors || after_last_error)) return o;
    }
    return NULL;
}

/* At end of file: the bracket left open, if any names the error. */
static int report_unclosed(gsc_lexer *lx, gsc_token tok)
{
    const gsc_opener *o = unclosed_bracket(lx);
    if (o && o->kind == TK_DEVOPEN) {
        gsc_lexer_error(lx, o->line, o->col, "unterminated /# block");
        return 1;
    }
    if (o) {
        gsc_lexer_error(lx, tok.line, tok.col, "%s opened at line %d is never closed",
                        gsc_token_spelling(o->kind), o->line);
        return 1;
    }
    return 0;
}

/* Constructs users bring from other languages: say what GSC has. */
static int report_foreign(gsc_parse_ctx *ctx, int major, gsc_token tok)
{
    gsc_lexer *lx = ctx->lx;
    const gsc_recovery *rec = ctx->rec;
    if (major == TK_QUESTION) {
        gsc_lexer_error(lx, tok.line, tok.col, "GSC has no '?:' operator: use if/else");
        return 1;
    }
    if (ctx->prev_code == TK_PERCENT && major == TK_STRING) {
        gsc_lexer_error(lx, tok.line, tok.col,
                        "an animation name is written without quotes: %%name, not %%\"name\"");
        return 1;
    }
    if (rec->line_first_code == TK_INCLUDE && major == TK_SLASH) {
        gsc_lexer_error(lx, tok.line, tok.col, "#include paths separate folders with '\\', not '/'");
        return 1;
    }
    if (rec->line_first_code == TK_IDENT && rec->line_first.n == 7 &&
        memcmp(rec->line_first.z, "foreach", 7) == 0 && tok.line == rec->line_first.line) {
        gsc_lexer_error(lx, rec->line_first.line, rec->line_first.col,
                        "GSC has no foreach: use for (i = 0; i < a.size; i++)");
        return 1;
    }
    return 0;
}

void syntax_msg_expected(void *parser, gsc_parse_ctx *ctx, int major, gsc_token tok)
{
    gsc_lexer *lx = ctx->lx;
    gsc_recovery *rec = ctx->rec;
    if (major == 0 && report_unclosed(lx, tok)) return;
    if (report_foreign(ctx, major, tok)) return;
    char found[160];
    if (missing_semi_before_line(rec, tok)) {
        syntax_msg_describe_token(found, sizeof found, rec->line_first_code, rec->line_first);
        gsc_lexer_error(lx, rec->line_prev.line, rec->line_prev.col + rec->line_prev.n,
                        "expected %s before %s", gsc_token_spelling(TK_SEMI), found);
        return;
    }
    unsigned char ok[GSC_TERMINALS_MAX];
    int terminals = GscParseExpected(parser, ok);
    const char *what = expected_what(ok, terminals, major);
    syntax_msg_describe_token(found, sizeof found, major, tok);
    if (what && rec->func_name.z && strcmp(what, "function definition") == 0 &&
        starts_statement(major)) {
        /* Usually a block closed too early: a '{' went missing above. */
        gsc_lexer_error(lx, tok.line, tok.col,
                        "expected function definition before %s (a statement outside any "
                        "function: is a '{' missing above?)", found);
        return;
    }
    if (what) gsc_lexer_error(lx, tok.line, tok.col, "expected %s before %s", what, found);
    else gsc_lexer_error(lx, tok.line, tok.col, "syntax error before %s", found);
}

/* ---- the recovery driver's repairs ---- */

void syntax_msg_unfinished_line(gsc_lexer *lx, const gsc_token *last, const gsc_token *next, int next_code,
                                int closer)
{
    char found[160];
    syntax_msg_describe_token(found, sizeof found, next_code, *next);
    gsc_lexer_error(lx, last->line, last->col + last->n, "expected %s before %s", gsc_token_spelling(closer), found);
}

void syntax_msg_unclosed_function(gsc_lexer *lx, gsc_token name, gsc_token func)
{
    gsc_lexer_error(lx, name.line, name.col,
                    "expected '}' before '%.*s': function '%.*s' (line %d) is not closed",
                    name.n > 40 ? 40 : name.n, name.z, func.n > 40 ? 40 : func.n, func.z, func.line);
}

void syntax_msg_missing_brace(gsc_lexer *lx, const gsc_token *tok)
{
    char found[64];
    snprintf(found, sizeof found, "%.40s", tok->z);
    found[tok->n < 40 ? tok->n : 40] = 0;
    gsc_lexer_error(lx, tok->line, tok->col, "expected '{' before '%s'", found);
}

void syntax_msg_semi_before_brace(gsc_lexer *lx, const gsc_token *prev)
{
    gsc_lexer_error(lx, prev->line, prev->col + prev->n, "expected ';' before '}'");
}

void syntax_msg_stray_devclose(const syntax_log *log, const gsc_token *tok)
{
    diag_add(log->diags, DIAG_ERROR, log->src, tok->line, tok->col, "%s", "#/ has no matching /#");
}

const char *syntax_msg_profile_hint(int g2)
{
    return g2 ? "; cod1 and uo accept this (--profile uo or --profile cod1)"
              : "; cod2 and cod4 accept this (--profile cod2 or --profile cod4)";
}
