/* What lookup.c and lookup_names.c share: a script's sites found by lexing
** it again, the per-file index and the cache a context keeps of them. */
#ifndef ATRC_LOOKUP_INTERNAL_H
#define ATRC_LOOKUP_INTERNAL_H
#include "atrc.h"
#include "base/arena.h"
#include "base/hashtab.h"
#include "base/vec.h"
#include "compile/driver.h"
#include "editor/lookup.h"
#include "tree/atr.h"

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

typedef struct file_index {
    source_file *src;
    site_vec sites;            /* source order */
    site_vec locals;           /* SITE_LOCAL, source order */
    VEC(arglist) arglists;     /* in the order of their '(' */
    VEC(comma) commas;         /* source order */
    VEC(atrc_fold) folds;      /* blocks and /# #/ over more than one line, in the order they close */
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
    hashtab script_index;      /* scripts by canonical name: entry i is ctx->sources.items[i] */
    size_t script_indexed;
    VEC(atrc_completion) completions;
    VEC(atrc_symbol) symbols;
    VEC(atrc_anim_site) anim_sites;
    VEC(const char *) params;  /* atrc_signature_help's parameter names and kinds */
};

lookup_cache *lookup_cache_of(const atrc_ctx *ctx);
int lookup_is_script(const source_file *src);
/* ctx->sources.items[i]'s index; with_sites: lexed for its sites (once). */
file_index *lookup_file_at(const atrc_ctx *ctx, lookup_cache *c, size_t i);
file_index *lookup_with_sites(const atrc_ctx *ctx, file_index *f);
/* The file a query names (as in diagnostics, else by real path), with its sites. */
file_index *lookup_file_named(const atrc_ctx *ctx, const char *name);
/* The definition of name (any case) in f, or NULL (a table, built once). */
const site *lookup_defined_in(lookup_cache *c, file_index *f, const char *name);
/* The function a call in f names: path's, else f's own, then its includes'. */
const site *lookup_function_site(const atrc_ctx *ctx, file_index *f, const char *name, const char *path,
                                 file_index **in);
void lookup_set_where(const atrc_ctx *ctx, source_file *src, int line, int col, int end_col, atrc_location *w);
int lookup_before(int l1, int c1, int l2, int c2);
void lookup_add_completion(lookup_cache *c, atrc_completion_kind kind, const char *label, const char *detail);
/* Appends the document symbol of definition s of f to the cache's symbols. */
void lookup_add_function_symbol(const atrc_ctx *ctx, file_index *f, const site *s);
/* The definition site (SITE_FUNCTION) whose body or header holds line:col, or NULL. */
const site *lookup_function_at(const file_index *f, int line, int col);


/* lookup_names.c: a local or parameter at line:col (fills out), its first
** site, the enclosing function's names as completions, and the uses of a
** function or local. */
int lookup_local(const atrc_ctx *ctx, file_index *f, int line, int col, atrc_at *out);
int lookup_local_definition(const atrc_ctx *ctx, const atrc_at *at, atrc_location *out);
void lookup_complete_locals(const atrc_ctx *ctx, file_index *f, int line, int col);
size_t lookup_name_references(const atrc_ctx *ctx, const atrc_at *at, atrc_location *out, size_t max);

#endif
