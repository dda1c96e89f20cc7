/* GSC lexer (re2c).  The whole file is in memory with a NUL sentinel after
** its last byte, so the scanners never refill: a NUL is end of input only at
** data+len; anywhere before it is a located error.  Several small scanners:
** the main one, comments, string bodies and the anim name after '%'.
** Line and column are tracked incrementally (every byte is looked at a
** constant number of times), so lexing is O(n). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "gsc_parser.h"
#include "lexer.h"

typedef unsigned char uchar;

/*!re2c
    re2c:define:YYCTYPE = "uchar";
    re2c:define:YYCURSOR = "cur";
    re2c:define:YYMARKER = "mar";
    re2c:yyfill:enable = 0;

    ident  = [a-zA-Z_][a-zA-Z0-9_]*;
    path   = ident ("\\" ident)+;
    dec    = [0-9]+;
    hex    = "0" [xX] [0-9a-fA-F]+;
    float  = [0-9]+ "." [0-9]* | "." [0-9]+;
    blank  = [ \t\r\v\f]+;
    inline = [ \t]*;
    name   = [a-zA-Z0-9_]+;
    stray  = [\x01-\x08\x0e-\x1f\x7f-\xff];
*/

void gsc_lexer_init(gsc_lexer *lx, source_file *src, diag_list *diags)
{
    memset(lx, 0, sizeof *lx);
    lx->src = src;
    lx->diags = diags;
    lx->cur = (const uchar *)src->data;
    lx->end = lx->cur + src->len;
    lx->line_start = lx->cur;
    lx->line = 1;
    /* A UTF-8 byte order mark is not part of the program. */
    if (src->len >= 3 && memcmp(src->data, "\xEF\xBB\xBF", 3) == 0) lx->cur += 3;
}

void gsc_lexer_free(gsc_lexer *lx)
{
    free(lx->open);
    lx->open = NULL;
    lx->open_count = lx->open_cap = 0;
}

static void report(gsc_lexer *lx, int lexical, int line, int col, const char *fmt, va_list ap)
{
    if (lx->stopped) return;
    if (lx->errors == GSC_MAX_ERRORS) {
        diag_add(lx->diags, DIAG_ERROR, lx->src, line, col,
                 "too many errors in this file; stopping");
        lx->stopped = 1;
        return;
    }
    lx->errors++;
    lx->error_token_count = lx->token_count;
    lx->error_line = line;
    lx->error_col = col;
    if (lexical) {
        lx->lexical_errors++;
        lx->lexical_error_token_count = lx->token_count;
    }
    diag_addv(lx->diags, DIAG_ERROR, lx->src, line, col, fmt, ap);
}

void gsc_lexer_error(gsc_lexer *lx, int line, int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(lx, 0, line, col, fmt, ap);
    va_end(ap);
}

/* The lexer's own errors: the parser's complaint that follows one at once is
** a consequence (a dropped byte, a missing directive), not news. */
#ifdef __GNUC__
__attribute__((format(printf, 4, 5)))
#endif
static void lex_error(gsc_lexer *lx, int line, int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(lx, 1, line, col, fmt, ap);
    va_end(ap);
}

const gsc_opener *gsc_lexer_innermost_open(const gsc_lexer *lx)
{
    return lx->open_count ? &lx->open[lx->open_count - 1] : NULL;
}

const gsc_opener *gsc_lexer_unclosed(const gsc_lexer *lx)
{
    for (int i = lx->open_count - 1; i >= 0; i--) {
        const gsc_opener *o = &lx->open[i];
        if (o->kind == TK_LBRACE || o->kind == TK_DEVOPEN) return o;
        int after_last_error = o->line > lx->error_line ||
                               (o->line == lx->error_line && o->col > lx->error_col);
        if (i == lx->open_count - 1 && (!lx->errors || after_last_error)) return o;
    }
    return NULL;
}

static int col_of(const gsc_lexer *lx, const uchar *p)
{
    return (int)(p - lx->line_start) + 1;
}

