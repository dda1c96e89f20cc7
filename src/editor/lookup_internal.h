/* What lookup.c and lookup_names.c share, over the site index
** (output/sites.h). */
#ifndef ATRC_LOOKUP_INTERNAL_H
#define ATRC_LOOKUP_INTERNAL_H
#include "atrc.h"
#include "base/arena.h"
#include "base/hashtab.h"
#include "base/vec.h"
#include "compile/context.h"
#include "output/sites.h"
#include "tree/atr.h"

/* The function a call in f names: path's, else f's own, then its includes'. */
const site *lookup_function_site(const atrc_ctx *ctx, file_index *f, const char *name, const char *path,
                                 file_index **in);
void lookup_set_where(const atrc_ctx *ctx, source_file *src, int line, int col, int end_col, atrc_location *w);
void lookup_add_completion(lookup_cache *c, atrc_completion_kind kind, const char *label, const char *detail);
/* Appends the symbol of definition s of f to the symbols `to`. */
void lookup_add_function_symbol(const atrc_ctx *ctx, symbol_vec *to, file_index *f, const site *s);
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
