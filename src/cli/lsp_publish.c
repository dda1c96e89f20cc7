/* The language server's diagnostics (textDocument/publishDiagnostics) and
** the locations every answer writes: URIs, texts and ranges. */
#include "cli/lsp_server.h"
#include "os/os.h"
#include "base/text.h"
#include "base/vec.h"

#include <stdlib.h>
#include <string.h>

static lsp_doc *doc_of_path(lsp_server *s, const char *path)
{
    lsp_doc *doc = lsp_docs_find_path(&s->docs, path);
    if (doc || s->docs.open_count == 0) return doc;
    char *real = os_real_path(path);
    if (real) doc = lsp_docs_find_path(&s->docs, real);
    free(real);
    return doc;
}

/* The URI of a location, appended to uri. */
static void location_uri(lsp_server *s, outbuf *uri, const atrc_location *where)
{
    const char *path = where->path ? where->path : where->file;
    char *abs = NULL;
    if (path && os_path_root_length(path) == 0) {
        /* a relative path (no workspace root, the default game directory "."): from the current directory */
        char *cwd = os_real_path(".");
        if (cwd && (abs = malloc(strlen(cwd) + strlen(path) + 2)) != NULL) sprintf(abs, "%s/%s", cwd, path);
        free(cwd);
        if (abs) path = abs;
    }
    lsp_doc *doc = NULL;
    if (!path) outbuf_str(uri, "");
    else if (!where->entry && (doc = doc_of_path(s, path)) != NULL) outbuf_str(uri, doc->uri);
    else {
        /* one spelling per file (and per archive): its real path ("dir/./x"
        ** and links resolved), as the client spells its files */
        char *real = os_real_path(path);
        if (where->entry) lsp_entry_to_uri(uri, real ? real : path, where->entry, &s->uri_style, LSP_WINDOWS_PATHS);
        else lsp_path_to_uri(uri, real ? real : path, &s->uri_style, LSP_WINDOWS_PATHS);
        free(real);
    }
    free(abs);
}

void lsp_write_uri(lsp_server *s, outbuf *b, const atrc_location *where)
{
    outbuf uri = {0};
    location_uri(s, &uri, where);
    outbuf_json_string(b, uri.s ? uri.s : "", uri.len);
    outbuf_free(&uri);
}

const char *lsp_file_text(lsp_server *s, const atrc_location *where, size_t *len)
{
    if (!where->entry && where->path) {
        lsp_doc *doc = doc_of_path(s, where->path);
        if (doc) {
            *len = doc->len;
            return doc->text;
        }
    }
    if (!s->pj->ctx || !where->file) return NULL;
    return atrc_source_text(s->pj->ctx, where->file, len);
}

void lsp_write_range(lsp_server *s, outbuf *b, const lsp_lines *lines, const atrc_location *where)
{
    int line = where->line > 0 ? where->line - 1 : 0, column = where->column > 0 ? where->column : 1;
    int end_line = where->end_line > 0 ? where->end_line - 1 : line;
    int end_column = where->end_line > 0 ? where->end_column : column;
    if (end_line < line || (end_line == line && end_column < column)) {
        end_line = line;
        end_column = column;
    }
    int64_t a = lines ? lsp_from_column(lines, line, column, s->utf8) : column - 1;
    int64_t z = lines ? lsp_from_column(lines, end_line, end_column, s->utf8) : end_column - 1;
    /* pieces, not a format: a workspace's symbols write thousands */
    outbuf_str(b, "{\"start\":{\"line\":");
    outbuf_int(b, line);
    outbuf_str(b, ",\"character\":");
    outbuf_int(b, a);
    outbuf_str(b, "},\"end\":{\"line\":");
    outbuf_int(b, end_line);
    outbuf_str(b, ",\"character\":");
    outbuf_int(b, z);
    outbuf_str(b, "}}");
}

/* ---- publishing ---- */

/* A file diagnostics name: its location (for the URI and text), its line
** index once needed, and the diagnostics on it. */
typedef struct pub_file {
    const char *key;
    atrc_location where;
    lsp_lines lines;
    int indexed, has_text;
    VEC(size_t) diags;      /* indexes of the compilation's diagnostics */
    char *message;          /* the configuration's error, on this file */
    int message_line;
} pub_file;

typedef struct publish {
    VEC(pub_file) files;
    hashtab index;
} publish;

static const char *file_key_at(const void *files, size_t i)
{
    return ((const pub_file *)files)[i].key;
}

static pub_file *file_of(publish *p, const atrc_location *where)
{
    const char *key = where->file;
    uint32_t h = text_hash_bytes(key, strlen(key));
    size_t at = hashtab_find_string(&p->index, h, key, 0, p->files.items, file_key_at);
    if (at != HASHTAB_END) return &p->files.items[at];
    pub_file *f = VEC_PUSH(p->files);
    memset(f, 0, sizeof *f);
    f->key = key;
    f->where = *where;
    hashtab_add(&p->index, h);
    return f;
}

