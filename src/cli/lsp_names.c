/* The language server's answers about names and the shape of a script:
** rename of functions and locals, workspace symbols, folding ranges,
** signature help, inlay hints and semantic tokens -- each from the
** library's position queries (atrc.h), positions converted to the
** negotiated encoding as in lsp_answer.c. */
#include "cli/lsp_server.h"
#include "base/text.h"
#include "os/os.h"

#include <stdlib.h>
#include <string.h>

/* ---- rename ---- */

/* A place to rename: its URI (as a JSON string) and range. */
typedef struct rename_edit {
    char *uri;
    size_t order;
    atrc_location where;
} rename_edit;

static int by_uri(const void *a, const void *b)
{
    const rename_edit *x = a, *y = b;
    int d = strcmp(x->uri, y->uri);
    return d ? d : x->order < y->order ? -1 : x->order > y->order;
}

/* What at names when it can be renamed: NULL, else why not. */
static const char *cannot_rename(const atrc_at *at)
{
    switch (at->kind) {
    case ATRC_AT_CALL:
    case ATRC_AT_FUNCTION:
        return at->builtin_list ? "a builtin cannot be renamed" : NULL;
    case ATRC_AT_LOCAL:
        return NULL;
    case ATRC_AT_NONE:
        return "nothing to rename here";
    default:
        return "only functions, parameters and locals are renamed";
    }
}

/* The places of at's name: every use (a local's first place is one of
** them), a function's definition first.  NULL with *why set when one lies
** in an archive (read-only) or a function has no definition. */
static atrc_location *rename_places(lsp_server *s, const atrc_at *at, size_t *count, const char **why)
{
    *count = 0;
    *why = cannot_rename(at);
    if (*why) return NULL;
    atrc_location def;
    int is_function = at->kind != ATRC_AT_LOCAL;
    if (is_function && !(atrc_definition(s->pj->ctx, at, &def) && def.file)) {
        *why = "no script of the compilation defines this function";
        return NULL;
    }
    size_t n = atrc_references(s->pj->ctx, at, NULL, 0);
    atrc_location *places = xcalloc(n + 1, sizeof *places);
    size_t k = 0;
    if (is_function) places[k++] = def;
    k += atrc_references(s->pj->ctx, at, places + k, n);
    for (size_t i = 0; i < k; i++)
        if (places[i].entry) {
            *why = "a place of this name is inside an archive (read-only)";
            free(places);
            return NULL;
        }
    *count = k;
    return places;
}

static void rename_refused(lsp_server *s, const lsp_message *m, const char *why)
{
    lsp_send_error(s, m->id, LSP_REQUEST_FAILED, why);
}

void lsp_prepare_rename(lsp_server *s, const lsp_message *m)
{
    lsp_position p;
    atrc_at at;
    if (!s->pj->ctx || lsp_get_position(s, m, &p) != 0) {
        lsp_null_result(s, m);
        return;
    }
    atrc_lookup(s->pj->ctx, p.file, p.line, p.column, &at);
    size_t n;
    const char *why;
    atrc_location *places = rename_places(s, &at, &n, &why);
    if (!places) {
        rename_refused(s, m, why);
    } else {
        lsp_begin_result(s, m->id);
        lsp_write_range(s, &s->msg, &p.lines, &at.where);
        lsp_end_result(s);
    }
    free(places);
    lsp_lines_free(&p.lines);
}

