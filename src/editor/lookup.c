/* Position queries (atrc.h "position queries"): what is
** at a position, definitions, references, completion and document symbols,
** over the site index (output/sites.h) and the compilation's trees and
** references, so values are the compilation's. */
#include "editor/lookup_internal.h"
#include "output/explain.h"
#include "game/builtins.h"
#include "compile/registry.h"
#include "output/diag_view.h"
#include "os/os.h"
#include "game/profile.h"
#include "base/text.h"
#include "base/vec.h"
#include "compile/walk.h"
#include "script/script_refs.h"
#include "compile/notetracks.h"
#include "base/outbuf.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- atrc_lookup ---- */

void lookup_set_where(const atrc_ctx *ctx, source_file *src, int line, int col, int end_col, atrc_location *w)
{
    location_of(ctx, src, line, col, w);
    if (end_col > col) w->end_column = end_col;
}

static const tree_entry *tree_named(const atrc_ctx *ctx, const char *name)
{
    for (int i = 1; name && i <= ctx->tree_count; i++)
        if (ctx->trees[i] && strcmp(ctx->trees[i]->name, name) == 0) return ctx->trees[i];
    return NULL;
}

static void tree_facts(const tree_entry *t, atrc_at *out)
{
    out->tree = t->index;
    out->tree_name = t->name;
    out->tree_file = t->file;
    if (t->built) {
        out->node_count = t->tree.node_count;
        out->node_total = t->tree.node_count + (int)t->pruned_count;
        out->checksum = t->tree.checksum;
    }
}

/* "root/body/idle" as written in the .atr. */
static const char *node_path(lookup_cache *c, const atrc_tree *t, int node)
{
    size_t len = 0;
    int depth = 0;
    for (int n = node; n >= 0; n = t->nodes[n].parent, depth++) len += strlen(atr_node_spelling(t, n)) + 1;
    char *s = arena_alloc(&c->mem, len);
    size_t at = len - 1;
    s[at] = 0;
    for (int n = node; n >= 0; n = t->nodes[n].parent) {
        const char *w = atr_node_spelling(t, n);
        size_t k = strlen(w);
        at -= k;
        memcpy(s + at, w, k);
        if (at) s[--at] = '/';
    }
    (void)depth;
    return s;
}

/* Why the node has its index: --explain's "why:" and "pruning:" lines
** (output/explain.h), joined. */
static const char *index_reason(const atrc_ctx *ctx, lookup_cache *c, const tree_entry *t, int node)
{
    explain_reason r;
    explain_reason_of(ctx, t, node, &r);
    const char *s = r.pruning.len ? arena_printf(&c->mem, "why: %s\npruning: %s", r.block.s, r.pruning.s)
                                  : arena_printf(&c->mem, "why: %s", r.block.s);
    explain_reason_free(&r);
    return s;
}

static void node_facts(const atrc_ctx *ctx, lookup_cache *c, const tree_entry *t, int node, atrc_at *out)
{
    tree_facts(t, out);
    out->node = node;
    if (!t->built || node < 0 || node >= t->tree.node_count) return;
    const atrc_node *n = &t->tree.nodes[node];
    out->is_leaf = n->child_count == 0 && node != 0;
    out->looping = atrc_is_looped(&t->tree, node);
    out->has_time = atrc_has_time(&t->tree, node);
    out->parse_flags = n->parse_flags;
    /* a leaf is in the sync group of its parent */
    int holder = n->child_count == 0 && n->parent >= 0 ? n->parent : node;
    out->sync_flags = atr_runtime_flags(&t->tree, holder) & (ATRC_FLAG_LOOPSYNC | ATRC_FLAG_NONLOOPSYNC);
    out->node_path = node_path(c, &t->tree, node);
    out->value = registry_pack(t->index, node);
    out->reason = index_reason(ctx, c, t, node);
}

static void clear_at(atrc_at *out)
{
    memset(out, 0, sizeof *out);
    out->tree = out->node = -1;
    out->value = -1;
    out->is_leaf = out->looping = out->has_time = -1;
    out->node_count = out->node_total = -1;
    out->length = -1;
}

static int in_token(int line, int col, int tline, int tcol, int tend)
{
    return line == tline && col >= tcol && col < tend;
}

