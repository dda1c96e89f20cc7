/*
** atrc — public API of the animation-tree compiler library.
**
** The CLI (src/cli/main.c) is a thin client of this header: a program can embed
** the whole pipeline (scripts -> references -> trees -> packed values) or use
** the tree queries on its own.  All state lives in one atrc_ctx, so two
** compilations can run in one process, each in its own thread.
**
** Conventions, for every function below:
** - Ownership: strings and structs the library returns belong to the
**   context that produced them and stay valid until atrc_free() on it; never
**   free or modify them.  Strings the caller passes in are copied when kept
**   (paths, names), so they may be freed after the call returns.
** - Out of memory: the library does not return an error for it; it prints
**   "atrc: out of memory" to standard error and calls the handler set with
**   atrc_set_out_of_memory_handler(), or abort().
** - A context is not safe to use from two threads at once; two contexts are.
** - FILE arguments are only written (never closed); a write error is
**   reported through the return value, never to standard error.
*/
#ifndef ATRC_H
#define ATRC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ATRC_VERSION "0.1.0"

/* Engine dialects (stock-behavior.md section 8).  ORDER: rows[] in src/game/profile.c */
typedef enum {
    ATRC_PROFILE_UO = 0,
    ATRC_PROFILE_COD1,
    ATRC_PROFILE_COD2,
    ATRC_PROFILE_COD4
} atrc_profile;

/* Property bits as the .atr parser records them (stock-behavior.md 2.5). */
#define ATRC_FLAG_LOOPSYNC    0x01u
#define ATRC_FLAG_NONLOOPSYNC 0x02u
#define ATRC_FLAG_COMPLETE    0x08u
#define ATRC_FLAG_ADDITIVE    0x10u /* cod4 only */

/* Limits (stock-behavior.md 5.4, 5.7, 4.1). */
#define ATRC_MAX_TREES        127
#define ATRC_MAX_TREE_NAME    49
#define ATRC_MAX_NODES        65536

typedef enum { ATRC_FORMAT_TEXT = 0, ATRC_FORMAT_JSON, ATRC_FORMAT_DOT } atrc_format;

/* Zero-initialised, every field has its default. */
/* Which game the scripts are checked for: which builtin list applies. */
typedef enum {
    ATRC_GAME_FILES = 0,  /* a list of files, no mode known: the union of the game's lists */
    ATRC_GAME_MP,         /* multiplayer */
    ATRC_GAME_SP          /* single player */
} atrc_game_mode;

typedef struct atrc_options {
    atrc_profile profile;
    atrc_game_mode game_mode; /* default: file list */
    int anim_check;   /* keep every node (com_animCheck 1) */
    int no_xanim;     /* do not resolve leaf assets */
    int syntax_only;  /* lex and parse only */
    int developer_script; /* the engine's developer_script 1: /# #/ code is compiled (load-order.md 3.6, 4.6) */
    int show_pruned;  /* keep the nodes pruning removes, for the listings (--show-pruned) */
    int no_warnings;  /* -w: record no warnings at all */
    int warnings_as_errors; /* -Werror: warnings are recorded as errors */
    int max_errors;   /* syntax errors reported per script before the rest of it
                         is given up: 0 the default (50), negative no limit */
    int jobs;         /* threads that read and parse scripts, the calling one included (0, 1: no threads) */
    int notetracks;   /* read every leaf's whole xanim for its notetracks when the trees are built (JSON's
                         "notetracks"); otherwise only the leaves a check or a query asks about are read */
    int runtime_anim; /* the run-time animation checks' warnings: atrc_runtime_anim */
} atrc_options;

/* What the run-time animation checks report (-Wruntime-anim, -Wno-runtime-anim,
** -Werror=runtime-anim). */
typedef enum {
    ATRC_RUNTIME_ANIM_WARN = 0, /* warnings (the default) */
    ATRC_RUNTIME_ANIM_OFF,      /* nothing */
    ATRC_RUNTIME_ANIM_ERROR     /* errors */
} atrc_runtime_anim;

typedef struct atrc_ctx atrc_ctx;

