/* The language server's documents, URIs and positions: lsp_doc.h. */
#include "cli/lsp_doc.h"
#include "base/arena.h"
#include "os/os.h"
#include "base/text.h"
#include "base/vec.h"

#include <stdlib.h>
#include <string.h>

static char *copy(const char *s, size_t n)
{
    char *p = xmalloc(n + 1);
    if (n) memcpy(p, s, n);
    p[n] = 0;
    return p;
}

static const char *doc_uri_at(const void *items, size_t i)
{
    return ((const lsp_doc *)items)[i].uri;
}

/* Document i is open and its real path is `path`. */
static int open_at(const void *items, size_t i, const void *path)
{
    const lsp_doc *doc = &((const lsp_doc *)items)[i];
    return doc->open && doc->real && strcmp(doc->real, path) == 0;
}

lsp_doc *lsp_docs_find(lsp_docs *d, const char *uri)
{
    size_t i = hashtab_find_string(&d->by_uri, text_hash_bytes(uri, strlen(uri)), uri, 0, d->list.items, doc_uri_at);
    return i == HASHTAB_END ? NULL : &d->list.items[i];
}

lsp_doc *lsp_docs_find_path(lsp_docs *d, const char *path)
{
    size_t i = hashtab_find(&d->by_path, text_hash_bytes(path, strlen(path)), d->list.items, path, open_at);
    return i == HASHTAB_END ? NULL : &d->list.items[i];
}

lsp_doc *lsp_docs_open(lsp_docs *d, const char *uri, const char *text, size_t len, int64_t version)
{
    lsp_doc *doc = lsp_docs_find(d, uri);
    if (!doc) {
        doc = VEC_PUSH(d->list);
        memset(doc, 0, sizeof *doc);
        doc->uri = copy(uri, strlen(uri));
        doc->path = lsp_uri_to_path(uri);
        if (doc->path) {
            doc->real = os_real_path(doc->path);
            if (!doc->real) doc->real = copy(doc->path, strlen(doc->path));
        }
        char *archive = NULL, *entry = NULL;
        if (lsp_uri_to_entry(uri, &archive, &entry) == 0) {
            size_t a = strlen(archive), e = strlen(entry);
            doc->archive_file = xmalloc(a + e + 2);
            memcpy(doc->archive_file, archive, a);
            doc->archive_file[a] = ':';
            memcpy(doc->archive_file + a + 1, entry, e + 1);
            free(archive);
            free(entry);
        }
        hashtab_add(&d->by_uri, text_hash_bytes(uri, strlen(uri)));
        if (doc->real) hashtab_add(&d->by_path, text_hash_bytes(doc->real, strlen(doc->real)));
        else hashtab_add_unlinked(&d->by_path);
    }
    free(doc->text);
    doc->text = copy(text, len);
    doc->len = len;
    doc->version = version;
    if (!doc->open) d->open_count++;
    doc->open = 1;
    return doc;
}

void lsp_docs_close(lsp_docs *d, lsp_doc *doc)
{
    if (!doc->open) return;
    free(doc->text);
    doc->text = NULL;
    doc->len = 0;
    doc->open = 0;
    d->open_count--;
}

void lsp_docs_free(lsp_docs *d)
{
    for (size_t i = 0; i < d->list.count; i++) {
        free(d->list.items[i].uri);
        free(d->list.items[i].path);
        free(d->list.items[i].real);
        free(d->list.items[i].archive_file);
        free(d->list.items[i].text);
    }
    VEC_FREE(d->list);
    hashtab_free(&d->by_uri);
    hashtab_free(&d->by_path);
    memset(d, 0, sizeof *d);
}

/* ---- URIs ---- */

static int hex_digit(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Percent-decodes s[0, n); NULL on a bad escape or a NUL byte. */
static char *percent_decode(const char *s, size_t n)
{
    char *out = xmalloc(n + 1), *o = out;
    for (size_t i = 0; i < n; i++) {
        int c = (unsigned char)s[i];
        if (c == '%') {
            if (i + 2 >= n) {
                free(out);
                return NULL;
            }
            int a = hex_digit((unsigned char)s[i + 1]), b = hex_digit((unsigned char)s[i + 2]);
            if (a < 0 || b < 0 || (a == 0 && b == 0)) {
                free(out);
                return NULL;
            }
            c = a * 16 + b;
            i += 2;
        }
        *o++ = (char)c;
    }
    *o = 0;
    return out;
}

static void percent_encode(outbuf *b, const char *s, int keep_bang)
{
    static const char hex[] = "0123456789ABCDEF";
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        int c = *p;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
            c == '_' || c == '~' || c == '/' || (keep_bang && c == '!')) {
            outbuf_char(b, (char)c);
        } else {
            char e[3] = {'%', hex[c >> 4], hex[c & 15]};
            outbuf_put(b, e, 3);
        }
    }
}

