/* Answers from an older state (lsp_server.h, "the last good state"): while
** a document does not parse and the current compilation has nothing at the
** cursor (the statement being typed is an error, its references gone),
** hover and definition answer from the document's last text that parsed,
** compiled again for that one answer, the position mapped back through the
** edits made since and the answer's places in the document forward. */
#include "cli/lsp_server.h"
#include "os/os.h"
#include "base/vec.h"

#include <stdlib.h>
#include <string.h>

/* The document's record, made on first use (documents keep their slot). */
static lsp_stale_doc *record_of(lsp_server *s, const lsp_doc *doc)
{
    size_t i = (size_t)(doc - s->docs.list.items);
    while (s->stale.count <= i) memset(VEC_PUSH(s->stale), 0, sizeof(lsp_stale_doc));
    return &s->stale.items[i];
}

void lsp_stale_forget(lsp_server *s, const lsp_doc *doc)
{
    lsp_stale_doc *r = record_of(s, doc);
    free(r->good);
    r->good = NULL;
    r->good_len = 0;
    r->edits.count = 0;
}

/* Where text[0, n) ends, as a position after it (from start_line:start_char). */
static void end_of_text(const char *text, size_t n, int start_line, int64_t start_char, int utf8, int *line,
                        int64_t *character)
{
    lsp_lines l = {0};
    lsp_lines_index(&l, text, n);
    int last = (int)l.starts.count - 1;
    size_t last_len = n - l.starts.items[last];
    int64_t units = lsp_from_column(&l, last, (int)last_len + 1, utf8);
    lsp_lines_free(&l);
    *line = start_line + last;
    *character = last ? units : start_char + units;
}

void lsp_stale_edit(lsp_server *s, const lsp_doc *doc, int start_line, int64_t start_char, int end_line,
                    int64_t end_char, const char *text, size_t n)
{
    lsp_stale_doc *r = record_of(s, doc);
    if (!r->good) return;
    lsp_stale_edit_rec *e = VEC_PUSH(r->edits);
    e->start_line = start_line;
    e->start_char = start_char;
    e->end_line = end_line;
    e->end_char = end_char;
    end_of_text(text, n, start_line, start_char, s->utf8, &e->new_line, &e->new_char);
}

void lsp_stale_compiled(lsp_server *s)
{
    /* the documents of the project just compiled (s->pj) */
    if (!s->pj->ctx) return;
    for (size_t i = 0; i < s->docs.list.count; i++)
        if (s->docs.list.items[i].open && s->docs.list.items[i].project == s->pj)
            record_of(s, &s->docs.list.items[i])->broken = 0;
    /* the documents with a syntax error (the parse's, not the checks'): one
    ** pass over the diagnostics, each such file's document found by its path */
    size_t n = atrc_diagnostic_count(s->pj->ctx);
    for (size_t i = 0; i < n; i++) {
        atrc_diagnostic d;
        if (atrc_get_diagnostic(s->pj->ctx, i, &d) != 0 || d.severity != ATRC_SEVERITY_ERROR || !d.code ||
            !d.where.path || d.where.entry ||
            (strcmp(d.code, "bad-syntax") != 0 && strcmp(d.code, "unexpected-end-of-file") != 0))
            continue;
        lsp_doc *doc = lsp_docs_find_path(&s->docs, d.where.path);
        if (!doc) {
            char *real = os_real_path(d.where.path);
            doc = real ? lsp_docs_find_path(&s->docs, real) : NULL;
            free(real);
        }
        if (doc && doc->project == s->pj) record_of(s, doc)->broken = 1;
    }
    for (size_t i = 0; i < s->docs.list.count; i++) {
        const lsp_doc *doc = &s->docs.list.items[i];
        if (!doc->open && i < s->stale.count && s->stale.items[i].good) lsp_stale_forget(s, doc); /* closed */
        if (!doc->open || !doc->path || doc->project != s->pj) continue;
        lsp_stale_doc *r = record_of(s, doc);
        if (r->broken || (r->good && r->edits.count == 0)) continue; /* (no edit since: the text kept is this) */
        /* it parses: this text is the one to answer from while it does not */
        free(r->good);
        r->good = xmalloc(doc->len + 1);
        memcpy(r->good, doc->text, doc->len + 1);
        r->good_len = doc->len;
        r->edits.count = 0;
    }
}