/* A node of a built (compact) tree: read only. */
typedef struct atrc_node {
    const char *name;     /* lower case; "root" for node 0, "void"/"void_loop" for placeholders */
    int parent;           /* -1 for node 0 */
    int child_count;      /* 0 for a leaf */
    int first_child;      /* parents only */
    unsigned parse_flags; /* parents: the ATRC_FLAG_* bits exactly as parsed (what JSON reports) */
    int line, column;     /* position of the name in the .atr; 0 for root and placeholders */
    int looping;          /* leaves: 1/0 from the xanim asset, -1 unknown (--no-xanim or no asset) */
    int has_asset;        /* leaves: an xanim header was read (or the engine's `void` stand-in used) */
    unsigned frames;      /* leaves with an asset: stored frame count */
    int frame_rate;       /* leaves with an asset */
    int placeholder;      /* synthetic void/void_loop */
    const char *spelling; /* the name as written in the .atr ("driveIdleA"); equal to name for the root and placeholders */
} atrc_node;

/* The library's working state of a tree (sync setup, asset substitution): opaque. */
struct atrc_tree_state;

/* A compact tree as the engine would hold it: read only, owned by the context. */
typedef struct atrc_tree {
    const char *name;   /* canonical tree name */
    int node_count;
    atrc_node *nodes;   /* node_count entries, in node-index order */
    uint32_t checksum;
    struct atrc_tree_state *state; /* not for callers */
} atrc_tree;

/* ---- context and pipeline ---- */

/* Out of memory, the library writes "atrc: out of memory" to stderr and calls
** handler, which must not return (e.g. it cleans up and calls _exit); without
** one (NULL, the default), or if it returns, abort().  Process-wide: set it
** once, before any context is created. */
void atrc_set_out_of_memory_handler(void (*handler)(void));

