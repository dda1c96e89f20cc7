/* GSC lexer (re2c).  The whole file is in memory with a NUL sentinel after
** its last byte, so the scanners never refill: a NUL is end of input only at
** data+len; anywhere before it is a located error.  Several small scanners:
** the main one, comments, string bodies and path tails.  The main one calls
** nothing on the common path; what reports or allocates is done out of line
** (cold_action()).  Line and column are tracked incrementally (every byte is
** looked at a constant number of times), so lexing is O(n). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

/* The SSE2 paths need x86 SSE2 itself and the 64-bit token layout checked
** below; everywhere else (32-bit x86, WebAssembly, ARM, ...) the portable
** scalar code is what builds and runs. */
#if defined(__SSE2__) && defined(__GNUC__) && defined(__x86_64__)
#define GSC_LEX_SSE2 1
#include <emmintrin.h>
#else
#define GSC_LEX_SSE2 0
#endif

#include "base/arena.h"
#include "base/inline.h"
#include "base/vec.h"
#include "gsc_parser.h"
#include "script/lexer.h"
#include "game/profile.h"

typedef unsigned char uchar;

/* The scanner's helpers are inlined (ALWAYS_INLINE) so that its common path
** calls nothing. */

/*!re2c
    re2c:define:YYCTYPE = "uchar";
    re2c:define:YYCURSOR = "cur";
    re2c:define:YYMARKER = "mar";
    re2c:yyfill:enable = 0;
    re2c:flags:bit-vectors = 1; // loops over a class (words, blanks) test one table bit per byte

    ident  = [a-zA-Z_][a-zA-Z0-9_]*;
    dec    = [0-9]+;
    float  = [0-9]* "." [0-9]+;
    blank  = [ \t\r];
    inline = [ \t]*;
    stray  = [\x01-\x08\x0b-\x0c\x0e-\x1f\x7f-\xff];
*/

#ifdef __GNUC__
__attribute__((format(printf, 4, 5)))
#endif
static void lex_error(gsc_lexer *lx, int line, int col, const char *fmt, ...);

/* Counts the ASCII control bytes that are junk (all but tab, LF and CR; and
** DEL) and the bytes >= 0x80 in p[0..n).  Branch-free over fixed blocks with
** byte-sized counters, so that the compiler vectorises it: this runs over
** every byte of every file. */
static void count_suspect_bytes(const uchar *p, size_t n, size_t *ctl, size_t *high)
{
    enum { BLOCK = 128 }; /* a block's counts fit in a byte */
    size_t c = 0, h = 0, i = 0;
    for (; n - i >= BLOCK; i += BLOCK) {
        uchar bc = 0, bh = 0;
        for (int k = 0; k < BLOCK; k++) {
            uchar b = p[i + k];
            bc += (uchar)(((b < 0x20) & (b != '\t') & (b != '\n') & (b != '\r')) | (b == 0x7f));
            bh += (uchar)(b >> 7);
        }
        c += bc;
        h += bh;
    }
    for (; i < n; i++) {
        uchar b = p[i];
        c += ((b < 0x20) & (b != '\t') & (b != '\n') & (b != '\r')) | (b == 0x7f);
        h += b >> 7;
    }
    *ctl = c;
    *high = h;
}

/* Length of the leading run of 256-byte blocks of plain text (printable ASCII,
** tab, LF, CR) in p[0..n): most scripts are all plain text, and this test
** is cheaper than counting.  A byte is below ' ', DEL or high when, plus 1, it
** is below 0x21 as a signed byte (DEL and the high bytes wrap to negative
** values); tab and CR are the two bytes that or-ing 4 makes CR. */
static size_t plain_prefix(const uchar *p, size_t n)
{
    enum { BLOCK = 256 };
    size_t i = 0;
    for (; n - i >= BLOCK; i += BLOCK) {
#if GSC_LEX_SSE2
        const __m128i one = _mm_set1_epi8(1), c21 = _mm_set1_epi8(0x21),
                      four = _mm_set1_epi8(4), cr = _mm_set1_epi8('\r'),
                      lf = _mm_set1_epi8('\n');
        __m128i odd = _mm_setzero_si128();
        for (int k = 0; k < BLOCK; k += 16) {
            __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + i + k));
            __m128i low = _mm_cmplt_epi8(_mm_add_epi8(v, one), c21);
            __m128i ws = _mm_or_si128(_mm_cmpeq_epi8(_mm_or_si128(v, four), cr),
                                      _mm_cmpeq_epi8(v, lf));
            odd = _mm_or_si128(odd, _mm_andnot_si128(ws, low));
        }
        if (_mm_movemask_epi8(odd)) break;
#else
        uchar odd = 0;
        for (int k = 0; k < BLOCK; k++) {
            uchar c = p[i + k];
            signed char up = (signed char)(uchar)(c + 1);
            odd |= (uchar)((up < 0x21) & ((uchar)(c | 4) != '\r') & (c != '\n'));
        }
        if (odd) break;
