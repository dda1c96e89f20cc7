/* The one context struct of a compilation: options, memory, diagnostics,
** the tree registry and every reference.  No state lives outside it. */
#ifndef ATRC_CONTEXT_H
#define ATRC_CONTEXT_H
#include <stdint.h>
#include "atrc.h"
#include "arena.h"
#include "builtins.h"
#include "diag.h"
#include "gamefs.h"
#include "hashtab.h"
#include "source.h"

struct ast_node;

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
    ref_name **names;          /* reference set, first-reference order */
    size_t name_count, name_cap;
    hashtab name_index;        /* names by text_hash_bytes(name, strlen(name)) */
    const char *file;          /* the .atr opened, or NULL */
    source_file *atr_src;
    int built;
    atrc_tree tree;
    struct atr_pruned *pruned; /* with opts.show_pruned: the removed nodes, declaration order */
    size_t pruned_count;
};

struct atrc_ctx {
    atrc_options opts;
    arena mem;                 /* names, references, trees: freed with the context */
    diag_list diags;
    source_file **sources;     /* every file read, kept for diagnostics excerpts */
    size_t source_count, source_cap;
    gamefs fs;
    tree_entry *trees[ATRC_MAX_TREES + 1]; /* [0] unused, as in the engine */
    int tree_count;
    anim_ref *refs, *refs_tail;
    size_t ref_count;
    int trees_built;
    int unreadable_inputs;     /* scripts that could not be read (exit status 2) */
    struct walk_state *walk;   /* level and walk mode: the scripts loaded (walk.c) */
    struct frontend *fe;       /* parses scripts (ahead, on worker threads with jobs > 1) */
    builtin_set builtins;      /* extensions and user builtin lists (extensions.c), before any script */
    struct diag_view *view;    /* structured diagnostics, made when first asked for (diag_view.c) */
    struct lookup_cache *lookup; /* what is where in the files read, made when first asked for (lookup.c) */
    struct atrc_session *session; /* the session the context was begun from, or NULL (session.c) */
};

/* registry.c */
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

/* link.c */
/* After all scripts: build and check every registered tree, bind every reference. */
void link_trees(atrc_ctx *ctx);

/* compile.c: the compile stage in two parts (see frontend.h).  The pass
** (fe_passes[FE_PASS_COMPILE]) records each file's #using_animtree, %name and
** #animtree with positions; compile_replay registers trees and adds the
** references on the context's thread, in order, with the file's diagnostics. */
struct fe_file;
void *compile_pass_begin(struct fe_file *f);
void compile_pass_item(void *state, struct fe_file *f, const struct ast_node *item);
void compile_pass_end(void *state, struct fe_file *f);
void compile_pass_release(void *state);
void compile_replay(atrc_ctx *ctx, struct fe_file *f, source_file *src);
anim_ref *compile_new_ref(atrc_ctx *ctx, ref_kind kind, source_file *src, int line, int col);

/* context.c */
void ctx_keep_source(atrc_ctx *ctx, source_file *f);
struct script_refs;
/* Compiles src item by item; with `collect`, also lists what it names (script_refs.h). */
struct check_file_result;
/* Compiles one script; with `collect`, also lists its #includes and
** path::func references; with `checked`, keeps the names the compile-stage
** checks left to the included files (cod2/cod4) for the walk to link. */
void ctx_compile_source(atrc_ctx *ctx, source_file *src, struct script_refs *collect,
                        struct check_file_result *checked);
/* For the load walk, which discovers the files it compiles: src (read by
** the walk) is parsed ahead on the context's worker threads, and a later
** ctx_compile_prefetched compiles that record where ctx_compile_source
** would have compiled src, with the same results; the output does not
** depend on timing.  NULL when the context parses on one thread only. */
struct fe_request;
struct fe_request *ctx_prefetch_source(atrc_ctx *ctx, source_file *src);
void ctx_compile_prefetched(atrc_ctx *ctx, struct fe_request *r, struct script_refs *collect,
                            struct check_file_result *checked);

#endif
