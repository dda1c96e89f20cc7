/* The tree registry (registry.c): the trees in registration order, each
** with its reference set, and every reference in compile order. */
#ifndef ATRC_REGISTRY_H
#define ATRC_REGISTRY_H
#include <stddef.h>
#include <stdint.h>
#include "atrc.h"
#include "base/hashtab.h"
#include "base/source.h"
#include "base/vec.h"

typedef enum { REF_ANIM = 0, REF_ANIMTREE, REF_ENGINE } ref_kind;

typedef struct tree_entry tree_entry;
typedef struct ref_name ref_name;

/* One `%name`, `#animtree` or --engine-anim, in compile order. */
typedef struct anim_ref {
    ref_kind kind;
    source_file *src;          /* NULL for engine references */
    int line, col;             /* of the '%' or '#' */
    tree_entry *tree;          /* NULL when no tree was selected */
    const char *name;          /* lower case; NULL for #animtree */
    const char *spelling;      /* %name as written when that is not lower case; else NULL */
    int64_t value;             /* packed value, or -1 (null) */
    ref_name *set_name;        /* its name in the tree's reference set; NULL: not counted in it */
    int developer;             /* inside /# #/ and not compiled (cod4 without developer_script) */
    struct anim_ref *next;     /* compile order */
    struct anim_ref *name_next;/* same name, same tree, compile order */
} anim_ref;

/* A name in one tree's reference set. */
struct ref_name {
    const char *name;
    int bound_node;            /* -1 until a node binds it */
    const char *suggestion;    /* link: what an undefined name's messages add (once per name); NULL: not yet */
    anim_ref *refs, *refs_tail;
};

struct tree_entry {
    int index;                 /* registry index, 1-based */
    const char *name;          /* canonical (lower case) */
    source_file *first_src;    /* first #using_animtree naming it (NULL: engine) */
    int first_line, first_col;
    int too_long;              /* never loaded */
    VEC(ref_name *) names;     /* reference set, first-reference order */
    hashtab name_index;        /* names by text_hash_bytes(name, strlen(name)) */
    const char *file;          /* the .atr opened, or NULL */
    source_file *atr_src;
    int built;
    atrc_tree tree;
    struct atr_pruned *pruned; /* with opts.show_pruned: the removed nodes, declaration order */
    size_t pruned_count;
};

/* The value a reference to node `node` of the tree with registry index
** `tree` packs to, as the engine packs it: (tree << 16) | node. */
static inline int64_t registry_pack(int tree, int node)
{
    return ((int64_t)tree << 16) | node;
}

/* Returns the tree registered under canonical name, registering it; NULL
** when the registry is full. *is_new tells whether it was just registered. */
tree_entry *registry_intern(atrc_ctx *ctx, const char *canonical, int *is_new);
/* Adds ref to tree's reference set (ref->name must be set). */
void registry_add_reference(atrc_ctx *ctx, tree_entry *t, anim_ref *ref);
/* The same with hash = text_hash_bytes(ref->name, strlen(ref->name)) already computed (off the context's thread). */
void registry_add_reference_hashed(atrc_ctx *ctx, tree_entry *t, anim_ref *ref, uint32_t hash);
ref_name *registry_find_name(const tree_entry *t, const char *name);
/* Registers a tree for a directive at src:line:col, or for engine code
** (src NULL), reporting a full registry or an over-long name; NULL when full. */
tree_entry *registry_use_tree(atrc_ctx *ctx, const char *canonical, source_file *src, int line,
                              int col);
/* Engine code registers tree and references name (a REF_ENGINE reference). */
void registry_engine_anim(atrc_ctx *ctx, const char *canonical_tree, const char *name);
void registry_free(atrc_ctx *ctx);

/* A new reference of the given kind at src:line:col (src NULL: engine code),
** appended to the context's compile order; value -1 until linked. */
anim_ref *registry_new_ref(atrc_ctx *ctx, ref_kind kind, source_file *src, int line, int col);
void registry_free(atrc_ctx *ctx);

#endif
