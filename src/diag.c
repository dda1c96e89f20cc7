#include "diag.h"
#include "arena.h"

#include <stdlib.h>
#include <string.h>

void diag_init(diag_list *d)
{
    memset(d, 0, sizeof *d);
}

void diag_free(diag_list *d)
{
    for (size_t i = 0; i < d->count; i++) free(d->items[i].message);
    free(d->items);
    diag_init(d);
}

void diag_addv(diag_list *d, diag_severity sev, source_file *src, int line, int col,
               const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0) n = 0;
    char *msg = xmalloc((size_t)n + 1);
    vsnprintf(msg, (size_t)n + 1, fmt, ap);
    if (d->count == d->cap) {
        d->cap = d->cap ? d->cap * 2 : 16;
        d->items = xrealloc(d->items, d->cap * sizeof *d->items);
    }
    diag *g = &d->items[d->count++];
    g->severity = sev;
    g->src = src;
    g->line = src ? line : 0;
    g->col = src ? col : 0;
    g->message = msg;
    if (sev == DIAG_ERROR) d->errors++;
    else d->warnings++;
}

void diag_add(diag_list *d, diag_severity sev, source_file *src, int line, int col,
              const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_addv(d, sev, src, line, col, fmt, ap);
    va_end(ap);
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

/* Writes text[start, end) for an excerpt.  Control bytes and bytes that are
** not well-formed UTF-8 would corrupt a terminal or a diff: they print as
** '?'; tabs stay, to keep the caret aligned. */
static void put_excerpt(FILE *out, const char *text, long start, long end, int blank)
{
    const unsigned char *p = (const unsigned char *)text;
    for (long i = start; i < end;) {
        unsigned char c = p[i];
        size_t n = c >= 0x80 ? utf8_sequence_length(p + i, (size_t)(end - i)) : 1;
        if (n > 1) {
            /* The caret line puts as many spaces under a character as it
            ** takes on screen: none for a BOM or a combining mark, two for a
            ** wide (East Asian) one. */
            int w = display_width(p + i, n);
            if (!blank) fwrite(p + i, 1, n, out);
            else for (int k = 0; k < w; k++) fputc(' ', out);
            i += (long)n;
            continue;
        }
        if (blank) fputc(c == '\t' ? '\t' : ' ', out);
        else fputc(c == '\t' || (c >= 0x20 && c < 0x7f) ? c : '?', out);
        i++;
    }
}

void diag_print_one(const diag *g, FILE *out)
{
    const char *sev = g->severity == DIAG_ERROR ? "error" : "warning";
    if (!g->src) {
        fprintf(out, "atrc: %s: %s\n", sev, g->message);
        return;
    }
    fprintf(out, "%s:%d:%d: %s: %s\n", g->src->path, g->line, g->col, sev, g->message);
    const char *text;
    long len = source_line(g->src, g->line, &text);
    if (len < 0) return;
    long caret = g->col - 1;
    if (caret > len) caret = len;
    long start = 0;
    if (caret > EXCERPT_WIDTH / 2 && len > EXCERPT_WIDTH) start = caret - EXCERPT_WIDTH / 2;
    long end = start + EXCERPT_WIDTH < len ? start + EXCERPT_WIDTH : len;
    fputs("  ", out);
    if (start > 0) fputs("...", out);
    put_excerpt(out, text, start, end, 0);
    if (end < len) fputs("...", out);
    fputs("\n  ", out);
    if (start > 0) fputs("   ", out);
    put_excerpt(out, text, start, caret, 1);
    fputs("^\n", out);
}

void diag_print(const diag_list *d, FILE *out)
{
    for (size_t i = 0; i < d->count; i++) diag_print_one(&d->items[i], out);
    /* The interface contract spells the summary "N errors, M warnings" for any N. */
    if (d->errors || d->warnings) fprintf(out, "%d errors, %d warnings\n", d->errors, d->warnings);
}
