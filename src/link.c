/* The link stage: every registered tree is loaded, parsed and pruned against
** its reference set, numbered and checked (assets, sync), then every
** reference is bound to its packed value (stock-behavior.md sections 2-7). */
#include "profile.h"
#include "context.h"
#include "atr.h"

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

static void report_tree_missing(atrc_ctx *ctx, tree_entry *t)
{
    int stock_silent = profile_get(ctx->opts.profile)->tree_missing_is_warning;
    diag_add(&ctx->diags, stock_silent ? DIAG_WARNING : DIAG_ERROR, t->first_src, t->first_line,
             t->first_col, "unknown anim tree '%s'", t->name);
}

static void build_tree(atrc_ctx *ctx, tree_entry *t)
{
    if (t->too_long) return; /* reported at the directive; the engine cannot open it */
    const char *name = arena_printf(&ctx->mem, "animtrees/%s.atr", t->name);
    const char *path = NULL, *err = NULL;
    source_file *src = gamefs_open_where(&ctx->fs, name, &path, &err);
    if (!src && !err) {
        report_tree_missing(ctx, t);
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
    atr_file *parsed = atr_parse(src, &refs, ctx->opts.anim_check, ctx->opts.profile, &ctx->mem,
                                 &ctx->diags);
    if (!parsed) {
        if (root) root->bound_node = -1;
        return;
    }
    atr_binder binder = {t, bind_name};
    if (atr_build(parsed, t->name, src, &binder, ctx->opts.profile, &ctx->mem, &ctx->diags,
                  &t->tree) != 0) {
        for (size_t i = 0; i < t->name_count; i++) t->names[i]->bound_node = -1;
        return;
    }
    t->built = 1;
    if (ctx->opts.show_pruned) t->pruned_count = atr_pruned_list(parsed, &ctx->mem, &t->pruned);
    if (!ctx->opts.no_xanim) {
        atr_asset_finder finder = {ctx, read_asset};
        atr_resolve_assets(&t->tree, src, &finder, ctx->opts.profile, &ctx->diags);
    }
    atr_sync_setup(&t->tree, src, ctx->opts.profile, &ctx->diags);
}

void link_trees(atrc_ctx *ctx)
{
    for (int i = 1; i <= ctx->tree_count; i++) build_tree(ctx, ctx->trees[i]);

    /* Bind values and report every unresolved reference at its own position,
    ** in compile order (the engine stops at one; we report all). */
    for (anim_ref *ref = ctx->refs; ref; ref = ref->next) {
        /* The name was found in the set when the reference was added. */
        const ref_name *r = ref->set_name;
        if (!ref->tree || !r) continue;
        tree_entry *t = ref->tree;
        if (r->bound_node >= 0) {
            ref->value = ((int64_t)t->index << 16) | (r->bound_node & 0xFFFF);
        } else if (t->built) {
            diag_add(&ctx->diags, DIAG_ERROR, ref->src, ref->line, ref->col,
                     "animation '%s' not defined in anim tree '%s'", ref->name, t->name);
        }
    }
    ctx->trees_built = 1;
}

