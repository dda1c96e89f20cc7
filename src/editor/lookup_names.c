/* Position queries about names across a compilation (atrc.h): the calls of
** a function in every script, a function's parameters and locals, signature
** help (script functions and the animation builtins), workspace symbols,
** folding ranges and the %names of a script with how they resolved.  All
** from the sites lookup.c lists by lexing each script once
** (lookup_internal.h), so they answer for files with syntax errors too. */
#include "editor/lookup_internal.h"
#include "base/outbuf.h"
#include "base/text.h"
#include "game/anim_builtins.h"
#include "output/diag_view.h"

#include <stdlib.h>
#include <string.h>

/* ---- locals ---- */

/* The local site at line:col of f (binary search: source order), or NULL. */
static const site *local_at(const file_index *f, int line, int col)
{
    size_t lo = 0, hi = f->locals.count; /* the first site not before line:col */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const site *l = &f->locals.items[mid];
        if (sites_before(l->line, l->end_col - 1, line, col)) lo = mid + 1;
        else hi = mid;
    }
    if (lo == f->locals.count) return NULL;
    const site *l = &f->locals.items[lo];
    return l->line == line && col >= l->col && col < l->end_col ? l : NULL;
}

/* The sites of l's function: a run of the array (functions do not nest). */
static void function_run(const file_index *f, const site *l, size_t *first, size_t *end)
{
    size_t i = (size_t)(l - f->locals.items), k = i + 1;
    while (i > 0 && f->locals.items[i - 1].func == l->func) i--;
    while (k < f->locals.count && f->locals.items[k].func == l->func) k++;
    *first = i;
    *end = k;
}

/* The first site of l's name in its function: its parameter, or the first
** assignment or use. */
static const site *local_first(const file_index *f, const site *l)
{
    size_t i, end;
    function_run(f, l, &i, &end);
    for (; i < end; i++)
        if (text_equal_nocase(f->locals.items[i].name, l->name)) return &f->locals.items[i];
    return l;
}

int lookup_local(const atrc_ctx *ctx, file_index *f, int line, int col, atrc_at *out)
{
    const site *l = local_at(f, line, col);
    if (!l) return 0;
    out->kind = ATRC_AT_LOCAL;
    lookup_set_where(ctx, f->src, l->line, l->col, l->end_col, &out->where);
    out->name = l->name;
    out->signature = f->sites.items[l->func].signature;
    out->local_param = local_first(f, l)->param;
    return 1;
}

int lookup_local_definition(const atrc_ctx *ctx, const atrc_at *at, atrc_location *out)
{
    file_index *f = sites_file_named(ctx, at->where.file);
    const site *l = f ? local_at(f, at->where.line, at->where.column) : NULL;
    if (!l) return 0;
    l = local_first(f, l);
    lookup_set_where(ctx, f->src, l->line, l->col, l->end_col, out);
    return 1;
}

static const char *listed_name_at(const void *listed, size_t i)
{
    return ((const site *const *)listed)[i]->name;
}

/* The enclosing function's parameters and locals, each name once (as first
** written), in the order they first appear. */
void lookup_complete_locals(const atrc_ctx *ctx, file_index *f, int line, int col)
{
    lookup_cache *c = sites_cache(ctx);
    const site *fn = lookup_function_at(f, line, col);
    if (!fn) return;
    size_t func = (size_t)(fn - f->sites.items);
    hashtab seen = {0};
    VEC(const site *) listed = {0};
    for (size_t i = 0; i < f->locals.count; i++) {
        const site *l = &f->locals.items[i];
        if (l->func != func || (l->line == line && col >= l->col && col <= l->end_col)) continue; /* not the word typed */
        uint32_t h = text_hash(0, l->name, 1);
        if (hashtab_find_string(&seen, h, l->name, 1, listed.items, listed_name_at) != HASHTAB_END) continue;
        hashtab_add(&seen, h);
        *VEC_PUSH(listed) = l;
        lookup_add_completion(c, ATRC_COMPLETE_LOCAL, l->name,
                              arena_printf(&c->mem, "%s of %s", l->param ? "parameter" : "local",
                                           fn->signature ? fn->signature : fn->name));
    }
    VEC_FREE(listed);
    hashtab_free(&seen);
}

/* ---- references ---- */

/* The i-th file of the compilation with its sites when it is a script, else NULL. */
static file_index *script_at(const atrc_ctx *ctx, lookup_cache *c, size_t i)
{
    file_index *f = sites_file_at(ctx, c, i);
    return sites_is_script(f->src) ? sites_with_sites(ctx, f) : NULL;
}

static void add_location(const atrc_ctx *ctx, source_file *src, const site *s, atrc_location *out, size_t max,
                         size_t *n)
{
    if (*n < max) lookup_set_where(ctx, src, s->line, s->col, s->end_col, &out[*n]);
    (*n)++;
}

