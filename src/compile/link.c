/* The link stage: every registered tree is loaded, parsed and pruned against
** its reference set, numbered and checked (assets, sync), then every
** reference is bound to its packed value (stock-behavior.md sections 2-7). */
#include "game/profile.h"
#include "check/check_stage.h"
#include "compile/driver.h"
#include "compile/link.h"
#include "compile/registry.h"
#include "compile/runtime_anim.h"
#include "tree/atr.h"
#include "base/outbuf.h"
#include "base/suggest.h"
#include "base/vec.h"
#include "compile/notetracks.h"
#include "compile/notewait.h"

#include <stdlib.h>
#include <string.h>

static int refs_contains(void *ud, const char *name)
{
    return registry_find_name(ud, name) != NULL;
}

static int bind_name(void *ud, const char *name, int node_index)
{
    ref_name *r = registry_find_name(ud, name);
    if (!r) return 0;
    if (r->bound_node >= 0) return 1;
    r->bound_node = node_index;
    return 0;
}

static int read_asset(void *ud, const char *name, unsigned char *buf, size_t n, size_t *got,
                      const char **where, const char **err)
{
    atrc_ctx *ctx = ud;
    return gamefs_read_prefix(&ctx->fs, arena_printf(&ctx->mem, "xanim/%s", name), buf, n, got, where, err);
}

/* The game's words, then where atrc looked and the nearest tree name there
** (at most SUGGEST_MAX_QUERIES trees of a run get one). */
static void report_tree_missing(atrc_ctx *ctx, tree_entry *t, int *queries)
{
    int stock_silent = ctx->rules->tree_missing_is_warning;
    diag_severity sev = stock_silent ? DIAG_WARNING : DIAG_ERROR;
    if (sev == DIAG_WARNING && ctx->diags.no_warnings) return;
    suggest q;
    suggest_init(&q, t->name, strlen(t->name), 1);
    if ((*queries)++ < SUGGEST_MAX_QUERIES) gamefs_list_dir(&ctx->fs, "animtrees", ".atr", suggest_add_listed, &q);
    diag_add(&ctx->diags, sev, t->first_src, t->first_line, t->first_col,
             "unknown anim tree '%s': no animtrees/%s.atr in the game directories searched (%s, with their "
             "archives)%s%.*s%s", t->name, t->name,
             gamefs_dir_names(&ctx->fs), q.count ? "; did you mean '" : "", q.count ? (int)q.best[0].len : 0,
             q.count ? q.best[0].name : "", q.count ? "'?" : "");
}

/* Leaves of the run and those whose xanim is missing (the closing note). */
typedef struct asset_count {
    long leaves, missing;
} asset_count;

static void build_tree(atrc_ctx *ctx, tree_entry *t, int *queries, asset_count *assets)
{
    if (t->too_long) return; /* reported at the directive; the engine cannot open it */
    const char *name = arena_printf(&ctx->mem, "animtrees/%s.atr", t->name);
    const char *path = NULL, *err = NULL;
    source_file *src = gamefs_open_where(&ctx->fs, name, &path, &err);
    if (!src && !err) {
        report_tree_missing(ctx, t, queries);
        return;
    }
    if (!src) {
        ctx->diags.read_failures++;
        diag_add(&ctx->diags, DIAG_ERROR, t->first_src, t->first_line, t->first_col,
                 "cannot read anim tree '%s': %s", path, err);
        return;
    }
    ctx_keep_source(ctx, src);
    t->file = path;
    t->atr_src = src;

    /* `root` binds node 0 before the tree is built (stock-behavior.md 4.7). */
    ref_name *root = registry_find_name(t, "root");
    if (root) root->bound_node = 0;

    atr_refs refs = {t, refs_contains, ctx->opts.show_pruned};
    size_t first = ctx->diags.count; /* the tree's diagnostics, put in line order below */
    atr_file *parsed = atr_parse(src, &refs, ctx->opts.anim_check, ctx->rules, &ctx->mem,
                                 &ctx->diags);
    if (!parsed) {
        if (root) root->bound_node = -1;
        diag_sort_range(&ctx->diags, first, src);
        return;
    }
    atr_binder binder = {t, bind_name};
    if (atr_build(parsed, t->name, src, &binder, ctx->rules, &ctx->mem, &ctx->diags,
                  &t->tree) != 0) {
        for (size_t i = 0; i < t->names.count; i++) t->names.items[i]->bound_node = -1;
        diag_sort_range(&ctx->diags, first, src);
        return;
    }
    t->built = 1;
    if (ctx->opts.show_pruned) t->pruned_count = atr_pruned_list(parsed, &ctx->mem, &t->pruned);
    if (!ctx->opts.no_xanim) {
        atr_asset_finder finder = {ctx, read_asset};
        assets->missing += atr_resolve_assets(&t->tree, src, &finder, ctx->rules, &ctx->diags);
        for (int i = 0; i < t->tree.node_count; i++)
            assets->leaves += t->tree.nodes[i].child_count == 0 && !t->tree.nodes[i].placeholder;
    }
    atr_sync_setup(&t->tree, src, ctx->rules, &ctx->diags);
    if (ctx->opts.notetracks && !ctx->opts.no_xanim)
        for (int i = 0; i < t->tree.node_count; i++)
            if (t->tree.nodes[i].child_count == 0) ctx_leaf_notes(ctx, &t->tree, i, NULL);
    /* The engine's order (leaves by index, sync after assets) is not the
    ** file's: a tree's diagnostics come in line order. */
    diag_sort_range(&ctx->diags, first, src);
}

