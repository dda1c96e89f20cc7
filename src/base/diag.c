/* Diagnostics (diag.h): the list and its reporting policy, the GCC-style
** printer with excerpts and colours, JSON, and a file's range put in source
** order. */
#include "base/diag.h"
#include "base/arena.h"
#include "base/outbuf.h"
#include "base/vec.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void diag_init(diag_list *d)
{
    memset(d, 0, sizeof *d);
    d->max_errors = DIAG_DEFAULT_MAX_ERRORS;
}

void diag_set_policy(diag_list *d, const atrc_options *opts)
{
    d->no_warnings = opts->no_warnings;
    d->warnings_as_errors = opts->warnings_as_errors;
    if (opts->max_errors != 0) d->max_errors = opts->max_errors < 0 ? 0 : opts->max_errors;
}

void diag_free(diag_list *d)
{
    for (size_t i = 0; i < d->count; i++) free(d->items[i].message);
    VEC_FREE(*d);
    d->errors = d->warnings = d->read_failures = 0;
    d->kept_warnings = d->hidden_warnings = 0;
}

static void record(diag_list *d, diag_severity sev, int promoted, source_file *src, int line, int col,
                   char *msg)
{
    diag *g = VEC_PUSH(*d);
    g->severity = sev;
    g->promoted = promoted;
    g->src = src;
    g->line = src ? line : 0;
    g->col = src ? col : 0;
    g->message = msg;
    if (sev == DIAG_ERROR) d->errors++;
    else if (sev == DIAG_WARNING) d->warnings++;
}

static int is_control(unsigned char c)
{
    return c < 0x20 || c == 0x7F;
}

char *diag_escape_controls(const char *s)
{
    size_t controls = 0, n = 0;
    for (; s[n]; n++) controls += is_control((unsigned char)s[n]);
    if (!controls) return NULL;
    char *out = xmalloc(n + 3 * controls + 1), *o = out;
    static const char hex[] = "0123456789ABCDEF";
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (is_control(*p)) {
            *o++ = '\\';
            *o++ = 'x';
            *o++ = hex[*p >> 4];
            *o++ = hex[*p & 15];
        } else {
            *o++ = (char)*p;
        }
    }
    *o = 0;
    return out;
}

void diag_addv(diag_list *d, diag_severity sev, source_file *src, int line, int col,
               const char *fmt, va_list ap)
{
    int promoted = 0;
    if (sev == DIAG_NOTE && d->no_warnings) return;
    if (sev == DIAG_WARNING) {
        if (d->no_warnings) return;
        /* Bounded like syntax errors: past the cap a warning is counted,
        ** not kept (no text is formatted), and the count is printed last. */
        if (d->max_errors > 0 && d->kept_warnings >= (size_t)d->max_errors) {
            d->hidden_warnings++;
            if (d->warnings_as_errors) d->errors++;
            else d->warnings++;
            return;
        }
        d->kept_warnings++;
        if (d->warnings_as_errors) {
            sev = DIAG_ERROR;
            promoted = 1;
        }
    }
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0) n = 0;
    char *msg = xmalloc((size_t)n + 1);
    vsnprintf(msg, (size_t)n + 1, fmt, ap);
    /* A name in the message (a file, an option, a token) may hold control bytes. */
    char *escaped = diag_escape_controls(msg);
    if (escaped) {
        free(msg);
        msg = escaped;
    }
    record(d, sev, promoted, src, line, col, msg);
}

void diag_take_hidden(diag_list *d, const diag_list *from)
{
    d->hidden_warnings += from->hidden_warnings;
    if (d->warnings_as_errors) d->errors += (int)from->hidden_warnings;
    else d->warnings += (int)from->hidden_warnings;
}

void diag_take(diag_list *d, diag *g)
{
    *VEC_PUSH(*d) = *g;
    g->message = NULL;
    if (g->severity == DIAG_ERROR) d->errors++;
    else if (g->severity == DIAG_WARNING) d->warnings++;
}

