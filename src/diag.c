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

static void put_excerpt_byte(FILE *out, unsigned char c)
{
    /* Control bytes would corrupt a terminal or a diff; tabs keep alignment. */
    if (c == '\t' || c >= 0x20) fputc(c == 0x7f ? '?' : c, out);
    else fputc('?', out);
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
    for (long i = start; i < end; i++) put_excerpt_byte(out, (unsigned char)text[i]);
    if (end < len) fputs("...", out);
    fputs("\n  ", out);
    if (start > 0) fputs("   ", out);
    for (long i = start; i < caret; i++) fputc(text[i] == '\t' ? '\t' : ' ', out);
    fputs("^\n", out);
}

void diag_print(const diag_list *d, FILE *out)
{
    for (size_t i = 0; i < d->count; i++) diag_print_one(&d->items[i], out);
    /* The interface contract spells the summary "N errors, M warnings" for any N. */
    if (d->errors || d->warnings) fprintf(out, "%d errors, %d warnings\n", d->errors, d->warnings);
}