/* Which builtin list has name (kind), for the game of ctx. */
static const char *builtin_list_of(const atrc_ctx *ctx, lookup_cache *c, const char *name, int method)
{
    const profile_rules *rules = ctx->rules;
    builtin_kind kind = method ? BUILTIN_METHOD : BUILTIN_FUNCTION;
    const char *game = rules->name;
    if (ctx->opts.game_mode != ATRC_GAME_SP && builtin_find(rules->builtins_mp, kind, name))
        return arena_printf(&c->mem, "stock %s multiplayer", game);
    if (ctx->opts.game_mode != ATRC_GAME_MP && builtin_find(rules->builtins_sp, kind, name))
        return arena_printf(&c->mem, "stock %s single player", game);
    for (size_t i = 0; i < ctx->builtins.count; i++) {
        const builtin_extension *e = ctx->builtins.items[i];
        if (e->add && builtin_find(e->add, kind, name))
            return e->game ? arena_printf(&c->mem, "extension %s", e->name) : arena_printf(&c->mem, "builtins %s", e->name);
    }
    return NULL;
}

/* The function a call names, from the file it is in: path's, else its own,
** then its includes' in #include order. */
const site *lookup_function_site(const atrc_ctx *ctx, file_index *f, const char *name, const char *path,
                                 file_index **in)
{
    if (path) {
        file_index *p = sites_script_named(ctx, path);
        const site *s = p ? sites_defined_in(sites_cache(ctx), p, name) : NULL;
        if (s) *in = p;
        return s;
    }
    const site *s = sites_defined_in(sites_cache(ctx), f, name);
    if (s) {
        *in = f;
        return s;
    }
    for (size_t i = 0; i < f->sites.count; i++)
        if (f->sites.items[i].kind == SITE_PATH && f->sites.items[i].include) {
            file_index *inc = sites_script_named(ctx, f->sites.items[i].name);
            if (inc && inc != f && (s = sites_defined_in(sites_cache(ctx), inc, name)) != NULL) {
                *in = inc;
                return s;
            }
        }
    return NULL;
}

static int lookup_script(const atrc_ctx *ctx, lookup_cache *c, file_index *f, int line, int col, atrc_at *out)
{
    for (size_t i = 0; i < f->refs.count; i++) {
        const anim_ref *r = f->refs.items[i];
        if (r->line != line) continue;
        atrc_location w;
        location_of(ctx, f->src, r->line, r->col, &w);
        if (!(line == w.line && col >= w.column && col < w.end_column)) continue;
        out->where = w;
        out->value = r->value;
        if (r->kind == REF_ANIMTREE) {
            out->kind = ATRC_AT_ANIMTREE;
            out->name = "#animtree";
            if (r->tree) tree_facts(r->tree, out);
            return 1;
        }
        out->kind = ATRC_AT_ANIM;
        out->name = r->spelling ? r->spelling : r->name;
        if (r->tree) {
            tree_facts(r->tree, out);
            if (r->value >= 0) node_facts(ctx, c, r->tree, (int)(r->value & 0xffff), out);
        }
        return 1;
    }
    for (size_t i = 0; i < f->sites.count; i++) {
        const site *s = &f->sites.items[i];
        if (!in_token(line, col, s->line, s->col, s->end_col)) continue;
        lookup_set_where(ctx, f->src, s->line, s->col, s->end_col, &out->where);
        out->name = s->name;
        switch (s->kind) {
        case SITE_FUNCTION:
            out->kind = ATRC_AT_FUNCTION;
            out->signature = s->signature;
            return 1;
        case SITE_CALL: {
            out->kind = ATRC_AT_CALL;
            out->path = s->path;
            file_index *in = NULL;
            const site *def = lookup_function_site(ctx, f, s->name, s->path, &in);
            if (def) out->signature = def->signature;
            else if (!s->path) {
                char *lower = arena_lower(&c->mem, s->name, strlen(s->name));
                out->builtin_list = builtin_list_of(ctx, c, lower, 0);
                if (!out->builtin_list) out->builtin_list = builtin_list_of(ctx, c, lower, 1);
            }
            return 1;
        }
        case SITE_PATH:
            out->kind = ATRC_AT_INCLUDE;
            out->path = s->name;
            return 1;
        case SITE_USING: {
            out->kind = ATRC_AT_USING_ANIMTREE;
            const tree_entry *t = tree_named(ctx, s->name);
            if (t) {
                tree_facts(t, out);
                out->value = t->index;
            }
            return 1;
        }
        case SITE_ANIMTREE:
        case SITE_LOCAL:
            break;
        }
    }
    return lookup_local(ctx, f, line, col, out);
}

