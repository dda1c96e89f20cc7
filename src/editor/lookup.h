/* What is where in the files a compilation read (lookup.c): each script's
** functions, calls, includes and tree directives, found by lexing it again
** when first asked (the compilation itself keeps none of that), and the
** position queries of atrc.h on top. */
#ifndef ATRC_LOOKUP_H
#define ATRC_LOOKUP_H
#include "base/source.h"

struct atrc_ctx;
typedef struct lookup_cache lookup_cache;
void lookup_cache_free(lookup_cache *c);

/* The #using_animtree in effect at src:line:col (the last one before it in
** that script): 1 and its position, or 0. */
int lookup_using_before(const struct atrc_ctx *ctx, source_file *src, int line, int col, int *at_line,
                        int *at_col);
/* The first definition in src of the function whose later definition's name
** is at line:col: 1 and its position, or 0. */
int lookup_first_definition(const struct atrc_ctx *ctx, source_file *src, int line, int col, int *at_line,
                            int *at_col);

#endif