#endif
    }
    return i;
}

/* A file of which a quarter are control bytes or bytes outside well-formed
** UTF-8 is not a script: one error says so instead of dozens of stray bytes.
** The junk count lies between the control bytes alone and the control bytes
** plus every high byte (a high byte is junk unless it is part of a
** well-formed sequence), so one cheap counting pass settles nearly every file
** (a plain ASCII script at once); only when the quarter falls between the two
** are the UTF-8 sequences checked.  Linear, once per file.  Sets *control
** when there is any control byte (a NUL is one). */
static int looks_binary(const uchar *p, size_t n, int *control)
{
    size_t ctl, high, plain = plain_prefix(p, n);
    count_suspect_bytes(p + plain, n - plain, &ctl, &high);
    *control = ctl != 0;
    if (n < 32) return 0;
    if (ctl * 4 > n) return 1;
    if ((ctl + high) * 4 <= n) return 0;
    size_t junk = ctl;
    for (size_t i = 0; i < n;) {
        if (p[i] < 0x80) {
            i++;
            continue;
        }
        size_t k = utf8_sequence_length(p + i, n - i);
        if (k > 1) {
            i += k;
        } else {
            junk++;
            i++;
        }
    }
    return junk * 4 > n;
}

/* Stops the file: the scanner is put on the NUL that ends the input, so that
** every later call returns the end of file without a check of its own. */
static void stop(gsc_lexer *lx)
{
    lx->log->stopped = 1;
    lx->cur = lx->end;
}

void gsc_lexer_init(gsc_lexer *lx, source_file *src, const profile_rules *rules,
                    syntax_log *log)
{
    memset(lx, 0, sizeof *lx);
    lx->src = src;
    lx->rules = rules;
    lx->log = log;
    lx->cur = (const uchar *)src->data;
    lx->end = lx->cur + src->len;
    lx->line_start = lx->cur;
    lx->line = 1;
    int control;
    if (looks_binary(lx->cur, src->len, &control)) {
        lex_error(lx, 1, 1, "not a script: the file is mostly binary data");
        stop(lx);
        return;
    }
    /* The games' input routines stop at a NUL byte (grammar.md 1.1): the
    ** rest of the file is not read.  The NUL itself is then the sentinel.
    ** (No control byte, no NUL: most files need no search.) */
    const uchar *nul = control ? memchr(lx->cur, 0, src->len) : NULL;
    if (nul) {
        int line = 1;
        const uchar *ls = lx->cur;
        for (const uchar *p = lx->cur; p < nul; p++)
            if (*p == '\n') line++, ls = p + 1;
        diag_add(log->diags, DIAG_WARNING, src, line, (int)(nul - ls) + 1,
                 "NUL byte ends the script (the game reads no further)");
        lx->end = nul;
    }
    /* Both games' lexers reject a UTF-8 byte order mark (grammar.md 1.1): one
    ** error that names it, then the text after it is read. */
    if (src->len >= 3 && memcmp(src->data, "\xEF\xBB\xBF", 3) == 0) {
        lex_error(lx, 1, 1, "UTF-8 byte order mark: the game's compiler rejects it "
                            "(save the file without BOM)");
        lx->cur += 3;
    }
}

void gsc_lexer_free(gsc_lexer *lx)
{
    VEC_FREE(lx->open);
    VEC_FREE(lx->conds);
}

int gsc_preproc_on(const gsc_preproc *pp)
{
    return pp && builtin_set_cod4x(pp->set);
}

void gsc_lexer_use_preproc(gsc_lexer *lx, const gsc_preproc *pp)
{
    lx->pp = gsc_preproc_on(pp) ? pp : NULL;
}

static int report(gsc_lexer *lx, int line, int col, const char *fmt, va_list ap)
{
    int counted = syntax_log_reportv(lx->log, line, col, fmt, ap);
    if (lx->log->stopped) stop(lx);
    return counted;
}

void gsc_lexer_error(gsc_lexer *lx, int line, int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(lx, line, col, fmt, ap);
    va_end(ap);
}

/* The lexer's own errors: the parser's complaint that follows one at once is
** a consequence (a dropped byte, a missing directive), not news. */
static void lex_error(gsc_lexer *lx, int line, int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (report(lx, line, col, fmt, ap)) {
        lx->log->lexical_errors++;
        lx->log->lexical_error_token = lx->token_count;
    }
    va_end(ap);
}