/* A new context with a copy of *opts (NULL: all defaults).  Never NULL. */
atrc_ctx *atrc_new(const atrc_options *opts);
/* Frees the context and everything it handed out (trees, names, strings).
** NULL is allowed. */
void atrc_free(atrc_ctx *ctx);
/* Adds a game directory (copied; its loose files and its .pk3/.iwd archives);
** later ones override earlier ones.  Not
** checked here: a missing directory simply provides no files. */
void atrc_add_game_dir(atrc_ctx *ctx, const char *dir);
/* A game install: DIR/main, (uo) DIR/uo, then DIR/FS_GAME (NULL: no mod), each with
** its archives, below every atrc_add_game_dir directory.  Returns 0, or -1 for an
** empty DIR or FS_GAME. */
int atrc_set_install(atrc_ctx *ctx, const char *dir, const char *fs_game);
/* Use the localized_LANGUAGE_* archives (NULL: none, the default).  Returns 0, or -1
** when LANGUAGE is empty or not made of letters, digits and '_'. */
int atrc_set_language(atrc_ctx *ctx, const char *language);
/* Registers TREE and references NAME in it, as engine code does, before any
** script.  Returns 0, or -1 when TREE or NAME is not an identifier (nothing
** is recorded).  A full registry is a recorded error, not a -1. */
int atrc_add_engine_anim(atrc_ctx *ctx, const char *tree, const char *name);
/* Engine extensions (interface.md "Extension builtins"): adds the builtin
** names that extension NAME (any case: "cod2x", "cod4x", "libcod", ...)
** registers for the profile's game, with the stock names it removes or
** re-flags; they are looked up only after the stock list, so none shadows a
** stock name.  Before the first script.  Returns 0, -1 when the profile's
** game has no extension of that name, -2 after the first script. */
int atrc_add_extension(atrc_ctx *ctx, const char *name);
/* The i-th extension of profile's game (0, 1, ...; NULL past the last), and
** the game (profile name) an extension name belongs to (NULL: none). */
const char *atrc_extension_name(atrc_profile profile, size_t i);
const char *atrc_extension_game(const char *name);
/* The first extension (in atrc_extension_name's order) of profile's game
** that registers name (any case) as a function, or with method as a method;
** NULL when none does.  For the editor's "add --extension" fix. */
const char *atrc_extension_defining(atrc_profile profile, const char *name, int method);
/* A user's builtin list in the same format (`function NAME` / `method NAME`,
** optionally ` dev`, `#` comments), looked up after the stock list.  Before
** the first script.  Returns 0; -1 when it cannot be read (a recorded error,
** atrc_unreadable_count() grows) or has malformed lines (each a recorded error
** at its line and column; the good lines are used); -2 after the first script. */
int atrc_add_builtins_file(atrc_ctx *ctx, const char *path);
/* Reads and compiles one script, before atrc_build_trees(); "-" reads
** standard input (named "<stdin>" in diagnostics); a directory stands for
** the .gsc files below it, in the engine's path order (atrc_add_scripts).
** Returns 0, or -1 when the file cannot be read (a diagnostic is recorded and
** atrc_unreadable_count() grows).  Syntax errors are diagnostics, not -1. */
int atrc_add_script(atrc_ctx *ctx, const char *path);
/* Read and compile scripts; the result (references, trees, every diagnostic
** and its order) is the same as atrc_add_script on each in turn, whatever
** opts.jobs is: with jobs > 1, jobs - 1 worker threads read and parse files
** ahead (a bounded window of them) while the calling thread compiles them in
** order, parsing too whenever it would otherwise wait.  Returns 0, or -1 when some file cannot be read.
** Thread safety: a context is used by one thread at a time; two contexts
** share nothing and may be used from two threads at once. */
int atrc_add_scripts(atrc_ctx *ctx, const char *const *paths, size_t n);
/* Compiles a script held in memory; data is copied, path is only used in
** diagnostics.  Returns 0. */
int atrc_add_script_buffer(atrc_ctx *ctx, const char *path, const char *data, size_t len);
/* Level mode (interface.md): compile what the game compiles when map `map`
** starts — the profile's entry scripts and everything they reach, in the
** engine's load order — then, with a gametype (multiplayer), the engine's
** `multiplayer` registrations; without one (single player), the scripts the
** entity list `entities` names (a file, or NULL).  Scripts are read through
** the game directories.  Returns 0, or -1 when `entities` cannot be read. */
int atrc_load_level(atrc_ctx *ctx, const char *map, const char *gametype, const char *entities);
/* Walk mode: the same walk from one game-relative script name ("maps/mymap"). */
void atrc_walk_script(atrc_ctx *ctx, const char *name);
/* Level and walk mode, text: the load order (which script loaded which,
** where each was found, the trees each registered).  Returns 0 or -1 on a write error. */
int atrc_emit_load_order(const atrc_ctx *ctx, FILE *out);
/* After all scripts: load, prune, build and check every registered tree and
** bind every reference.  Errors are diagnostics.  Does nothing the second
** time, or with syntax_only. */
void atrc_build_trees(atrc_ctx *ctx);

/* Errors and warnings recorded so far (after -w / -Werror). */
int atrc_error_count(const atrc_ctx *ctx);
int atrc_warning_count(const atrc_ctx *ctx);
/* Scripts given that could not be read (the CLI exits 2). */
int atrc_unreadable_count(const atrc_ctx *ctx);
/* Every file the run needed that exists but could not be read: scripts,
** trees, assets.  The CLI keeps an existing -o FILE when this is non-zero
** and the run failed. */
int atrc_read_failure_count(const atrc_ctx *ctx);

/* The file this context read (a script or a tree) that is the same file as
** path — through any path or link — as the context named it; NULL when none
** is (or path does not exist).  The CLI refuses such an -o FILE. */
const char *atrc_input_same_as(const atrc_ctx *ctx, const char *path);

/* Why an output to path (a file, symlinks already followed) would destroy
** game content: "is the archive 'main/pak0.pk3' of the search path", "is
** 'xanim/idle' in the game directory 'g', an xanim the game reads", ...  —
** an archive or file of the search path by identity, or a name the game
** reads inside a game directory, existing or not; NULL when none.  Lives as
** long as ctx.  The CLI refuses such an -o FILE, as it refuses an input
** (atrc_input_same_as). */
const char *atrc_output_conflict(atrc_ctx *ctx, const char *path);

