/* The tree registry: indices from 1 in order of first registration (the one
** registration policy for scripts and engine code) and a reference set per
** tree.  Building the trees is the link stage (link.c). */
#include "compile/registry.h"
#include "compile/context.h"
#include "base/text.h"
#include "base/vec.h"

#include <stdlib.h>
#include <string.h>

/* The reference sets' hash (compile.c computes it off the context's thread). */
static uint32_t hash_name(const char *s)
{
    return text_hash_bytes(s, strlen(s));
}

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
    VEC_RESERVE(t->names, 32);
    hashtab_reserve(&t->name_index, 32);
    ctx->trees[t->index] = t;
    *is_new = 1;
    return t;
}

static const char *name_at(const void *names, size_t i)
{
    return ((ref_name *const *)names)[i]->name;
}

static inline ref_name *find_name_hashed(const tree_entry *t, const char *name, uint32_t h)
{
    size_t i = hashtab_find_string(&t->name_index, h, name, 0, t->names.items, name_at);
    return i == HASHTAB_END ? NULL : t->names.items[i];
}

ref_name *registry_find_name(const tree_entry *t, const char *name)
{
    return find_name_hashed(t, name, hash_name(name));
}

void registry_add_reference(atrc_ctx *ctx, tree_entry *t, anim_ref *ref)
{
    registry_add_reference_hashed(ctx, t, ref, hash_name(ref->name));
}

void registry_add_reference_hashed(atrc_ctx *ctx, tree_entry *t, anim_ref *ref, uint32_t hash)
{
    ref_name *r = find_name_hashed(t, ref->name, hash);
    if (!r) {
        r = arena_zalloc(&ctx->mem, sizeof *r);
        r->name = ref->name;
        r->bound_node = -1;
        hashtab_add(&t->name_index, hash);
        *VEC_PUSH(t->names) = r;
    }
    ref->set_name = r;
    if (r->refs_tail) r->refs_tail->name_next = ref;
    else r->refs = ref;
    r->refs_tail = ref;
}

/* The one registration policy, for script directives and engine code alike:
** the engine's counter, its 127-tree limit and its name-length limit. */
tree_entry *registry_use_tree(atrc_ctx *ctx, const char *canonical, source_file *src, int line,
                              int col)
{
    int is_new = 0;
    tree_entry *t = registry_intern(ctx, canonical, &is_new);
    if (!t) {
        diag_add(&ctx->diags, DIAG_ERROR, src, line, col, "maximum animation tree count exceeded (%d)",
                 ATRC_MAX_TREES);
        return NULL;
    }
    if (is_new && strlen(canonical) > ATRC_MAX_TREE_NAME) {
        t->too_long = 1;
        if (src) diag_add(&ctx->diags, DIAG_ERROR, src, line, col, "animation tree path is too long");
        else diag_add(&ctx->diags, DIAG_ERROR, NULL, 0, 0, "animation tree path is too long ('%s')", t->name);
    }
    if (src && !t->first_src) {
        /* New, or registered by the engine: the first script directive locates it. */
        t->first_src = src;
        t->first_line = line;
        t->first_col = col;
    }
    return t;
}

anim_ref *registry_new_ref(atrc_ctx *ctx, ref_kind kind, source_file *src, int line, int col)
{
    anim_ref *r = arena_zalloc(&ctx->mem, sizeof *r);
    r->kind = kind;
    r->src = src;
    r->line = line;
    r->col = col;
    r->value = -1;
    if (ctx->refs_tail) ctx->refs_tail->next = r;
    else ctx->refs = r;
    ctx->refs_tail = r;
    ctx->ref_count++;
    return r;
}

void registry_engine_anim(atrc_ctx *ctx, const char *canonical_tree, const char *name)
{
    tree_entry *t = registry_use_tree(ctx, canonical_tree, NULL, 0, 0);
    anim_ref *r = registry_new_ref(ctx, REF_ENGINE, NULL, 0, 0);
    r->name = arena_lower(&ctx->mem, name, strlen(name));
    r->tree = t;
    if (t) registry_add_reference(ctx, t, r);
}

void registry_free(atrc_ctx *ctx)
{
    for (int i = 1; i <= ctx->tree_count; i++) {
        VEC_FREE(ctx->trees[i]->names);
        hashtab_free(&ctx->trees[i]->name_index);
    }
}