const gsc_opener *gsc_lexer_innermost_open(const gsc_lexer *lx)
{
    return lx->open.count ? &lx->open.items[lx->open.count - 1] : NULL;
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

/* Whether an opening bracket fits without growing the stack or passing the
** bound: the scanner pushes it itself then (see scan()). */
static int open_fits(const gsc_lexer *lx)
{
    return lx->open.count < lx->open.cap && lx->open.count < GSC_MAX_NESTING;
}

static void push_open(gsc_lexer *lx, int kind, const uchar *at)
{
    gsc_opener *o = &lx->open.items[lx->open.count++];
    o->kind = kind;
    o->line = lx->line;
    o->col = col_of(lx, at);
}

/* Pushes an opening bracket; refuses (and stops the file) beyond the bound. */
static int open_bracket(gsc_lexer *lx, int kind, const uchar *at)
{
    if (lx->open.count >= GSC_MAX_NESTING) {
        lex_error(lx, lx->line, col_of(lx, at), "nesting too deep (max %d)",
                        GSC_MAX_NESTING);
        stop(lx);
        return 0;
    }
    VEC_RESERVE(lx->open, lx->open.count + 1);
    push_open(lx, kind, at);
    return 1;
}

/* Pops through the matching opener when one is near the top: a closer that
** skips an unclosed '(' (`f(a; }`) still closes its '{', and a stray closer
** changes nothing.  The search is bounded to keep hostile input linear.  A
** closer with no opener may answer one that error recovery abandoned. */
static ALWAYS_INLINE void close_bracket(gsc_lexer *lx, int opener_kind)
{
    size_t n = lx->open.count;
    if (n && lx->open.items[n - 1].kind == opener_kind) { /* the common case, first */
        lx->open.count = n - 1;
        if (opener_kind == TK_LBRACE) lx->log->abandoned = 0;
        return;
    }
    for (size_t i = n; i-- > 0 && i + 64 >= n;) {
        if (lx->open.items[i].kind == opener_kind) {
            lx->open.count = i;
            if (opener_kind == TK_LBRACE) lx->log->abandoned = 0; /* they were inside */
            return;
        }
    }
    syntax_log *log = lx->log;
    if (opener_kind == TK_DEVOPEN) log->stray_devclose = lx->token_count + 1; /* this '#/', once emitted */
    if (opener_kind != TK_LBRACE && opener_kind != TK_DEVOPEN && log->abandoned) {
        log->abandoned--;
        log->abandoned_closer = lx->token_count + 1; /* this closer, once emitted */
    }
}

void gsc_lexer_insert_open(gsc_lexer *lx, int below_top, int kind, int line, int col)
{
    if (lx->open.count >= GSC_MAX_NESTING || below_top < 0 || (size_t)below_top > lx->open.count) return;
    VEC_RESERVE(lx->open, lx->open.count + 1);
    size_t at = lx->open.count - (size_t)below_top;
    memmove(&lx->open.items[at + 1], &lx->open.items[at], (size_t)below_top * sizeof *lx->open.items);
    lx->open.items[at] = (gsc_opener){kind, line, col};
    lx->open.count++;
}

void gsc_lexer_abandon_brackets(gsc_lexer *lx)
{
    while (lx->open.count) {
        int kind = lx->open.items[lx->open.count - 1].kind;
        if (kind == TK_LBRACE || kind == TK_DEVOPEN) break;
        lx->open.count--;
        lx->log->abandoned++;
    }
}

/* Comments and strings are long runs of bytes that the scanner only passes
** over: skip_plain() returns the first byte at or after cur that stops one of
** the sets below, or end (the input's final NUL) when there is none.  With
** SSE2 (every x86-64) it tests 16 bytes per step while 16 are left, then
** byte by byte; without, one table lookup per byte (a NUL stops every set).
** No NUL lies before end: gsc_lexer_init() ends the input at the first one. */
enum { STOP_LINE = 1, STOP_STRING = 2, STOP_COMMENT = 4 };
#if !GSC_LEX_SSE2
static const uchar stop_byte[256] = {
    [0] = STOP_LINE | STOP_STRING | STOP_COMMENT,
    ['\n'] = STOP_LINE | STOP_STRING | STOP_COMMENT,
    ['"'] = STOP_STRING, ['\\'] = STOP_STRING, ['*'] = STOP_COMMENT,
};
#endif

static ALWAYS_INLINE const uchar *skip_plain(const uchar *cur, const uchar *end, int set)
{
#if GSC_LEX_SSE2
    /* The set's bytes (one set per call site: constants once inlined). */
    char a = '\n', b = set == STOP_STRING ? '"' : set == STOP_COMMENT ? '*' : '\n',
         c = set == STOP_STRING ? '\\' : '\n';
    const __m128i va = _mm_set1_epi8(a), vb = _mm_set1_epi8(b), vc = _mm_set1_epi8(c);
    for (; end - cur >= 16; cur += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)cur);
        __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, va), _mm_cmpeq_epi8(v, vb)),
                                   _mm_cmpeq_epi8(v, vc));
        int mask = _mm_movemask_epi8(hit);
        if (mask) return cur + __builtin_ctz((unsigned)mask);
    }
    while (cur < end && *cur != a && *cur != b && *cur != c) cur++;
#else
    (void)end;
    while (!(stop_byte[*cur] & set)) cur++;
#endif
    return cur;
}