/* How atrc_write_diagnostics prints; zero-initialised: plain, with summary. */
typedef struct atrc_diag_style {
    int color;              /* SGR colour escapes, as GCC writes them */
    const char *gcc_colors; /* a GCC_COLORS value ("error=01;31:warning=01;35:
                               locus=01:caret=01;32" are the defaults; "" turns
                               colour off); NULL: the defaults */
    int no_summary;         /* no "1 error, 2 warnings" line */
} atrc_diag_style;
/* Every diagnostic in GCC style with excerpt and caret, each written with one
** fwrite (one write(2) on an unbuffered stream: parallel runs do not
** interleave inside a diagnostic), then the summary line.  style may be NULL.
** Returns 0, or -1 on a write error. */
int atrc_write_diagnostics(const atrc_ctx *ctx, const atrc_diag_style *style, FILE *out);
/* atrc_write_diagnostics(ctx, NULL, out), ignoring write errors. */
void atrc_print_diagnostics(const atrc_ctx *ctx, FILE *out);
/* Write the result: text (references, and with show_trees the tree listing),
** JSON, or Graphviz (ATRC_FORMAT_DOT: every tree, show_trees is implied).
** With opts.show_pruned the listing, JSON and dot also hold the pruned nodes.
** Returns 0 or -1 on a write error. */
int atrc_emit(const atrc_ctx *ctx, atrc_format format, int show_trees, FILE *out);

/* Which way a Graphviz picture runs: AUTO is left to right when a tree drawn
** is wide (one of its levels holds more than ATRC_DOT_WIDE nodes), else top
** to bottom.  Left to right, each group's leaves are listed in one box, in
** engine order, in columns of at most ATRC_DOT_ROWS. */
typedef enum { ATRC_RANKDIR_AUTO = 0, ATRC_RANKDIR_TB, ATRC_RANKDIR_LR } atrc_rankdir;
#define ATRC_DOT_WIDE 12
#define ATRC_DOT_ROWS 24
/* Zero-initialised: atrc_emit's defaults. */
typedef struct atrc_emit_options {
    int show_trees;             /* text: the tree listing too */
    const char *const *trees;   /* only these trees (canonical or any case) in the listing, JSON and dot; */
    size_t tree_count;          /*   0: every tree.  JSON then also lists only their references */
    atrc_rankdir rankdir;       /* dot */
} atrc_emit_options;
/* atrc_emit with options (NULL: the defaults).  Names in trees that name no
** registered tree select nothing (atrc_tree_name lists those there are). */
int atrc_emit_with(const atrc_ctx *ctx, atrc_format format, const atrc_emit_options *eo, FILE *out);
/* Decodes a packed value to out: text, or one JSON object {"atrc_explain": 1,
** "value", "tree_index", "node_index", "tree", "path", "kind", "error"} (null
** where unknown).  With trees built (ctx not NULL) it also names the tree and
** the node path ("root/body/idle") and kind ("root", "group", "leaf").
** Returns 0; -1 when the value names no node (tree index 0, or no such tree
** or node in ctx): the reason is then written to err as an "atrc: error:"
** line (JSON also carries it as "error"); -2 on a write error to out. */
int atrc_explain(const atrc_ctx *ctx, uint32_t value, atrc_format format, FILE *out, FILE *err);
/* With trees built, atrc_explain also says why the node has its index: text
** lines "why:" (its block: the parent's children, laid out after the blocks
** before it), "pruning:" (against the tree with nothing pruned: the pruned
** nodes and placeholders laid out before it, as atrc diff words it) and
** "referenced at:" (each reference with this value, FILE:LINE:COL); JSON
** members "block", "unpruned_index", "pruning" and "references".
** atrc_explain_values: each of values in turn (text: a blank line between;
** JSON: one object a line).  Returns 0, -1 when some value names no node,
** -2 on a write error. */
int atrc_explain_values(const atrc_ctx *ctx, const uint32_t *values, size_t count, atrc_format format, FILE *out,
                        FILE *err);

/* Developer views of the front end (atrc --dump-tokens / --dump-ast): write
** the token stream or the AST of the script at path, read as the context's
** run reads it (its profile's game, and CoD4x's preprocessor when its
** extensions say so), to out, diagnostics to err.  Nothing joins the
** context.  Return 0, 1 when the script has errors, 2 when it cannot be read. */
int atrc_dump_tokens(const atrc_ctx *ctx, const char *path, FILE *out, FILE *err);
int atrc_dump_ast(const atrc_ctx *ctx, const char *path, FILE *out, FILE *err);

