#include "diag.h"
#include "arena.h"

#include <stdint.h>
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

void diag_take(diag_list *d, diag *g)
{
    if (d->count == d->cap) {
        d->cap = d->cap ? d->cap * 2 : 16;
        d->items = xrealloc(d->items, d->cap * sizeof *d->items);
    }
    d->items[d->count++] = *g;
    g->message = NULL;
    if (g->severity == DIAG_ERROR) d->errors++;
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
            /* One character on screen: the caret line puts one space under it. */
            if (blank) fputc(' ', out);
            else fwrite(p + i, 1, n, out);
            i += (long)n;
            continue;
        }
        if (blank) fputc(c == '\t' ? '\t' : ' ', out);
        else fputc(c == '\t' || (c >= 0x20 && c < 0x7f) ? c : '?', out);
        i++;
    }
}

/* The excerpt lines of g ("  text\n  ^\n"), when its source text is at hand. */
static void print_excerpt(const diag *g, FILE *out)
{
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

static void print_header(const diag *g, FILE *out)
{
    const char *sev = g->severity == DIAG_ERROR ? "error" : "warning";
    if (!g->src) fprintf(out, "atrc: %s: %s\n", sev, g->message);
    else fprintf(out, "%s:%d:%d: %s: %s\n", g->src->path, g->line, g->col, sev, g->message);
}

static int is_released(const diag *g)
{
    return g->src && g->src->released;
}

void diag_print_one(const diag *g, FILE *out)
{
    print_header(g, out);
    if (!g->src) return;
    if (!is_released(g)) {
        print_excerpt(g, out);
    } else if (source_reload(g->src) == 0) {
        print_excerpt(g, out);
        source_release(g->src);
    }
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

void diag_print(const diag_list *d, FILE *out)
{
    /* Files whose text was dropped after parsing are read again, each once,
    ** for all of its excerpts together (memory: the largest such file plus
    ** the excerpts), then dropped again.  A file that changed meanwhile gets
    ** no excerpts rather than wrong ones. */
    size_t n = 0;
    for (size_t i = 0; i < d->count; i++) n += is_released(&d->items[i]);
    pending *p = NULL;
    size_t *from = NULL, *to = NULL;
    char *buf = NULL;
    size_t buf_len = 0;
    if (n) {
        p = xmalloc(n * sizeof *p);
        from = xcalloc(d->count, sizeof *from);
        to = xcalloc(d->count, sizeof *to);
        size_t k = 0;
        for (size_t i = 0; i < d->count; i++)
            if (is_released(&d->items[i])) p[k++] = (pending){d->items[i].src, i};
        qsort(p, n, sizeof *p, by_source);
        FILE *mem = open_memstream(&buf, &buf_len);
        for (size_t i = 0; mem && i < n;) {
            size_t j = i;
            while (j < n && p[j].src == p[i].src) j++;
            if (source_reload(p[i].src) == 0) {
                for (size_t m = i; m < j; m++) {
                    fflush(mem);
                    from[p[m].index] = buf_len;
                    print_excerpt(&d->items[p[m].index], mem);
                    fflush(mem);
                    to[p[m].index] = buf_len;
                }
                source_release(p[i].src);
            }
            i = j;
        }
        if (mem) fclose(mem);
    }
    for (size_t i = 0; i < d->count; i++) {
        const diag *g = &d->items[i];
        print_header(g, out);
        if (!g->src) continue;
        if (!is_released(g)) print_excerpt(g, out);
        else if (to[i] > from[i]) fwrite(buf + from[i], 1, to[i] - from[i], out);
    }
    free(p);
    free(from);
    free(to);
    free(buf);
    /* The interface contract spells the summary "N errors, M warnings" for any N. */
    if (d->errors || d->warnings) fprintf(out, "%d errors, %d warnings\n", d->errors, d->warnings);
}
