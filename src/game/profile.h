/* Every rule that differs between the engine dialects, in one table: the
** context looks its row up once when it is made (profile_get) and every stage
** reads rules->rule from that pointer, never comparing profile values itself.
** A new game is an atrc_profile value (include/atrc.h), a row in profile.c
** (its grammar family's rules, then its own) and its builtin lists
** (data/builtins/GAME.txt, declared in builtins.h); the CLI's --profile help
** and usage message and the man page name the games too.  Sources:
** stock-behavior.md section 8, grammar.md, load-order.md, game-files.md. */
#ifndef ATRC_PROFILE_H
#define ATRC_PROFILE_H
#include "atrc.h"
#include "game/builtins.h"

/* An entry script the engine loads by itself (load-order.md section 2):
** `%g` in the name stands for the gametype, `%m` for the map. */
typedef struct script_entry {
    const char *name;              /* NULL ends a list */
    const char *labels[7];         /* functions the engine then looks up (NULL-terminated) */
    int optional;                  /* may be missing (the level script of a multiplayer map) */
} script_entry;

typedef struct profile_rules {
    const char *name;              /* "uo", "cod1", "cod2", "cod4" */

    /* ---- .atr files and trees (stock-behavior.md) ---- */
    int atr_additive;              /* `additive` is a property keyword (cod4) */
    int atr_escape_backslash;      /* `\` escapes in the .atr tokenizer (cod2, cod4) */
    int numbering_two_pass;        /* cod4's two-pass node numbering */
    int tree_missing_is_warning;   /* "unknown anim tree" is a warning, not an error (cod1, uo) */
    int sync_error_names_leaf;     /* duplicate-sync message names the first leaf below, not the nested group (cod1, uo) */
    int default_asset_swap;        /* a default (void) leaf swaps to void_loop in a loopsync group (cod2, cod4) */
    const char *nonleaf_anim_name; /* what animation-name queries give for a parent */

    /* ---- xanim headers ---- */
    int xanim_version;             /* expected header version */
    int xanim_header_size;         /* bytes of the header that are read */
    int xanim_has_asset_type;      /* byte 7 is an asset type, frame rate at 8 (cod4) */
    int xanim_lenient;             /* a missing/bad xanim becomes the default asset (cod2, cod4) */

    /* ---- script lexer (grammar.md 1): G1 = cod1/uo, G2 = cod2/cod4 ---- */
    int kw_do;                     /* `do` is a keyword (do ... while) (G1) */
    int kw_cast;                   /* `(int)` `(float)` `(string)` `(bool)` are cast tokens (G1) */
    int kw_hash;                   /* a lone `#` is a token no rule uses (G1); else a stray byte */
    int kw_include;                /* `#include` is a directive (G2) */
    int kw_debug;                  /* waittillframeend breakpoint prof_begin prof_end breakon
                                   ** are keywords and `$` a token (G2) */
    int max_string_length;         /* raw bytes a string may hold; 0 = no limit (UNCONFIRMED for G1) */

    /* ---- script grammar (grammar.md 2) ---- */
    const struct profile_rules *other_grammar; /* a row of the other grammar family (syntax-error hints) */
    int leading_empty_arg;         /* `f(, x)` and `f(, a) {}`: an empty first element is dropped (G1) */
    int leading_semis;             /* any number of `;` before the first top-level item (G1) */
    int switch_body_any_stmt;      /* a switch body may be any statement, not only a block (G1) */
    int dev_wraps_one_function;    /* a top-level `/# ... #/` wraps exactly one function (G1) */
    int self_field;                /* `a.self` parses (debugger form, compile error later) (G2) */

    /* ---- compile stage ---- */
    int devblock_anim_error;       /* `%name` inside /# #/ is an error (cod1, uo) */

    /* ---- game files (game-files.md) ---- */
    const char *archive_ext;       /* archives of a game directory: ".pk3" (cod1, uo), ".iwd" (cod2, cod4) */
    int localized_below_all;       /* localized archives below every other entry (cod1, uo), not first in their directory */
    const char *base_game_dir;     /* --install: base game directory above main ("uo"), or NULL */
    const char *install_dev_dirs;  /* --install: development directories below main, lowest first,
                                   ** space-separated; used when present (cod2) */
    int devblock_anim_dropped;     /* `%name` inside /# #/ is not compiled unless developer_script (cod4) */
    int cod4x_directives_note;     /* `#if`/`#else`/`#endif`: the error says the CoD4x server accepts them (cod4) */
    const char *dev_function_ref;  /* normal code naming a developer function, with developer_script */

    /* ---- the load walk (load-order.md) ---- */
    const script_entry *mp_entries;   /* multiplayer entry scripts, in order */
    const script_entry *sp_entries;   /* single-player entry scripts before the entity-driven ones */
    int sp_order_known;               /* the single-player order is sourced (cod4 only) */
    const char *const *mp_engine_anims; /* `multiplayer` names the engine registers before mp/playeranim.script */
    const char *sp_required_tree;     /* single player: a tree some script must have registered */
    unsigned max_pending_scripts;     /* pending loads of the whole recursion path (cod4: 1024), 0: no limit */
    const char *unknown_gametype_note; /* what "unknown gametype" adds (uo: its server runs dm), or NULL */
    /* ---- compile-stage checks (src/check/check.c; grammar.md section 3) ---- */
    int dup_function_names_it;     /* "function '%s' already defined" (cod2, cod4) vs "function already defined" */
    int devblock_toplevel_markers; /* top-level /# and #/ are free-standing markers paired at compile time (cod2, cod4) */
    int labels_nested_in_switch;   /* case/default anywhere inside a switch body, not only directly in its list (cod1, uo) */
    int devblock_restrictions;     /* no wait/waittill/waittillmatch in /# #/, no label/break/continue whose
                                      switch or loop lies outside the /# #/ (cod1, uo) */
    int jump_after_leave_illegal;  /* break/continue after a break/return/continue of the same list (cod2, cod4) */
    int missing_case_statement;    /* statement before the first label or after a leave in a case (cod2, cod4) */
    int constant_folding;          /* binary operators on constants evaluated at compile time, while (0) (cod2, cod4) */
    int definite_assignment;       /* locals must be assigned before they are read (cod2, cod4) */
    int max_locals;                /* distinct locals incl. parameters a function may have (cod2, cod4: 64); 0: no limit */
    int index_base_call_ok;        /* `f()[0] = 1` is allowed (cod1, uo) */
    int index_base_paren_ok;       /* `(a)[0] = 1` is allowed: a parenthesised variable is one (cod1, uo) */
    const char *msg_index_base;    /* element assignment on a base that is not a variable */
    const char *msg_dev_builtin_value; /* a developer builtin's value used outside /# #/ */
    int dev_statement_drops_args;  /* not that error inside a developer builtin statement, which the
                                      engine drops whole (cod2, cod4; grammar.md 3.2) */
    int unknown_builtin_at_compile; /* plain calls to unknown names: "unknown (builtin) function/method '%s'"
                                       at once (cod1, uo); otherwise a link-time "unknown function" (cod2, cod4) */
    int includes_define_functions; /* functions of #include'd files count as defined (cod2, cod4) */
    const builtin_list *builtins_mp; /* the multiplayer tables (complete) */
    const builtin_list *builtins_sp; /* single player: a table, or the observed names beyond builtins_mp */
    int builtins_sp_complete;      /* builtins_sp is the whole SP table (cod4); else SP = mp + sp, incomplete */
    /* ---- run-time animation checks (runtime-anim.md 1.2, 7) ---- */
    const char *msg_not_an_anim;     /* a value that is not an anim: "type %s is not an anim" (cod2, cod4) */
    const char *msg_not_an_animtree; /* a value that is not #animtree */
} profile_rules;

/* The row of profile p (never NULL: an out-of-range p gives the uo row). */
const profile_rules *profile_get(atrc_profile p);

/* The builtin `name` (lower case) of that kind for the game mode, from the
** stock lists and then set (may be NULL), or NULL; *certain: a no is sure.
** The one lookup of the run's builtin set: calls resolve with it and CoD4x's
** `#if isSyscallDefined NAME` (script/) asks it. */
const builtin_entry *profile_builtin_lookup(const profile_rules *rules, const builtin_set *set, atrc_game_mode mode,
                                            builtin_kind kind, const char *name, int *certain);

#endif