/* Registered trees, 1-based registry index, up to atrc_tree_count().
** atrc_get_tree: NULL when index is unused or the tree was not built; the
** tree lives as long as ctx and must not be modified. */
int atrc_tree_count(const atrc_ctx *ctx);
const atrc_tree *atrc_get_tree(const atrc_ctx *ctx, int index);
/* Canonical name of a registered tree, built or not; NULL when index is unused. */
const char *atrc_tree_name(const atrc_ctx *ctx, int index);

/* ---- tree queries (stock-behavior.md 6.2) ----
** t is a tree from atrc_get_tree() (NULL allowed); node an index into it.  A
** NULL tree or an out-of-range node answers 0 (predicates), -1 (counts and
** lengths) or NULL (names).  Returned names live as long as the tree. */
/* 1 for a leaf, else 0. */
int atrc_is_primitive(const atrc_tree *t, int node);
/* 1 for a leaf or a container inside a sync group (after sync setup), else 0. */
int atrc_has_time(const atrc_tree *t, int node);
/* Container: 1 when its sync group loops, else 0.  Leaf: its asset's looping
** bit (1/0), or -1 when unknown (--no-xanim, or a missing asset). */
int atrc_is_looped(const atrc_tree *t, int node);
/* Leaf: its asset name; parent: "<non-leaf anim>" (uo/cod1) or "" (cod2/cod4). */
const char *atrc_anim_name(const atrc_tree *t, int node, atrc_profile profile);
/* Length in seconds of a leaf (7.2); returns -1 (error) for a parent or a leaf without asset data. */
int atrc_anim_length(const atrc_tree *t, int node, double *seconds);
/* Children of node (0 for a leaf). */
int atrc_child_count(const atrc_tree *t, int node);

/* ---- comparing two runs (atrc diff) ----
** Reads two JSON outputs of atrc and writes what changed, one change per line
** (ATRC_FORMAT_TEXT) or as {"atrc_diff": 1, "changes": [...]} (JSON).
** Returns 0 no differences, 1 differences, 2 trouble (unreadable, not JSON,
** not atrc JSON: explained on err with the file's line and column). */
int atrc_diff_files(const char *old_path, const char *new_path, atrc_format format, FILE *out, FILE *err);
/* The same on documents in memory; names are used in messages only. */
int atrc_diff_buffers(const char *old_name, const char *old_data, size_t old_len, const char *new_name,
                      const char *new_data, size_t new_len, atrc_format format, FILE *out, FILE *err);

/* ---- diagnostics, structured (what --format json and the language server show) ---- */

/* A place in a file.  file is as diagnostics print it: a path, or
** ARCHIVE:ENTRY for a file inside an archive; NULL: no position (the other
** fields are then 0 / NULL).  Lines are 1-based, columns 1-based and count
** bytes; end_line/end_column are just past the token or construct that
** starts at line/column (exclusive, same units). */
typedef struct atrc_location {
    const char *file;
    const char *path;       /* the file-system path read (the archive for an entry), or NULL */
    const char *entry;      /* the entry inside the archive, or NULL */
    int line, column;
    int end_line, end_column;
} atrc_location;
/* A second place a diagnostic concerns ("first defined here", "tree selected
** here", "included from here"). */
typedef struct atrc_related {
    atrc_location where;
    const char *message;
} atrc_related;
typedef enum { ATRC_SEVERITY_ERROR = 0, ATRC_SEVERITY_WARNING, ATRC_SEVERITY_NOTE } atrc_severity;
typedef struct atrc_diagnostic {
    atrc_severity severity;
    atrc_location where;
    const char *code;       /* stable kebab-case name ("duplicate-animation"), the same as JSON's "code" */
    const char *message;    /* as printed (without " [-Werror]") */
    int promoted;           /* a warning made an error by -Werror */
    size_t related_count;
    const atrc_related *related;
} atrc_diagnostic;
/* Diagnostics recorded so far, in the order they print. */
size_t atrc_diagnostic_count(const atrc_ctx *ctx);
/* Fills *out with diagnostic i (strings live as long as ctx).  Returns 0, or
** -1 when i is out of range. */
int atrc_get_diagnostic(const atrc_ctx *ctx, size_t i, atrc_diagnostic *out);
/* The code of a diagnostic message as printed ("duplicate-animation" for
** "duplicate animation 'x' in 'animtrees/t.atr'"); NULL for a text no
** diagnostic of atrc has.  atrc_diagnostic_code_count/_name list them all. */
const char *atrc_diagnostic_code(const char *message);
size_t atrc_diagnostic_code_count(void);
const char *atrc_diagnostic_code_name(size_t i);