/* Every name the .atr of built tree t declares, pruned ones included (a
** second parse that keeps everything): what an undefined %name is
** compared with. */
typedef VEC(const atr_node *) tree_names;

static tree_names declared_names(atrc_ctx *ctx, tree_entry *t)
{
    tree_names out = {0};
    diag_list quiet;
    diag_init(&quiet);
    atr_file *all = atr_parse(t->atr_src, NULL, 1, ctx->rules, &ctx->mem, &quiet);
    diag_free(&quiet);
    if (!all) return out;
    tree_names stack = {0};
    *VEC_PUSH(stack) = all->root;
    while (stack.count) {
        const atr_node *n = stack.items[--stack.count];
        if (n->parent && !n->placeholder) *VEC_PUSH(out) = n;
        for (const atr_node *c = n->first; c; c = c->next) *VEC_PUSH(stack) = c;
    }
    VEC_FREE(stack);
    return out;
}

/* "; did you mean 'walk' (game/animtrees/human.atr:3) or 'walk_fast'
** (game/animtrees/human.atr:4)?" for an undefined name of t, or "": the
** error is at the script's reference, the names are in the .atr, so its
** path is named (computed once per name, for at most SUGGEST_MAX_QUERIES
** names per tree). */
static const char *node_suggestion(atrc_ctx *ctx, tree_entry *t, tree_names *names, int *loaded, int *queries,
                                   const char *spelling)
{
    if (*queries >= SUGGEST_MAX_QUERIES) return "";
    ++*queries;
    if (!*loaded) {
        *names = declared_names(ctx, t);
        *loaded = 1;
    }
    suggest q;
    suggest_init(&q, spelling, strlen(spelling), SUGGEST_MAX_KEPT);
    for (size_t i = 0; i < names->count; i++)
        suggest_add(&q, names->items[i]->spelling, strlen(names->items[i]->spelling), names->items[i]);
    if (!q.count) return "";
    outbuf b = {0};
    outbuf_str(&b, "; did you mean ");
    for (size_t i = 0; i < q.count; i++) {
        const atr_node *n = q.best[i].data;
        if (i) outbuf_str(&b, i + 1 == q.count ? " or " : ", ");
        outbuf_printf(&b, "'%s' (%s:%d)", n->spelling, t->atr_src->path, n->line);
    }
    outbuf_char(&b, '?');
    const char *text = arena_strdup(&ctx->mem, b.s);
    outbuf_free(&b);
    return text;
}

void link_trees(atrc_ctx *ctx)
{
    int tree_queries = 0;
    asset_count assets = {0, 0};
    for (int i = 1; i <= ctx->tree_count; i++) build_tree(ctx, ctx->trees[i], &tree_queries, &assets);
    /* A wall of missing xanims usually means the game directories hold no
    ** assets at all: one closing note says what to do instead. */
    const char *note = NULL;
    if (assets.missing >= 10 && assets.missing * 2 > assets.leaves)
        note = arena_printf(&ctx->mem, "the xanims of %ld of the %ld leaves were not found; if the game "
                            "directories hold no xanim/ assets, run with --no-xanim to check the trees and "
                            "values without them", assets.missing, assets.leaves);
    /* Per tree: its declared names, loaded for the first undefined name. */
    size_t slots = (size_t)ctx->tree_count + 1;
    tree_names *names = xcalloc(slots, sizeof *names);
    int *loaded = xcalloc(slots, sizeof *loaded), *queries = xcalloc(slots, sizeof *queries);

    /* Bind values and report every unresolved reference at its own position,
    ** in compile order (the engine stops at one; we report all). */
    for (anim_ref *ref = ctx->refs; ref; ref = ref->next) {
        /* The name was found in the set when the reference was added. */
        ref_name *r = ref->set_name;
        if (!ref->tree || !r) continue;
        tree_entry *t = ref->tree;
        if (r->bound_node >= 0) {
            ref->value = registry_pack(t->index, r->bound_node & 0xFFFF);
        } else if (t->built) {
            const char *spelling = ref->spelling ? ref->spelling : ref->name;
            int i = t->index;
            ref_name *set = ref->set_name; /* the suggestion is the same for every spelling */
            if (!set->suggestion) set->suggestion = node_suggestion(ctx, t, &names[i], &loaded[i], &queries[i], spelling);
            diag_add(&ctx->diags, DIAG_ERROR, ref->src, ref->line, ref->col,
                     "animation '%s' not defined in anim tree '%s'%s", spelling, t->name, set->suggestion);
        }
    }
    runtime_check(ctx);
    free(loaded);
    free(queries);
    for (int i = 0; i <= ctx->tree_count; i++) VEC_FREE(names[i]);
    free(names);
    notewait_check(ctx); /* run-time check E11: needs the bound references */
    if (note) diag_add(&ctx->diags, DIAG_NOTE, NULL, 0, 0, "%s", note);
    link_extension_note(ctx);
    ctx->trees_built = 1;
}