const site *lookup_function_at(const file_index *f, int line, int col)
{
    const site *found = NULL;
    for (size_t i = 0; i < f->sites.count; i++) {
        const site *s = &f->sites.items[i];
        if (s->kind != SITE_FUNCTION) continue;
        if (!sites_before(s->line, s->col, line, col)) break;
        /* a body left open (being typed) runs to the next definition */
        found = !s->body_end_line || sites_before(line, col, s->body_end_line, s->body_end_col) ? s : NULL;
    }
    return found;
}

static const tree_entry *tree_of_atr(const atrc_ctx *ctx, const source_file *src)
{
    for (int i = 1; i <= ctx->tree_count; i++)
        if (ctx->trees[i] && ctx->trees[i]->atr_src == src) return ctx->trees[i];
    return NULL;
}

static int by_order(const void *a, const void *b)
{
    const atr_node *x = *(atr_node *const *)a, *y = *(atr_node *const *)b;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* Every node the .atr declares, in declaration order, pruned or not (the
** file parsed again with nothing pruned, once); each node's `index` holds
** its depth (0: top level).  NULL count when it does not parse. */
static void full_atr(const atrc_ctx *ctx, lookup_cache *c, file_index *f)
{
    if (f->decl_parsed) return;
    f->decl_parsed = 1;
    int reloaded = f->src->released && source_reload(f->src) == 0;
    diag_list quiet;
    diag_init(&quiet);
    quiet.no_warnings = 1;
    atr_file *all = f->src->data ? atr_parse(f->src, NULL, ATR_DECLARED_ALL, ctx->rules, &c->mem, &quiet) : NULL;
    diag_free(&quiet);
    if (reloaded) source_release(f->src);
    if (!all) return;
    VEC(atr_node *) stack = {0};
    *VEC_PUSH(stack) = all->root;
    while (stack.count) {
        atr_node *n = stack.items[--stack.count];
        for (atr_node *k = n->first; k; k = k->next) *VEC_PUSH(stack) = k;
        if (n != all->root && !n->placeholder) *VEC_PUSH(f->decl) = n;
    }
    VEC_FREE(stack);
    qsort(f->decl.items, f->decl.count, sizeof *f->decl.items, by_order);
    /* a parent is declared before its children */
    for (size_t i = 0; i < f->decl.count; i++) {
        atr_node *n = f->decl.items[i];
        n->index = n->parent && n->parent->parent ? n->parent->index + 1 : 0;
    }
}

/* "root/group/name" of a declared node. */
static const char *declared_path(lookup_cache *c, const atr_node *n)
{
    size_t len = 0;
    for (const atr_node *p = n; p; p = p->parent) len += strlen(p->spelling) + 1;
    char *s = arena_alloc(&c->mem, len);
    size_t at = len - 1;
    s[at] = 0;
    for (const atr_node *p = n; p; p = p->parent) {
        size_t k = strlen(p->spelling);
        at -= k;
        memcpy(s + at, p->spelling, k);
        if (at) s[--at] = '/';
    }
    return s;
}

static int lookup_atr(const atrc_ctx *ctx, lookup_cache *c, file_index *f, int line, int col, atrc_at *out)
{
    const tree_entry *t = tree_of_atr(ctx, f->src);
    if (!t || !t->built) return 0;
    for (int i = 1; i < t->tree.node_count; i++) {
        const atrc_node *n = &t->tree.nodes[i];
        if (n->placeholder || n->line != line) continue;
        int end = n->column + (int)strlen(atr_node_spelling(&t->tree, i));
        if (!in_token(line, col, n->line, n->column, end)) continue;
        out->kind = ATRC_AT_NODE;
        lookup_set_where(ctx, f->src, n->line, n->column, end, &out->where);
        out->name = atr_node_spelling(&t->tree, i);
        node_facts(ctx, c, t, i, out);
        return 1;
    }
    /* a node pruning removed: no index, no value, no references */
    full_atr(ctx, c, f);
    for (size_t i = 0; i < f->decl.count; i++) {
        const atr_node *n = f->decl.items[i];
        int end = n->col + (int)strlen(n->spelling);
        if (!in_token(line, col, n->line, n->col, end)) continue;
        out->kind = ATRC_AT_NODE;
        lookup_set_where(ctx, f->src, n->line, n->col, end, &out->where);
        out->name = n->spelling;
        tree_facts(t, out);
        out->node = -1;
        out->is_leaf = !n->is_container;
        out->parse_flags = n->flags;
        out->node_path = declared_path(c, n);
        out->reason = "pruned: no script or engine reference names it or a node below it, so the tree holds no index for it";
        return 1;
    }
    return 0;
}

/* A leaf's length and notetracks: its xanim is read whole the first time a
** hover asks (notetracks.c keeps it), which the lookup's const passes cannot. */
static void leaf_asset_facts(atrc_ctx *ctx, atrc_at *out)
{
    if ((out->kind != ATRC_AT_ANIM && out->kind != ATRC_AT_NODE) || out->is_leaf != 1 || out->tree <= 0 ||
        out->tree > ctx->tree_count || out->node < 0)
        return;
    tree_entry *t = ctx->trees[out->tree];
    if (!t || !t->built || out->node >= t->tree.node_count) return;
    double seconds;
    if (atrc_anim_length(&t->tree, out->node, &seconds) == 0 && !ctx->opts.no_xanim) out->length = seconds;
    const xanim_notes *notes = ctx_leaf_notes(ctx, &t->tree, out->node, NULL);
    if (!notes) return;
    outbuf b = {0};
    for (size_t i = 0; i < notes->count; i++)
        outbuf_printf(&b, "%s`%s` (frame %u)", i ? ", " : "", notes->items[i].name, notes->items[i].frame);
    out->notetracks = arena_strdup(&ctx->mem, b.s ? b.s : "");
    outbuf_free(&b);
}

int atrc_lookup(atrc_ctx *ctx, const char *file, int line, int column, atrc_at *out)
{
    clear_at(out);
    if (!ctx) return 0;
    file_index *f = sites_file_named(ctx, file);
    if (!f) return 0;
    lookup_cache *c = sites_cache(ctx);
    /* a script of a file list has its text dropped once parsed: read again
    ** for the query, a token's extent (location_of) is its whole name, not
    ** only its first byte */
    int reloaded = f->src->released && source_reload(f->src) == 0;
    int found = sites_is_script(f->src) ? lookup_script(ctx, c, f, line, column, out)
                                  : lookup_atr(ctx, c, f, line, column, out);
    if (reloaded) source_release(f->src);
    if (!found) clear_at(out);
    else leaf_asset_facts(ctx, out);
    return found;
}

/* ---- definition and references ---- */

static int node_location(const atrc_ctx *ctx, const tree_entry *t, int node, atrc_location *out)
{
    if (!t || !t->built || !t->atr_src || node < 0 || node >= t->tree.node_count) return 0;
    int line, col;
    atr_node_position(&t->tree, node, &line, &col);
    location_of(ctx, t->atr_src, line, col, out);
    return 1;
}

int atrc_definition(atrc_ctx *ctx, const atrc_at *at, atrc_location *out)
{
    memset(out, 0, sizeof *out);
    if (!ctx || !at) return 0;
    switch (at->kind) {
    case ATRC_AT_ANIM:
    case ATRC_AT_NODE:
        return node_location(ctx, at->tree > 0 ? ctx->trees[at->tree] : NULL, at->node, out);
    case ATRC_AT_ANIMTREE:
    case ATRC_AT_USING_ANIMTREE: {
        const tree_entry *t = at->tree > 0 ? ctx->trees[at->tree] : NULL;
        if (!t || !t->atr_src) return 0;
        location_of(ctx, t->atr_src, 1, 1, out);
        return 1;
    }
    case ATRC_AT_INCLUDE: {
        file_index *f = at->path ? sites_script_named(ctx, at->path) : NULL;
        if (!f) return 0;
        location_of(ctx, f->src, 1, 1, out);
        return 1;
    }
    case ATRC_AT_CALL:
    case ATRC_AT_FUNCTION: {
        file_index *f = sites_file_named(ctx, at->where.file), *in = NULL;
        const site *def = f ? lookup_function_site(ctx, f, at->name, at->path, &in) : NULL;
        if (!def) return 0;
        lookup_set_where(ctx, in->src, def->line, def->col, def->end_col, out);
        return 1;
    }
    case ATRC_AT_LOCAL:
        return lookup_local_definition(ctx, at, out);
    case ATRC_AT_NONE:
        break;
    }
    return 0;
}

size_t atrc_references(const atrc_ctx *ctx, const atrc_at *at, atrc_location *out, size_t max)
{
    if (ctx && at && (at->kind == ATRC_AT_CALL || at->kind == ATRC_AT_FUNCTION || at->kind == ATRC_AT_LOCAL))
        return lookup_name_references(ctx, at, out, max);
    if (!ctx || !at || (at->kind != ATRC_AT_ANIM && at->kind != ATRC_AT_NODE) || at->tree <= 0 || at->node < 0)
        return 0;
    const tree_entry *t = ctx->trees[at->tree];
    int64_t value = registry_pack(at->tree, at->node);
    size_t n = 0;
    for (const anim_ref *r = ctx->refs; r; r = r->next) {
        if (r->tree != t || r->kind != REF_ANIM || r->value != value || !r->src) continue;
        if (n < max) location_of(ctx, r->src, r->line, r->col, &out[n]);
        n++;
    }
    return n;
}

/* ---- completion ---- */

static void add_completion(completion_vec *to, atrc_completion_kind kind, const char *label, const char *detail)
{
    atrc_completion *x = VEC_PUSH(*to);
    x->kind = kind;
    x->label = label;
    x->detail = detail;
}

void lookup_add_completion(lookup_cache *c, atrc_completion_kind kind, const char *label, const char *detail)
{
    add_completion(&c->completions, kind, label, detail);
}

static uint32_t position_hash(int line, int col)
{
    int at[2] = {line, col};
    return text_hash_bytes((const char *)at, sizeof at);
}

/* Node i of the tree (nodes) stands where declaration d is. */
static int kept_at(const void *nodes, size_t i, const void *d)
{
    const atrc_node *n = &((const atrc_node *)nodes)[i];
    return n->line == ((const atr_node *)d)->line && n->column == ((const atr_node *)d)->col;
}

/* After '%': every name the tree's .atr declares.  The nodes the
** compilation kept first, in index order with their values; then the ones
** pruning removed, in declaration order (a reference to one keeps it, which
** moves the nodes laid out after it).  A declared node is kept when a kept
** node stands at its place in the file. */
static void list_nodes(const atrc_ctx *ctx, lookup_cache *c, const tree_entry *t, completion_vec *to)
{
    hashtab kept = {0};
    for (int i = 0; i < t->tree.node_count; i++) {
        const atrc_node *n = &t->tree.nodes[i];
        hashtab_add(&kept, position_hash(n->line, n->column));
        if (i == 0 || n->placeholder) continue;
        add_completion(to, n->child_count ? ATRC_COMPLETE_GROUP : ATRC_COMPLETE_LEAF, atr_node_spelling(&t->tree, i),
                       arena_printf(&c->mem, "%s[%d] node %d = 0x%08x", t->name, t->index, i,
                                    (unsigned)registry_pack(t->index, i)));
    }
    file_index *atr = t->atr_src ? sites_file_of_src(ctx, t->atr_src) : NULL;
    if (atr) full_atr(ctx, c, atr);
    for (size_t k = 0; atr && k < atr->decl.count; k++) {
        const atr_node *d = atr->decl.items[k];
        if (hashtab_find(&kept, position_hash(d->line, d->col), t->tree.nodes, d, kept_at) != HASHTAB_END)
            continue;
        add_completion(to, d->is_container ? ATRC_COMPLETE_GROUP : ATRC_COMPLETE_LEAF, d->spelling,
                       "not referenced yet: adding it keeps it");
    }
    hashtab_free(&kept);
}

/* The names of t, listed once per tree and compilation (thousands in a
** stock tree, each detail formatted): a request copies them. */
static void complete_nodes(const atrc_ctx *ctx, lookup_cache *c, const tree_entry *t)
{
    if (!t || !t->built) return;
    tree_names *names = NULL;
    for (size_t i = 0; i < c->tree_names.count && !names; i++)
        if (c->tree_names.items[i].tree == t) names = &c->tree_names.items[i];
    if (!names) {
        names = VEC_PUSH(c->tree_names);
        memset(names, 0, sizeof *names);
        names->tree = t;
        list_nodes(ctx, c, t, &names->items);
    }
    VEC_APPEND_ALL(c->completions, names->items);
}

static void complete_functions(lookup_cache *c, const file_index *f)
{
    for (size_t i = 0; i < f->sites.count; i++)
        if (f->sites.items[i].kind == SITE_FUNCTION)
            lookup_add_completion(c, ATRC_COMPLETE_FUNCTION, f->sites.items[i].name,
                           arena_printf(&c->mem, "%s:%d", f->src->path, f->sites.items[i].line));
}

static void complete_builtins(lookup_cache *c, const builtin_list *l, const char *detail)
{
    for (size_t i = 0; l && i < l->count; i++)
        lookup_add_completion(c, l->entries[i].kind == BUILTIN_METHOD ? ATRC_COMPLETE_BUILTIN_METHOD : ATRC_COMPLETE_BUILTIN_FUNCTION,
                       l->entries[i].name, detail);
}

/* Does text[0, end) end with `directive` and a '(' (spaces allowed between)? */
static int directive_before(const char *text, size_t end, const char *directive)
{
    while (end && (text[end - 1] == ' ' || text[end - 1] == '\t')) end--;
    if (!end || text[end - 1] != '(') return 0;
    end--;
    while (end && (text[end - 1] == ' ' || text[end - 1] == '\t')) end--;
    size_t n = strlen(directive);
    return end >= n && memcmp(text + end - n, directive, n) == 0;
}

/* ---- notetrack completion: inside the string of waittillmatch(notify, ",
** animhasnotetrack(%x, " and getnotetracktimes(%x, " ---- */

static int word_char(char ch)
{
    return ch == '_' || (ch >= '0' && ch <= '9') || ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'z');
}