/* Skips a block comment; cur is just after the opening slash-star.  Sets
** *terminated to 0 when the end of file comes first. */
static const uchar *skip_block_comment(gsc_lexer *lx, const uchar *cur, int *terminated)
{
    for (;;) {
        cur = skip_plain(cur, lx->end, STOP_COMMENT);
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

/* Scans a string body; cur is just after the opening quote.  A string ends at
** the end of its line in every game (grammar.md 1.2): an unterminated one
** stops before the line break (or the end of file), *terminated = 0. */
static const uchar *scan_string(gsc_lexer *lx, const uchar *cur, int *terminated)
{
    for (;;) {
        const uchar *tok = cur;
        /*!re2c
            "\""              { *terminated = 1; return cur; }
            "\\" [^\x00\n]    { continue; }
            "\n"              { *terminated = 0; return tok; }
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

/* The directive [tok, end) is one of CoD4x's preprocessor (#if, #else,
** #endif: its server's script loader reads them, the stock game does not). */
static int cod4x_directive(const uchar *tok, const uchar *end)
{
    static const char *const names[] = {"#if", "#else", "#endif"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if ((size_t)(end - tok) == strlen(names[i]) && memcmp(tok, names[i], (size_t)(end - tok)) == 0) return 1;
    return 0;
}

/* ---- CoD4x's preprocessor: line-based, so an inactive branch is skipped
** line by line without tokens (its lines still counted), and everything
** else keeps its line and column. ---- */

static int is_word_byte(uchar c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static const uchar *skip_blanks(const uchar *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\r') p++; /* the input ends with a NUL */
    return p;
}

/* The end of a directive's line (its '\n', or the end of input) when only
** blanks and a // comment follow p, else NULL. */
static const uchar *directive_line_end(const gsc_lexer *lx, const uchar *p)
{
    p = skip_blanks(p);
    if (p[0] == '/' && p[1] == '/') {
        const uchar *nl = memchr(p, '\n', (size_t)(lx->end - p));
        return nl ? nl : lx->end;
    }
    return *p == '\n' || p >= lx->end ? p : NULL;
}

/* Skips the lines of an inactive branch up to the #else or #endif that ends
** it (nested blocks skipped whole), leaving lx->cur on that directive for
** the scanner; or to the end of input (the block is then unclosed). */
static void skip_branch(gsc_lexer *lx)
{
    const uchar *p = lx->cur;
    int depth = 0;
    for (;;) {
        const uchar *nl = memchr(p, '\n', (size_t)(lx->end - p));
        if (!nl) {
            lx->cur = lx->end;
            return;
        }
        newline_at(lx, nl);
        p = skip_blanks(nl + 1);
        if (*p != '#') continue;
        const uchar *e = p + 1;
        while (is_word_byte(*e)) e++;
        size_t n = (size_t)(e - p);
        if (n == 3 && memcmp(p, "#if", 3) == 0)
            depth++;
        else if ((n == 6 && memcmp(p, "#endif", 6) == 0) || (n == 5 && memcmp(p, "#else", 5) == 0)) {
            if (depth == 0) {
                lx->cur = p;
                return;
            }
            if (n == 6) depth--;
        }
    }
}

/* Is the word [p, e) a builtin function or method of the run (the lookup
** calls resolve with)? */
static int syscall_defined(const gsc_lexer *lx, const uchar *p, const uchar *e)
{
    char name[128];
    if ((size_t)(e - p) >= sizeof name) return 0; /* longer than any builtin */
    memcpy(name, p, (size_t)(e - p));
    name[e - p] = 0;
    const gsc_preproc *pp = lx->pp;
    int certain;
    return profile_builtin_lookup(pp->rules, pp->set, pp->mode, BUILTIN_FUNCTION, name, &certain) ||
           profile_builtin_lookup(pp->rules, pp->set, pp->mode, BUILTIN_METHOD, name, &certain);
}

/* The directive [tok, end) of CoD4x's preprocessor, with lx->preproc on:
** #if isSyscallDefined NAME opens a block, #else switches its branch,
** #endif closes it; an inactive branch is skipped.  Every error is at the
** directive.  Returns where scanning goes on. */
static const uchar *preproc_directive(gsc_lexer *lx, const uchar *tok, const uchar *end)
{
    int line = lx->line, col = col_of(lx, tok);
    size_t n = (size_t)(end - tok);
    if (n == 3) { /* #if */
        const uchar *p = skip_blanks(end), *word = p, *name, *name_end, *stop = NULL;
        while (is_word_byte(*p)) p++;
        if (p - word == 16 && memcmp(word, "isSyscallDefined", 16) == 0 && skip_blanks(p) != p) {
            name = skip_blanks(p);
            name_end = name;
            if ((*name_end >= 'a' && *name_end <= 'z') || (*name_end >= 'A' && *name_end <= 'Z') || *name_end == '_')
                while (is_word_byte(*name_end)) name_end++;
            if (name_end != name) stop = directive_line_end(lx, name_end);
        }
        gsc_cond c = {line, col, 0, 0};
        if (stop)
            c.active = syscall_defined(lx, name, name_end);
        else {
            /* The server loads no such script: nothing in the block is read. */
            lex_error(lx, line, col, "malformed '#if': CoD4x's preprocessor reads '#if isSyscallDefined NAME'");
            const uchar *nl = memchr(end, '\n', (size_t)(lx->end - end));
            stop = nl ? nl : lx->end;
        }
        *VEC_PUSH(lx->conds) = c;
        lx->cur = stop;
        if (!c.active) skip_branch(lx);
        return lx->cur;
    }
    const uchar *stop = directive_line_end(lx, end);
    if (!stop) {
        lex_error(lx, line, col, "malformed '%.*s': nothing may follow it on its line", (int)n, (const char *)tok);
        const uchar *nl = memchr(end, '\n', (size_t)(lx->end - end));
        stop = nl ? nl : lx->end;
    }
    lx->cur = stop;
    if (!lx->conds.count) {
        lex_error(lx, line, col, "'%.*s' without '#if'", (int)n, (const char *)tok);
        return lx->cur;
    }
    gsc_cond *c = &lx->conds.items[lx->conds.count - 1];
    if (n == 6) { /* #endif */
        lx->conds.count--;
        return lx->cur;
    }
    if (c->in_else)
        lex_error(lx, line, col, "second '#else' of the '#if' at line %d", c->line);
    else {
        c->in_else = 1;
        c->active = !c->active;
    }
    if (!c->active) skip_branch(lx);
    return lx->cur;
}

/* At the end of input: each block still open is an error at its #if. */
static void preproc_end(gsc_lexer *lx)
{
    for (size_t i = 0; i < lx->conds.count; i++)
        lex_error(lx, lx->conds.items[i].line, lx->conds.items[i].col,
                  "'#if' without '#endif' before the end of the file");
    lx->conds.count = 0;
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

/* The end of the run of junk bytes that starts at cur. */
static const uchar *stray_run_end(const uchar *cur)
{
    for (;;) {
        const uchar *tok = cur;
        /*!re2c
            stray+ { return cur; }
            *      { return tok; }
        */
    }
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

#if GSC_LEX_SSE2
/* emit() writes a token as two pieces, z n line and col (see there). */
typedef char token_layout_known[offsetof(gsc_token, n) == 8 && offsetof(gsc_token, line) == 12 &&
                                offsetof(gsc_token, col) == 16 && sizeof(gsc_token) == 24 ? 1 : -1];
#endif

static int emit(gsc_lexer *lx, gsc_token *t, int code, const uchar *tok, const uchar *cur)
{
#if GSC_LEX_SSE2
    /* The token is then copied as 16 + 8 bytes (passed to the parser by
    ** value): written in the same two pieces, the stores are forwarded to
    ** those loads, where four separate field stores would stall them. */
    {
        uint64_t n_line = (uint64_t)(uint32_t)(int)(cur - tok) | (uint64_t)(uint32_t)lx->line << 32;
        __m128i v = _mm_set_epi64x((long long)n_line, (long long)(uintptr_t)tok);
        _mm_storeu_si128((__m128i *)(void *)t, v);
        uint64_t col = (uint64_t)(uint32_t)col_of(lx, tok);
        memcpy((char *)t + 16, &col, 8);
    }
#else
    t->z = (const char *)tok;
    t->n = (int)(cur - tok);
    t->line = lx->line;
    t->col = col_of(lx, tok);
#endif
    lx->cur = cur;
    lx->token_count++;
    return code;
}

/* Word bytes: letters, digits, '_'. */
static const uchar word_byte[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0,
    0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1,
    0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

#if GSC_LEX_SSE2
/* The bytes of v in lo..hi (as unsigned bytes): x - lo, moved to signed, is
** below hi - lo + 1 moved the same way. */
static ALWAYS_INLINE __m128i bytes_in(__m128i v, int lo, int hi)
{
    __m128i d = _mm_add_epi8(v, _mm_set1_epi8((char)(-lo - 128)));
    return _mm_cmplt_epi8(d, _mm_set1_epi8((char)(hi - lo + 1 - 128)));
}
#endif

/* The end of the word bytes from cur (cur itself when there are none), end
** being the end of the input.  16 bytes per test where they can be read (the
** word's end is then found without a loop whose exit depends on its length),
** else two bytes per step. */
static ALWAYS_INLINE const uchar *word_end(const uchar *cur, const uchar *end)
{
#if GSC_LEX_SSE2
    for (; end - cur >= 16; cur += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)cur);
        __m128i word = _mm_or_si128(_mm_or_si128(bytes_in(_mm_or_si128(v, _mm_set1_epi8(0x20)), 'a', 'z'),
                                                 bytes_in(v, '0', '9')),
                                    _mm_cmpeq_epi8(v, _mm_set1_epi8('_')));
        unsigned other = ~(unsigned)_mm_movemask_epi8(word) & 0xFFFFu;
        if (other) return cur + __builtin_ctz(other);
    }
#else
    (void)end;
#endif
    for (;; cur += 2) {
        if (!word_byte[cur[0]]) return cur;
        if (!word_byte[cur[1]]) return cur + 1;
    }
}

/* A word followed by a backslash and another word is a path (maps\mp\_utility):
** returns the end of the longest run of backslash-word from cur, or cur when there
** is none.  Apart from the main scanner so that its word loop needs no
** backtracking. */
static ALWAYS_INLINE const uchar *path_end(const uchar *cur)
{
    const uchar *tok = cur, *mar;
    /*!re2c
        ("\\" ident)+ { return cur; }
        *             { return tok; }
    */
}

/* The scanner's actions that report, skip block comments or grow the bracket
** stack are done out of its line (cold_action()), so that the scanner itself
** calls nothing on the common path and needs no saved registers: it returns
** one of these instead of a token code, the match being *at..lx->cur. */
enum {
    ACT_NUL = -1, ACT_BLOCK_COMMENT = -3, ACT_OPEN = -4,
    ACT_INCLUDE = -5, ACT_DIRECTIVE = -6, ACT_HASH = -7, ACT_DOLLAR = -8, ACT_CAST = -9,
    ACT_HEX = -10, ACT_EXPONENT = -11, ACT_POINT_END = -12, ACT_STRING = -13, ACT_STRAY = -14,
    ACT_STRAY_RUN = -15
};

/* A word at tok..cur, code the keyword's when the scanner matched one (else
** TK_IDENT, the word's first byte): a longer word is an identifier, and a
** word may start a path. */
static ALWAYS_INLINE int word_token(gsc_lexer *lx, gsc_token *t, int code, const uchar *tok,
                                    const uchar *cur)
{
    const uchar *end = word_end(cur, lx->end);
    if (end != cur) { /* longer than the keyword: an identifier */
        code = TK_IDENT;
        cur = end;
    }
    if (*cur == '\\') {
        end = path_end(cur);
        if (end != cur) return emit(lx, t, TK_PATH, tok, end);
    }
    return emit(lx, t, code, tok, cur);
}

/* The scanner's actions (scan()): COLD hands the match to cold_action(), OPEN
** pushes an opening bracket when it fits without growing the stack. */
#define COLD(act) do { *at = tok; lx->cur = cur; return (act); } while (0)
#define OPEN(kind)                                                                 \
    do {                                                                           \
        if (!open_fits(lx)) COLD(ACT_OPEN);                                        \
        push_open(lx, kind, tok);                                                  \
        return emit(lx, t, kind, tok, cur);                                        \
    } while (0)

/* Next token code (>= 0, *t filled), or an ACT_ code.
** - Casts are single tokens, exactly so spelled (G1); elsewhere the '(' is
**   just a parenthesis.
** - Keywords: the same words in every game, plus the profile's own
**   (grammar.md 1.2); exact case.  Every other word is an identifier, and a
**   word may start a path (word_token()).  The scanner matches a keyword or
**   a word's first byte: word_end() reads the rest, so that words that only
**   start like a keyword leave the keyword states at once.
** - Number forms of other languages: one error that says what GSC has, and
**   the number goes on as one token.
** - A string that needs no report (no escape, no line break, within the
**   limit) is read here; any other by scan_string().
** - A run of junk bytes (binary data, UTF-8 outside strings) is one error:
**   the cold action reads the rest of the run, so that the scanner's first
**   state is a plain switch with no class loop. */
static ALWAYS_INLINE int scan(gsc_lexer *lx, gsc_token *t, const uchar **at)
{
    const uchar *cur = lx->cur, *mar, *tok;
    int code;
    for (;;) {
        tok = cur;
        /*!re2c
            [\x00] { COLD(ACT_NUL); }
            blank  { continue; }
            "\n" inline { newline_at(lx, tok); continue; }
            "//"   { cur = skip_plain(cur, lx->end, STOP_LINE); continue; }
            "/*"   { COLD(ACT_BLOCK_COMMENT); }
            "/#"   { OPEN(TK_DEVOPEN); }
            "#/"   { close_bracket(lx, TK_DEVOPEN); return emit(lx, t, TK_DEVCLOSE, tok, cur); }
            "#include"         { COLD(ACT_INCLUDE); }
            "#using_animtree"  { return emit(lx, t, TK_USING_ANIMTREE, tok, cur); }
            "#animtree"        { return emit(lx, t, TK_ANIMTREE, tok, cur); }
            "#" ident          { COLD(ACT_DIRECTIVE); }
            "#"    { COLD(ACT_HASH); }
            "$"    { COLD(ACT_DOLLAR); }
            "(" ("int" | "float" | "string" | "bool") ")" { COLD(ACT_CAST); }

            "if"        { code = TK_IF; goto word; }
            "else"      { code = TK_ELSE; goto word; }
            "while"     { code = TK_WHILE; goto word; }
            "for"       { code = TK_FOR; goto word; }
            "switch"    { code = TK_SWITCH; goto word; }
            "case"      { code = TK_CASE; goto word; }
            "default"   { code = TK_DEFAULT; goto word; }
            "break"     { code = TK_BREAK; goto word; }
            "continue"  { code = TK_CONTINUE; goto word; }
            "return"    { code = TK_RETURN; goto word; }
            "wait"      { code = TK_WAIT; goto word; }
            "thread"    { code = TK_THREAD; goto word; }
            "waittill"  { code = TK_WAITTILL; goto word; }
            "waittillmatch" { code = TK_WAITTILLMATCH; goto word; }
            "notify"    { code = TK_NOTIFY; goto word; }
            "endon"     { code = TK_ENDON; goto word; }
            "self"      { code = TK_SELF; goto word; }
            "level"     { code = TK_LEVEL; goto word; }
            "game"      { code = TK_GAME; goto word; }
            "anim"      { code = TK_ANIM; goto word; }
            "undefined" { code = TK_UNDEFINED; goto word; }
            "true"      { code = TK_TRUE; goto word; }
            "false"     { code = TK_FALSE; goto word; }
            "do"        { code = lx->rules->kw_do ? TK_DO : TK_IDENT; goto word; }
            "waittillframeend" { code = lx->rules->kw_debug ? TK_WAITTILLFRAMEEND : TK_IDENT; goto word; }
            "breakpoint" { code = lx->rules->kw_debug ? TK_BREAKPOINT : TK_IDENT; goto word; }
            "prof_begin" { code = lx->rules->kw_debug ? TK_PROF_BEGIN : TK_IDENT; goto word; }
            "prof_end"  { code = lx->rules->kw_debug ? TK_PROF_END : TK_IDENT; goto word; }
            "breakon"   { code = lx->rules->kw_debug ? TK_BREAKON : TK_IDENT; goto word; }
            [a-zA-Z_]   { code = TK_IDENT; goto word; }
            dec    { return emit(lx, t, TK_INT, tok, cur); }
            float  { return emit(lx, t, TK_FLOAT, tok, cur); }
            "0" [xX] [0-9a-fA-F]+         { COLD(ACT_HEX); }
            (dec | float) [eE] [+-]? dec  { COLD(ACT_EXPONENT); }
            dec "." / [^0-9a-zA-Z_]       { COLD(ACT_POINT_END); }
            ".size" { return emit(lx, t, TK_SIZE, tok, cur); }
            "\"" | "&\"" {
                const uchar *q = skip_plain(cur, lx->end, STOP_STRING);
                int limit = lx->rules->max_string_length;
                if (*q != '"' || (limit && q - cur > limit)) COLD(ACT_STRING);
                return emit(lx, t, *tok == '&' ? TK_ISTRING : TK_STRING, tok, q + 1);
            }

            "%"    { return emit(lx, t, TK_PERCENT, tok, cur); }
            "%="   { return emit(lx, t, TK_PERCENTEQ, tok, cur); }

            "("    { OPEN(TK_LP); }
            ")"    { close_bracket(lx, TK_LP); return emit(lx, t, TK_RP, tok, cur); }
            "{"    { OPEN(TK_LBRACE); }
            "}"    { close_bracket(lx, TK_LBRACE); return emit(lx, t, TK_RBRACE, tok, cur); }
            "["    { OPEN(TK_LBRACKET); }
            "]"    { close_bracket(lx, TK_LBRACKET); return emit(lx, t, TK_RBRACKET, tok, cur); }

            ";"    { return emit(lx, t, TK_SEMI, tok, cur); }
            ","    { return emit(lx, t, TK_COMMA, tok, cur); }
            "::"   { return emit(lx, t, TK_DCOLON, tok, cur); }
            ":"    { return emit(lx, t, TK_COLON, tok, cur); }
            "."    { return emit(lx, t, TK_DOT, tok, cur); }
            "?"    { return emit(lx, t, TK_QUESTION, tok, cur); }
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
            stray  { COLD(ACT_STRAY_RUN); }
            *      { COLD(ACT_STRAY); }
        */
    word: /* a word (keyword code, or its first bytes) at tok..cur, or the path it starts */
        return word_token(lx, t, code, tok, cur);
    }
}
#undef OPEN
#undef COLD

/* The action for an ACT_ code from scan(), the match being tok..lx->cur.
** Returns a token code, or -1 to scan on from lx->cur. */
static int cold_action(gsc_lexer *lx, gsc_token *t, int act, const uchar *tok)
{
    const uchar *cur = lx->cur;
    switch (act) {
    case ACT_NUL:
        if (tok >= lx->end) {
            if (lx->conds.count) preproc_end(lx);
            lx->cur = lx->end;
            eof_position(lx, t);
            return 0;
        }
        stray_nul(lx, tok);
        while (cur < lx->end && *cur == 0) cur++; /* one error per run */
        break;
    case ACT_BLOCK_COMMENT: {
        int line = lx->line, col = col_of(lx, tok), done;
        cur = skip_block_comment(lx, cur, &done);
        /* The games end the input there: fine if the program is
        ** complete, else the parser reports the end of file. */
        if (!done)
            diag_add(lx->log->diags, DIAG_WARNING, lx->src, line, col,
                     "unterminated /* comment runs to the end of the file");
        break;
    }
    case ACT_OPEN: {
        int kind = *tok == '(' ? TK_LP : *tok == '{' ? TK_LBRACE : *tok == '[' ? TK_LBRACKET
                                                                               : TK_DEVOPEN;
        if (!open_bracket(lx, kind, tok)) break;
        return emit(lx, t, kind, tok, cur);
    }
    case ACT_INCLUDE:
        if (lx->rules->kw_include) return emit(lx, t, TK_INCLUDE, tok, cur);
        lex_error(lx, lx->line, col_of(lx, tok),
                  "'#include' does not exist in %s (cod2 and cod4 only)", lx->rules->name);
        break;
    case ACT_DIRECTIVE:
        if (lx->pp && cod4x_directive(tok, cur)) {
            cur = preproc_directive(lx, tok, cur);
            break;
        }
        lex_error(lx, lx->line, col_of(lx, tok), "unknown directive '%.*s'%s",
                  (int)(cur - tok > 40 ? 40 : cur - tok), (const char *)tok,
                  lx->rules->cod4x_directives_note && cod4x_directive(tok, cur)
                      ? " (stock CoD4 has no preprocessor; the CoD4x server's accepts #if isSyscallDefined NAME, "
                        "#else and #endif)"
                      : "");
        break;
    case ACT_HASH:
        if (lx->rules->kw_hash) return emit(lx, t, TK_HASH, tok, cur);
        stray_byte(lx, tok);
        break;
    case ACT_DOLLAR:
        if (lx->rules->kw_debug) return emit(lx, t, TK_DOLLAR, tok, cur);
        stray_byte(lx, tok);
        break;
    case ACT_CAST:
        if (lx->rules->kw_cast) return emit(lx, t, TK_CAST, tok, cur);
        cur = tok + 1;
        if (!open_bracket(lx, TK_LP, tok)) break;
        return emit(lx, t, TK_LP, tok, cur);
    case ACT_HEX:
        lex_error(lx, lx->line, col_of(lx, tok),
                  "GSC has no hexadecimal numbers: write '%.*s' in decimal",
                  (int)(cur - tok > 20 ? 20 : cur - tok), (const char *)tok);
        return emit(lx, t, TK_INT, tok, cur);
    case ACT_EXPONENT:
        lex_error(lx, lx->line, col_of(lx, tok),
                  "GSC has no exponents: write '%.*s' out in full",
                  (int)(cur - tok > 20 ? 20 : cur - tok), (const char *)tok);
        return emit(lx, t, TK_FLOAT, tok, cur);
    case ACT_POINT_END:
        lex_error(lx, lx->line, col_of(lx, tok),
                  "a number cannot end with '.' in GSC: write '%.*s0'",
                  (int)(cur - tok > 20 ? 20 : cur - tok), (const char *)tok);
        return emit(lx, t, TK_FLOAT, tok, cur);
    case ACT_STRING: {
        int line = lx->line, col = col_of(lx, tok), done;
        int quote = *tok == '&' ? 2 : 1;
        cur = scan_string(lx, tok + quote, &done);
        if (!done) {
            /* After an error earlier on the line, quotes pair up
            ** wrongly (`f(a", "b")`): the lone one is no news. */
            if (!lx->log->errors || lx->log->error_line != line)
                lex_error(lx, line, col, "missing terminating '\"' character");
            lx->log->unterminated_string = 1;
        }
        int limit = lx->rules->max_string_length;
        if (done && limit && cur - tok - quote - 1 > limit)
            lex_error(lx, line, col, "max string length exceeded (%d bytes)", limit);
        return emit(lx, t, quote == 2 ? TK_ISTRING : TK_STRING, tok, cur);
    }
    case ACT_STRAY_RUN:
        stray_byte(lx, tok);
        cur = stray_run_end(cur);
        break;
    default: /* ACT_STRAY */
        stray_byte(lx, tok);
        break;
    }
    lx->cur = cur;
    return -1;
}

/* After an ACT_ code: its action, then scanning on until a token comes. */
NOINLINE static int next_after(gsc_lexer *lx, gsc_token *t, int act, const uchar *at)
{
    for (;;) {
        int code = cold_action(lx, t, act, at);
        if (lx->log->stopped) {
            /* The action went on after stopping and moved lx->cur: the
            ** token it made (if any) is the last one. */
            lx->cur = lx->end;
            if (code >= 0) return code;
            eof_position(lx, t);
            return 0;
        }
        if (code >= 0) return code;
        act = scan(lx, t, &at);
        if (act >= 0) return act;
    }
}

/* A stopped file has lx->cur on its final NUL (stop()): no check here. */
int gsc_lexer_next(gsc_lexer *lx, gsc_token *t)
{
    const uchar *at = NULL;
    int code = scan(lx, t, &at);
    if (code >= 0) return code;
    return next_after(lx, t, code, at);
}