static const lsp_lines *lines_of(lsp_server *s, pub_file *f)
{
    if (!f->indexed) {
        f->indexed = 1;
        size_t len = 0;
        const char *text = lsp_file_text(s, &f->where, &len);
        if (text) {
            lsp_lines_index(&f->lines, text, len);
            f->has_text = 1;
        }
    }
    return f->has_text ? &f->lines : NULL;
}

/* Where diagnostics without a position go: the project file, else the project's first open document. */
static int config_place(lsp_server *s, atrc_location *where)
{
    memset(where, 0, sizeof *where);
    if (s->pj->flags) {
        where->file = where->path = s->pj->flags;
        return 0;
    }
    for (size_t i = 0; i < s->docs.list.count; i++) {
        if (s->docs.list.items[i].open && s->docs.list.items[i].project == s->pj && s->docs.list.items[i].path) {
            where->file = where->path = s->docs.list.items[i].path;
            return 0;
        }
    }
    return -1;
}

static void write_diagnostic(lsp_server *s, publish *p, pub_file *f, const atrc_diagnostic *d)
{
    outbuf *b = &s->msg;
    outbuf_str(b, "{\"range\":");
    atrc_location at = d->where;
    if (!at.file) memset(&at, 0, sizeof at);
    lsp_write_range(s, b, lines_of(s, f), &at);
    int severity = d->promoted || d->severity == ATRC_SEVERITY_ERROR ? 1 : d->severity == ATRC_SEVERITY_WARNING ? 2 : 3;
    outbuf_printf(b, ",\"severity\":%d", severity);
    if (d->code) {
        outbuf_str(b, ",\"code\":");
        outbuf_json_string(b, d->code, strlen(d->code));
    }
    outbuf_str(b, ",\"source\":\"atrc\",\"message\":");
    outbuf msg = {0};
    outbuf_str(&msg, d->message ? d->message : "");
    if (d->promoted) outbuf_str(&msg, " [-Werror]");
    outbuf_json_string(b, msg.s, msg.len);
    outbuf_free(&msg);
    size_t related = 0;
    for (size_t k = 0; k < d->related_count; k++) {
        const atrc_related *r = &d->related[k];
        if (!r->where.file) continue;
        outbuf_str(b, related++ ? "," : ",\"relatedInformation\":[");
        outbuf_str(b, "{\"location\":{\"uri\":");
        lsp_write_uri(s, b, &r->where);
        outbuf_str(b, ",\"range\":");
        lsp_write_range(s, b, lines_of(s, file_of(p, &r->where)), &r->where);
        outbuf_str(b, "},\"message\":");
        outbuf_json_string(b, r->message ? r->message : "", r->message ? strlen(r->message) : 0);
        outbuf_char(b, '}');
    }
    if (related) outbuf_char(b, ']');
    outbuf_char(b, '}');
}

/* The configuration's error ("PATH:LINE: error: MESSAGE" or "atrc: error: MESSAGE" lines) as a diagnostic. */
static void write_config_error(lsp_server *s, pub_file *f)
{
    outbuf *b = &s->msg;
    atrc_location at = {0};
    at.line = f->message_line > 0 ? f->message_line : 1;
    at.column = 1;
    at.end_line = at.line;
    at.end_column = 1 << 30;
    outbuf_str(b, "{\"range\":");
    lsp_write_range(s, b, lines_of(s, f), &at);
    /* the code of the first line's message ("FILE:LINE: error: MESSAGE"), else "configuration" */
    const char *msg = strstr(f->message, ": error: ");
    size_t n = strcspn(f->message, "\n");
    const char *code = NULL;
    if (msg && (size_t)(msg - f->message) < n) {
        char *first = os_strndup(msg + 9, n - (size_t)(msg + 9 - f->message));
        code = first ? atrc_diagnostic_code(first) : NULL;
        free(first);
    }
    outbuf_str(b, ",\"severity\":1,\"code\":");
    outbuf_json_string(b, code ? code : "configuration", strlen(code ? code : "configuration"));
    outbuf_str(b, ",\"source\":\"atrc\",\"message\":");
    n = strlen(f->message);
    while (n && f->message[n - 1] == '\n') n--;
    outbuf_json_string(b, f->message, n);
    outbuf_char(b, '}');
}

static void begin_publish(lsp_server *s, const char *uri, const lsp_doc *doc)
{
    lsp_begin_notification(s, "textDocument/publishDiagnostics");
    outbuf_str(&s->msg, "{\"uri\":");
    outbuf_json_string(&s->msg, uri, strlen(uri));
    if (doc) outbuf_printf(&s->msg, ",\"version\":%lld", (long long)doc->version);
    outbuf_str(&s->msg, ",\"diagnostics\":[");
}

static const char *set_at(const void *set, size_t i)
{
    return ((const char *const *)set)[i];
}