/* The text the compilation read for file (a path or ARCHIVE:ENTRY, as in
** atrc_location.file): for converting positions of files the editor has not
** opened.  NULL when it read none (or the file changed since).  *len gets
** its length. */
const char *atrc_source_text(atrc_ctx *ctx, const char *file, size_t *len);
/* Every file the compilation read (scripts and trees), in reading order,
** named as in atrc_location.file. */
size_t atrc_file_count(const atrc_ctx *ctx);
const char *atrc_file_name(const atrc_ctx *ctx, size_t i);

/* ---- sessions: a compilation that can be asked again ---- */

/* A session holds the editor's buffers across compilations: each
** compilation begun from it reads them instead of the files they stand for.
** It also keeps each script's parse: a script whose path, text (compared
** byte for byte) and parse inputs (options but jobs, game mode, shipped
** extensions) equal the previous compilation's is not parsed again; the
** results are the same as without a session.  And it keeps the game-file
** index: each directory listing and each archive's entry table, reused while
** the directory or archive has the identity, size, modification and change
** times it was read with (checked at every compilation, each directory on
** its own; one changed less than 3 seconds before it was read is read
** again), with the warnings its indexing gave, given again; no archive is
** held open between compilations.  The loose files read whole (scripts and
** .atr trees) and the xanim headers read from loose files are kept the same
** way.  What a compilation did not use is dropped.  (Archive entries are read
** again, and the .atr trees parsed and built again, by each compilation.)
** Not safe for two threads at once. */
typedef struct atrc_session atrc_session;
atrc_session *atrc_session_new(void);
/* Frees s; a context begun from it must have been freed first. */
void atrc_session_free(atrc_session *s);
/* path: a file-system path (made absolute and real by the library).  Every
** read a compilation makes of that file (a script operand, a script a level
** or walk loads from a loose game directory, a loose .atr) reads data
** instead (atrc_add_script_buffer's text, named as path is named).  A loose
** game file must exist on disk to be found (the directory listing decides
** what a game directory holds); an operand need not.  data is copied.
** Returns 0, or -1 when path is empty. */
int atrc_session_set_buffer(atrc_session *s, const char *path, const char *data, size_t len);
void atrc_session_drop_buffer(atrc_session *s, const char *path);
/* A new context (a copy of *opts, NULL: defaults) whose reads by path go
** through s's buffers first.  The caller configures it exactly as a
** command-line run (atrc_add_game_dir, atrc_set_install, atrc_add_extension,
** atrc_load_level, atrc_add_scripts, ...), then atrc_build_trees; every
** result is the same as without a session when the buffers equal the files,
** byte for byte.  Free it with atrc_free before beginning the next one (one
** context of a session at a time: NULL while one is alive).  A context copies
** what it reads from a buffer, so buffers may be set and dropped while it is
** alive (it keeps answering from what it compiled). */
atrc_ctx *atrc_session_begin(atrc_session *s, const atrc_options *opts);

