/* The engine's script load walk (load-order.md sections 2-5): entry scripts
** per profile, each file compiled completely and then its `#include`s and
** `path::func` targets loaded depth first in emission order, the cross-file
** link checks, and the engine's own tree registrations after the scripts. */
#ifndef ATRC_WALK_H
#define ATRC_WALK_H
#include <stddef.h>
#include "check/check_stage.h"
#include "base/hashtab.h"
#include "script/script_refs.h"
#include "base/source.h"
#include "base/vec.h"

struct tree_entry;

typedef struct walk_script {
    const char *name;          /* canonical, without .gsc */
    const char *file;          /* where it was read (path or ARCHIVE:ENTRY); NULL when missing */
    struct walk_script *from;  /* the script whose reference loaded it; NULL: the engine */
    int ref_line, ref_col;     /* that reference in `from` */
    int depth;                 /* 0 for an entry */
    source_file *src;          /* NULL when missing */
    int unreadable;            /* found but could not be read (reported) */
    VEC(struct tree_entry *) trees; /* trees its directives name, first use order */
    int new_trees;             /* how many of them it registered first */
    script_refs refs;
    check_file_result checked; /* names the compile-stage checks left for its #includes */
    int has_checked;
    VEC(struct walk_script *) includes; /* loaded #include targets, sorted by address (for lookups) */
    hashtab func_index;        /* refs.funcs by name */
    unsigned mark, missing_mark, include_mark;
    int suggest_queries;       /* names its link gave a suggestion (SUGGEST_MAX_QUERIES) */
    int suggested;             /* missing: the nearest script name was looked for */
    const char *suggestion;    /* missing: that name, or NULL */
} walk_script;

typedef struct definers {
    const char *name;
    VEC(struct walk_script *) scripts; /* in load order, each once */
} definers;

/* A script the walk will probably start, read and handed to the workers to
** parse ahead (ctx_prefetch_source). */
typedef struct walk_ahead {
    const char *name;          /* canonical */
    source_file *src;
    struct fe_request *req;
} walk_ahead;

typedef struct walk_state {
    VEC(walk_script *) scripts; /* load order */
    hashtab by_name;           /* scripts by name */
    VEC(definers) defs;        /* each function name of the loaded scripts, with who defines it */
    hashtab def_index;         /* defs by name */
    unsigned gen;
    int pending_overflow;      /* MAX_PRECACHE_ENTRIES reported */
    const char *title;         /* "map mp_carentan, gametype tdm" / "entry maps/x" */
    struct tree_entry *engine_tree; /* multiplayer: the tree the engine registered */
    int engine_names;          /* fixed names the engine registered */
    const char *playeranim_file;
    int playeranim_names;
    int missing_suggestions;   /* missing scripts given a nearest name (SUGGEST_MAX_QUERIES) */
    walk_ahead *ahead;         /* parsed ahead, not yet started (a bounded few) */
    size_t ahead_count;
} walk_state;

void walk_free(walk_state *w);

#endif
