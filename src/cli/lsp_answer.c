/* The language server's answers about the compilation: hover, definition,
** completion, references, document symbols, archive entries.  A document
** the compilation did not reach gets an empty answer. */
#include "cli/lsp_server.h"
#include "os/os.h"
#include "base/arena.h"

#include <stdlib.h>
#include <string.h>

/* A request's document and position as atrc's file, line and byte column. */
typedef struct position {
    lsp_doc *doc;
    const char *file;   /* the document's path, or ARCHIVE:ENTRY */
    lsp_lines lines;
    int line, column;   /* 1-based, bytes */
} position;

static int get_position(lsp_server *s, const lsp_message *m, position *p)
{
    memset(p, 0, sizeof *p);
    const char *uri = lsp_str(json_get(m->params, "textDocument"), "uri");
    const json_value *pos = json_get(m->params, "position");
    int64_t line, character;
    if (!uri) return -1;
    p->doc = lsp_docs_find(&s->docs, uri);
    if (!p->doc || !p->doc->open) return -1;
    p->file = p->doc->archive_file ? p->doc->archive_file : p->doc->path;
    if (!p->file) return -1;
    lsp_lines_index(&p->lines, p->doc->text, p->doc->len);
    if (!pos) return 0;
    if (lsp_int(pos, "line", &line) || lsp_int(pos, "character", &character) || line < 0 || character < 0 ||
        line >= (int64_t)p->lines.count) {
        lsp_lines_free(&p->lines);
        return -1;
    }
    p->line = (int)line + 1;
    p->column = lsp_to_column(&p->lines, (int)line, character, s->utf8);
    return 0;
}

/* {"uri":..,"range":..} of a place of the compilation. */
/* Locations written one after another keep the last file's URI and line
** index: N references in one file cost one index and one URI, not N (a
** %name used 40,000 times in a script was quadratic). */
typedef struct location_writer {
    int valid;
    const char *file, *entry; /* the file the kept URI and lines are of */
    int has_text;
    lsp_lines lines;
    outbuf uri;               /* a string: the JSON-quoted URI */
} location_writer;