void lsp_rename(lsp_server *s, const lsp_message *m)
{
    lsp_position p;
    atrc_at at;
    const char *name = lsp_str(m->params, "newName");
    if (!name) {
        lsp_send_error(s, m->id, LSP_INVALID_PARAMS, "newName must be a string");
        return;
    }
    if (!*name || (*name >= '0' && *name <= '9') || !text_is_identifier(name, strlen(name))) {
        rename_refused(s, m, "the new name must be an identifier (letters, digits, '_', not a digit first)");
        return;
    }
    if (!s->pj->ctx || lsp_get_position(s, m, &p) != 0) {
        lsp_null_result(s, m);
        return;
    }
    atrc_lookup(s->pj->ctx, p.file, p.line, p.column, &at);
    lsp_lines_free(&p.lines);
    size_t n;
    const char *why;
    atrc_location *places = rename_places(s, &at, &n, &why);
    if (!places) {
        rename_refused(s, m, why);
        return;
    }
    /* WorkspaceEdit.changes: one member per URI, its edits in place order */
    rename_edit *edits = xcalloc(n ? n : 1, sizeof *edits);
    outbuf u = {0};
    for (size_t i = 0; i < n; i++) {
        outbuf_flush(&u);
        lsp_write_uri(s, &u, &places[i]);
        edits[i].uri = os_strndup(u.s, u.len);
        if (!edits[i].uri) out_of_memory();
        edits[i].order = i;
        edits[i].where = places[i];
    }
    outbuf_free(&u);
    qsort(edits, n, sizeof *edits, by_uri);
    lsp_begin_result(s, m->id);
    outbuf_str(&s->msg, "{\"changes\":{");
    lsp_lines lines = {0};
    for (size_t i = 0; i < n; i++) {
        int first = i == 0 || strcmp(edits[i - 1].uri, edits[i].uri) != 0;
        if (first) {
            if (i) outbuf_str(&s->msg, "],");
            outbuf_str(&s->msg, edits[i].uri);
            outbuf_str(&s->msg, ":[");
            lsp_lines_free(&lines);
            size_t len = 0;
            const char *text = lsp_file_text(s, &edits[i].where, &len);
            memset(&lines, 0, sizeof lines);
            if (text) lsp_lines_index(&lines, text, len);
        } else {
            outbuf_char(&s->msg, ',');
        }
        outbuf_str(&s->msg, "{\"range\":");
        lsp_write_range(s, &s->msg, lines.starts.items ? &lines : NULL, &edits[i].where);
        outbuf_str(&s->msg, ",\"newText\":");
        outbuf_json_string(&s->msg, name, strlen(name));
        outbuf_char(&s->msg, '}');
    }
    if (n) outbuf_char(&s->msg, ']');
    outbuf_str(&s->msg, "}}");
    lsp_end_result(s);
    lsp_lines_free(&lines);
    for (size_t i = 0; i < n; i++) free(edits[i].uri);
    free(edits);
    free(places);
}

/* ---- workspace symbols, folding ---- */

/* Every project's symbols; a file two projects compiled (a game script of
** both) gives each of its symbols once: an item already written is skipped. */

/* A symbol written into the message: where it is in s->msg. */
typedef struct span {
    size_t at, len;
} span;
typedef struct written_key {
    const char *msg;
    span item;
} written_key;

/* Symbol i written before is the same text as the key's. */
static int same_item(const void *items, size_t i, const void *key)
{
    const span *e = &((const span *)items)[i];
    const written_key *k = key;
    return e->len == k->item.len && memcmp(k->msg + e->at, k->msg + k->item.at, k->item.len) == 0;
}

void lsp_workspace_symbols(lsp_server *s, const lsp_message *m)
{
    const char *query = lsp_str(m->params, "query");
    lsp_begin_result(s, m->id);
    outbuf_char(&s->msg, '[');
    VEC(span) items = {0}; /* where each item written is in s->msg */
    hashtab written = {0};
    for (size_t k = 0; k < s->projects.count; k++) {
        s->pj = s->projects.items[k];
        size_t n = 0;
        const atrc_symbol *y = s->pj->ctx ? atrc_workspace_symbols(s->pj->ctx, query ? query : "", &n) : NULL;
        for (size_t i = 0; i < n; i++) {
            size_t before = s->msg.len;
            if (items.count) outbuf_char(&s->msg, ',');
            span item = {s->msg.len, 0};
            outbuf_str(&s->msg, "{\"name\":");
            outbuf_json_string(&s->msg, y[i].name, strlen(y[i].name));
            outbuf_str(&s->msg, ",\"kind\":12,\"location\":"); /* Function */
            lsp_write_location(s, &y[i].where);
            outbuf_char(&s->msg, '}');
            item.len = s->msg.len - item.at;
            uint32_t h = text_hash_bytes(s->msg.s + item.at, item.len);
            written_key key = {s->msg.s, item};
            if (hashtab_find(&written, h, items.items, &key, same_item) != HASHTAB_END) {
                s->msg.len = before; /* taken back */
                s->msg.s[before] = 0;
                continue;
            }
            *VEC_PUSH(items) = item;
            hashtab_add(&written, h);
        }
    }
    s->pj = &s->none;
    outbuf_char(&s->msg, ']');
    lsp_end_result(s);
    VEC_FREE(items);
    hashtab_free(&written);
}

