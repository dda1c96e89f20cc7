/* The language server's answers about the compilation: hover, definition,
** completion, references, document symbols, archive entries.  A document
** the compilation did not reach gets an empty answer. */
#include "cli/lsp_server.h"
#include "os/os.h"
#include "base/arena.h"
#include "base/text.h"
#include "base/vec.h"
#include "os/os.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int lsp_get_position(lsp_server *s, const lsp_message *m, lsp_position *p)
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
        line >= (int64_t)p->lines.starts.count) {
        lsp_lines_free(&p->lines);
        return -1;
    }
    p->line = (int)line + 1;
    p->column = lsp_to_column(&p->lines, (int)line, character, s->utf8);
    return 0;
}

/* {"uri":..,"range":..} of a place of the compilation. */
/* ---- the files of locations ---- */

/* A file locations name: by the compilation's strings naming it, its URI
** (a JSON string), text and line index. */
typedef struct lsp_place {
    const char *path, *file, *entry;
    char *uri;
    size_t uri_len;
    const char *text;
    lsp_lines lines;
} lsp_place;

struct lsp_places {
    /* what the URIs and texts were found for: the compilation and the open
    ** documents (their texts and versions) */
    const atrc_ctx *ctx;
    unsigned long compiles;
    unsigned long docs;        /* lsp_server.docs_changes */
    VEC(lsp_place) items;      /* hashtab numbering */
    hashtab index;
    size_t last;               /* the place written last (runs of one file are the rule) */
};

static void places_clear(struct lsp_places *c)
{
    for (size_t i = 0; i < c->items.count; i++) {
        free(c->items.items[i].uri);
        lsp_lines_free(&c->items.items[i].lines);
    }
    c->items.count = 0;
    hashtab_clear(&c->index);
    c->last = HASHTAB_END;
}

void lsp_places_free(lsp_server *s)
{
    if (!s->places) return;
    places_clear(s->places);
    VEC_FREE(s->places->items);
    hashtab_free(&s->places->index);
    free(s->places);
    s->places = NULL;
}

static uint32_t place_hash(const atrc_location *where)
{
    uintptr_t key[3] = {(uintptr_t)where->path, (uintptr_t)where->file, (uintptr_t)where->entry};
    return text_hash_bytes((const char *)key, sizeof key);
}

/* Place i is the file where names (by the compilation's strings). */
static int place_at(const void *items, size_t i, const void *key)
{
    const lsp_place *p = &((const lsp_place *)items)[i];
    const atrc_location *where = key;
    return p->path == where->path && p->file == where->file && p->entry == where->entry;
}

/* where's file: found once while the compilation and the documents stay. */
static const lsp_place *place_of(lsp_server *s, const atrc_location *where)
{
    if (!s->places) {
        s->places = xcalloc(1, sizeof *s->places);
        s->places->last = HASHTAB_END;
    }
    struct lsp_places *c = s->places;
    /* a new compilation, or any open, close or edit of a document since */
    if (c->ctx != s->pj->ctx || c->compiles != s->compiles || c->docs != s->docs_changes) {
        places_clear(c);
        c->ctx = s->pj->ctx;
        c->compiles = s->compiles;
        c->docs = s->docs_changes;
    }
    if (c->last != HASHTAB_END && place_at(c->items.items, c->last, where)) return &c->items.items[c->last];
    uint32_t h = place_hash(where);
    size_t i = hashtab_find(&c->index, h, c->items.items, where, place_at);
    if (i != HASHTAB_END) {
        c->last = i;
        return &c->items.items[i];
    }
    lsp_place *p = VEC_PUSH(c->items);
    memset(p, 0, sizeof *p);
    p->path = where->path;
    p->file = where->file;
    p->entry = where->entry;
    outbuf uri = {0};
    lsp_write_uri(s, &uri, where);
    p->uri = os_strndup(uri.s ? uri.s : "", uri.len);
    if (!p->uri) out_of_memory();
    p->uri_len = uri.len;
    outbuf_free(&uri);
    size_t len = 0;
    p->text = lsp_file_text(s, where, &len);
    if (p->text) lsp_lines_index(&p->lines, p->text, len);
    hashtab_add(&c->index, h);
    c->last = c->items.count - 1;
    return p;
}