size_t lookup_name_references(const atrc_ctx *ctx, const atrc_at *at, atrc_location *out, size_t max)
{
    lookup_cache *c = sites_cache(ctx);
    file_index *f = sites_file_named(ctx, at->where.file), *in = NULL;
    if (!f) return 0;
    size_t n = 0;
    if (at->kind == ATRC_AT_LOCAL) {
        const site *l = local_at(f, at->where.line, at->where.column);
        if (!l) return 0;
        size_t i, end;
        function_run(f, l, &i, &end);
        for (; i < end; i++)
            if (text_equal_nocase(f->locals.items[i].name, l->name)) add_location(ctx, f->src, &f->locals.items[i], out, max, &n);
        return n;
    }
    const site *def = lookup_function_site(ctx, f, at->name, at->path, &in);
    if (!def) return 0;
    /* Each script's calls of that name, resolved from their own file (a
    ** hashed definition table per file, the scripts by name: linear in the
    ** calls). */
    for (size_t i = 0; i < ctx->sources.count; i++) {
        file_index *s = script_at(ctx, c, i);
        for (size_t k = 0; s && k < s->sites.count; k++) {
            const site *call = &s->sites.items[k];
            if (call->kind != SITE_CALL || !text_equal_nocase(call->name, def->name)) continue;
            file_index *where = NULL;
            if (lookup_function_site(ctx, s, call->name, call->path, &where) == def)
                add_location(ctx, s->src, call, out, max, &n);
        }
    }
    return n;
}

/* ---- workspace symbols, folding ---- */

/* Does name hold query, ASCII case folded? */
static int holds_nocase(const char *name, const char *query)
{
    size_t n = strlen(name), q = strlen(query);
    for (size_t i = 0; i + q <= n; i++) {
        size_t k = 0;
        while (k < q && ((unsigned char)name[i + k] | (name[i + k] >= 'A' && name[i + k] <= 'Z' ? 0x20 : 0)) ==
                            ((unsigned char)query[k] | (query[k] >= 'A' && query[k] <= 'Z' ? 0x20 : 0)))
            k++;
        if (k == q) return 1;
    }
    return 0;
}

/* Every function of the compilation's scripts is listed once per
** compilation (the sites of unchanged scripts come from the session; files
** read later are added), and a query picks from that list. */
const atrc_symbol *atrc_workspace_symbols(atrc_ctx *ctx, const char *query, size_t *count)
{
    *count = 0;
    if (!ctx) return NULL;
    lookup_cache *c = sites_cache(ctx);
    for (; c->functions_listed < ctx->sources.count; c->functions_listed++) {
        file_index *f = script_at(ctx, c, c->functions_listed);
        for (size_t k = 0; f && k < f->sites.count; k++)
            if (f->sites.items[k].kind == SITE_FUNCTION) lookup_add_function_symbol(ctx, &c->functions, f, &f->sites.items[k]);
    }
    if (!query || !*query) {
        *count = c->functions.count;
        return c->functions.items;
    }
    c->symbols.count = 0;
    for (size_t i = 0; i < c->functions.count; i++)
        if (holds_nocase(c->functions.items[i].name, query)) *VEC_PUSH(c->symbols) = c->functions.items[i];
    *count = c->symbols.count;
    return c->symbols.items;
}

const atrc_fold *atrc_folds(atrc_ctx *ctx, const char *file, size_t *count)
{
    file_index *f = ctx ? sites_file_named(ctx, file) : NULL;
    *count = f ? f->folds.count : 0;
    return f ? f->folds.items : NULL;
}

/* ---- the %names of a script ---- */

static int by_place(const void *a, const void *b)
{
    const atrc_anim_site *x = a, *y = b;
    if (x->where.line != y->where.line) return x->where.line < y->where.line ? -1 : 1;
    return x->where.column < y->where.column ? -1 : x->where.column > y->where.column;
}

const atrc_anim_site *atrc_anim_sites(atrc_ctx *ctx, const char *file, size_t *count)
{
    *count = 0;
    file_index *f = ctx ? sites_file_named(ctx, file) : NULL;
    if (!f) return NULL;
    lookup_cache *c = sites_cache(ctx);
    c->anim_sites.count = 0;
    for (size_t i = 0; i < f->refs.count; i++) {
        const anim_ref *r = f->refs.items[i];
        if (r->kind != REF_ANIM) continue;
        atrc_anim_site *a = VEC_PUSH(c->anim_sites);
        location_of(ctx, f->src, r->line, r->col, &a->where);
        a->value = r->value;
        a->is_leaf = -1;
        const tree_entry *t = r->tree;
        int node = r->value >= 0 ? (int)(r->value & 0xffff) : -1;
        if (t && t->built && node > 0 && node < t->tree.node_count) a->is_leaf = t->tree.nodes[node].child_count == 0;
        else if (t && t->built && node == 0) a->is_leaf = 0;
    }
    /* compile order is source order but for a file's streamed pieces: sorted
    ** to be sure (a file without %names has no array: qsort takes none) */
    if (c->anim_sites.count > 1) qsort(c->anim_sites.items, c->anim_sites.count, sizeof *c->anim_sites.items, by_place);
    *count = c->anim_sites.count;
    return c->anim_sites.items;
}