static long skip_space_back(const char *t, long p)
{
    while (p > 0 && (t[p - 1] == ' ' || t[p - 1] == '\t')) p--;
    return p;
}

/* The call name ending at t[p) (spaces before p skipped): its start, or -1. */
static long name_back(const char *t, long p, long *end)
{
    p = skip_space_back(t, p);
    *end = p;
    while (p > 0 && word_char(t[p - 1])) p--;
    return p < *end ? p : -1;
}

/* The notetracks of the leaf %name[0, len) of the tree in scope at line:col,
** each offered once. */
static void complete_leaf_notes(atrc_ctx *ctx, lookup_cache *c, file_index *f, int line, int col, const char *name,
                                size_t len)
{
    const site *u = sites_using_in(f, line, col);
    tree_entry *t = u ? (tree_entry *)tree_named(ctx, u->name) : NULL;
    if (!t || !t->built) return;
    char *lower = arena_lower(&c->mem, name, len);
    for (int i = 1; i < t->tree.node_count; i++) {
        if (t->tree.nodes[i].child_count || strcmp(t->tree.nodes[i].name, lower) != 0) continue;
        const xanim_notes *notes = ctx_leaf_notes(ctx, &t->tree, i, NULL);
        for (size_t k = 0; notes && k < notes->count; k++) {
            int seen = 0;
            for (size_t j = 0; j < c->completions.count && !seen; j++)
                seen = strcmp(c->completions.items[j].label, notes->items[k].name) == 0;
            if (!seen)
                lookup_add_completion(c, ATRC_COMPLETE_NOTETRACK, notes->items[k].name,
                               arena_printf(&c->mem, "%%%s frame %u", atr_node_spelling(&t->tree, i), notes->items[k].frame));
        }
        return;
    }
}

