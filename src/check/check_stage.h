/* The compile stage's own errors (grammar.md section 3): duplicate functions,
** developer blocks, case/default/break/continue, vector arity, `not an
** object`, element assignment bases, CoD2/CoD4 constant folding and definite
** assignment, CoD1/UO developer-block restrictions, and function resolution
** against the game's builtin names.
**
** File-local and pure: the checks see the AST items of one file, its
** source_file, the profile row and the options, and write into the diag_list
** they are given — nothing else — so files can be checked on worker threads.
** Items come one at a time, as the parser streams them (a long function in
** pieces: check_function_begin); an item is only valid during check_item
** (what is kept is copied).  Every walk is iterative or
** depth-bounded.  (Named check_stage.h, not check.h: with -Isrc that name
** would hide the Check library's <check.h> from the tests.) */
#ifndef ATRC_CHECK_STAGE_H
#define ATRC_CHECK_STAGE_H
#include "base/arena.h"
#include "script/ast.h"
#include "game/builtins.h"
#include "base/diag.h"
#include "game/profile.h"
#include "base/source.h"

typedef enum {
    CHECK_REF_FUNCTION = 0, /* plain call `foo()`: a builtin function candidate */
    CHECK_REF_METHOD,       /* `obj foo()`: a builtin method candidate */
    CHECK_REF_SCRIPT        /* `thread foo()`, `obj thread foo()`, `::foo`: always a script function */
} check_ref_kind;

/* A function reference with its position. */
typedef struct check_ref {
    const char *name;     /* lower case */
    const char *path;     /* `path::name` and #include: the path as written; else NULL */
    int line, col;        /* the name; for `path::name` and #include the path / '#include' token */
    check_ref_kind kind;
    int certain;          /* unknown for sure (the game's error) rather than "not known to atrc" (warning) */
    /* For the message (check_report_unknown): */
    const char *spelling; /* the name as written; NULL: name */
    int includes_searched; /* the file's #includes were searched too (the load walk's link) */
    const char *suggestion; /* the nearest name, ready to print ("'windmill' (line 13)",
                               "the builtin 'getent'"), or NULL */
    const char *elsewhere; /* another loaded file defines it: what to do, ready to print; or NULL */
    const char *dev_where; /* defined only in a top-level /# #/ there ("line 5", "FILE:5"), which
                              the game does not compile without developer_script; or NULL */
} check_ref;

/* What the load walk needs to link files (cod2/cod4 #include; `path::f` of
** every game).  Arrays live in `mem`. */
typedef struct check_file_result {
    arena mem;
    const char **defined;         /* functions this file defines (lower case, no dev functions; any order) */
    size_t defined_count;
    check_ref *unresolved;        /* references no definition here nor builtin resolves, left for the
                                     included files to provide (cod2/cod4 files with #include) */
    size_t unresolved_count;
    check_ref *scoped;            /* `path::name` calls and references in compiled code (outside /# #/
                                     unless developer_script), in source order */
    size_t scoped_count;
    check_ref *includes;          /* #include lines (path, position of '#include') */
    size_t include_count;
} check_file_result;

typedef struct check_state check_state;

check_state *check_begin(source_file *src, const profile_rules *rules, const atrc_options *opts,
                         diag_list *diags);
/* Builtin names beyond the game's stock list (--extension, --builtins):
** read-only, alive until check_end/check_finish; NULL (the default): none. */
void check_use_builtins(check_state *st, const builtin_set *set);
void check_item(check_state *st, const ast_node *item);
/* A function item in pieces, as script_parse_stream hands it on: its node
** (the body an empty block at its '{', valid until the end), the elements
** of its body's own list in runs, in order (first, then through `next`;
** valid during the call), then its end:
** complete, the same diagnostics as check_item of the whole function, in the
** same order; not complete (the parser dropped it), nothing of it, as for
** an item never reduced. */
void check_function_begin(check_state *st, const ast_node *fn);
void check_function_stmts(check_state *st, const ast_node *first);
void check_function_end(check_state *st, const ast_node *fn, int complete);
/* File-level checks: unclosed top-level /#, function resolution; then the
** file's diagnostics (from check_begin on) are put in source order.  With
** `out`, references that an #include'd file may still provide are stored
** there (for check_report_unknown after linking) instead of being dropped,
** and the file's summary is filled (free it with check_result_free).
** Frees st. */
void check_end(check_state *st, check_file_result *out);
void check_result_free(check_file_result *r);
/* A deep copy of from into to (whose old contents are not freed). */
void check_result_copy(check_file_result *to, const check_file_result *from);
/* check_end without the sort, for a caller that adds more of the file's
** diagnostics first and then sorts them all with diag_sort_range (diag.h). */
void check_finish(check_state *st, check_file_result *out);

/* Reports one reference that linking left unresolved, in the profile's
** wording (an error), or as atrc's own warning when ref->certain is 0; the
** game's words come first, then the name as written, where atrc looked and
** ref->suggestion. */
void check_report_unknown(diag_list *diags, source_file *src, const profile_rules *rules,
                          const atrc_options *opts, const check_ref *ref);

/* Offers the builtin names of that kind (function or method, as `kind`
** calls) that the game mode's lookup uses to a suggestion query; nothing
** for a script reference (never a builtin). */
struct suggest;
void check_suggest_builtins(struct suggest *s, const profile_rules *rules, const builtin_set *set,
                            atrc_game_mode mode, check_ref_kind kind);
/* The text of a builtin suggestion ("the builtin 'getent'", "the builtin
** method 'getorigin'"), in a. */
const char *check_builtin_suggestion(arena *a, const char *name, check_ref_kind kind);

#endif