void diag_move_all(diag_list *d, diag_list *from)
{
    for (size_t i = 0; i < from->count; i++) {
        diag *g = &from->items[i];
        if (g->severity == DIAG_WARNING || g->promoted) {
            /* diag_addv's cap, with d's count */
            if (d->max_errors > 0 && d->kept_warnings >= (size_t)d->max_errors) {
                d->hidden_warnings++;
                if (d->warnings_as_errors) d->errors++;
                else d->warnings++;
                free(g->message);
                continue;
            }
            d->kept_warnings++;
        }
        diag_take(d, g);
    }
    from->count = 0;
    from->errors = from->warnings = 0;
    from->kept_warnings = from->hidden_warnings = 0;
}

void diag_add(diag_list *d, diag_severity sev, source_file *src, int line, int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_addv(d, sev, src, line, col, fmt, ap);
    va_end(ap);
}

/* ---- printing: each diagnostic is built in a buffer, then written at once ---- */

/* GCC's SGR wrapping: ESC[<params>m ESC[K ... ESC[m ESC[K. */
static void color_on(outbuf *b, const diag_style *s, const char *params)
{
    if (!s || !s->color || !params[0]) return;
    outbuf_str(b, "\033[");
    outbuf_str(b, params);
    outbuf_str(b, "m\033[K");
}

static void color_off(outbuf *b, const diag_style *s, const char *params)
{
    if (!s || !s->color || !params[0]) return;
    outbuf_str(b, "\033[m\033[K");
}

void diag_style_init(diag_style *s, int color, const char *gcc_colors, int no_summary)
{
    memset(s, 0, sizeof *s);
    s->no_summary = no_summary;
    strcpy(s->error, "01;31");
    strcpy(s->warning, "01;35");
    strcpy(s->note, "01;36");
    strcpy(s->locus, "01");
    strcpy(s->caret, "01;32");
    s->color = color && !(gcc_colors && !gcc_colors[0]);
    if (!gcc_colors) return;
    /* "key=params:key=params"; params are digits and ';' (anything else: the
    ** entry is ignored, as GCC ignores what it cannot use). */
    for (const char *p = gcc_colors; *p;) {
        const char *end = strchr(p, ':');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        const char *eq = memchr(p, '=', n);
        if (eq) {
            size_t klen = (size_t)(eq - p), vlen = n - klen - 1;
            char *slot = NULL;
            if (klen == 5 && memcmp(p, "error", 5) == 0) slot = s->error;
            else if (klen == 7 && memcmp(p, "warning", 7) == 0) slot = s->warning;
            else if (klen == 4 && memcmp(p, "note", 4) == 0) slot = s->note;
            else if (klen == 5 && memcmp(p, "locus", 5) == 0) slot = s->locus;
            else if (klen == 5 && memcmp(p, "caret", 5) == 0) slot = s->caret;
            int ok = slot && vlen < sizeof s->error;
            for (size_t i = 0; ok && i < vlen; i++)
                if (!((eq[1 + i] >= '0' && eq[1 + i] <= '9') || eq[1 + i] == ';')) ok = 0;
            if (ok) {
                memcpy(slot, eq + 1, vlen);
                slot[vlen] = 0;
            }
        }
        p += n;
        if (*p == ':') p++;
    }
}

/* Excerpts are cut to a window around the caret so that a megabyte-long line
** (minified or hostile input) prints as a short, readable line. */
#define EXCERPT_WIDTH 160

