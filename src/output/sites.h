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
    SITE_ANIMTREE,     /* #animtree */
    SITE_LOCAL         /* a parameter or local variable (file_index.locals) */
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
    size_t func;               /* SITE_LOCAL: the index in sites of its function */
    int param;                 /* SITE_LOCAL: in the function's parameter list */
} site;

typedef VEC(site) site_vec;

/* A call's argument list: from its '(' to its ')', or to the end of the
** statement when it is never closed (a line being typed). */
typedef struct arglist {
    size_t call;               /* the SITE_CALL in sites */
    int open_line, open_col;   /* the '(' */
    int close_line, close_col; /* the ')' or the statement's end; 0: the end of file */
} arglist;

typedef struct comma {
    size_t list;               /* index in arglists */
    int line, col;
} comma;

typedef VEC(arglist) arglist_vec;
typedef VEC(comma) comma_vec;
typedef VEC(atrc_fold) fold_vec;
typedef VEC(size_t) index_vec;

/* What lexing a script gives: a function of its text and the lexer's rules
** alone (the stock preprocessor: CoD4x's depends on the run's builtins too),
** so a session keeps it across compilations (sites_store) and a script
** edited in one of them is the only one lexed again.  Owned by the store,
** or by the context's index when there is none; read only once made. */
typedef struct site_scan {
    char *path;                /* the key: path, rules and text (a copy) */
    const struct profile_rules *rules;
    char *text;
    size_t len;
    arena mem;                 /* names, paths, signatures */
    site_vec sites;            /* source order */
    site_vec locals;           /* SITE_LOCAL, source order */
    arglist_vec arglists;      /* in the order of their '(' */
    comma_vec commas;          /* source order */
    fold_vec folds;            /* blocks and /# #/ over more than one line, in the order they close */
    index_vec usings;          /* indices of the SITE_USING sites, source order */
} site_scan;

typedef struct file_index {
    source_file *src;
    /* Views of the arrays of its scan (never grown or freed through these). */
    site_vec sites;
    site_vec locals;
    arglist_vec arglists;
    comma_vec commas;
    fold_vec folds;
    index_vec usings;
    VEC(const anim_ref *) refs; /* its %name and #animtree references, compile order */
    const char *script;        /* game-relative name without .gsc (lower case) */
    const char *real;          /* real path, when asked for; "" when none */
    int scanned;               /* sites listed (with_sites) */
    VEC(atr_node *) decl;      /* .atr: every node as declared, pruned ones too (full_atr) */
    int decl_parsed;
    hashtab defs;              /* first definitions by lower-case name: entry k is def_sites.items[k] */
    VEC(size_t) def_sites;
    int defs_built;
} file_index;

/* The scans a session keeps across its compilations: one per script path of
** the last compilation (the newest), found by path and checked against the
** text.  sites_store_end_round (the compilation's context freed) drops the
** scans of files it did not read and those a newer scan replaced. */
typedef struct sites_store sites_store;
sites_store *sites_store_new(void);
void sites_store_free(sites_store *s);
void sites_store_end_round(sites_store *s, const struct atrc_ctx *ctx);
/* Scripts lexed for their sites, and scans reused, since the store was made. */
unsigned long sites_store_scanned(const sites_store *s);
unsigned long sites_store_reused(const sites_store *s);
/* The scans it holds now. */
size_t sites_store_kept(const sites_store *s);

typedef VEC(atrc_symbol) symbol_vec;
typedef VEC(atrc_completion) completion_vec;

/* A tree's names as completion after '%' lists them (editor/lookup.c). */
typedef struct tree_names {
    const struct tree_entry *tree;
    completion_vec items;
} tree_names;

struct lookup_cache {
    arena mem;
    file_index **files;        /* one per ctx->sources entry, made on demand */
    size_t file_count;
    int refs_indexed;
    hashtab src_index;         /* ctx->sources by pointer */
    size_t src_indexed;
    hashtab script_index;      /* scripts by canonical name: entry i is ctx->sources.items[i] */
    size_t script_indexed;
    completion_vec completions;
    VEC(tree_names) tree_names; /* made once per tree */
    symbol_vec symbols;
    symbol_vec functions;      /* every function of the compilation's scripts (workspace symbols) */
    size_t functions_listed;   /* of the first functions_listed files */
    VEC(atrc_anim_site) anim_sites;
    VEC(const char *) params;  /* atrc_signature_help's parameter names and kinds */
    VEC(site_scan *) own_scans; /* the scans made without a store */
};

typedef struct lookup_cache lookup_cache;
void sites_cache_free(lookup_cache *c);
/* The context's index, made on first use and grown to its files. */
lookup_cache *sites_cache(const struct atrc_ctx *ctx);

/* 1 when src is a script (.gsc), else 0. */
int sites_is_script(const source_file *src);
/* ctx->sources.items[i]'s index (its sites not yet listed). */
file_index *sites_file_at(const struct atrc_ctx *ctx, lookup_cache *c, size_t i);
/* f with its sites: a script is lexed the first time a query needs them. */
file_index *sites_with_sites(const struct atrc_ctx *ctx, file_index *f);
/* The index of a file the compilation read, with its sites, or NULL. */
file_index *sites_file_of_src(const struct atrc_ctx *ctx, const source_file *src);
/* The file a query names, with its sites: as in diagnostics, else the same
** file by real path; NULL when the compilation read no such file. */
file_index *sites_file_named(const struct atrc_ctx *ctx, const char *name);
/* The script of canonical name (game-relative, no .gsc), or NULL. */
file_index *sites_script_named(const struct atrc_ctx *ctx, const char *name);
/* line1:col1 comes before line2:col2. */
int sites_before(int l1, int c1, int l2, int c2);
/* The nearest #using_animtree site of f before line:col, or NULL. */
const site *sites_using_in(const file_index *f, int line, int col);
/* The definition of name (any case) in f, or NULL (a table, built once). */
const site *sites_defined_in(lookup_cache *c, file_index *f, const char *name);

/* The #using_animtree in effect at src:line:col (the last one before it in
** that script): 1 and its position, or 0. */
int sites_using_before(const struct atrc_ctx *ctx, source_file *src, int line, int col, int *at_line,
                       int *at_col);
/* The first definition in src of the function whose later definition's name
** is at line:col: 1 and its position, or 0. */
int sites_first_definition(const struct atrc_ctx *ctx, source_file *src, int line, int col, int *at_line,
                           int *at_col);

#endif