/* Whether p published a list for uri. */
static int in_set(const lsp_project *p, const char *uri)
{
    return hashtab_find_string(&p->published_index, text_hash_bytes(uri, strlen(uri)), uri, 0, p->published.items,
                               set_at) != HASHTAB_END;
}

/* Whether another project than p speaks for uri: it has the document open,
** or published a list for it (a game file both compiled). */
static int others(lsp_server *s, const lsp_project *p, const char *uri)
{
    lsp_doc *doc = lsp_docs_find(&s->docs, uri);
    if (doc && doc->open) return doc->project != p;
    for (size_t i = 0; i < s->projects.count; i++)
        if (s->projects.items[i] != p && in_set(s->projects.items[i], uri)) return 1;
    return 0;
}

static void publish_empty(lsp_server *s, const char *uri)
{
    lsp_doc *doc = lsp_docs_find(&s->docs, uri);
    begin_publish(s, uri, doc && doc->open ? doc : NULL);
    outbuf_str(&s->msg, "]}}");
    lsp_send(s);
}

void lsp_publish(lsp_server *s)
{
    lsp_project *pj = s->pj;
    publish p = {0};
    size_t total = pj->ctx ? atrc_diagnostic_count(pj->ctx) : 0;
    atrc_location place;
    int have_place = config_place(s, &place) == 0;
    for (size_t i = 0; i < total; i++) {
        atrc_diagnostic d;
        if (atrc_get_diagnostic(pj->ctx, i, &d) != 0) continue;
        if (!d.where.file && !have_place) continue;
        pub_file *f = file_of(&p, d.where.file ? &d.where : &place);
        *VEC_PUSH(f->diags) = i;
    }
    if (pj->config_error && have_place) {
        pub_file *f = file_of(&p, &place);
        f->message = pj->config_error;
        size_t n = pj->flags ? strlen(pj->flags) : 0;
        if (n && strncmp(pj->config_error, pj->flags, n) == 0 && pj->config_error[n] == ':')
            f->message_line = atoi(pj->config_error + n + 1);
    }
    /* the URIs given a list now */
    lsp_project now = {0};
    size_t files_with_diags = p.files.count;
    for (size_t i = 0; i < files_with_diags; i++) {
        pub_file *f = &p.files.items[i];
        if (f->diags.count == 0 && !f->message) continue;
        lsp_doc *doc = f->where.entry || !f->where.path ? NULL : doc_of_path(s, f->where.path);
        outbuf uri = {0};
        location_uri(s, &uri, &f->where);
        char *kept = os_strndup(uri.s ? uri.s : "", uri.len);
        outbuf_free(&uri);
        if (!kept) continue;
        /* two names of one file: published once; a document of another
        ** project's: that project's diagnostics are its */
        lsp_doc *open = lsp_docs_find(&s->docs, kept);
        if (in_set(&now, kept) || (open && open->open && open->project != pj)) {
            free(kept);
            continue;
        }
        *VEC_PUSH(now.published) = kept;
        hashtab_add(&now.published_index, text_hash_bytes(kept, strlen(kept)));
        begin_publish(s, kept, doc);
        size_t written = 0;
        if (f->message) {
            write_config_error(s, f);
            written++;
        }
        for (size_t k = 0; k < f->diags.count; k++) {
            atrc_diagnostic d;
            atrc_get_diagnostic(pj->ctx, f->diags.items[k], &d);
            if (written++) outbuf_char(&s->msg, ',');
            write_diagnostic(s, &p, &p.files.items[i], &d);
            f = &p.files.items[i]; /* related places may have grown the table */
        }
        outbuf_str(&s->msg, "]}}");
        lsp_send(s);
    }
    /* emptied: files that had problems (unless another project speaks for
    ** them), and the project's open documents without any */
    for (size_t i = 0; i < pj->published.count; i++)
        if (!in_set(&now, pj->published.items[i]) && !others(s, pj, pj->published.items[i]))
            publish_empty(s, pj->published.items[i]);
    for (size_t i = 0; i < s->docs.list.count; i++) {
        lsp_doc *doc = &s->docs.list.items[i];
        if (doc->open && doc->project == pj && !in_set(&now, doc->uri) && !in_set(pj, doc->uri))
            publish_empty(s, doc->uri);
    }
    lsp_published_free(pj);
    pj->published = now.published;
    pj->published_index = now.published_index;
    for (size_t i = 0; i < p.files.count; i++) {
        VEC_FREE(p.files.items[i].diags);
        lsp_lines_free(&p.files.items[i].lines);
    }
    VEC_FREE(p.files);
    hashtab_free(&p.index);
}

void lsp_publish_withdraw(lsp_server *s, lsp_project *p)
{
    for (size_t i = 0; i < p->published.count; i++)
        if (!others(s, p, p->published.items[i])) publish_empty(s, p->published.items[i]);
    lsp_published_free(p);
}

void lsp_published_free(lsp_project *p)
{
    for (size_t i = 0; i < p->published.count; i++) free(p->published.items[i]);
    VEC_FREE(p->published);
    hashtab_free(&p->published_index);
}
