#include "source.h"
#include "arena.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

source_file *source_from_buffer(const char *path, const char *data, size_t len)
{
    source_file *f = xcalloc(1, sizeof *f);
    f->path = xstrdup(path);
    f->data = xmalloc(len + 1);
    if (len) memcpy(f->data, data, len);
    f->data[len] = 0;
    f->len = len;
    return f;
}

source_file *source_read(const char *path, const char **err)
{
    struct stat st;
    /* "-" is standard input, named "<stdin>" in diagnostics. */
    int is_stdin = strcmp(path, "-") == 0;
    FILE *fp = is_stdin ? stdin : fopen(path, "rb");
    if (!fp) {
        *err = strerror(errno);
        return NULL;
    }
    if (fstat(fileno(fp), &st) == 0 && S_ISDIR(st.st_mode)) {
        if (!is_stdin) fclose(fp);
        *err = "is a directory";
        return NULL;
    }
    size_t cap = (st.st_size > 0 && S_ISREG(st.st_mode)) ? (size_t)st.st_size + 1 : 65536;
    char *buf = xmalloc(cap);
    size_t len = 0;
    for (;;) {
        if (cap - len < 2) {
            cap *= 2;
            buf = xrealloc(buf, cap);
        }
        size_t n = fread(buf + len, 1, cap - len - 1, fp);
        len += n;
        if (n == 0) break;
    }
    if (ferror(fp)) {
        *err = errno ? strerror(errno) : "read error";
        if (!is_stdin) fclose(fp);
        free(buf);
        return NULL;
    }
    if (!is_stdin) fclose(fp);
    buf[len] = 0;
    source_file *f = xcalloc(1, sizeof *f);
    f->path = xstrdup(is_stdin ? "<stdin>" : path);
    f->data = buf;
    f->len = len;
    return f;
}

void source_free(source_file *f)
{
    if (!f) return;
    free((char *)f->path);
    free(f->data);
    free(f->line_starts);
    free(f);
}

static void build_lines(source_file *f)
{
    size_t n = 1;
    for (size_t i = 0; i < f->len; i++)
        if (f->data[i] == '\n') n++;
    f->line_starts = xmalloc(n * sizeof *f->line_starts);
    f->line_starts[0] = 0;
    size_t k = 1;
    for (size_t i = 0; i < f->len; i++)
        if (f->data[i] == '\n') f->line_starts[k++] = i + 1;
    f->line_count = n;
}

long source_line(source_file *f, int line, const char **text)
{
    if (!f->line_starts) build_lines(f);
    if (line < 1 || (size_t)line > f->line_count) return -1;
    size_t start = f->line_starts[line - 1];
    size_t end = (size_t)line < f->line_count ? f->line_starts[line] - 1 : f->len;
    if (end > start && f->data[end - 1] == '\r') end--;
    *text = f->data + start;
    return (long)(end - start);
}

void source_position(source_file *f, size_t off, int *line, int *col)
{
    if (!f->line_starts) build_lines(f);
    if (off > f->len) off = f->len;
    size_t lo = 0, hi = f->line_count;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (f->line_starts[mid] <= off) lo = mid;
        else hi = mid;
    }
    *line = (int)lo + 1;
    *col = (int)(off - f->line_starts[lo]) + 1;
}

size_t utf8_sequence_length(const unsigned char *p, size_t avail)
{
    if (avail == 0) return 0;
    unsigned char c = p[0];
    if (c < 0x80) return 1;
    size_t n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (n == 0 || n > avail) return 0;
    for (size_t i = 1; i < n; i++)
        if ((p[i] & 0xC0) != 0x80) return 0;
    /* No overlong forms, no surrogates, nothing past U+10FFFF. */
    if (n == 3 && ((c == 0xE0 && p[1] < 0xA0) || (c == 0xED && p[1] >= 0xA0))) return 0;
    if (n == 4 && ((c == 0xF0 && p[1] < 0x90) || (c == 0xF4 && p[1] >= 0x90))) return 0;
    return n;
}