static void newline_at(gsc_lexer *lx, const uchar *nl)
{
    lx->line++;
    lx->line_start = nl + 1;
}

static void stray_nul(gsc_lexer *lx, const uchar *p)
{
    lex_error(lx, lx->line, col_of(lx, p), "stray NUL byte");
}

/* Pushes an opening bracket; refuses (and stops the file) beyond the bound. */
static int open_bracket(gsc_lexer *lx, int kind, const uchar *at)
{
    if (lx->open_count >= GSC_MAX_NESTING) {
        lex_error(lx, lx->line, col_of(lx, at), "nesting too deep (max %d)",
                        GSC_MAX_NESTING);
        lx->stopped = 1;
        return 0;
    }
    if (lx->open_count == lx->open_cap) {
        lx->open_cap = lx->open_cap ? lx->open_cap * 2 : 32;
        lx->open = xrealloc(lx->open, (size_t)lx->open_cap * sizeof *lx->open);
    }
    gsc_opener *o = &lx->open[lx->open_count++];
    o->kind = kind;
    o->line = lx->line;
    o->col = col_of(lx, at);
    return 1;
}

/* Pops through the matching opener when one is near the top: a closer that
** skips an unclosed '(' (`f(a; }`) still closes its '{', and a stray closer
** changes nothing.  The search is bounded to keep hostile input linear.  A
** closer with no opener may answer one that error recovery abandoned. */
static void close_bracket(gsc_lexer *lx, int opener_kind)
{
    for (int i = lx->open_count - 1; i >= 0 && i >= lx->open_count - 64; i--) {
        if (lx->open[i].kind == opener_kind) {
            lx->open_count = i;
            if (opener_kind == TK_LBRACE) lx->abandoned = 0; /* they were inside */
            return;
        }
    }
    if (opener_kind != TK_LBRACE && opener_kind != TK_DEVOPEN && lx->abandoned) {
        lx->abandoned--;
        lx->abandoned_closer = lx->token_count + 1; /* this closer, once emitted */
    }
}

void gsc_lexer_abandon_brackets(gsc_lexer *lx)
{
    while (lx->open_count) {
        int kind = lx->open[lx->open_count - 1].kind;
        if (kind == TK_LBRACE || kind == TK_DEVOPEN) break;
        lx->open_count--;
        lx->abandoned++;
    }
}

/* Is the previous token the end of an operand?  Then '%' is modulo. */
static int ends_operand(int code)
{
    switch (code) {
    case TK_IDENT: case TK_INT: case TK_FLOAT: case TK_STRING: case TK_ISTRING:
    case TK_RP: case TK_RBRACKET: case TK_TRUE: case TK_FALSE: case TK_UNDEFINED:
    case TK_ANIM: case TK_ANIMTREE:
        return 1;
    default:
        return 0;
    }
}

/* Skips a block comment; cur is just after the opening slash-star.  Sets
** *terminated to 0 when the end of file comes first. */
static const uchar *skip_block_comment(gsc_lexer *lx, const uchar *cur, int *terminated)
{
    for (;;) {
        const uchar *tok = cur;
        /*!re2c
            "*" "/"       { *terminated = 1; return cur; }
            "\n"          { newline_at(lx, tok); continue; }
            [\x00]        {
                if (tok >= lx->end) { *terminated = 0; return tok; }
                stray_nul(lx, tok);
                continue;
            }
            [^*\n\x00]+   { continue; }
            *             { continue; }
        */
    }
}

/* Skips a line comment; stops before the newline. */
static const uchar *skip_line_comment(gsc_lexer *lx, const uchar *cur)
{
    for (;;) {
        const uchar *tok = cur;
        /*!re2c
            [^\n\x00]+    { continue; }
            "\n"          { return tok; }
            [\x00]        {
                if (tok >= lx->end) return tok;
                stray_nul(lx, tok);
                continue;
            }
            *             { continue; }
        */
    }
}

