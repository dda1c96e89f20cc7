/*
** atrc — public API of the animation-tree compiler library.
**
** The CLI (src/main.c) is a thin client of this header: a program can embed
** the whole pipeline (scripts -> references -> trees -> packed values) or use
** the tree queries on its own.  All state lives in one atrc_ctx, so two
** compilations can run in one process.
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

/* Engine dialects (stock-behavior.md section 8).  ORDER: rows[] in src/profile.c */
typedef enum {
    ATRC_PROFILE_UO = 0,
    ATRC_PROFILE_COD1,
    ATRC_PROFILE_COD2,
    ATRC_PROFILE_COD4
} atrc_profile;

/* Property bits as the .atr parser records them (stock-behavior.md 2.5). */
#define ATRC_FLAG_LOOPSYNC    0x01u
#define ATRC_FLAG_NONLOOPSYNC 0x02u
#define ATRC_FLAG_SYNC_ROOT   0x04u /* set by sync setup, never by the parser */
#define ATRC_FLAG_COMPLETE    0x08u
#define ATRC_FLAG_ADDITIVE    0x10u /* cod4 only */

/* Limits (stock-behavior.md 5.4, 5.7, 4.1). */
#define ATRC_MAX_TREES        127
#define ATRC_MAX_TREE_NAME    49
#define ATRC_MAX_NODES        65536

typedef enum { ATRC_FORMAT_TEXT = 0, ATRC_FORMAT_JSON } atrc_format;

typedef struct atrc_options {
    atrc_profile profile;
    int anim_check;   /* keep every node (com_animCheck 1) */
    int no_xanim;     /* do not resolve leaf assets */
    int syntax_only;  /* lex and parse only */
    int jobs;         /* threads that read and parse scripts, the calling one included (0, 1: no threads) */
} atrc_options;

typedef struct atrc_ctx atrc_ctx;

/* A node of a built (compact) tree. */
typedef struct atrc_node {
    const char *name;     /* lower case; "root" for node 0, "void"/"void_loop" for placeholders */
    int parent;           /* -1 for node 0 */
    int child_count;      /* 0 for a leaf */
    int first_child;      /* parents only */
    unsigned flags;       /* parse flags (parents); sync setup may add ATRC_FLAG_SYNC_ROOT and kind bits */
    unsigned parse_flags; /* flags exactly as parsed (what JSON reports) */
    int line, column;     /* position of the name in the .atr; 0 for root and placeholders */
    int looping;          /* leaves: 1/0 from the xanim asset, -1 unknown (--no-xanim or no asset) */
    int has_asset;        /* leaves: an xanim header was read */
    unsigned frames;      /* leaves with an asset: stored frame count */
    int frame_rate;       /* leaves with an asset */
    int placeholder;      /* synthetic void/void_loop */
    int default_asset;    /* leaves, cod2/cod4: the asset is the `void` substitute for a missing xanim */
} atrc_node;

/* A compact tree as the engine would hold it. */
typedef struct atrc_tree {
    const char *name;   /* canonical tree name */
    int node_count;
    atrc_node *nodes;
    uint32_t checksum;
    atrc_node void_loop; /* cod2/cod4: the asset a default leaf becomes in a sync group of the other kind */
} atrc_tree;

/* ---- context and pipeline ---- */
atrc_ctx *atrc_new(const atrc_options *opts);
void atrc_free(atrc_ctx *ctx);
void atrc_add_game_dir(atrc_ctx *ctx, const char *dir);
/* Register TREE and reference NAME, as engine code does; returns 0 or -1 on a bad spec. */
int atrc_add_engine_anim(atrc_ctx *ctx, const char *tree, const char *name);
/* Read and compile one script; returns 0, or -1 when the file cannot be read (a diagnostic is recorded). */
int atrc_add_script(atrc_ctx *ctx, const char *path);
/* Read and compile scripts; the result (references, trees, every diagnostic
** and its order) is the same as atrc_add_script on each in turn, whatever
** opts.jobs is: with jobs > 1, jobs - 1 worker threads read and parse files
** ahead (a bounded window of them) while the calling thread compiles them in
** order, parsing too whenever it would otherwise wait.  Returns 0, or -1 when some file cannot be read.
** Thread safety: a context is used by one thread at a time; two contexts
** share nothing and may be used from two threads at once. */
int atrc_add_scripts(atrc_ctx *ctx, const char *const *paths, size_t n);
/* Compile a script held in memory (path is only used in diagnostics). */
int atrc_add_script_buffer(atrc_ctx *ctx, const char *path, const char *data, size_t len);
/* After all scripts: load, prune, build and check every registered tree, bind references. */
void atrc_build_trees(atrc_ctx *ctx);

int atrc_error_count(const atrc_ctx *ctx);
/* Scripts given that could not be read (the CLI exits 2). */
int atrc_unreadable_count(const atrc_ctx *ctx);
int atrc_warning_count(const atrc_ctx *ctx);
/* Diagnostics in GCC style with excerpt and caret, then the summary line. */
void atrc_print_diagnostics(const atrc_ctx *ctx, FILE *out);
/* Write the result (references, and with show_trees the tree listing). Returns 0 or -1 on a write error. */
int atrc_emit(const atrc_ctx *ctx, atrc_format format, int show_trees, FILE *out);
/* Decode a packed value; with trees built, also name the tree and node path. */
int atrc_explain(const atrc_ctx *ctx, uint32_t value, FILE *out);

/* Developer views of the front end (atrc --dump-tokens / --dump-ast): write
** the token stream or the AST of the script at path to out, diagnostics to
** err.  Return 0, 1 when the script has errors, 2 when it cannot be read. */
int atrc_dump_tokens(const char *path, FILE *out, FILE *err);
int atrc_dump_ast(const char *path, FILE *out, FILE *err);

/* Registered trees, 1-based registry index; NULL when index is unused or the tree was not built. */
int atrc_tree_count(const atrc_ctx *ctx);
const atrc_tree *atrc_get_tree(const atrc_ctx *ctx, int index);
/* Canonical name of a registered tree, built or not; NULL when index is unused. */
const char *atrc_tree_name(const atrc_ctx *ctx, int index);

/* ---- tree queries (stock-behavior.md 6.2) ---- */
int atrc_is_primitive(const atrc_tree *t, int node);
int atrc_has_time(const atrc_tree *t, int node);
int atrc_is_looped(const atrc_tree *t, int node);
/* Leaf: its asset name; parent: "<non-leaf anim>" (uo/cod1) or "" (cod2/cod4). */
const char *atrc_anim_name(const atrc_tree *t, int node, atrc_profile profile);
/* Length in seconds of a leaf (7.2); returns -1 (error) for a parent or a leaf without asset data. */
int atrc_anim_length(const atrc_tree *t, int node, double *seconds);
int atrc_child_count(const atrc_tree *t, int node);

const char *atrc_profile_name(atrc_profile p);
int atrc_profile_parse(const char *s, atrc_profile *out);

#ifdef __cplusplus
}
#endif
#endif