void lsp_folding_ranges(lsp_server *s, const lsp_message *m)
{
    lsp_position p;
    if (!s->pj->ctx || lsp_get_position(s, m, &p) != 0) {
        lsp_empty_list(s, m);
        return;
    }
    size_t n = 0;
    const atrc_fold *d = atrc_folds(s->pj->ctx, p.file, &n);
    lsp_begin_result(s, m->id);
    outbuf_char(&s->msg, '[');
    for (size_t i = 0; i < n; i++)
        outbuf_printf(&s->msg, "%s{\"startLine\":%d,\"endLine\":%d}", i ? "," : "", d[i].start_line - 1,
                      d[i].end_line - 1);
    outbuf_char(&s->msg, ']');
    lsp_end_result(s);
    lsp_lines_free(&p.lines);
}

/* ---- signature help ---- */

/* UTF-16 code units (or bytes) of text[0, n). */
static size_t units(const char *text, size_t n, int utf8)
{
    if (utf8) return n;
    size_t u = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char b = (unsigned char)text[i];
        if ((b & 0xc0) != 0x80) u += b >= 0xf0 ? 2 : 1;
    }
    return u;
}

void lsp_signature_help(lsp_server *s, const lsp_message *m)
{
    lsp_position p;
    atrc_signature sig;
    if (!s->pj->ctx || lsp_get_position(s, m, &p) != 0) {
        lsp_null_result(s, m);
        return;
    }
    int found = atrc_signature_help(s->pj->ctx, p.file, p.line, p.column, &sig);
    lsp_lines_free(&p.lines);
    if (!found) {
        lsp_null_result(s, m);
        return;
    }
    lsp_begin_result(s, m->id);
    outbuf_str(&s->msg, "{\"signatures\":[{\"label\":");
    outbuf_json_string(&s->msg, sig.label, strlen(sig.label));
    if (sig.doc) {
        outbuf_str(&s->msg, ",\"documentation\":");
        outbuf_json_string(&s->msg, sig.doc, strlen(sig.doc));
    }
    /* each parameter as its offsets in the label (a name may recur in it) */
    outbuf_str(&s->msg, ",\"parameters\":[");
    const char *from = strchr(sig.label, '(');
    for (size_t i = 0; i < sig.param_count; i++) {
        const char *at = from ? strstr(from, sig.params[i]) : NULL;
        if (i) outbuf_char(&s->msg, ',');
        if (at) {
            size_t a = units(sig.label, (size_t)(at - sig.label), s->utf8);
            size_t z = a + units(at, strlen(sig.params[i]), s->utf8);
            outbuf_printf(&s->msg, "{\"label\":[%zu,%zu]", a, z);
            from = at + strlen(sig.params[i]);
        } else {
            outbuf_str(&s->msg, "{\"label\":");
            outbuf_json_string(&s->msg, sig.params[i], strlen(sig.params[i]));
        }
        if (sig.param_docs[i]) {
            outbuf_str(&s->msg, ",\"documentation\":");
            outbuf_json_string(&s->msg, sig.param_docs[i], strlen(sig.param_docs[i]));
        }
        outbuf_char(&s->msg, '}');
    }
    outbuf_printf(&s->msg, "]}],\"activeSignature\":0,\"activeParameter\":%d}", sig.active);
    lsp_end_result(s);
}