/* ---- position queries ----
** file: as in atrc_location.file, or a file-system path of a file the
** compilation read; line and column 1-based, column in bytes.  After
** atrc_build_trees. */
typedef enum {
    ATRC_AT_NONE = 0,
    ATRC_AT_ANIM,           /* %name in a script */
    ATRC_AT_ANIMTREE,       /* #animtree */
    ATRC_AT_USING_ANIMTREE, /* #using_animtree("name") */
    ATRC_AT_CALL,           /* f(), ::f, path::f, thread/method calls */
    ATRC_AT_FUNCTION,       /* the name of a function definition */
    ATRC_AT_INCLUDE,        /* #include path; or the path of path::f */
    ATRC_AT_NODE,           /* a node name in an .atr */
    ATRC_AT_LOCAL           /* a parameter or local variable of a function */
} atrc_at_kind;
typedef struct atrc_at {
    atrc_at_kind kind;
    atrc_location where;    /* the token or construct under the position */
    const char *name;       /* %name, function, tree or script name as written */
    const char *path;       /* path::f: the script name (canonical, "maps/_utility"); else NULL */
    int tree, node;         /* registry index and node index (-1: none); node -1 for a pruned .atr node */
    int64_t value;          /* anim: packed value; animtree: registry index; -1: none */
    const char *tree_name;  /* canonical tree name, or NULL */
    /* anim and node facts (hover) */
    int is_leaf;            /* 1 leaf, 0 group, -1 unknown */
    int looping;            /* leaves: 1/0 from the asset, -1 unknown; groups: 1 when its sync group loops */
    unsigned parse_flags;   /* groups: ATRC_FLAG_* as parsed */
    unsigned sync_flags;    /* after sync setup: ATRC_FLAG_LOOPSYNC / _NONLOOPSYNC of the sync group
                               the node is in (leaves and groups), 0 when in none */
    int has_time;           /* 1: a leaf, or a group in a sync group (it or an ancestor loopsync/nonloopsync);
                               0: a blend group without time (flagged calls and getanimtime on it fail at
                               run time); -1 unknown */
    const char *node_path;  /* "root/body/idle", or NULL */
    const char *reason;     /* why the node has its index (atrc_explain's why/pruning lines), or NULL */
    /* tree facts (#using_animtree, #animtree) */
    const char *tree_file;  /* the .atr read, or NULL */
    int node_count, node_total; /* nodes kept, nodes declared (with placeholders); -1 unknown */
    uint32_t checksum;
    /* call facts */
    const char *builtin_list; /* "stock cod4 multiplayer", "extension cod4x", "builtins FILE"; NULL: not a builtin */
    const char *signature;  /* "f(a, b)" of the definition (a local's: of its function), or NULL */
    /* local facts */
    int local_param;        /* 1 a parameter, 0 a local variable */
    /* leaf facts from its xanim (hover; never with --no-xanim) */
    double length;          /* seconds (frames / frame rate, runtime-anim.md 1.4 O); -1 unknown */
    const char *notetracks; /* "`fire` (frame 10), `end` (frame 39)": the xanim read whole; NULL unknown */
} atrc_at;
/* What is at file:line:column.  Returns 1 (and fills *out), or 0 when
** nothing atrc knows is there (out->kind ATRC_AT_NONE). */
int atrc_lookup(atrc_ctx *ctx, const char *file, int line, int column, atrc_at *out);
/* Where at's subject is defined: an anim's or node's line in the .atr, a
** tree's .atr (line 1), a function's definition, an include's script (line
** 1).  Returns 1, or 0 when unknown. */
int atrc_definition(atrc_ctx *ctx, const atrc_at *at, atrc_location *out);
/* Every script reference resolving to at's node (an anim or an .atr node),
** in compile order; every call of at's function (f(), thread f(), a f(),
** ::f, path::f) in the compilation's scripts that resolves to the same
** definition, file by file in the compilation's order; every use of a
** local or parameter in its function, in source order.  Fills up to max of
** out and returns how many there are.  Linear in the uses. */
size_t atrc_references(const atrc_ctx *ctx, const atrc_at *at, atrc_location *out, size_t max);