/* The notify "N" of waittillmatch("N", " ending at t[p) (the opening quote
** of the note excluded): 1 with *n, *n_len, else 0. */
static int waittillmatch_notify(const char *t, long p, const char **n, size_t *n_len)
{
    p = skip_space_back(t, p);
    if (p < 1 || t[p - 1] != ',') return 0;
    p = skip_space_back(t, p - 1);
    if (p < 2 || t[p - 1] != '"') return 0;
    long close = p - 1, open = close;
    while (open > 0 && t[open - 1] != '"') open--;
    if (open < 1) return 0;
    long q = skip_space_back(t, open - 1);
    if (q < 1 || t[q - 1] != '(') return 0;
    long end, start = name_back(t, q - 1, &end);
    if (start < 0 || end - start != 13 || strncasecmp(t + start, "waittillmatch", 13) != 0) return 0;
    *n = t + open;
    *n_len = (size_t)(close - open);
    return 1;
}

/* Is the flagging call on this line of the notify "n"? Its %name, or NULL. */
static const char *flagged_anim_in(const char *t, long len, const char *n, size_t n_len, size_t *anim_len)
{
    static const char *const flaggers[] = {"setflaggedanim", "animscripted", "animrelative", "startscriptedanim"};
    for (long p = 0; p + 1 < len; p++) {
        if (t[p] != '(') continue;
        long end, start = name_back(t, p, &end);
        if (start < 0) continue;
        int is_flagger = 0;
        for (size_t k = 0; k < sizeof flaggers / sizeof *flaggers; k++) {
            size_t fl = strlen(flaggers[k]);
            is_flagger |= (size_t)(end - start) >= fl && strncasecmp(t + start, flaggers[k], fl) == 0;
        }
        if (!is_flagger) continue;
        long q = p + 1;
        while (q < len && (t[q] == ' ' || t[q] == '\t')) q++;
        if (q + (long)n_len + 2 > len || t[q] != '"' || memcmp(t + q + 1, n, n_len) != 0 || t[q + 1 + (long)n_len] != '"')
            continue;
        /* its anim: the first %name after the notify (argument 2, or 4 of animscripted) */
        for (long a = q + (long)n_len + 2; a < len && t[a] != ';'; a++)
            if (t[a] == '%') {
                long b = a + 1;
                while (b < len && word_char(t[b])) b++;
                *anim_len = (size_t)(b - a - 1);
                return *anim_len ? t + a + 1 : NULL;
            }
    }
    return NULL;
}

