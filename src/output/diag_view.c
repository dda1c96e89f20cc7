/* The structured form of diagnostics: see diag_view.h. */
#include "output/diag_view.h"
#include "tree/atr.h"
#include "compile/context.h"
#include "compile/registry.h"
#include "output/diag_code.h"
#include "output/sites.h"
#include "base/text.h"
#include "base/vec.h"
#include "compile/walk.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* What a source file is called in a location: its path split into the
** file-system path and the archive entry. */
typedef struct src_name {
    const source_file *src;
    const char *path, *entry;
} src_name;

struct diag_view {
    diag_code_index codes;
    VEC(atrc_diagnostic) diags; /* ctx->diags' first diags.count, described */
    VEC(src_name) names;
    hashtab name_index;        /* names by source pointer */
    hashtab script_index;      /* walk scripts by source pointer (level and walk mode) */
    size_t scripts_indexed;
    size_t related_upto;       /* diags.items[0, related_upto) have their related places */
    arena mem;                 /* related places, strings */
};

void diag_view_free(diag_view *v)
{
    if (!v) return;
    diag_code_index_free(&v->codes);
    VEC_FREE(v->diags);
    VEC_FREE(v->names);
    hashtab_free(&v->name_index);
    hashtab_free(&v->script_index);
    arena_free_all(&v->mem);
    free(v);
}