char *lsp_uri_to_path(const char *uri)
{
    if (strncmp(uri, "file://", 7) != 0) return NULL;
    const char *p = uri + 7;
    /* file://host/path: only an empty host (or localhost) is this machine */
    if (strncmp(p, "localhost/", 10) == 0) p += 9;
    if (*p != '/') return NULL;
    size_t n = strcspn(p, "?#");
    char *path = percent_decode(p, n);
    /* file:///C:/x -> C:/x (Windows); the drive upper case, as Windows spells
    ** it in the paths it gives (the current directory, _fullpath), so that a
    ** document and the compilation's file compare equal whichever case the
    ** client sent (VS Code: file:///c%3A/x) */
    if (OS_WINDOWS && path && path[0] == '/' && path[1] && path[2] == ':') {
        memmove(path, path + 1, strlen(path));
        if (path[0] >= 'a' && path[0] <= 'z') path[0] = (char)(path[0] - 'a' + 'A');
    }
    return path;
}

/* The drive letter of a URI's path ("/c%3A/x", "/C:/x"), or 0. */
static int uri_drive(const char *p, int *escaped)
{
    if (p[0] != '/' || !(((p[1] | 32) >= 'a' && (p[1] | 32) <= 'z'))) return 0;
    if (p[2] == ':' && (p[3] == '/' || !p[3])) {
        *escaped = 0;
        return p[1];
    }
    if (p[2] == '%' && p[3] == '3' && (p[4] | 32) == 'a' && (p[5] == '/' || !p[5])) {
        *escaped = 1;
        return p[1];
    }
    return 0;
}

void lsp_uri_style_learn(lsp_uri_style *st, const char *uri)
{
    if (st->known || strncmp(uri, "file://", 7) != 0) return;
    int escaped = 0, drive = uri_drive(uri + 7, &escaped);
    if (!drive) return;
    st->known = 1;
    st->upper = drive >= 'A' && drive <= 'Z';
    st->colon_escaped = escaped;
}

/* The path part of a URI (after "scheme://"): "/" then path percent-encoded,
** a Windows drive spelt as st says and '\\' written '/' when windows; '!'
** kept when keep_bang (an archive's path, before "!/", has it encoded). */
static void write_uri_path(outbuf *b, const char *path, const lsp_uri_style *st, int windows, int keep_bang)
{
    int c = (unsigned char)path[0];
    if (windows && ((c | 32) >= 'a' && (c | 32) <= 'z') && path[1] == ':' &&
        (path[2] == '/' || path[2] == '\\' || !path[2])) {
        int upper = st && st->known ? st->upper : 0, escaped = st && st->known ? st->colon_escaped : 1;
        outbuf_char(b, '/');
        outbuf_char(b, (char)(upper ? (c & ~32) : (c | 32)));
        outbuf_str(b, escaped ? "%3A" : ":");
        path += 2;
    } else if (path[0] != '/' && !(windows && path[0] == '\\')) {
        outbuf_char(b, '/');
    }
    if (!windows) {
        percent_encode(b, path, keep_bang);
        return;
    }
    /* Windows: '\\' is a separator, written '/' like the client's */
    for (const char *p = path; *p;) {
        size_t n = strcspn(p, "\\");
        char *part = copy(p, n);
        percent_encode(b, part, keep_bang);
        free(part);
        p += n;
        if (*p) {
            outbuf_char(b, '/');
            p++;
        }
    }
}

void lsp_path_to_uri(outbuf *b, const char *path, const lsp_uri_style *st, int windows)
{
    outbuf_str(b, "file://");
    write_uri_path(b, path, st, windows, 1);
}

void lsp_entry_to_uri(outbuf *b, const char *archive, const char *entry, const lsp_uri_style *st, int windows)
{
    outbuf_str(b, "atrc-archive://");
    write_uri_path(b, archive, st, windows, 0);
    outbuf_str(b, "!/");
    percent_encode(b, entry, 0);
}

int lsp_uri_to_entry(const char *uri, char **archive, char **entry)
{
    *archive = *entry = NULL;
    if (strncmp(uri, "atrc-archive://", 15) != 0) return -1;
    const char *p = uri + 15;
    const char *bang = strstr(p, "!/");
    if (!bang || *p != '/') return -1;
    *archive = percent_decode(p, (size_t)(bang - p));
    *entry = percent_decode(bang + 2, strlen(bang + 2));
    if (!*archive || !*entry || !**entry) {
        free(*archive);
        free(*entry);
        *archive = *entry = NULL;
        return -1;
    }
    /* file:///C:/x's spelling on Windows, as lsp_uri_to_path reads it */
    char *a = *archive;
    if (OS_WINDOWS && a[0] == '/' && a[1] && a[2] == ':') {
        memmove(a, a + 1, strlen(a));
        if (a[0] >= 'a' && a[0] <= 'z') a[0] = (char)(a[0] - 'a' + 'A');
    }
    return 0;
}