static int same_str(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

static void write_location_with(lsp_server *s, location_writer *w, const atrc_location *where)
{
    outbuf *b = &s->msg;
    if (!w->valid || !same_str(w->file, where->file) || !same_str(w->entry, where->entry)) {
        lsp_lines_free(&w->lines);
        outbuf_free(&w->uri);
        size_t len = 0;
        const char *text = lsp_file_text(s, where, &len);
        w->has_text = text != NULL;
        if (text) lsp_lines_index(&w->lines, text, len);
        lsp_write_uri(s, &w->uri, where);
        w->file = where->file;
        w->entry = where->entry;
        w->valid = 1;
    }
    outbuf_str(b, "{\"uri\":");
    outbuf_put(b, w->uri.s ? w->uri.s : "\"\"", w->uri.s ? w->uri.len : 2);
    outbuf_str(b, ",\"range\":");
    lsp_write_range(s, b, w->has_text ? &w->lines : NULL, where);
    outbuf_char(b, '}');
}

static void location_writer_free(location_writer *w)
{
    lsp_lines_free(&w->lines);
    outbuf_free(&w->uri);
}

static void write_location(lsp_server *s, const atrc_location *where)
{
    location_writer w = {0};
    write_location_with(s, &w, where);
    location_writer_free(&w);
}

static void null_result(lsp_server *s, const lsp_message *m)
{
    lsp_begin_result(s, m->id);
    outbuf_str(&s->msg, "null");
    lsp_end_result(s);
}

static void empty_list(lsp_server *s, const lsp_message *m)
{
    lsp_begin_result(s, m->id);
    outbuf_str(&s->msg, "[]");
    lsp_end_result(s);
}

/* ---- hover ---- */

/* A path as the hover shows it: without its "." segments ("/ws/./main/x"
** is "/ws/main/x"; a game directory given as "." is joined as "ROOT/.").
** Lexical, so ".." (which a link may make mean something else) stays. */
static void path_text(outbuf *md, const char *path)
{
    for (const char *p = path; *p; p++) {
        int at_segment = p == path || os_is_path_sep((unsigned char)p[-1]);
        if (at_segment && p[0] == '.' && os_is_path_sep((unsigned char)p[1]) && p != path) {
            p++; /* "/./": the '/' already written stands for both */
            continue;
        }
        outbuf_char(md, *p);
    }
}

static void where_text(outbuf *md, const atrc_location *where)
{
    if (!where->file) return;
    path_text(md, where->file);
    outbuf_printf(md, ":%d", where->line);
}

/* An .atr's flag words (": loopsync complete"). */
static void flag_words(outbuf *md, unsigned flags)
{
    static const struct { unsigned bit; const char *word; } words[] = {
        {ATRC_FLAG_LOOPSYNC, "loopsync"}, {ATRC_FLAG_NONLOOPSYNC, "nonloopsync"},
        {ATRC_FLAG_COMPLETE, "complete"}, {ATRC_FLAG_ADDITIVE, "additive"}};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (flags & words[i].bit) outbuf_printf(md, " %s", words[i].word);
}

/* The hover text (Markdown) of what is at a position. */
static void hover_text(lsp_server *s, const atrc_at *at, outbuf *md)
{
    switch (at->kind) {
    case ATRC_AT_ANIM:
    case ATRC_AT_NODE:
        outbuf_printf(md, "**%s%s**", at->kind == ATRC_AT_ANIM ? "%" : "", at->name ? at->name : "");
        if (at->value >= 0)
            outbuf_printf(md, " = `0x%08llx` (%lld)", (unsigned long long)at->value, (long long)at->value);
        outbuf_str(md, "\n\n");
        if (at->tree_name && at->node >= 0) outbuf_printf(md, "`%s[%d]` node %d", at->tree_name, at->tree, at->node);
        else if (at->tree_name && at->kind == ATRC_AT_NODE) outbuf_printf(md, "`%s`: pruned (no index)", at->tree_name);
        else if (at->tree_name) outbuf_printf(md, "not in tree `%s`", at->tree_name);
        if (at->node_path) outbuf_printf(md, " — `%s`", at->node_path);
        outbuf_str(md, "\n\n");
        if (at->is_leaf == 1) {
            outbuf_str(md, "leaf");
            if (at->looping >= 0) outbuf_str(md, at->looping ? ", looping" : ", not looping");
        } else if (at->is_leaf == 0) {
            outbuf_str(md, "group");
            if (at->parse_flags) {
                outbuf_str(md, " `:");
                flag_words(md, at->parse_flags);
                outbuf_char(md, '`');
            }
        }
        if (at->sync_flags) {
            outbuf_str(md, ", in a");
            flag_words(md, at->sync_flags);
            outbuf_str(md, " group");
        }
        if (at->reason) outbuf_printf(md, "\n\n%s", at->reason);
        break;
    case ATRC_AT_ANIMTREE:
        outbuf_printf(md, "**#animtree** = %lld", (long long)at->value);
        if (at->tree_name) outbuf_printf(md, " (tree `%s`)", at->tree_name);
        break;
    case ATRC_AT_USING_ANIMTREE:
        outbuf_printf(md, "**#using_animtree(\"%s\")**", at->name ? at->name : "");
        if (at->tree > 0) outbuf_printf(md, " — tree index %d", at->tree);
        if (at->tree_file) {
            outbuf_str(md, "\n\n`");
            path_text(md, at->tree_file);
            outbuf_char(md, '`');
        }
        if (at->node_count >= 0 && at->node_total >= 0)
            outbuf_printf(md, "\n\n%d of %d nodes kept, checksum `0x%08x`", at->node_count, at->node_total, at->checksum);
        break;
    case ATRC_AT_CALL:
    case ATRC_AT_FUNCTION: {
        outbuf_printf(md, "**%s**", at->signature ? at->signature : at->name ? at->name : "");
        atrc_location def;
        if (at->builtin_list) outbuf_printf(md, "\n\nbuiltin (%s)", at->builtin_list);
        else if (atrc_definition(s->ctx, at, &def) && def.file) {
            outbuf_str(md, "\n\ndefined at ");
            where_text(md, &def);
        }
        break;
    }
    case ATRC_AT_INCLUDE: {
        outbuf_printf(md, "**%s**", at->path ? at->path : at->name ? at->name : "");
        atrc_location def;
        if (atrc_definition(s->ctx, at, &def) && def.file) {
            outbuf_str(md, "\n\n");
            outbuf_str(md, def.file);
        }
        break;
    }
    default:
        break;
    }
}

void lsp_hover(lsp_server *s, const lsp_message *m)
{
    position p;
    atrc_at at;
    if (!s->ctx || get_position(s, m, &p) != 0) {
        null_result(s, m);
        return;
    }
    if (!atrc_lookup(s->ctx, p.file, p.line, p.column, &at) || at.kind == ATRC_AT_NONE) {
        lsp_lines_free(&p.lines);
        null_result(s, m);
        return;
    }
    outbuf md = {0};
    hover_text(s, &at, &md);
    lsp_begin_result(s, m->id);
    outbuf_str(&s->msg, "{\"contents\":{\"kind\":\"markdown\",\"value\":");
    outbuf_json_string(&s->msg, md.s ? md.s : "", md.len);
    outbuf_str(&s->msg, "},\"range\":");
    lsp_write_range(s, &s->msg, &p.lines, &at.where);
    outbuf_char(&s->msg, '}');
    lsp_end_result(s);
    outbuf_free(&md);
    lsp_lines_free(&p.lines);
}

/* ---- definition, references ---- */

void lsp_definition(lsp_server *s, const lsp_message *m)
{
    position p;
    atrc_at at;
    atrc_location def;
    if (!s->ctx || get_position(s, m, &p) != 0) {
        null_result(s, m);
        return;
    }
    int found = atrc_lookup(s->ctx, p.file, p.line, p.column, &at) && atrc_definition(s->ctx, &at, &def) && def.file;
    lsp_lines_free(&p.lines);
    if (!found) {
        null_result(s, m);
        return;
    }
    lsp_begin_result(s, m->id);
    write_location(s, &def);
    lsp_end_result(s);
}

void lsp_references(lsp_server *s, const lsp_message *m)
{
    position p;
    atrc_at at;
    if (!s->ctx || get_position(s, m, &p) != 0) {
        empty_list(s, m);
        return;
    }
    int found = atrc_lookup(s->ctx, p.file, p.line, p.column, &at);
    lsp_lines_free(&p.lines);
    if (!found) {
        empty_list(s, m);
        return;
    }
    size_t n = atrc_references(s->ctx, &at, NULL, 0);
    atrc_location *refs = n ? xcalloc(n, sizeof *refs) : NULL;
    n = atrc_references(s->ctx, &at, refs, n);
    const json_value *include = json_get(json_get(m->params, "context"), "includeDeclaration");
    atrc_location def;
    int with_def = include && include->type == JSON_TRUE && atrc_definition(s->ctx, &at, &def) && def.file;
    lsp_begin_result(s, m->id);
    outbuf_char(&s->msg, '[');
    location_writer w = {0};
    if (with_def) write_location_with(s, &w, &def);
    for (size_t i = 0; i < n; i++) {
        if (with_def || i) outbuf_char(&s->msg, ',');
        write_location_with(s, &w, &refs[i]);
    }
    location_writer_free(&w);
    outbuf_char(&s->msg, ']');
    lsp_end_result(s);
    free(refs);
}

/* ---- completion ---- */

static int completion_kind(atrc_completion_kind k)
{
    switch (k) {
    case ATRC_COMPLETE_LEAF: return 12;   /* Value */
    case ATRC_COMPLETE_GROUP: return 19;  /* Folder */
    case ATRC_COMPLETE_TREE: return 17;   /* File */
    case ATRC_COMPLETE_BUILTIN_METHOD: return 2; /* Method */
    default: return 3;                    /* Function */
    }
}

void lsp_completion(lsp_server *s, const lsp_message *m)
{
    position p;
    if (!s->ctx || get_position(s, m, &p) != 0) {
        empty_list(s, m);
        return;
    }
    size_t count = 0;
    int start = 0;
    const atrc_completion *c = atrc_complete(s->ctx, p.file, p.line, p.column, &count, &start);
    lsp_begin_result(s, m->id);
    outbuf_str(&s->msg, "{\"isIncomplete\":false,\"items\":[");
    atrc_location range = {0};
    range.line = range.end_line = p.line;
    range.column = start > 0 && start <= p.column ? start : p.column;
    range.end_column = p.column;
    for (size_t i = 0; c && i < count; i++) {
        if (i) outbuf_char(&s->msg, ',');
        outbuf_str(&s->msg, "{\"label\":");
        outbuf_json_string(&s->msg, c[i].label, strlen(c[i].label));
        outbuf_printf(&s->msg, ",\"kind\":%d,\"sortText\":\"%08zu\"", completion_kind(c[i].kind), i);
        if (c[i].detail) {
            outbuf_str(&s->msg, ",\"detail\":");
            outbuf_json_string(&s->msg, c[i].detail, strlen(c[i].detail));
        }
        if (start > 0) {
            outbuf_str(&s->msg, ",\"textEdit\":{\"range\":");
            lsp_write_range(s, &s->msg, &p.lines, &range);
            outbuf_str(&s->msg, ",\"newText\":");
            outbuf_json_string(&s->msg, c[i].label, strlen(c[i].label));
            outbuf_char(&s->msg, '}');
        }
        outbuf_char(&s->msg, '}');
    }
    outbuf_str(&s->msg, "]}");
    lsp_end_result(s);
    lsp_lines_free(&p.lines);
}

/* ---- document symbols ---- */

/* File order: an .atr's nodes come in the engine's index order, and a
** node's children follow it in the file. */
static int by_position(const void *a, const void *b)
{
    const atrc_symbol *x = *(const atrc_symbol *const *)a, *y = *(const atrc_symbol *const *)b;
    if (x->where.line != y->where.line) return x->where.line < y->where.line ? -1 : 1;
    if (x->where.column != y->where.column) return x->where.column < y->where.column ? -1 : 1;
    return x < y ? -1 : x > y;
}

void lsp_document_symbols(lsp_server *s, const lsp_message *m)
{
    position p;
    if (!s->ctx || get_position(s, m, &p) != 0) {
        empty_list(s, m);
        return;
    }
    size_t count = 0;
    const atrc_symbol *symbols = atrc_symbols(s->ctx, p.file, &count);
    const atrc_symbol **sorted = count ? xcalloc(count, sizeof *sorted) : NULL;
    for (size_t i = 0; i < count; i++) sorted[i] = &symbols[i];
    if (count) qsort(sorted, count, sizeof *sorted, by_position);
    int *open = count ? xcalloc(count, sizeof *open) : NULL; /* depths of the symbols whose children are open */
    size_t depth = 0;
    lsp_begin_result(s, m->id);
    outbuf_char(&s->msg, '[');
    for (size_t i = 0; open && i < count; i++) {
        const atrc_symbol *sym = sorted[i];
        while (depth > 0 && open[depth - 1] >= sym->depth) {
            outbuf_str(&s->msg, "]}");
            depth--;
        }
        if (s->msg.s[s->msg.len - 1] != '[') outbuf_char(&s->msg, ',');
        outbuf_str(&s->msg, "{\"name\":");
        outbuf_json_string(&s->msg, sym->name, strlen(sym->name));
        int kind = sym->is_function ? 12 : sym->is_leaf ? 8 : 3; /* Function, Field, Namespace */
        outbuf_printf(&s->msg, ",\"kind\":%d,\"range\":", kind);
        atrc_location extent = sym->extent.file ? sym->extent : sym->where;
        /* the range holds the selection range */
        if (extent.line > sym->where.line || (extent.line == sym->where.line && extent.column > sym->where.column)) {
            extent.line = sym->where.line;
            extent.column = sym->where.column;
        }
        lsp_write_range(s, &s->msg, &p.lines, &extent);
        outbuf_str(&s->msg, ",\"selectionRange\":");
        lsp_write_range(s, &s->msg, &p.lines, &sym->where);
        outbuf_str(&s->msg, ",\"children\":[");
        open[depth++] = sym->depth;
    }
    while (depth > 0) {
        outbuf_str(&s->msg, "]}");
        depth--;
    }
    outbuf_char(&s->msg, ']');
    lsp_end_result(s);
    free(open);
    free(sorted);
    lsp_lines_free(&p.lines);
}

/* ---- archive entries, served read-only ---- */

void lsp_archive_entry(lsp_server *s, const lsp_message *m)
{
    const char *uri = lsp_str(m->params, "uri");
    char *archive = NULL, *entry = NULL;
    if (!uri || lsp_uri_to_entry(uri, &archive, &entry) != 0 || !s->ctx) {
        free(archive);
        free(entry);
        null_result(s, m);
        return;
    }
    outbuf file = {0};
    outbuf_printf(&file, "%s:%s", archive, entry);
    size_t len = 0;
    const char *text = atrc_source_text(s->ctx, file.s, &len);
    lsp_begin_result(s, m->id);
    if (text) {
        outbuf_str(&s->msg, "{\"text\":");
        outbuf_json_string(&s->msg, text, len);
        outbuf_char(&s->msg, '}');
    } else {
        outbuf_str(&s->msg, "null");
    }
    lsp_end_result(s);
    outbuf_free(&file);
    free(archive);
    free(entry);
}