/* ---- signature help ---- */

/* The innermost argument list holding line:col (after its '(', up to and
** including its ')' or its statement's end), or NULL. */
static const arglist *arglist_at(const file_index *f, int line, int col)
{
    const arglist *best = NULL;
    for (size_t i = 0; i < f->arglists.count; i++) {
        const arglist *a = &f->arglists.items[i];
        if (!sites_before(a->open_line, a->open_col, line, col)) break; /* in the order of their '(' */
        if (a->close_line && sites_before(a->close_line, a->close_col, line, col)) continue;
        best = a;
    }
    return best;
}

static const char *kind_words(const anim_builtin *b, const anim_arg *a)
{
    switch (a->kind) {
    case ANIM_KIND_ANIM:
        return b->tree == ANIM_TREE_RECEIVER ? "an anim (%name) of the receiver's tree"
               : b->tree == ANIM_TREE_AI     ? "an anim (%name) of generic_human"
                                             : "an anim (%name)";
    case ANIM_KIND_FLOAT: return "a number";
    case ANIM_KIND_VECTOR: return "a vector";
    case ANIM_KIND_STRING: return "a string";
    case ANIM_KIND_TREE: return "#animtree";
    default: return NULL;
    }
}

/* The parameters of a definition's signature "f(a, b)", into c->params. */
static void signature_params(lookup_cache *c, const char *signature)
{
    const char *p = strchr(signature, '(');
    while (p && *p && *p != ')') {
        p++;
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
        const char *start = p;
        while (*p && *p != ',' && *p != ')') p++;
        const char *end = p;
        while (end > start && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n' || end[-1] == '\r')) end--;
        if (end > start) *VEC_PUSH(c->params) = arena_strndup(&c->mem, start, (size_t)(end - start));
    }
}

int atrc_signature_help(atrc_ctx *ctx, const char *file, int line, int column, atrc_signature *out)
{
    memset(out, 0, sizeof *out);
    file_index *f = ctx ? sites_file_named(ctx, file) : NULL;
    if (!f || !sites_is_script(f->src)) return 0;
    lookup_cache *c = sites_cache(ctx);
    const arglist *a = arglist_at(f, line, column);
    if (!a) return 0;
    const site *call = &f->sites.items[a->call];
    for (size_t i = 0; i < f->commas.count; i++) {
        const comma *k = &f->commas.items[i];
        if (k->list == (size_t)(a - f->arglists.items) && sites_before(k->line, k->col, line, column)) out->active++;
    }
    c->params.count = 0;
    file_index *in = NULL;
    const site *def = lookup_function_site(ctx, f, call->name, call->path, &in);
    size_t n;
    if (def && def->signature) {
        signature_params(c, def->signature);
        n = c->params.count;
        for (size_t i = 0; i < n; i++) *VEC_PUSH(c->params) = NULL;
        out->label = def->signature;
        out->doc = arena_printf(&c->mem, "%s:%d", in->src->path, def->line);
    } else if (!call->path) {
        const anim_builtin *b = anim_builtin_find(call->name, 1);
        if (!b) b = anim_builtin_find(call->name, 0);
        unsigned game = ANIM_GAME(ctx->opts.profile);
        if (!b || !((b->sp_games | b->mp_games) & game)) return 0;
        n = b->nargs;
        outbuf label = {0};
        outbuf_printf(&label, "%s(", call->name);
        for (size_t i = 0; i < n; i++) {
            *VEC_PUSH(c->params) = b->args[i].name;
            outbuf_printf(&label, "%s%s", i ? ", " : "", b->args[i].name);
        }
        outbuf_char(&label, ')');
        for (size_t i = 0; i < n; i++) *VEC_PUSH(c->params) = kind_words(b, &b->args[i]);
        out->label = arena_strdup(&c->mem, label.s);
        outbuf_free(&label);
        int lo = b->count_max != ANIM_NO_COUNT_CHECK ? b->count_min : b->required;
        int hi = b->count_max != ANIM_NO_COUNT_CHECK ? b->count_max : b->nargs;
        out->doc = lo == hi ? arena_printf(&c->mem, "builtin %s: %d argument%s", b->method ? "method" : "function", lo,
                                           lo == 1 ? "" : "s")
                            : arena_printf(&c->mem, "builtin %s: %d to %d arguments", b->method ? "method" : "function",
                                           lo, hi);
    } else {
        return 0;
    }
    out->param_count = n;
    out->params = c->params.items;
    out->param_docs = c->params.items + n;
    return 1;
}
