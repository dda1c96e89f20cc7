/* Every rule that differs between the engine dialects, in one table: a stage
** asks profile_get(p)->rule and never compares profile values itself, so a
** new game is one row in profile.c.  Sources: stock-behavior.md section 8,
** grammar.md, load-order.md, game-files.md. */
#ifndef ATRC_PROFILE_H
#define ATRC_PROFILE_H
#include "atrc.h"
#include "builtins.h"

typedef struct profile_rules {
    const char *name;              /* "uo", "cod1", "cod2", "cod4" */

    /* ---- .atr files and trees (stock-behavior.md) ---- */
    int atr_additive;              /* `additive` is a property keyword (cod4) */
    int atr_escape_backslash;      /* `\` escapes in the .atr tokenizer (cod2, cod4) */
    int numbering_two_pass;        /* cod4's two-pass node numbering */
    int tree_missing_is_warning;   /* "unknown anim tree" is a warning, not an error (cod1, uo) */
    int sync_error_names_leaf;     /* duplicate-sync message names the leaf, not the parent (cod1, uo) */
    int default_asset_swap;        /* a default (void) leaf swaps to void_loop in a loopsync group (cod2, cod4) */
    const char *nonleaf_anim_name; /* what animation-name queries give for a parent */

    /* ---- xanim headers ---- */
    int xanim_version;             /* expected header version */
    int xanim_header_size;         /* bytes of the header that are read */
    int xanim_has_asset_type;      /* byte 7 is an asset type, frame rate at 8 (cod4) */
    int xanim_lenient;             /* a missing/bad xanim becomes the default asset (cod2, cod4) */

    /* ---- compile stage ---- */
    int devblock_anim_error;       /* `%name` inside /# #/ is an error (cod1, uo) */

    /* ---- compile-stage checks (src/check.c; grammar.md section 3) ---- */
    int dup_function_names_it;     /* "function '%s' already defined" (cod2, cod4) vs "function already defined" */
    int devblock_toplevel_markers; /* top-level /# and #/ are free-standing markers paired at compile time (cod2, cod4) */
    int labels_nested_in_switch;   /* case/default anywhere inside a switch body, not only directly in its list (cod1, uo) */
    int devblock_restrictions;     /* no wait/waittill/waittillmatch in /# #/, no label/break/continue whose
                                      switch or loop lies outside the /# #/ (cod1, uo) */
    int jump_after_leave_illegal;  /* break/continue after a break/return/continue of the same list (cod2, cod4) */
    int missing_case_statement;    /* statement before the first label or after a leave in a case (cod2, cod4) */
    int constant_folding;          /* binary operators on constants evaluated at compile time, while (0) (cod2, cod4) */
    int definite_assignment;       /* locals must be assigned before they are read (cod2, cod4) */
    int index_base_call_ok;        /* `f()[0] = 1` is allowed (cod1, uo) */
    const char *msg_index_base;    /* element assignment on a base that is not a variable */
    const char *msg_dev_builtin_value; /* a developer builtin's value used outside /# #/ */
    int unknown_builtin_at_compile; /* plain calls to unknown names: "unknown (builtin) function/method '%s'"
                                       at once (cod1, uo); otherwise a link-time "unknown function" (cod2, cod4) */
    int includes_define_functions; /* functions of #include'd files count as defined (cod2, cod4) */
    int prof_are_keywords;         /* prof_begin/prof_end are statements, never calls to resolve (cod2, cod4) */
    const builtin_list *builtins_mp; /* the multiplayer tables (complete) */
    const builtin_list *builtins_sp; /* single player: a table, or the observed names beyond builtins_mp */
    int builtins_sp_complete;      /* builtins_sp is the whole SP table (cod4); else SP = mp + sp, incomplete */
} profile_rules;

/* The row of profile p (never NULL: an out-of-range p gives the uo row). */
const profile_rules *profile_get(atrc_profile p);

#endif
