/* The one context struct of a compilation (options, memory, diagnostics, the
** game files, the tree registry, every reference: no state lives outside
** it), shared by every stage from compile/ up and by api.c, which makes and
** frees it. */
#ifndef ATRC_CONTEXT_H
#define ATRC_CONTEXT_H
#include "atrc.h"
#include "base/arena.h"
#include "game/builtins.h"
#include "base/diag.h"
#include "files/gamefs.h"
#include "compile/registry.h"
#include "base/source.h"
#include "base/vec.h"

typedef struct note_wait note_wait;

struct atrc_ctx {
    atrc_options opts;
    const struct profile_rules *rules; /* opts.profile's row, set when the context is made */
    arena mem;                 /* names, references, trees: freed with the context */
    diag_list diags;
    VEC(source_file *) sources; /* every file read, kept for diagnostics excerpts */
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
    const struct overlay *overlay; /* its buffers, read instead of files (overlay.h), or NULL */
    struct fe_cache *records;  /* its files' parses kept across compilations (frontend.h), or NULL */
    struct sites_store *scans; /* its scripts' sites kept across compilations (output/sites.h), or NULL */
    VEC(struct note_wait *) note_waits; /* waittillmatch calls to check once the trees are built (notewait.c) */
    struct rt_file *runtime_files, *runtime_tail; /* the animation builtins' calls, in compile order,
                                                     until the run-time checks (runtime_anim.c) */
};

#endif