/* Position (line, character) of the text after edit e back in the text
** before it; -1 when it is in the text the edit inserted. */
static int map_back(const lsp_stale_edit_rec *e, int *line, int64_t *character)
{
    if (*line < e->start_line || (*line == e->start_line && *character < e->start_char)) return 0;
    if (*line < e->new_line || (*line == e->new_line && *character < e->new_char)) return -1;
    if (*line == e->new_line) *character = *character - e->new_char + e->end_char;
    *line = *line - e->new_line + e->end_line;
    return 0;
}

/* And forward: a position of the text before e in the text after it (one
** at the start of the range stays: a range ending there keeps its end); -1
** when the edit replaced it. */
static int map_forward(const lsp_stale_edit_rec *e, int *line, int64_t *character)
{
    if (*line < e->start_line || (*line == e->start_line && *character <= e->start_char)) return 0;
    if (*line < e->end_line || (*line == e->end_line && *character < e->end_char)) return -1;
    if (*line == e->end_line) *character = *character - e->end_char + e->new_char;
    *line = *line - e->end_line + e->new_line;
    return 0;
}

int lsp_stale_begin(lsp_server *s, const lsp_message *m, lsp_position *p)
{
    if (!p->doc || !p->doc->path || p->doc->archive_file || !p->doc->project || s->answering_stale) return 0;
    lsp_stale_doc *r = record_of(s, p->doc);
    if (!r->good || !r->broken || r->edits.count == 0) return 0;
    const json_value *pos = json_get(m->params, "position");
    int64_t line64, character;
    if (lsp_int(pos, "line", &line64) || lsp_int(pos, "character", &character)) return 0;
    int line = (int)line64;
    for (size_t i = r->edits.count; i-- > 0;)
        if (map_back(&r->edits.items[i], &line, &character) != 0) return 0; /* typed since: no older answer */
    lsp_lines old = {0};
    lsp_lines_index(&old, r->good, r->good_len);
    if (line < 0 || (size_t)line >= old.starts.count) {
        lsp_lines_free(&old);
        return 0;
    }
    /* the last good text in its project's compilation for this answer (nothing published) */
    atrc_session_set_buffer(p->doc->project->session, p->doc->path, r->good, r->good_len);
    s->answering_stale = 1;
    lsp_compile(s, p->doc->project);
    s->answering_stale = 0;
    if (!s->pj->ctx) {
        lsp_stale_end(p);
        lsp_lines_free(&old);
        return 0;
    }
    lsp_lines_free(&p->lines);
    p->lines = old;
    p->line = line + 1;
    p->column = lsp_to_column(&p->lines, line, character, s->utf8);
    return (int)r->edits.count;
}

void lsp_stale_end(const lsp_position *p)
{
    /* the current text again, compiled before anything else is answered
    ** (the older compilation read the buffer it replaces: not asked again) */
    atrc_session_set_buffer(p->doc->project->session, p->doc->path, p->doc->text, p->doc->len);
    p->doc->project->dirty = 1;
}

int lsp_stale_write_range(lsp_server *s, const lsp_position *p, const atrc_location *where)
{
    const lsp_stale_doc *r = record_of(s, p->doc);
    int line[2] = {where->line > 0 ? where->line - 1 : 0, where->end_line > 0 ? where->end_line - 1 : 0};
    int col[2] = {where->column > 0 ? where->column : 1, where->end_line > 0 ? where->end_column : 0};
    if (!where->end_line) {
        line[1] = line[0];
        col[1] = col[0];
    }
    int64_t ch[2];
    for (int k = 0; k < 2; k++) {
        ch[k] = lsp_from_column(&p->lines, line[k], col[k], s->utf8);
        for (size_t i = 0; i < r->edits.count; i++)
            if (map_forward(&r->edits.items[i], &line[k], &ch[k]) != 0) return -1;
    }
    outbuf_printf(&s->msg, "{\"start\":{\"line\":%d,\"character\":%lld},\"end\":{\"line\":%d,\"character\":%lld}}",
                  line[0], (long long)ch[0], line[1], (long long)ch[1]);
    return 0;
}

void lsp_stale_free(lsp_server *s)
{
    for (size_t i = 0; i < s->stale.count; i++) {
        free(s->stale.items[i].good);
        VEC_FREE(s->stale.items[i].edits);
    }
    VEC_FREE(s->stale);
}