/* ---- positions ---- */

void lsp_lines_index(lsp_lines *l, const char *text, size_t len)
{
    l->text = text;
    l->len = len;
    l->starts.count = 0;
    *VEC_PUSH(l->starts) = 0;
    for (const char *p = text, *end = text + len; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
        *VEC_PUSH(l->starts) = (size_t)(p - text) + 1;
}

void lsp_lines_free(lsp_lines *l)
{
    VEC_FREE(l->starts);
    memset(l, 0, sizeof *l);
}

/* The bytes of one UTF-8 character at p (at most n), and its UTF-16 units:
** a byte that starts no valid character is one unit (the editor shows
** U+FFFD). */
static size_t char_at(const unsigned char *p, size_t n, int *units)
{
    size_t len = p[0] < 0x80 ? 1 : (p[0] & 0xE0) == 0xC0 ? 2 : (p[0] & 0xF0) == 0xE0 ? 3 : (p[0] & 0xF8) == 0xF0 ? 4 : 0;
    *units = len == 4 ? 2 : 1;
    if (len <= 1 || len > n) {
        *units = 1;
        return 1;
    }
    for (size_t k = 1; k < len; k++)
        if ((p[k] & 0xC0) != 0x80) {
            *units = 1;
            return 1;
        }
    return len;
}

/* Line `line`'s bytes [*start, *end) (without its '\n'); -1 past the last line.
** A UTF-8 byte order mark opening the text is no part of the first line:
** editors keep it out of the document (a file read from disk has it, the
** same file sent by the editor does not). */
static int line_span(const lsp_lines *l, int line, size_t *start, size_t *end)
{
    if (line < 0 || (size_t)line >= l->starts.count) return -1;
    *start = l->starts.items[line];
    *end = (size_t)line + 1 < l->starts.count ? l->starts.items[line + 1] - 1 : l->len;
    if (line == 0 && *end >= 3 && memcmp(l->text, "\xEF\xBB\xBF", 3) == 0) *start = 3;
    return 0;
}

int lsp_to_column(const lsp_lines *l, int line, int64_t character, int utf8)
{
    size_t start, end;
    if (line_span(l, line, &start, &end) != 0) return 1;
    const unsigned char *p = (const unsigned char *)l->text;
    size_t at = start;
    int64_t units = 0;
    while (at < end && units < character) {
        int u;
        size_t n = char_at(p + at, end - at, &u);
        int64_t step = utf8 ? (int64_t)n : u;
        if (units + step > character) break; /* inside the character: its start */
        units += step;
        at += n;
    }
    return (int)(at - l->starts.items[line]) + 1;
}

int64_t lsp_from_column(const lsp_lines *l, int line, int column, int utf8)
{
    size_t start, end;
    if (line_span(l, line, &start, &end) != 0) return 0;
    size_t stop = column < 1 ? start : l->starts.items[line] + (size_t)(column - 1);
    if (stop < start) stop = start;
    if (stop > end) stop = end;
    if (utf8) return (int64_t)(stop - start);
    const unsigned char *p = (const unsigned char *)l->text;
    int64_t units = 0;
    for (size_t at = start; at < stop;) {
        int u;
        at += char_at(p + at, end - at, &u);
        units += u;
    }
    return units;
}

/* The byte offset of an LSP position in text (clamped to its end). */
static size_t offset_of(const lsp_lines *l, int line, int64_t character, int utf8)
{
    if (line < 0) return 0;
    if ((size_t)line >= l->starts.count) return l->len;
    return l->starts.items[line] + (size_t)(lsp_to_column(l, line, character, utf8) - 1);
}

int lsp_doc_edit(lsp_doc *doc, int start_line, int64_t start_char, int end_line, int64_t end_char, const char *text,
                 size_t n, int utf8)
{
    lsp_lines l = {0};
    lsp_lines_index(&l, doc->text, doc->len);
    size_t a = offset_of(&l, start_line, start_char, utf8), b = offset_of(&l, end_line, end_char, utf8);
    lsp_lines_free(&l);
    if (a > b) return -1;
    size_t len = doc->len - (b - a) + n;
    char *s = xmalloc(len + 1);
    memcpy(s, doc->text, a);
    if (n) memcpy(s + a, text, n);
    memcpy(s + a + n, doc->text + b, doc->len - b);
    s[len] = 0;
    free(doc->text);
    doc->text = s;
    doc->len = len;
    return 0;
}