static int is_name_byte(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

size_t token_end(const char *text, size_t len, size_t off)
{
    const unsigned char *p = (const unsigned char *)text;
    if (off >= len || p[off] == '\n' || p[off] == '\r') return off;
    size_t i = off;
    unsigned char c = p[i];
    if (c == '"' || (c == '&' && i + 1 < len && p[i + 1] == '"')) {
        i += c == '&' ? 2 : 1;
        while (i < len && p[i] != '"' && p[i] != '\n') i += p[i] == '\\' && i + 1 < len && p[i + 1] != '\n' ? 2 : 1;
        return i < len && p[i] == '"' ? i + 1 : i;
    }
    if ((c == '/' && i + 1 < len && p[i + 1] == '#') || (c == '#' && i + 1 < len && p[i + 1] == '/')) return i + 2;
    if (c == '%' || c == '#') {
        if (i + 1 < len && is_name_byte(p[i + 1])) i++;
        else return i + 1;
    }
    if (is_name_byte(p[i])) {
        /* a name, or a path (maps\mp\_utility) */
        while (i < len && (is_name_byte(p[i]) || (p[i] == '\\' && i + 1 < len && is_name_byte(p[i + 1])))) i++;
        return i;
    }
    size_t n = c >= 0x80 ? utf8_sequence_length(p + i, len - i) : 1;
    return i + (n ? n : 1);
}

static diag_view *view_of(const atrc_ctx *cctx)
{
    atrc_ctx *ctx = (atrc_ctx *)cctx; /* the view is a cache of a logically const context */
    if (!ctx->view) {
        ctx->view = xcalloc(1, sizeof *ctx->view);
        diag_code_index_init(&ctx->view->codes);
        arena_init(&ctx->view->mem);
    }
    return ctx->view;
}

/* Element i of the views' arrays by source file (src: the one sought). */
static int name_matches(const void *names, size_t i, const void *src)
{
    return ((const src_name *)names)[i].src == src;
}

static int script_matches(const void *scripts, size_t i, const void *src)
{
    return ((walk_script *const *)scripts)[i]->src == src;
}

static const src_name *name_of(const atrc_ctx *ctx, diag_view *v, const source_file *src)
{
    uint32_t h = hashtab_pointer_hash(src);
    size_t at = hashtab_find(&v->name_index, h, v->names.items, src, name_matches);
    if (at != HASHTAB_END) return &v->names.items[at];
    src_name *n = VEC_PUSH(v->names);
    hashtab_add(&v->name_index, h);
    n->src = src;
    n->path = src->path;
    n->entry = NULL;
    const char *archive = gamefs_archive_of(&ctx->fs, src->path);
    if (archive) {
        size_t an = strlen(archive);
        n->path = archive;
        n->entry = src->path + an + 1;
    }
    return n;
}

/* The end of the token at line:col, when src's text is at hand. */
static void find_end(source_file *src, int line, int col, int *end_line, int *end_col)
{
    *end_line = line;
    *end_col = col + 1;
    const char *text;
    long n = src && !src->released ? source_line(src, line, &text) : -1;
    if (n < 0 || col < 1) return;
    if (col - 1 > n) {
        *end_col = col;
        return;
    }
    size_t e = token_end(text, (size_t)n, (size_t)col - 1);
    *end_col = (int)e + 1;
}

void location_of(const atrc_ctx *ctx, source_file *src, int line, int col, atrc_location *out)
{
    memset(out, 0, sizeof *out);
    if (!src) return;
    const src_name *n = name_of(ctx, view_of(ctx), src);
    out->file = src->path;
    out->path = n->path;
    out->entry = n->entry;
    out->line = line;
    out->column = col;
    find_end(src, line, col, &out->end_line, &out->end_column);
}

/* ---- related places ---- */

typedef struct related_list {
    atrc_related items[2];
    size_t count;
} related_list;

static void add_related(const atrc_ctx *ctx, related_list *r, source_file *src, int line, int col, const char *msg)
{
    if (!src || r->count == 2) return;
    atrc_related *x = &r->items[r->count++];
    location_of(ctx, src, line, col, &x->where);
    x->message = msg;
}

/* The walk script read from src (level and walk mode), or NULL. */
static const walk_script *script_of(const atrc_ctx *ctx, diag_view *v, const source_file *src)
{
    const walk_state *w = ctx->walk;
    if (!w) return NULL;
    for (; v->scripts_indexed < w->scripts.count; v->scripts_indexed++) {
        const walk_script *s = w->scripts.items[v->scripts_indexed];
        hashtab_add(&v->script_index, hashtab_pointer_hash(s->src));
    }
    size_t i = hashtab_find(&v->script_index, hashtab_pointer_hash(src), w->scripts.items, src, script_matches);
    return i == HASHTAB_END ? NULL : w->scripts.items[i];
}

/* The first quoted name of a message ("duplicate animation 'x' in ..."), lower case. */
static const char *quoted_name(diag_view *v, const char *msg)
{
    const char *a = strchr(msg, '\'');
    const char *b = a ? strchr(a + 1, '\'') : NULL;
    return b ? arena_lower(&v->mem, a + 1, (size_t)(b - a - 1)) : NULL;
}

static void find_related(const atrc_ctx *ctx, diag_view *v, const diag *g, const char *code, related_list *r)
{
    if (!g->src) return;
    if (strcmp(code, "duplicate-animation") == 0) {
        const char *name = quoted_name(v, g->message);
        for (int i = 1; name && i <= ctx->tree_count; i++) {
            const tree_entry *t = ctx->trees[i];
            if (!t || t->atr_src != g->src || !t->built) continue;
            const ref_name *rn = registry_find_name(t, name);
            if (rn && rn->bound_node > 0) {
                int line, col;
                atr_node_position(&t->tree, rn->bound_node, &line, &col);
                add_related(ctx, r, g->src, line, col, "also defined here");
            }
        }
    } else if (strcmp(code, "undefined-animation") == 0 || strcmp(code, "unknown-anim-tree") == 0) {
        int line, col;
        if (sites_using_before(ctx, g->src, g->line, g->col, &line, &col))
            add_related(ctx, r, g->src, line, col, "the #using_animtree in effect");
    } else if (strcmp(code, "duplicate-function") == 0) {
        int line, col;
        if (sites_first_definition(ctx, g->src, g->line, g->col, &line, &col))
            add_related(ctx, r, g->src, line, col, "first defined here");
    }
    const walk_script *s = script_of(ctx, v, g->src);
    if (s && s->from && s->from->src) add_related(ctx, r, s->from->src, s->ref_line, s->ref_col, "loaded from here");
}

/* ---- the view ---- */

static void describe(const atrc_ctx *ctx, diag_view *v, size_t i)
{
    const diag *g = &ctx->diags.items[i];
    atrc_diagnostic *d = &v->diags.items[i];
    memset(d, 0, sizeof *d);
    d->severity = (atrc_severity)g->severity;
    d->promoted = g->promoted;
    d->message = g->message;
    d->code = diag_code_find(&v->codes, g->message);
    location_of(ctx, g->src, g->line, g->col, &d->where);
}

/* The related places of diagnostic i (only atrc_get_diagnostic shows them). */
static void relate(const atrc_ctx *ctx, diag_view *v, size_t i)
{
    const diag *g = &ctx->diags.items[i];
    atrc_diagnostic *d = &v->diags.items[i];
    related_list r;
    memset(&r, 0, sizeof r);
    if (d->code) find_related(ctx, v, g, d->code, &r);
    if (r.count) {
        atrc_related *a = arena_alloc(&v->mem, array_size(r.count, sizeof *a));
        memcpy(a, r.items, array_size(r.count, sizeof *a));
        d->related = a;
        d->related_count = r.count;
    }
}

static void relate_one(void *ud, size_t index, int has_text)
{
    const atrc_ctx *ctx = ud;
    (void)has_text;
    relate(ctx, ctx->view, index);
}

static void describe_one(void *ud, size_t index, int has_text)
{
    const atrc_ctx *ctx = ud;
    (void)has_text; /* without its text a diagnostic's end is one byte on */
    describe(ctx, ctx->view, index);
}

const atrc_diagnostic *diag_view_items(const atrc_ctx *ctx, size_t *count)
{
    diag_view *v = view_of(ctx);
    size_t from = v->diags.count, n = ctx->diags.count;
    if (n > from) {
        VEC_RESERVE(v->diags, n);
        /* Files whose text was dropped after parsing are read again, each
        ** once, for the ends of all their diagnostics (as diag_print does). */
        diag_visit_texts(&ctx->diags, from, n, 0, describe_one, (void *)ctx);
        v->diags.count = n;
    }
    *count = v->diags.count;
    return v->diags.items;
}

/* ---- public ---- */

size_t atrc_diagnostic_count(const atrc_ctx *ctx)
{
    return ctx ? ctx->diags.count : 0;
}

int atrc_get_diagnostic(const atrc_ctx *ctx, size_t i, atrc_diagnostic *out)
{
    if (!ctx || i >= ctx->diags.count) return -1;
    size_t n;
    const atrc_diagnostic *items = diag_view_items(ctx, &n);
    diag_view *v = ctx->view;
    if (v->related_upto < n) {
        /* all at once, each released file read again once (their ends need the text) */
        diag_visit_texts(&ctx->diags, v->related_upto, n, 0, relate_one, (void *)ctx);
        v->related_upto = n;
    }
    *out = items[i];
    return 0;
}