/* The most lines searched back for the flagging calls of a waittillmatch. */
#define NOTE_SEARCH_LINES 2000

/* Returns 1 when the cursor is in a notetrack argument (candidates added). */
static int complete_notetracks(atrc_ctx *ctx, lookup_cache *c, file_index *f, int line, int column, const char *text,
                               long w)
{
    if (w < 1 || text[w - 1] != '"') return 0;
    long p = skip_space_back(text, w - 1);
    const char *n;
    size_t n_len;
    if (waittillmatch_notify(text, w - 1, &n, &n_len)) {
        char *notify = arena_strndup(&c->mem, n, n_len);
        /* the calls that flag it, from this line up to the function's start */
        for (int l = line; l >= 1 && l > line - NOTE_SEARCH_LINES; l--) {
            const char *t;
            long len = source_line(f->src, l, &t);
            if (len < 0) break;
            if (l == line) len = w;
            size_t al;
            const char *anim = flagged_anim_in(t, len, notify, n_len, &al);
            if (anim) complete_leaf_notes(ctx, c, f, l, 1, anim, al);
            if (l < line && len > 0 && t[0] == '}') break; /* the end of the function before */
        }
        return 1;
    }
    /* animhasnotetrack(%x, " / getnotetracktimes(%x, " */
    if (p < 1 || text[p - 1] != ',') return 0;
    long q = skip_space_back(text, p - 1), b = q;
    while (b > 0 && word_char(text[b - 1])) b--;
    if (b < 1 || b == q || text[b - 1] != '%') return 0;
    long r = skip_space_back(text, b - 1);
    if (r < 1 || text[r - 1] != '(') return 0;
    long end, start = name_back(text, r - 1, &end);
    if (start < 0) return 0;
    int fn = (end - start == 16 && strncasecmp(text + start, "animhasnotetrack", 16) == 0) ||
             (end - start == 17 && strncasecmp(text + start, "getnotetracktimes", 17) == 0);
    if (!fn) return 0;
    complete_leaf_notes(ctx, c, f, line, column, text + b, (size_t)(q - b));
    return 1;
}