/* Columns a well-formed UTF-8 sequence of n bytes takes in a terminal. */
static int display_width(const unsigned char *p, size_t n)
{
    unsigned cp = p[0] & (0xFFu >> (n + 1));
    for (size_t k = 1; k < n; k++) cp = (cp << 6) | (p[k] & 0x3Fu);
    if (cp == 0xFEFF || (cp >= 0x300 && cp <= 0x36F) || (cp >= 0x200B && cp <= 0x200F))
        return 0;
    if ((cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF) ||
        (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
        (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
        (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1FAFF) ||
        (cp >= 0x20000 && cp <= 0x3FFFD))
        return 2;
    return 1;
}

/* Appends text[start, end) for an excerpt.  Control bytes and bytes that are
** not well-formed UTF-8 would corrupt a terminal or a diff: they print as
** '?'; tabs stay, to keep the caret aligned. */
static void put_excerpt(outbuf *b, const char *text, long start, long end, int blank)
{
    const unsigned char *p = (const unsigned char *)text;
    for (long i = start; i < end;) {
        unsigned char c = p[i];
        size_t n = c >= 0x80 ? utf8_sequence_length(p + i, (size_t)(end - i)) : 1;
        if (n > 1) {
            /* The caret line puts as many spaces under a character as it
            ** takes on screen: none for a BOM or a combining mark, two for a
            ** wide (East Asian) one. */
            if (blank) for (int k = display_width(p + i, n); k > 0; k--) outbuf_char(b, ' ');
            else outbuf_put(b, p + i, n);
            i += (long)n;
            continue;
        }
        if (blank) outbuf_char(b, c == '\t' ? '\t' : ' ');
        else outbuf_char(b, c == '\t' || (c >= 0x20 && c < 0x7f) ? (char)c : '?');
        i++;
    }
}

static void format_header(outbuf *b, const diag *g, const diag_style *s)
{
    static const char *const words[] = {"error:", "warning:", "note:"}; /* ORDER: diag_severity */
    const char *sev_color = !s ? "" : g->severity == DIAG_ERROR ? s->error
                                    : g->severity == DIAG_WARNING ? s->warning : s->note;
    color_on(b, s, s ? s->locus : "");
    if (g->src) {
        outbuf_str(b, g->src->path);
        outbuf_char(b, ':');
        outbuf_int(b, g->line);
        outbuf_char(b, ':');
        outbuf_int(b, g->col);
        outbuf_char(b, ':');
    } else {
        outbuf_str(b, "atrc:");
    }
    color_off(b, s, s ? s->locus : "");
    outbuf_char(b, ' ');
    color_on(b, s, sev_color);
    outbuf_str(b, words[g->severity]);
    color_off(b, s, sev_color);
    outbuf_char(b, ' ');
    outbuf_str(b, g->message);
    if (g->promoted) outbuf_str(b, " [-Werror]");
    outbuf_char(b, '\n');
}

/* The excerpt lines of g ("  text\n  ^\n"), when its source text is at hand. */
static void format_excerpt(outbuf *b, const diag *g, const diag_style *s)
{
    const char *text;
    long len = source_line(g->src, g->line, &text);
    if (len < 0) return;
    long caret = g->col - 1;
    if (caret > len) caret = len;
    long start = 0;
    if (caret > EXCERPT_WIDTH / 2 && len > EXCERPT_WIDTH) start = caret - EXCERPT_WIDTH / 2;
    long end = start + EXCERPT_WIDTH < len ? start + EXCERPT_WIDTH : len;
    outbuf_str(b, "  ");
    if (start > 0) outbuf_str(b, "...");
    put_excerpt(b, text, start, end, 0);
    if (end < len) outbuf_str(b, "...");
    outbuf_str(b, "\n  ");
    if (start > 0) outbuf_str(b, "   ");
    put_excerpt(b, text, start, caret, 1);
    color_on(b, s, s ? s->caret : "");
    outbuf_char(b, '^');
    color_off(b, s, s ? s->caret : "");
    outbuf_char(b, '\n');
}

static int is_released(const diag *g)
{
    return g->src && g->src->released;
}

typedef struct pending {
    source_file *src;
    size_t index;
} pending;

static int by_source(const void *a, const void *b)
{
    const pending *x = a, *y = b;
    if (x->src != y->src) return (uintptr_t)x->src < (uintptr_t)y->src ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

void diag_visit_texts(const diag_list *d, size_t from, size_t to, int released_only,
                      void (*fn)(void *ud, size_t index, int has_text), void *ud)
{
    size_t n = 0;
    for (size_t i = from; i < to; i++) {
        if (is_released(&d->items[i])) n++;
        else if (!released_only) fn(ud, i, d->items[i].src != NULL);
    }
    if (!n) return;
    pending *p = xmalloc(array_size(n, sizeof *p));
    size_t k = 0;
    for (size_t i = from; i < to; i++)
        if (is_released(&d->items[i])) p[k++] = (pending){d->items[i].src, i};
    qsort(p, n, sizeof *p, by_source);
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && p[j].src == p[i].src) j++;
        int reloaded = source_reload(p[i].src) == 0;
        for (size_t m = i; m < j; m++) fn(ud, p[m].index, reloaded);
        if (reloaded) source_release(p[i].src);
        i = j;
    }
    free(p);
}

typedef struct excerpts {
    const diag_list *d;
    const diag_style *style;
    size_t *from, *to;
    outbuf ex;
} excerpts;

static void released_excerpt(void *ud, size_t index, int has_text)
{
    excerpts *x = ud;
    if (!has_text) return;
    x->from[index] = x->ex.len;
    format_excerpt(&x->ex, &x->d->items[index], x->style);
    x->to[index] = x->ex.len;
}

int diag_print(const diag_list *d, const diag_style *style, FILE *out)
{
    /* Files whose text was dropped after parsing are read again, each once,
    ** for all of its excerpts together (memory: the largest such file plus
    ** the excerpts), then dropped again.  A file that changed meanwhile gets
    ** no excerpts rather than wrong ones. */
    excerpts x = {d, style, NULL, NULL, {0}}; /* x.ex: a string, the excerpts of released files */
    x.from = xcalloc(d->count ? d->count : 1, sizeof *x.from);
    x.to = xcalloc(d->count ? d->count : 1, sizeof *x.to);
    diag_visit_texts(d, 0, d->count, 1, released_excerpt, &x);
    size_t *from = x.from, *to = x.to;
    outbuf ex = x.ex;
    outbuf b; /* one write per diagnostic */
    outbuf_stream(&b, out);
    int rc = 0;
    for (size_t i = 0; i < d->count; i++) {
        const diag *g = &d->items[i];
        format_header(&b, g, style);
        if (g->src && !is_released(g)) format_excerpt(&b, g, style);
        else if (g->src && to[i] > from[i]) outbuf_put(&b, ex.s + from[i], to[i] - from[i]);
        if (outbuf_flush(&b) != 0) rc = -1;
    }
    if (d->hidden_warnings) {
        outbuf_str(&b, "atrc: note: ");
        outbuf_int(&b, (int64_t)d->hidden_warnings);
        outbuf_str(&b, d->hidden_warnings == 1 ? " more warning" : " more warnings");
        outbuf_str(&b, " not shown (at most ");
        outbuf_int(&b, d->max_errors);
        outbuf_str(&b, " per script, as --max-errors; --max-errors 0 shows all)\n");
        if (outbuf_flush(&b) != 0) rc = -1;
    }
    if ((d->errors || d->warnings) && !(style && style->no_summary)) {
        outbuf_int(&b, d->errors);
        outbuf_str(&b, d->errors == 1 ? " error, " : " errors, ");
        outbuf_int(&b, d->warnings);
        outbuf_str(&b, d->warnings == 1 ? " warning\n" : " warnings\n");
        if (outbuf_flush(&b) != 0) rc = -1;
    }
    outbuf_free(&b);
    outbuf_free(&ex);
    free(from);
    free(to);
    return rc;
}

/* ---- a file's diagnostics in source order ---- */

typedef struct sort_item {
    diag d;
    size_t index;
} sort_item;

static int by_position(const void *a, const void *b)
{
    const sort_item *x = a, *y = b;
    if (x->d.line != y->d.line) return x->d.line < y->d.line ? -1 : 1;
    if (x->d.col != y->d.col) return x->d.col < y->d.col ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

void diag_sort_range(diag_list *d, size_t first, const source_file *src)
{
    if (first >= d->count) return;
    size_t n = d->count - first;
    if (n < 2) return;
    for (size_t i = first; i < d->count; i++)
        if (d->items[i].src != src) return;
    sort_item *tmp = xmalloc(array_size(n, sizeof *tmp));
    for (size_t i = 0; i < n; i++) tmp[i] = (sort_item){d->items[first + i], i};
    qsort(tmp, n, sizeof *tmp, by_position);
    for (size_t i = 0; i < n; i++) d->items[first + i] = tmp[i].d;
    free(tmp);
}