void lsp_write_location(lsp_server *s, const atrc_location *where)
{
    outbuf *b = &s->msg;
    const lsp_place *p = place_of(s, where);
    outbuf_str(b, "{\"uri\":");
    outbuf_put(b, p->uri, p->uri_len);
    outbuf_str(b, ",\"range\":");
    lsp_write_range(s, b, p->text ? &p->lines : NULL, where);
    outbuf_char(b, '}');
}

void lsp_null_result(lsp_server *s, const lsp_message *m)
{
    lsp_begin_result(s, m->id);
    outbuf_str(&s->msg, "null");
    lsp_end_result(s);
}

void lsp_empty_list(lsp_server *s, const lsp_message *m)
{
    lsp_begin_result(s, m->id);
    outbuf_str(&s->msg, "[]");
    lsp_end_result(s);
}

/* ---- paths as the user reads them ---- */

/* The directory paths are shown relative to: the project file's, else the
** workspace root (NULL: none). */
static const char *project_dir(lsp_server *s, outbuf *dir)
{
    if (s->pj->flags) {
        const char *sep = os_last_path_sep(s->pj->flags);
        if (sep) {
            outbuf_put(dir, s->pj->flags, (size_t)(sep - s->pj->flags));
            return dir->s;
        }
    }
    return s->root;
}

/* path without `/./` segments (the game directories are spelled `DIR/.`
** when a flag says `-g .`), its separators '/' (on Windows too, as the
** client's URIs have them), into clean. */
static void clean_path(const char *path, outbuf *clean)
{
    for (const char *p = path; *p;) {
        if (os_is_path_sep(p[0]) && p[1] == '.' && (os_is_path_sep(p[2]) || p[2] == 0)) {
            p += 2; /* "/." dropped: the separator after it (or the end) follows */
            continue;
        }
        outbuf_char(clean, os_is_path_sep(*p) ? '/' : *p);
        p++;
    }
}

/* path as hovers and completion details show it: clean (clean_path), and
** relative to the project when it lies below it. */
void lsp_display_path(lsp_server *s, const char *path, outbuf *b)
{
    outbuf clean = {0}, dir = {0}, root = {0};
    clean_path(path, &clean);
    const char *text = clean.s ? clean.s : "";
    const char *project = project_dir(s, &dir);
    if (project) clean_path(project, &root);
    size_t n = root.len;
    while (n > 1 && root.s[n - 1] == '/') n--;
    if (n && strncmp(text, root.s, n) == 0 && text[n] == '/' && text[n + 1]) text += n + 1;
    outbuf_str(b, text);
    outbuf_free(&root);
    outbuf_free(&dir);
    outbuf_free(&clean);
}

/* ---- hover ---- */

