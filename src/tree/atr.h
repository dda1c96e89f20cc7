/* Animation tree files: the engine's .atr tokenizer and parser with pruning
** (stock-behavior.md sections 1-3), the compact tree build with engine
** numbering, reference binding and checksum (section 4), xanim headers
** (section 7), sync setup (section 6.1).  The registry (registry.c) drives
** these stages; they know nothing of scripts. */
#ifndef ATRC_ATR_H
#define ATRC_ATR_H
#include <stdint.h>
#include "atrc.h"
#include "base/arena.h"
#include "base/diag.h"
#include "base/source.h"

struct profile_rules;

/* Set on a sync root by sync setup, never by the parser (runtime flags only). */
#define ATR_FLAG_SYNC_ROOT 0x04u

/* Working state of a built tree, kept out of the public structs. */
struct atrc_tree_state {
    /* Per node: the runtime's flags: parse flags, then ATR_FLAG_SYNC_ROOT and
    ** the sync kind that sync setup propagates into a group (queries read them). */
    unsigned *flags;
    /* Per node (cod2/cod4): the leaf's asset is the `void` substitute for a missing xanim. */
    unsigned char *default_asset;
    /* cod2/cod4: the asset a default leaf becomes in a sync group of the other kind. */
    atrc_node void_loop;
};

/* The name of node `index` as written in the .atr (messages name nodes so). */
const char *atr_node_spelling(const atrc_tree *t, int index);

/* The runtime flags of node (see atrc_tree_state); 0 out of range. */
unsigned atr_runtime_flags(const atrc_tree *t, int node);

/* The reference set of one tree, as the parser's pruning sees it. */
typedef struct atr_refs {
    void *ud;
    /* Non-zero when lower-case `name` is referenced by a script or the engine. */
    int (*contains)(void *ud, const char *name);
    int keep_pruned;           /* remember the nodes pruning removes (--show-pruned) */
} atr_refs;

/* A parsed and pruned node.  Children are kept in engine list order: the
** most recently declared child first (the engine prepends). */
typedef struct atr_node {
    const char *name;          /* lower case */
    const char *spelling; /* as written in the .atr; equal to name for the root and placeholders */
    int line, col;             /* of the name in the .atr; 0 for placeholders */
    unsigned flags;            /* parse flags of a container */
    int is_container;
    int placeholder;           /* synthetic void / void_loop */
    struct atr_node *first;    /* first child in engine order */
    struct atr_node *next;     /* next sibling in engine order */
    int child_count;
    struct atr_node *parent;   /* NULL for the root */
    unsigned order;            /* declaration order (the root is 0) */
    int pruned;                /* removed by pruning (kept only with keep_pruned) */
    int index;                 /* set by atr_build: compact index; for a pruned node, its place in the pruned list */
} atr_node;

typedef struct atr_file {
    atr_node *root;            /* synthetic root: name "root", container */
    atr_node **pruned;         /* with keep_pruned: the removed nodes (arena), in removal order */
    size_t pruned_count;
} atr_file;

/* A node pruning removed, as --show-pruned lists it. */
typedef struct atr_pruned {
    const char *name;
    const char *spelling;      /* as written in the .atr */
    int parent;                /* compact index of a kept parent, or -1 */
    int pruned_parent;         /* place in the pruned list of a removed parent, or -1 */
    int is_group;
    int line, col;
} atr_pruned;

/* After atr_build: the removed nodes of f in declaration order (a parent
** before its children), allocated in a.  Returns their count. */
size_t atr_pruned_list(atr_file *f, arena *a, atr_pruned **out);

/* Parses the .atr in src with the engine's rules, pruning names that refs
** does not contain unless anim_check.  The first error is reported at its
** token in src and NULL is returned (the engine stops there too).  Warnings
** (e.g. a token longer than 1023 bytes) are reported and parsing goes on. */
atr_file *atr_parse(source_file *src, const atr_refs *refs, int anim_check,
                    const struct profile_rules *rules, arena *a, diag_list *diags);

/* Called for every node as the numbering walk lays it out (section 4.3 /
** 4.4: before recursing, or after in cod4), and never for node 0 (the
** registry binds `root` itself).  Returns 1 when `name` is referenced and was
** already bound to another node: the builder then reports
** "duplicate animation 'n' in 'animtrees/<tree>.atr'" at that node. */
typedef struct atr_binder {
    void *ud;
    int (*bind)(void *ud, const char *name, int node_index);
} atr_binder;

/* Numbers the pruned tree exactly as the engine does, computes the checksum
** (4.6), binds references through b, and fills out (nodes allocated in a).
** More than ATRC_MAX_NODES nodes: reports
** "anim tree 'x' has too many nodes (N, max 65536)" at line 1 of src and
** returns -1.  Returns 0 otherwise (duplicates are reported, not fatal). */
int atr_build(atr_file *f, const char *tree_name, source_file *src, const atr_binder *b,
              const struct profile_rules *rules, arena *a, diag_list *diags, atrc_tree *out);

/* Where diagnostics about node `index` of t are placed in the .atr: its own
** name, or — for the root and placeholders, which have none — its parent's
** name, or line 1. */
void atr_node_position(const atrc_tree *t, int index, int *line, int *col);

/* xanim header (section 7.1). */
typedef struct xanim_header {
    int version;
    unsigned frames;    /* as stored */
    int bones;
    unsigned flags;     /* bit 0 looping, bit 1 delta */
    int asset_type;     /* cod4 only */
    int frame_rate;
} xanim_header;

typedef enum { XANIM_OK = 0, XANIM_TRUNCATED, XANIM_BAD_VERSION } xanim_status;

/* Reads the header; XANIM_BAD_VERSION still fills out->version. */
xanim_status xanim_read_header(const unsigned char *data, size_t len, const struct profile_rules *rules,
                               xanim_header *out);

/* Reads the first n bytes of the asset xanim/<name> (only the header is ever
** read): returns 1 (found; *got bytes in buf, *where names the file), 0 (no
** such asset) or -1 (found but unreadable; *where and *err say why). */
typedef struct atr_asset_finder {
    void *ud;
    int (*read)(void *ud, const char *name, unsigned char *buf, size_t n, size_t *got,
                const char **where, const char **err);
} atr_asset_finder;

/* Resolves every leaf's asset (section 4.8 / 7.3): reads its header and sets
** looping/frames/frame_rate/has_asset; reports "Cannot find 'xanim/n'",
** "xanim 'n' out of date (version V, expecting E)", "malformed xanim 'n' ..."
** at the leaf's .atr line (cod2/cod4: a warning and the `void` default).
** `void` and `void_loop` are built in unless a game directory provides them.
** Returns how many leaves' xanims no game directory holds. */
int atr_resolve_assets(atrc_tree *t, source_file *src, const atr_asset_finder *finder,
                        const struct profile_rules *rules, diag_list *diags);

/* Sync setup (6.1): reports the sync errors at the .atr line of the node;
** sets ATR_FLAG_SYNC_ROOT and kind bits in the runtime flags.  Leaves whose looping
** is unknown (-1) are not checked. */
void atr_sync_setup(atrc_tree *t, source_file *src, const struct profile_rules *rules, diag_list *diags);

#endif