/* Completion candidates at a position: after '%' every name the .atr of the
** tree in scope declares, as written: the nodes kept first (index order,
** detail "tree[index] node N = 0x..."), then those pruning removed
** (declaration order, detail "not referenced yet: adding it keeps it"); inside
** the note string of waittillmatch(notify, " the notetracks of the leaves
** flagged with that notify above it in the function, of animhasnotetrack(%x, "
** and getnotetracktimes(%x, " those of %x (read from their xanims); inside
** #using_animtree(" the trees on the search
** path; after path:: that script's functions; elsewhere, inside a
** function, its parameters and locals first, then the file's functions,
** its includes' and the builtins (stock and extensions). */
typedef enum {
    ATRC_COMPLETE_LEAF = 0, ATRC_COMPLETE_GROUP, ATRC_COMPLETE_TREE,
    ATRC_COMPLETE_FUNCTION, ATRC_COMPLETE_BUILTIN_FUNCTION, ATRC_COMPLETE_BUILTIN_METHOD,
    ATRC_COMPLETE_LOCAL,
    ATRC_COMPLETE_NOTETRACK  /* inside the note of waittillmatch(notify, ", animhasnotetrack(%x, ", getnotetracktimes(%x, " */
} atrc_completion_kind;
typedef struct atrc_completion {
    atrc_completion_kind kind;
    const char *label;      /* the text to insert */
    const char *detail;     /* "tree[index] node N", "maps/_utility.gsc:12", "stock cod4 multiplayer", ... */
} atrc_completion;
/* The candidates, owned by ctx until the next call of atrc_complete on it;
** *count gets their number; start_column (when not NULL) gets the column the
** word being completed starts at. */
const atrc_completion *atrc_complete(atrc_ctx *ctx, const char *file, int line, int column, size_t *count,
                                     int *start_column);

/* Document symbols: a script's functions; every node an .atr declares, the
** ones pruning removed too, in declaration order with their depth (an
** outline).  Owned by ctx until the next call; NULL (count 0) for a file the
** compilation did not read. */
typedef struct atrc_symbol {
    const char *name;
    int is_function;        /* 1 function; 0 .atr node */
    int depth;              /* .atr: 0 for top-level nodes */
    int is_leaf;            /* .atr nodes */
    atrc_location where;    /* the name */
    atrc_location extent;   /* a function: its name to just past its closing brace; a node: its name */
} atrc_symbol;
const atrc_symbol *atrc_symbols(atrc_ctx *ctx, const char *file, size_t *count);

/* Workspace symbols: every function of every script of the compilation
** whose name holds query (ASCII case folded; "" for all), in the
** compilation's file order.  Owned by ctx until the next call. */
const atrc_symbol *atrc_workspace_symbols(atrc_ctx *ctx, const char *query, size_t *count);

/* Folding ranges of a script: each block ({ }) and /# #/ spanning lines,
** by the line it opens on and the line it closes on (1-based).  Owned by ctx
** until the next call; NULL for a file the compilation did not read. */
typedef struct atrc_fold {
    int start_line, end_line;
} atrc_fold;
const atrc_fold *atrc_folds(atrc_ctx *ctx, const char *file, size_t *count);

/* The %names of a script, in source order, as the compilation resolved
** them: value -1 when unresolved (undefined, no tree), is_leaf 1 leaf, 0
** group, -1 unresolved.  Owned by ctx until the next call. */
typedef struct atrc_anim_site {
    atrc_location where;
    int64_t value;
    int is_leaf;
} atrc_anim_site;
const atrc_anim_site *atrc_anim_sites(atrc_ctx *ctx, const char *file, size_t *count);

/* Signature help: the call whose argument list holds line:column (the
** innermost; an unclosed one runs to the end of its statement).  A script
** function: its parameters as its definition names them; an animation
** builtin (runtime-anim.md 1): its arguments, with their kinds and how many
** it takes.  Returns 1 and fills *out (strings owned by ctx until the next
** call), or 0. */
typedef struct atrc_signature {
    const char *label;          /* "setanim(anim, weight, goaltime, rate)" */
    const char *doc;            /* "builtin method: 1 to 4 arguments; ..." or "maps/x.gsc:12", or NULL */
    size_t param_count;
    const char *const *params;  /* each parameter's name as the label spells it */
    const char *const *param_docs; /* each parameter's kind ("an anim of the receiver's tree"), or NULL entries */
    int active;                 /* the argument the position is in (0-based) */
} atrc_signature;
int atrc_signature_help(atrc_ctx *ctx, const char *file, int line, int column, atrc_signature *out);

/* "uo", "cod1", ... (a static string); "?" for a value out of range. */
const char *atrc_profile_name(atrc_profile p);
/* Parses a profile name, ASCII case-insensitively.  Returns 0, or -1 (out
** untouched) when s names no profile. */
int atrc_profile_parse(const char *s, atrc_profile *out);

#ifdef __cplusplus
}
#endif
#endif