static void where_text(lsp_server *s, outbuf *md, const atrc_location *where)
{
    if (!where->file) return;
    lsp_display_path(s, where->file, md);
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

/* The hover text of what is at a position (Markdown, or plain text when the
** client prefers it). */
static void hover_text(lsp_server *s, const atrc_at *at, outbuf *md)
{
    const char *B = s->hover_plain ? "" : "**", *C = s->hover_plain ? "" : "`";
    switch (at->kind) {
    case ATRC_AT_ANIM:
    case ATRC_AT_NODE:
        outbuf_printf(md, "%s%s%s%s", B, at->kind == ATRC_AT_ANIM ? "%" : "", at->name ? at->name : "", B);
        if (at->value >= 0)
            outbuf_printf(md, " = %s0x%08llx%s (%lld)", C, (unsigned long long)at->value, C, (long long)at->value);
        outbuf_str(md, "\n\n");
        if (at->tree_name && at->node >= 0) outbuf_printf(md, "%s%s[%d]%s node %d", C, at->tree_name, at->tree, C, at->node);
        else if (at->tree_name && at->kind == ATRC_AT_NODE) outbuf_printf(md, "%s%s%s: pruned (no index)", C, at->tree_name, C);
        else if (at->tree_name) outbuf_printf(md, "not in tree %s%s%s", C, at->tree_name, C);
        if (at->node_path) outbuf_printf(md, " — %s%s%s", C, at->node_path, C);
        outbuf_str(md, "\n\n");
        if (at->is_leaf == 1) {
            outbuf_str(md, "leaf");
            if (at->looping >= 0) outbuf_str(md, at->looping ? ", looping" : ", not looping");
            if (at->length >= 0) outbuf_printf(md, ", %.3f s", at->length);
        } else if (at->is_leaf == 0) {
            outbuf_str(md, "group");
            if (at->parse_flags) {
                outbuf_printf(md, " %s:", C);
                flag_words(md, at->parse_flags);
                outbuf_str(md, C);
            }
        }
        if (at->sync_flags) {
            outbuf_str(md, ", in a");
            flag_words(md, at->sync_flags);
            outbuf_str(md, " group");
        }
        /* What the run-time checks know (README, "Run-time animation checks"). */
        if (at->is_leaf == 0 && at->has_time == 1)
            outbuf_str(md, "; has time (its sync group's), so it can be flagged");
        else if (at->is_leaf == 0 && at->has_time == 0)
            outbuf_str(md, "; no time: a blend group, neither it nor an ancestor is loopsync/nonloopsync, so "
                           "a flagged call or getanimtime on it fails while the level runs; no length either "
                           "(getanimlength)");
        if (at->notetracks) outbuf_printf(md, "\n\nnotetracks: %s", at->notetracks);
        if (at->reason) outbuf_printf(md, "\n\n%s", at->reason);
        break;
    case ATRC_AT_ANIMTREE:
        outbuf_printf(md, "%s#animtree%s = %lld", B, B, (long long)at->value);
        if (at->tree_name) outbuf_printf(md, " (tree %s%s%s)", C, at->tree_name, C);
        break;
    case ATRC_AT_USING_ANIMTREE:
        outbuf_printf(md, "%s#using_animtree(\"%s\")%s", B, at->name ? at->name : "", B);
        if (at->tree > 0) outbuf_printf(md, " — tree index %d", at->tree);
        if (at->tree_file) {
            outbuf_printf(md, "\n\n%s", C);
            lsp_display_path(s, at->tree_file, md);
            outbuf_str(md, C);
        }
        if (at->node_count >= 0 && at->node_total >= 0)
            outbuf_printf(md, "\n\n%d of %d nodes kept, checksum %s0x%08x%s", at->node_count, at->node_total, C,
                          at->checksum, C);
        break;
    case ATRC_AT_CALL:
    case ATRC_AT_FUNCTION: {
        outbuf_printf(md, "%s%s%s", B, at->signature ? at->signature : at->name ? at->name : "", B);
        atrc_location def;
        if (at->builtin_list) outbuf_printf(md, "\n\nbuiltin (%s)", at->builtin_list);
        else if (atrc_definition(s->pj->ctx, at, &def) && def.file) {
            outbuf_str(md, "\n\ndefined at ");
            where_text(s, md, &def);
        }
        break;
    }
    case ATRC_AT_INCLUDE: {
        outbuf_printf(md, "%s%s%s", B, at->path ? at->path : at->name ? at->name : "", B);
        atrc_location def;
        if (atrc_definition(s->pj->ctx, at, &def) && def.file) {
            outbuf_str(md, "\n\n");
            lsp_display_path(s, def.file, md);
        }
        break;
    }
    case ATRC_AT_LOCAL:
        outbuf_printf(md, "%s%s%s — %s of %s%s%s", B, at->name ? at->name : "", B,
                      at->local_param ? "parameter" : "local variable", C, at->signature ? at->signature : "", C);
        break;
    default:
        break;
    }
}

void lsp_hover(lsp_server *s, const lsp_message *m)
{
    lsp_position p;
    atrc_at at;
    if (!s->pj->ctx || lsp_get_position(s, m, &p) != 0) {
        lsp_null_result(s, m);
        return;
    }
    int found = atrc_lookup(s->pj->ctx, p.file, p.line, p.column, &at) && at.kind != ATRC_AT_NONE;
    /* nothing here while the document does not parse: its last text that did */
    int ago = found ? 0 : lsp_stale_begin(s, m, &p);
    if (ago) found = atrc_lookup(s->pj->ctx, p.file, p.line, p.column, &at) && at.kind != ATRC_AT_NONE;
    if (!found) {
        if (ago) lsp_stale_end(&p);
        lsp_lines_free(&p.lines);
        lsp_null_result(s, m);
        return;
    }
    outbuf md = {0};
    if (ago) outbuf_printf(&md, "%sfrom the last version that parsed (%d edit%s ago)%s\n\n", s->hover_plain ? "" : "*",
                           ago, ago == 1 ? "" : "s", s->hover_plain ? "" : "*");
    hover_text(s, &at, &md);
    lsp_begin_result(s, m->id);
    outbuf_printf(&s->msg, "{\"contents\":{\"kind\":\"%s\",\"value\":", s->hover_plain ? "plaintext" : "markdown");
    outbuf_json_string(&s->msg, md.s ? md.s : "", md.len);
    outbuf_char(&s->msg, '}');
    /* the range in the current text (none when an edit replaced it) */
    size_t before = s->msg.len;
    outbuf_str(&s->msg, ",\"range\":");
    if (!ago) lsp_write_range(s, &s->msg, &p.lines, &at.where);
    else if (lsp_stale_write_range(s, &p, &at.where) != 0) s->msg.len = before;
    outbuf_char(&s->msg, '}');
    lsp_end_result(s);
    if (ago) lsp_stale_end(&p);
    outbuf_free(&md);
    lsp_lines_free(&p.lines);
}

/* ---- definition, references ---- */

void lsp_definition(lsp_server *s, const lsp_message *m)
{
    lsp_position p;
    atrc_at at;
    atrc_location def;
    if (!s->pj->ctx || lsp_get_position(s, m, &p) != 0) {
        lsp_null_result(s, m);
        return;
    }
    int found = atrc_lookup(s->pj->ctx, p.file, p.line, p.column, &at) && atrc_definition(s->pj->ctx, &at, &def) && def.file;
    /* nothing here while the document does not parse: its last text that did */
    int ago = found ? 0 : lsp_stale_begin(s, m, &p);
    if (ago) found = atrc_lookup(s->pj->ctx, p.file, p.line, p.column, &at) && atrc_definition(s->pj->ctx, &at, &def) && def.file;
    /* a place in the document itself is in its last good text: mapped to the current one */
    int here = ago && found && !def.entry && def.path && strcmp(def.path, p.file) == 0;
    if (!found) {
        lsp_null_result(s, m);
    } else if (here) {
        lsp_begin_result(s, m->id);
        size_t start = s->msg.len;
        outbuf_str(&s->msg, "{\"uri\":");
        outbuf_json_string(&s->msg, p.doc->uri, strlen(p.doc->uri));
        outbuf_str(&s->msg, ",\"range\":");
        if (lsp_stale_write_range(s, &p, &def) == 0) {
            outbuf_char(&s->msg, '}');
        } else { /* an edit replaced it */
            s->msg.len = start;
            outbuf_str(&s->msg, "null");
        }
        lsp_end_result(s);
    } else {
        lsp_begin_result(s, m->id);
        lsp_write_location(s, &def);
        lsp_end_result(s);
    }
    if (ago) lsp_stale_end(&p);
    lsp_lines_free(&p.lines);
}

void lsp_references(lsp_server *s, const lsp_message *m)
{
    lsp_position p;
    atrc_at at;
    if (!s->pj->ctx || lsp_get_position(s, m, &p) != 0) {
        lsp_empty_list(s, m);
        return;
    }
    int found = atrc_lookup(s->pj->ctx, p.file, p.line, p.column, &at);
    lsp_lines_free(&p.lines);
    if (!found) {
        lsp_empty_list(s, m);
        return;
    }
    size_t n = atrc_references(s->pj->ctx, &at, NULL, 0);
    atrc_location *refs = n ? xcalloc(n, sizeof *refs) : NULL;
    n = atrc_references(s->pj->ctx, &at, refs, n);
    const json_value *include = json_get(json_get(m->params, "context"), "includeDeclaration");
    atrc_location def;
    int with_def = include && include->type == JSON_TRUE && atrc_definition(s->pj->ctx, &at, &def) && def.file;
    lsp_begin_result(s, m->id);
    outbuf_char(&s->msg, '[');
    if (with_def) lsp_write_location(s, &def);
    for (size_t i = 0; i < n; i++) {
        if (with_def || i) outbuf_char(&s->msg, ',');
        lsp_write_location(s, &refs[i]);
    }
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
    case ATRC_COMPLETE_LOCAL: return 6;   /* Variable */
    case ATRC_COMPLETE_NOTETRACK: return 21; /* Constant */
    default: return 3;                    /* Function */
    }
}

