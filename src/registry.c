/* The tree registry: indices from 1 in order of first registration, a
** reference set per tree, and the build of every registered tree (load,
** parse + prune, number + bind, check references, assets, sync). */
#include "profile.h"
#include "context.h"
#include "atr.h"
#include "text.h"

#include <stdlib.h>
#include <string.h>

static uint32_t hash_name(const char *s)
{
    return text_hash(0, s, 0);
}

static ref_name *find_name_hashed(const tree_entry *t, const char *name, uint32_t h);

tree_entry *registry_intern(atrc_ctx *ctx, const char *canonical, int *is_new)
{
    *is_new = 0;
    /* At most 127 trees: a linear scan is bounded by a constant. */
    for (int i = 1; i <= ctx->tree_count; i++)
        if (strcmp(ctx->trees[i]->name, canonical) == 0) return ctx->trees[i];
    if (ctx->tree_count >= ATRC_MAX_TREES) return NULL;
    tree_entry *t = arena_zalloc(&ctx->mem, sizeof *t);
    t->index = ++ctx->tree_count;
    t->name = arena_strdup(&ctx->mem, canonical);
    t->bucket_count = 64;
    t->buckets = xcalloc(t->bucket_count, sizeof *t->buckets);
    ctx->trees[t->index] = t;
    *is_new = 1;
    return t;
}

ref_name *registry_find_name(const tree_entry *t, const char *name)
{
    return find_name_hashed(t, name, hash_name(name));
}

static ref_name *find_name_hashed(const tree_entry *t, const char *name, uint32_t h)
{
    for (ref_name *r = t->buckets[h & (t->bucket_count - 1)]; r; r = r->hash_next)
        if (r->hash == h && strcmp(r->name, name) == 0) return r;
    return NULL;
}

static void grow_buckets(tree_entry *t)
{
    size_t n = t->bucket_count * 2;
    ref_name **b = xcalloc(n, sizeof *b);
    for (size_t i = 0; i < t->bucket_count; i++) {
        ref_name *r = t->buckets[i];
        while (r) {
            ref_name *next = r->hash_next;
            r->hash_next = b[r->hash & (n - 1)];
            b[r->hash & (n - 1)] = r;
            r = next;
        }
    }
    free(t->buckets);
    t->buckets = b;
    t->bucket_count = n;
}

void registry_add_reference(atrc_ctx *ctx, tree_entry *t, anim_ref *ref)
{
    registry_add_reference_hashed(ctx, t, ref, hash_name(ref->name));
}

void registry_add_reference_hashed(atrc_ctx *ctx, tree_entry *t, anim_ref *ref, uint32_t hash)
{
    ref_name *r = find_name_hashed(t, ref->name, hash);
    if (!r) {
        if (t->name_count * 2 >= t->bucket_count) grow_buckets(t);
        r = arena_zalloc(&ctx->mem, sizeof *r);
        r->name = ref->name;
        r->hash = hash;
        r->bound_node = -1;
        r->hash_next = t->buckets[r->hash & (t->bucket_count - 1)];
        t->buckets[r->hash & (t->bucket_count - 1)] = r;
        t->name_count++;
    }
    ref->in_ref_set = 1;
    if (r->refs_tail) r->refs_tail->name_next = ref;
    else r->refs = ref;
    r->refs_tail = ref;
}

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

static const char *find_asset(void *ud, const char *name)
{
    return gamefs_find(&((atrc_ctx *)ud)->fs, "xanim", name);
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
    const char *file = arena_printf(&ctx->mem, "%s.atr", t->name);
    const char *path = gamefs_find(&ctx->fs, "animtrees", file);
    if (!path) {
        report_tree_missing(ctx, t);
        return;
    }
    const char *err = NULL;
    source_file *src = source_read(path, &err);
    if (!src) {
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

    atr_refs refs = {t, refs_contains};
    atr_file *parsed = atr_parse(src, &refs, ctx->opts.anim_check, ctx->opts.profile, &ctx->mem,
                                 &ctx->diags);
    if (!parsed) {
        if (root) root->bound_node = -1;
        return;
    }
    atr_binder binder = {t, bind_name};
    if (atr_build(parsed, t->name, src, &binder, ctx->opts.profile, &ctx->mem, &ctx->diags,
                  &t->tree) != 0) {
        for (size_t i = 0; i < t->bucket_count; i++)
            for (ref_name *r = t->buckets[i]; r; r = r->hash_next) r->bound_node = -1;
        return;
    }
    t->built = 1;
    if (!ctx->opts.no_xanim) {
        atr_asset_finder finder = {ctx, find_asset};
        atr_resolve_assets(&t->tree, src, &finder, ctx->opts.profile, &ctx->diags);
    }
    atr_sync_setup(&t->tree, src, ctx->opts.profile, &ctx->diags);
}

void registry_build_all(atrc_ctx *ctx)
{
    for (int i = 1; i <= ctx->tree_count; i++) build_tree(ctx, ctx->trees[i]);

    /* Bind values and report every unresolved reference at its own position,
    ** in compile order (the engine stops at one; we report all). */
    for (anim_ref *ref = ctx->refs; ref; ref = ref->next) {
        if (!ref->tree || !ref->in_ref_set) continue;
        tree_entry *t = ref->tree;
        ref_name *r = registry_find_name(t, ref->name);
        if (r && r->bound_node >= 0) {
            ref->value = ((int64_t)t->index << 16) | (r->bound_node & 0xFFFF);
        } else if (t->built) {
            diag_add(&ctx->diags, DIAG_ERROR, ref->src, ref->line, ref->col,
                     "animation '%s' not defined in anim tree '%s'", ref->name, t->name);
        }
    }
    ctx->trees_built = 1;
}

void registry_free(atrc_ctx *ctx)
{
    for (int i = 1; i <= ctx->tree_count; i++) {
        free(ctx->trees[i]->buckets);
        ctx->trees[i]->buckets = NULL;
    }
}
