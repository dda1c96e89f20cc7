/* Position queries (atrc.h "position queries"): what is
** at a position, definitions, references, completion and document symbols,
** over the site index (output/sites.h) and the compilation's trees and
** references, so values are the compilation's. */
#include "output/sites.h"
#include "output/explain.h"
#include "tree/atr.h"
#include "game/builtins.h"
#include "compile/context.h"
#include "compile/registry.h"
#include "output/diag_view.h"
#include "game/profile.h"
#include "base/text.h"
#include "base/vec.h"

#include <stdlib.h>
#include <string.h>

/* ---- atrc_lookup ---- */

static void set_where(const atrc_ctx *ctx, source_file *src, int line, int col, int end_col, atrc_location *w)
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
    out->is_leaf = out->looping = -1;
    out->node_count = out->node_total = -1;
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

/* The function a call names, from the file it is in: its own, its includes', or path's. */
/* The definition of name in one file, or NULL. */
static const site *defined_in(const file_index *f, const char *name)
{
    for (size_t i = 0; i < f->sites.count; i++)
        if (f->sites.items[i].kind == SITE_FUNCTION && text_equal_nocase(f->sites.items[i].name, name)) return &f->sites.items[i];
    return NULL;
}

/* The function a call names, from the file it is in: path's, else its own,
** then its includes' in #include order. */
static const site *function_site(const atrc_ctx *ctx, file_index *f, const char *name, const char *path,
                                 file_index **in)
{
    if (path) {
        file_index *p = sites_script_named(ctx, path);
        const site *s = p ? defined_in(p, name) : NULL;
        if (s) *in = p;
        return s;
    }
    const site *s = defined_in(f, name);
    if (s) {
        *in = f;
        return s;
    }
    for (size_t i = 0; i < f->sites.count; i++)
        if (f->sites.items[i].kind == SITE_PATH && f->sites.items[i].include) {
            file_index *inc = sites_script_named(ctx, f->sites.items[i].name);
            if (inc && inc != f && (s = defined_in(inc, name)) != NULL) {
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
        set_where(ctx, f->src, s->line, s->col, s->end_col, &out->where);
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
            const site *def = function_site(ctx, f, s->name, s->path, &in);
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
            break;
        }
    }
    return 0;
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
    atr_file *all = f->src->data ? atr_parse(f->src, NULL, 1, ctx->rules, &c->mem, &quiet) : NULL;
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
        set_where(ctx, f->src, n->line, n->column, end, &out->where);
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
        set_where(ctx, f->src, n->line, n->col, end, &out->where);
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

int atrc_lookup(atrc_ctx *ctx, const char *file, int line, int column, atrc_at *out)
{
    clear_at(out);
    if (!ctx) return 0;
    file_index *f = sites_file_named(ctx, file);
    if (!f) return 0;
    lookup_cache *c = sites_cache(ctx);
    int found = sites_is_script(f->src) ? lookup_script(ctx, c, f, line, column, out)
                                  : lookup_atr(ctx, c, f, line, column, out);
    if (!found) clear_at(out);
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
        const site *def = f ? function_site(ctx, f, at->name, at->path, &in) : NULL;
        if (!def) return 0;
        set_where(ctx, in->src, def->line, def->col, def->end_col, out);
        return 1;
    }
    case ATRC_AT_NONE:
        break;
    }
    return 0;
}

size_t atrc_references(const atrc_ctx *ctx, const atrc_at *at, atrc_location *out, size_t max)
{
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

static void add_completion(lookup_cache *c, atrc_completion_kind kind, const char *label, const char *detail)
{
    atrc_completion *x = VEC_PUSH(c->completions);
    x->kind = kind;
    x->label = label;
    x->detail = detail;
}

static void complete_nodes(lookup_cache *c, const tree_entry *t)
{
    if (!t || !t->built) return;
    for (int i = 1; i < t->tree.node_count; i++) {
        const atrc_node *n = &t->tree.nodes[i];
        if (n->placeholder) continue;
        add_completion(c, n->child_count ? ATRC_COMPLETE_GROUP : ATRC_COMPLETE_LEAF, atr_node_spelling(&t->tree, i),
                       arena_printf(&c->mem, "%s[%d] node %d", t->name, t->index, i));
    }
}

static void complete_functions(lookup_cache *c, const file_index *f)
{
    for (size_t i = 0; i < f->sites.count; i++)
        if (f->sites.items[i].kind == SITE_FUNCTION)
            add_completion(c, ATRC_COMPLETE_FUNCTION, f->sites.items[i].name,
                           arena_printf(&c->mem, "%s:%d", f->src->path, f->sites.items[i].line));
}

static void complete_builtins(lookup_cache *c, const builtin_list *l, const char *detail)
{
    for (size_t i = 0; l && i < l->count; i++)
        add_completion(c, l->entries[i].kind == BUILTIN_METHOD ? ATRC_COMPLETE_BUILTIN_METHOD : ATRC_COMPLETE_BUILTIN_FUNCTION,
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
    if (w > 0 && text[w - 1] == '%') {
        const site *u = sites_using_in(f, line, column);
        complete_nodes(c, u ? tree_named(ctx, u->name) : NULL);
    } else if (w > 0 && text[w - 1] == '"' && directive_before(text, (size_t)w - 1, "#using_animtree")) {
        const char **names;
        size_t k = gamefs_list(&ctx->fs, "animtrees", ".atr", &names);
        for (size_t i = 0; i < k; i++) add_completion(c, ATRC_COMPLETE_TREE, names[i], "animtrees/");
    } else if (w >= 2 && text[w - 1] == ':' && text[w - 2] == ':') {
        long p = w - 2;
        while (p > 0 && (text[p - 1] == '\\' || text[p - 1] == '/' || text[p - 1] == '_' ||
                         (text[p - 1] >= '0' && text[p - 1] <= '9') || ((text[p - 1] | 0x20) >= 'a' && (text[p - 1] | 0x20) <= 'z')))
            p--;
        if (p < w - 2) {
            file_index *s = sites_script_named(ctx, sites_canonical_script(&c->mem, text + p, (size_t)(w - 2 - p)));
            if (s) complete_functions(c, s);
        } else {
            complete_functions(c, f);
        }
    } else {
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

const atrc_symbol *atrc_symbols(atrc_ctx *ctx, const char *file, size_t *count)
{
    *count = 0;
    file_index *f = ctx ? sites_file_named(ctx, file) : NULL;
    if (!f) return NULL;
    lookup_cache *c = sites_cache(ctx);
    c->symbols.count = 0;
    if (sites_is_script(f->src)) {
        for (size_t i = 0; i < f->sites.count; i++) {
            const site *s = &f->sites.items[i];
            if (s->kind != SITE_FUNCTION) continue;
            atrc_symbol *y = VEC_PUSH(c->symbols);
            memset(y, 0, sizeof *y);
            y->name = s->name;
            y->is_function = 1;
            set_where(ctx, f->src, s->line, s->col, s->end_col, &y->where);
            y->extent = y->where;
            if (s->body_end_line) {
                y->extent.end_line = s->body_end_line;
                y->extent.end_column = s->body_end_col;
            }
        }
    } else {
        full_atr(ctx, c, f);
        for (size_t i = 0; i < f->decl.count; i++) {
            const atr_node *n = f->decl.items[i];
            atrc_symbol *y = VEC_PUSH(c->symbols);
            memset(y, 0, sizeof *y);
            y->name = n->spelling;
            y->depth = n->index;
            y->is_leaf = !n->is_container;
            set_where(ctx, f->src, n->line, n->col, n->col + (int)strlen(n->spelling), &y->where);
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