void lsp_completion(lsp_server *s, const lsp_message *m)
{
    lsp_position p;
    if (!s->pj->ctx || lsp_get_position(s, m, &p) != 0) {
        lsp_empty_list(s, m);
        return;
    }
    size_t count = 0;
    int start = 0;
    const atrc_completion *c = atrc_complete(s->pj->ctx, p.file, p.line, p.column, &count, &start);
    atrc_location range = {0};
    range.line = range.end_line = p.line;
    range.column = start > 0 && start <= p.column ? start : p.column;
    range.end_column = p.column;
    /* the word being completed: once for the list when the client takes
    ** that, else in each item (a tree's names run to thousands) */
    outbuf edit = {0};
    if (start > 0) lsp_write_range(s, &edit, &p.lines, &range);
    lsp_begin_result(s, m->id);
    outbuf_str(&s->msg, "{\"isIncomplete\":false,");
    if (start > 0 && s->edit_range_default) {
        outbuf_str(&s->msg, "\"itemDefaults\":{\"editRange\":");
        outbuf_put(&s->msg, edit.s, edit.len);
        outbuf_str(&s->msg, "},");
    }
    outbuf_str(&s->msg, "\"items\":[");
    outbuf detail = {0};
    for (size_t i = 0; c && i < count; i++) {
        if (i) outbuf_char(&s->msg, ',');
        outbuf_str(&s->msg, "{\"label\":");
        outbuf_json_string(&s->msg, c[i].label, strlen(c[i].label));
        /* pieces, not a format: a tree's names run to thousands */
        outbuf_str(&s->msg, ",\"kind\":");
        outbuf_int(&s->msg, completion_kind(c[i].kind));
        char order[24];
        size_t digits = 0;
        for (size_t v = i; v || digits < 8; v /= 10) order[sizeof order - 1 - digits++] = (char)('0' + v % 10);
        outbuf_str(&s->msg, ",\"sortText\":\"");
        outbuf_put(&s->msg, order + sizeof order - digits, digits);
        outbuf_char(&s->msg, '"');
        if (c[i].detail) {
            const char *d = c[i].detail;
            size_t n = strlen(d);
            if (c[i].kind == ATRC_COMPLETE_FUNCTION) { /* "path:line": shown relative to the project */
                outbuf_flush(&detail);
                lsp_display_path(s, d, &detail);
                d = detail.s ? detail.s : "";
                n = detail.len;
            }
            outbuf_str(&s->msg, ",\"detail\":");
            outbuf_json_string(&s->msg, d, n);
        }
        if (start > 0 && !s->edit_range_default) {
            outbuf_str(&s->msg, ",\"textEdit\":{\"range\":");
            outbuf_put(&s->msg, edit.s, edit.len);
            outbuf_str(&s->msg, ",\"newText\":");
            outbuf_json_string(&s->msg, c[i].label, strlen(c[i].label));
            outbuf_char(&s->msg, '}');
        }
        outbuf_char(&s->msg, '}');
    }
    outbuf_str(&s->msg, "]}");
    lsp_end_result(s);
    outbuf_free(&detail);
    outbuf_free(&edit);
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
    lsp_position p;
    if (!s->pj->ctx || lsp_get_position(s, m, &p) != 0) {
        lsp_empty_list(s, m);
        return;
    }
    size_t count = 0;
    const atrc_symbol *symbols = atrc_symbols(s->pj->ctx, p.file, &count);
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
    if (!uri || lsp_uri_to_entry(uri, &archive, &entry) != 0) {
        free(archive);
        free(entry);
        lsp_null_result(s, m);
        return;
    }
    outbuf file = {0};
    outbuf_printf(&file, "%s:%s", archive, entry);
    size_t len = 0;
    /* the first project whose compilation read it */
    const char *text = NULL;
    for (size_t i = 0; !text && i < s->projects.count; i++)
        if (s->projects.items[i]->ctx) text = atrc_source_text(s->projects.items[i]->ctx, file.s, &len);
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