/* Scans a string body; cur is just after the opening quote.  Strings may span
** lines, as the engine allows; an unterminated one runs to the end of file. */
static const uchar *scan_string(gsc_lexer *lx, const uchar *cur, int *terminated)
{
    for (;;) {
        const uchar *tok = cur;
        /*!re2c
            "\""              { *terminated = 1; return cur; }
            "\\" [^\x00\n]    { continue; }
            "\\" "\n"         { newline_at(lx, tok + 1); continue; }
            "\n"              { newline_at(lx, tok); continue; }
            [\x00]            {
                if (tok >= lx->end) { *terminated = 0; return tok; }
                stray_nul(lx, tok);
                continue;
            }
            [^"\\\n\x00]+     { continue; }
            *                 { continue; }
        */
    }
}

/* After a '%' that starts an operand: optional blanks and an animation name. */
static const uchar *scan_anim_name(const uchar *cur)
{
    const uchar *mar;
    const uchar *start = cur;
    (void)mar;
    /*!re2c
        inline name   { return cur; }
        *             { return start; }
    */
}

static void stray_byte(gsc_lexer *lx, const uchar *p)
{
    uchar c = *p;
    if (c >= 0x20 && c < 0x7f && c != '\'' && c != '\\')
        lex_error(lx, lx->line, col_of(lx, p), "stray '%c'", c);
    else if (c == '\'' || c == '\\')
        lex_error(lx, lx->line, col_of(lx, p), "stray '\\%c'", c);
    else
        lex_error(lx, lx->line, col_of(lx, p), "stray '\\x%02X'", c);
}

/* Position of the end of input: just after the last byte of the last line
** that has any (so the excerpt shows something). */
static void eof_position(gsc_lexer *lx, gsc_token *t)
{
    const uchar *base = (const uchar *)lx->src->data;
    const uchar *e = lx->end;
    int line = lx->line;
    const uchar *ls = lx->line_start;
    if (e > base && e[-1] == '\n' && line > 1) {
        /* Step back onto the previous line, without its CR. */
        const uchar *q = e - 1;
        if (q > base && q[-1] == '\r') q--;
        const uchar *p = e - 1;
        while (p > base && p[-1] != '\n') p--;
        ls = p;
        e = q;
        line--;
    }
    t->z = (const char *)lx->end;
    t->n = 0;
    t->line = line;
    t->col = (int)(e - ls) + 1;
}

static int emit(gsc_lexer *lx, gsc_token *t, int code, const uchar *tok, const uchar *cur)
{
    t->z = (const char *)tok;
    t->n = (int)(cur - tok);
    t->line = lx->line;
    t->col = col_of(lx, tok);
    lx->cur = cur;
    lx->prev = code;
    lx->token_count++;
    return code;
}