/* ---- inlay hints, semantic tokens: the %names of a document ---- */

/* The range of a request ("range"), as 1-based lines; the whole document
** when it has none. */
static void request_lines(const lsp_message *m, int *first, int *last)
{
    const json_value *range = json_get(m->params, "range");
    int64_t a, b;
    *first = 1;
    *last = INT32_MAX;
    if (lsp_int(json_get(range, "start"), "line", &a) == 0 && a >= 0 && a < INT32_MAX) *first = (int)a + 1;
    if (lsp_int(json_get(range, "end"), "line", &b) == 0 && b >= 0 && b < INT32_MAX) *last = (int)b + 1;
}

void lsp_inlay_hints(lsp_server *s, const lsp_message *m)
{
    lsp_position p;
    if (!s->pj->ctx || s->no_inlay_hints || lsp_get_position(s, m, &p) != 0) {
        lsp_empty_list(s, m);
        return;
    }
    int first, last;
    request_lines(m, &first, &last);
    size_t n = 0;
    const atrc_anim_site *a = atrc_anim_sites(s->pj->ctx, p.file, &n);
    lsp_begin_result(s, m->id);
    outbuf_char(&s->msg, '[');
    int any = 0;
    for (size_t i = 0; i < n; i++) {
        if (a[i].value < 0 || a[i].where.line < first || a[i].where.line > last) continue;
        int line = a[i].where.end_line > 0 ? a[i].where.end_line : a[i].where.line;
        int column = a[i].where.end_line > 0 ? a[i].where.end_column : a[i].where.column;
        outbuf_printf(&s->msg, "%s{\"position\":{\"line\":%d,\"character\":%lld},\"label\":\"= 0x%08llx\","
                               "\"kind\":1,\"paddingLeft\":true}",
                      any ? "," : "", line - 1, (long long)lsp_from_column(&p.lines, line - 1, column, s->utf8),
                      (unsigned long long)a[i].value);
        any = 1;
    }
    outbuf_char(&s->msg, ']');
    lsp_end_result(s);
    lsp_lines_free(&p.lines);
}

void lsp_semantic_tokens(lsp_server *s, const lsp_message *m)
{
    lsp_position p;
    if (!s->pj->ctx || lsp_get_position(s, m, &p) != 0) {
        lsp_begin_result(s, m->id);
        outbuf_str(&s->msg, "{\"data\":[]}");
        lsp_end_result(s);
        return;
    }
    size_t n = 0;
    const atrc_anim_site *a = atrc_anim_sites(s->pj->ctx, p.file, &n);
    lsp_begin_result(s, m->id);
    outbuf_str(&s->msg, "{\"data\":[");
    int prev_line = 0;
    int64_t prev_char = 0;
    int any = 0;
    for (size_t i = 0; i < n; i++) {
        int line = a[i].where.line - 1;
        if (line < 0 || (a[i].where.end_line > 0 && a[i].where.end_line != a[i].where.line)) continue;
        int64_t start = lsp_from_column(&p.lines, line, a[i].where.column, s->utf8);
        int64_t end = lsp_from_column(&p.lines, line, a[i].where.end_column, s->utf8);
        /* the legend's types: 0 a leaf, 1 a group, 2 a name that does not resolve */
        int type = a[i].is_leaf == 1 ? 0 : a[i].is_leaf == 0 ? 1 : 2;
        int64_t delta = line == prev_line ? start - prev_char : start;
        outbuf_printf(&s->msg, "%s%d,%lld,%lld,%d,0", any ? "," : "", line - prev_line, (long long)delta,
                      (long long)(end - start), type);
        prev_line = line;
        prev_char = start;
        any = 1;
    }
    outbuf_str(&s->msg, "]}");
    lsp_end_result(s);
    lsp_lines_free(&p.lines);
}