const atrc_completion *atrc_complete(atrc_ctx *ctx, const char *file, int line, int column, size_t *count,
                                     int *start_column)
{
    *count = 0;
    if (start_column) *start_column = column;
    file_index *f = ctx ? sites_file_named(ctx, file) : NULL;
    if (!f || !sites_is_script(f->src)) return NULL;
    lookup_cache *c = sites_cache(ctx);
    c->completions.count = 0;
    const char *text;
    int reloaded = f->src->released && source_reload(f->src) == 0;
    long n = source_line(f->src, line, &text);
    if (n < 0) {
        if (reloaded) source_release(f->src);
        return NULL;
    }
    long at = column < 1 ? 0 : column - 1 > n ? n : column - 1;
    long w = at;
    while (w > 0 && (text[w - 1] == '_' || (text[w - 1] >= '0' && text[w - 1] <= '9') ||
                     ((text[w - 1] | 0x20) >= 'a' && (text[w - 1] | 0x20) <= 'z')))
        w--;
    if (start_column) *start_column = (int)w + 1;
    /* a notetrack may hold spaces: the string so far is the word */
    long sw = at;
    while (sw > 0 && text[sw - 1] != '"') sw--;
    if (sw > 0 && complete_notetracks(ctx, c, f, line, column, text, sw)) {
        if (start_column) *start_column = (int)sw + 1;
    } else if (w > 0 && text[w - 1] == '%') {
        const site *u = sites_using_in(f, line, column);
        complete_nodes(ctx, c, u ? tree_named(ctx, u->name) : NULL);
    } else if (w > 0 && text[w - 1] == '"' && directive_before(text, (size_t)w - 1, "#using_animtree")) {
        const char **names;
        size_t k = gamefs_list(&ctx->fs, "animtrees", ".atr", &names);
        for (size_t i = 0; i < k; i++) lookup_add_completion(c, ATRC_COMPLETE_TREE, names[i], "animtrees/");
    } else if (w >= 2 && text[w - 1] == ':' && text[w - 2] == ':') {
        long p = w - 2;
        while (p > 0 && (text[p - 1] == '\\' || text[p - 1] == '/' || text[p - 1] == '_' ||
                         (text[p - 1] >= '0' && text[p - 1] <= '9') || ((text[p - 1] | 0x20) >= 'a' && (text[p - 1] | 0x20) <= 'z')))
            p--;
        if (p < w - 2) {
            file_index *s = sites_script_named(ctx, script_canonical_name(&c->mem, text + p, (size_t)(w - 2 - p)));
            if (s) complete_functions(c, s);
        } else {
            complete_functions(c, f);
        }
    } else {
        lookup_complete_locals(ctx, f, line, column);
        complete_functions(c, f);
        for (size_t i = 0; i < f->sites.count; i++)
            if (f->sites.items[i].kind == SITE_PATH && f->sites.items[i].include) {
                file_index *inc = sites_script_named(ctx, f->sites.items[i].name);
                if (inc && inc != f) complete_functions(c, inc);
            }
        const profile_rules *rules = ctx->rules;
        if (ctx->opts.game_mode != ATRC_GAME_SP)
            complete_builtins(c, rules->builtins_mp, arena_printf(&c->mem, "stock %s multiplayer", rules->name));
        if (ctx->opts.game_mode != ATRC_GAME_MP)
            complete_builtins(c, rules->builtins_sp, arena_printf(&c->mem, "stock %s single player", rules->name));
        for (size_t i = 0; i < ctx->builtins.count; i++) {
            const builtin_extension *e = ctx->builtins.items[i];
            complete_builtins(c, e->add, e->game ? arena_printf(&c->mem, "extension %s", e->name)
                                                 : arena_printf(&c->mem, "builtins %s", e->name));
        }
    }
    if (reloaded) source_release(f->src);
    *count = c->completions.count;
    return c->completions.items;
}