int gsc_lexer_next(gsc_lexer *lx, gsc_token *t)
{
    const uchar *cur = lx->cur, *mar, *tok;
    for (;;) {
        if (lx->stopped) {
            eof_position(lx, t);
            return 0;
        }
        tok = cur;
        /*!re2c
            [\x00] {
                if (tok >= lx->end) {
                    lx->cur = tok;
                    eof_position(lx, t);
                    return 0;
                }
                stray_nul(lx, tok);
                while (cur < lx->end && *cur == 0) cur++; /* one error per run */
                continue;
            }
            blank  { continue; }
            "\n" inline { newline_at(lx, tok); continue; }
            "//"   { cur = skip_line_comment(lx, cur); continue; }
            "/*"   {
                int line = lx->line, col = col_of(lx, tok), done;
                cur = skip_block_comment(lx, cur, &done);
                if (!done) {
                    lex_error(lx, line, col, "unterminated /* comment");
                    lx->eof_in_token = 1;
                }
                continue;
            }
            "/#"   { if (!open_bracket(lx, TK_DEVOPEN, tok)) continue; return emit(lx, t, TK_DEVOPEN, tok, cur); }
            "#/"   { close_bracket(lx, TK_DEVOPEN); return emit(lx, t, TK_DEVCLOSE, tok, cur); }
            "#include"         { return emit(lx, t, TK_INCLUDE, tok, cur); }
            "#using_animtree"  { return emit(lx, t, TK_USING_ANIMTREE, tok, cur); }
            "#animtree"        { return emit(lx, t, TK_ANIMTREE, tok, cur); }
            "#" ident {
                lex_error(lx, lx->line, col_of(lx, tok), "unknown directive '%.*s'",
                                (int)(cur - tok > 40 ? 40 : cur - tok), (const char *)tok);
                continue;
            }

            "if"               { return emit(lx, t, TK_IF, tok, cur); }
            "else"             { return emit(lx, t, TK_ELSE, tok, cur); }
            "while"            { return emit(lx, t, TK_WHILE, tok, cur); }
            "for"              { return emit(lx, t, TK_FOR, tok, cur); }
            "switch"           { return emit(lx, t, TK_SWITCH, tok, cur); }
            "case"             { return emit(lx, t, TK_CASE, tok, cur); }
            "default"          { return emit(lx, t, TK_DEFAULT, tok, cur); }
            "break"            { return emit(lx, t, TK_BREAK, tok, cur); }
            "continue"         { return emit(lx, t, TK_CONTINUE, tok, cur); }
            "return"           { return emit(lx, t, TK_RETURN, tok, cur); }
            "wait"             { return emit(lx, t, TK_WAIT, tok, cur); }
            "waittillframeend" { return emit(lx, t, TK_WAITTILLFRAMEEND, tok, cur); }
            "breakpoint"       { return emit(lx, t, TK_BREAKPOINT, tok, cur); }
            "thread"           { return emit(lx, t, TK_THREAD, tok, cur); }
            "true"             { return emit(lx, t, TK_TRUE, tok, cur); }
            "false"            { return emit(lx, t, TK_FALSE, tok, cur); }
            "undefined"        { return emit(lx, t, TK_UNDEFINED, tok, cur); }

            /* `(int)x`, `(float)x`: one token, so that `(x) f()` stays a method call. */
            "(" inline ("int" | "float") inline ")" { return emit(lx, t, TK_CAST, tok, cur); }

            ident  { return emit(lx, t, TK_IDENT, tok, cur); }
            path   { return emit(lx, t, TK_PATH, tok, cur); }
            dec | hex { return emit(lx, t, TK_INT, tok, cur); }
            float  { return emit(lx, t, TK_FLOAT, tok, cur); }

            "\"" | "&\"" {
                int line = lx->line, col = col_of(lx, tok), done;
                cur = scan_string(lx, cur, &done);
                if (!done) {
                    lex_error(lx, line, col, "unterminated string");
                    lx->eof_in_token = 1;
                }
                int code = *tok == '&' ? TK_ISTRING : TK_STRING;
                t->z = (const char *)tok;
                t->n = (int)(cur - tok);
                t->line = line;
                t->col = col;
                lx->cur = cur;
                lx->prev = code;
                lx->token_count++;
                return code;
            }

            "%" {
                if (!ends_operand(lx->prev)) {
                    const uchar *after = scan_anim_name(cur);
                    if (after != cur) return emit(lx, t, TK_ANIM, tok, after);
                }
                return emit(lx, t, TK_PERCENT, tok, cur);
            }
            "%="   { if (ends_operand(lx->prev)) return emit(lx, t, TK_PERCENTEQ, tok, cur);
                     cur = tok + 1;
                     return emit(lx, t, TK_PERCENT, tok, cur); }

            "("    { if (!open_bracket(lx, TK_LP, tok)) continue; return emit(lx, t, TK_LP, tok, cur); }
            ")"    { close_bracket(lx, TK_LP); return emit(lx, t, TK_RP, tok, cur); }
            "{"    { if (!open_bracket(lx, TK_LBRACE, tok)) continue; return emit(lx, t, TK_LBRACE, tok, cur); }
            "}"    { close_bracket(lx, TK_LBRACE); return emit(lx, t, TK_RBRACE, tok, cur); }
            "["    { if (!open_bracket(lx, TK_LBRACKET, tok)) continue; return emit(lx, t, TK_LBRACKET, tok, cur); }
            "[["   { if (!open_bracket(lx, TK_LDBRACKET, tok)) continue; return emit(lx, t, TK_LDBRACKET, tok, cur); }
            "]"    { close_bracket(lx, TK_LBRACKET); return emit(lx, t, TK_RBRACKET, tok, cur); }
            "]]"   {
                /* `[[a[i]]]`: the first ']' closes the index, not the pointer. */
                if (lx->open_count && lx->open[lx->open_count - 1].kind == TK_LBRACKET) {
                    close_bracket(lx, TK_LBRACKET);
                    return emit(lx, t, TK_RBRACKET, tok, tok + 1);
                }
                close_bracket(lx, TK_LDBRACKET);
                return emit(lx, t, TK_RDBRACKET, tok, cur);
            }

            ";"    { return emit(lx, t, TK_SEMI, tok, cur); }
            ","    { return emit(lx, t, TK_COMMA, tok, cur); }
            "::"   { return emit(lx, t, TK_DCOLON, tok, cur); }
            ":"    { return emit(lx, t, TK_COLON, tok, cur); }
            "."    { return emit(lx, t, TK_DOT, tok, cur); }
            "="    { return emit(lx, t, TK_ASSIGN, tok, cur); }
            "+="   { return emit(lx, t, TK_PLUSEQ, tok, cur); }
            "-="   { return emit(lx, t, TK_MINUSEQ, tok, cur); }
            "*="   { return emit(lx, t, TK_STAREQ, tok, cur); }
            "/="   { return emit(lx, t, TK_SLASHEQ, tok, cur); }
            "&="   { return emit(lx, t, TK_ANDEQ, tok, cur); }
            "|="   { return emit(lx, t, TK_OREQ, tok, cur); }
            "^="   { return emit(lx, t, TK_XOREQ, tok, cur); }
            "<<="  { return emit(lx, t, TK_SHLEQ, tok, cur); }
            ">>="  { return emit(lx, t, TK_SHREQ, tok, cur); }
            "++"   { return emit(lx, t, TK_INC, tok, cur); }
            "--"   { return emit(lx, t, TK_DEC, tok, cur); }
            "||"   { return emit(lx, t, TK_OROR, tok, cur); }
            "&&"   { return emit(lx, t, TK_ANDAND, tok, cur); }
            "|"    { return emit(lx, t, TK_BITOR, tok, cur); }
            "^"    { return emit(lx, t, TK_BITXOR, tok, cur); }
            "&"    { return emit(lx, t, TK_BITAND, tok, cur); }
            "=="   { return emit(lx, t, TK_EQ, tok, cur); }
            "!="   { return emit(lx, t, TK_NE, tok, cur); }
            "<"    { return emit(lx, t, TK_LT, tok, cur); }
            ">"    { return emit(lx, t, TK_GT, tok, cur); }
            "<="   { return emit(lx, t, TK_LE, tok, cur); }
            ">="   { return emit(lx, t, TK_GE, tok, cur); }
            "<<"   { return emit(lx, t, TK_SHL, tok, cur); }
            ">>"   { return emit(lx, t, TK_SHR, tok, cur); }
            "+"    { return emit(lx, t, TK_PLUS, tok, cur); }
            "-"    { return emit(lx, t, TK_MINUS, tok, cur); }
            "*"    { return emit(lx, t, TK_STAR, tok, cur); }
            "/"    { return emit(lx, t, TK_SLASH, tok, cur); }
            "!"    { return emit(lx, t, TK_BANG, tok, cur); }
            "~"    { return emit(lx, t, TK_TILDE, tok, cur); }

            /* A run of junk bytes (binary data, UTF-8 outside strings) is one error. */
            stray+ { stray_byte(lx, tok); continue; }
            *      { stray_byte(lx, tok); continue; }
        */
    }
}
