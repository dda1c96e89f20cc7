/* The site index (sites.c): what is where in the files a compilation read —
** each script's function definitions, calls, includes and tree directives,
** found by lexing it again when first asked (the compilation itself keeps
** none of that), and its animation references.  Kept with the context
** (ctx->lookup); the related places of diagnostics (diag_view.c) and the
** position queries (editor/lookup.c) read it. */
#ifndef ATRC_SITES_H
#define ATRC_SITES_H
#include "atrc.h"
#include "base/arena.h"
#include "base/hashtab.h"
#include "base/source.h"
#include "base/vec.h"
#include "compile/registry.h"
#include "tree/atr.h"

struct atrc_ctx;

typedef enum {
    SITE_FUNCTION = 0, /* a definition's name */
    SITE_CALL,         /* name of f(), ::f, path::f */
    SITE_PATH,         /* #include's path, or path of path::f */
    SITE_USING,        /* #using_animtree (directive token and its string) */
    SITE_ANIMTREE      /* #animtree */
} site_kind;

typedef struct site {
    site_kind kind;
    int line, col, end_col;    /* the token (one line) */
    const char *name;          /* as written (function, tree: lower case; path: canonical) */
    const char *path;          /* SITE_CALL with path::, canonical; else NULL */
    int using_line, using_col; /* SITE_USING: the directive */
    int body_end_line, body_end_col; /* SITE_FUNCTION: just past the closing brace */
    const char *signature;     /* SITE_FUNCTION: "name(a, b)" */
    int include;               /* SITE_PATH of an #include */
} site;

typedef struct file_index {
    source_file *src;
    VEC(site) sites;           /* source order */
    VEC(const anim_ref *) refs; /* its %name and #animtree references, compile order */
    const char *script;        /* game-relative name without .gsc (lower case) */
    const char *real;          /* real path, when asked for; "" when none */
    int scanned;               /* sites listed (with_sites) */
    VEC(atr_node *) decl;      /* .atr: every node as declared, pruned ones too (full_atr) */
    int decl_parsed;
    hashtab defs;              /* first definitions by lower-case name: entry k is def_sites.items[k] */
    VEC(size_t) def_sites;
    int defs_built;
    VEC(size_t) usings;        /* indices of the SITE_USING sites, source order */
} file_index;

struct lookup_cache {
    arena mem;
    file_index **files;        /* one per ctx->sources entry, made on demand */
    size_t file_count;
    int refs_indexed;
    hashtab src_index;         /* ctx->sources by pointer */
    size_t src_indexed;
    VEC(atrc_completion) completions;
    VEC(atrc_symbol) symbols;
};


typedef struct lookup_cache lookup_cache;
void sites_cache_free(lookup_cache *c);
/* The context's index, made on first use and grown to its files. */
lookup_cache *sites_cache(const struct atrc_ctx *ctx);

/* A script name as written (z[0, n)) made canonical: lower case, '/'. */
const char *sites_canonical_script(arena *a, const char *z, size_t n);
/* 1 when src is a script (.gsc), else 0. */
int sites_is_script(const source_file *src);
/* The file a query names, with its sites: as in diagnostics, else the same
** file by real path; NULL when the compilation read no such file. */
file_index *sites_file_named(const struct atrc_ctx *ctx, const char *name);
/* The script of canonical name (game-relative, no .gsc), or NULL. */
file_index *sites_script_named(const struct atrc_ctx *ctx, const char *name);
/* The nearest #using_animtree site of f before line:col, or NULL. */
const site *sites_using_in(const file_index *f, int line, int col);

/* The #using_animtree in effect at src:line:col (the last one before it in
** that script): 1 and its position, or 0. */
int sites_using_before(const struct atrc_ctx *ctx, source_file *src, int line, int col, int *at_line,
                       int *at_col);
/* The first definition in src of the function whose later definition's name
** is at line:col: 1 and its position, or 0. */
int sites_first_definition(const struct atrc_ctx *ctx, source_file *src, int line, int col, int *at_line,
                           int *at_col);

#endif