/* ---- document symbols ---- */

void lookup_add_function_symbol(const atrc_ctx *ctx, symbol_vec *to, file_index *f, const site *s)
{
    atrc_symbol *y = VEC_PUSH(*to);
    memset(y, 0, sizeof *y);
    y->name = s->name;
    y->is_function = 1;
    lookup_set_where(ctx, f->src, s->line, s->col, s->end_col, &y->where);
    y->extent = y->where;
    if (s->body_end_line) {
        y->extent.end_line = s->body_end_line;
        y->extent.end_column = s->body_end_col;
    }
}

const atrc_symbol *atrc_symbols(atrc_ctx *ctx, const char *file, size_t *count)
{
    *count = 0;
    file_index *f = ctx ? sites_file_named(ctx, file) : NULL;
    if (!f) return NULL;
    lookup_cache *c = sites_cache(ctx);
    c->symbols.count = 0;
    if (sites_is_script(f->src)) {
        for (size_t i = 0; i < f->sites.count; i++)
            if (f->sites.items[i].kind == SITE_FUNCTION) lookup_add_function_symbol(ctx, &c->symbols, f, &f->sites.items[i]);
    } else {
        full_atr(ctx, c, f);
        for (size_t i = 0; i < f->decl.count; i++) {
            const atr_node *n = f->decl.items[i];
            atrc_symbol *y = VEC_PUSH(c->symbols);
            memset(y, 0, sizeof *y);
            y->name = n->spelling;
            y->depth = n->index;
            y->is_leaf = !n->is_container;
            lookup_set_where(ctx, f->src, n->line, n->col, n->col + (int)strlen(n->spelling), &y->where);
            y->extent = y->where;
        }
    }
    *count = c->symbols.count;
    return c->symbols.items;
}

/* ---- files and their text ---- */

size_t atrc_file_count(const atrc_ctx *ctx)
{
    return ctx ? ctx->sources.count : 0;
}

const char *atrc_file_name(const atrc_ctx *ctx, size_t i)
{
    return ctx && i < ctx->sources.count ? ctx->sources.items[i]->path : NULL;
}

const char *atrc_source_text(atrc_ctx *ctx, const char *file, size_t *len)
{
    file_index *f = ctx ? sites_file_named(ctx, file) : NULL;
    if (!f || (f->src->released && source_reload(f->src) != 0) || !f->src->data) return NULL;
    *len = f->src->len;
    return f->src->data;
}
