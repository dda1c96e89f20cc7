/* The compile driver (driver.c): it takes scripts through the front end
** and replays each file's record into the context (context.h) in order. */
#ifndef ATRC_DRIVER_H
#define ATRC_DRIVER_H
#include <stdio.h>
#include "compile/context.h"

/* The file-local passes the context's front end runs (FE_PASS_COUNT of
** them, in fe_pass_id order: the checks, the compile stage, the walk's list). */
extern const struct fe_pass *const ctx_passes;

void ctx_keep_source(atrc_ctx *ctx, source_file *f);

/* The lists a run reads (--builtins, --entities) are data of a bounded
** size with a bounded number of errors, like scripts: a list over
** CTX_LIST_MAX_BYTES is not read (NULL, *err says why), and past the error
** cap (--max-errors) of one list ctx_list_error_capped adds one note at
** `line` and returns 1 (the rest of the list is not read); else 0, after
** counting one more error in *errors. */
#define CTX_LIST_MAX_BYTES ((size_t)4 << 20)
source_file *ctx_read_list(const char *path, const char **err);
int ctx_list_error_capped(atrc_ctx *ctx, source_file *src, int line, int *errors);
struct script_refs;
struct check_file_result;
/* Compiles one script; with `collect`, also lists its #includes and
** path::func references; with `checked`, keeps the names the compile-stage
** checks left to the included files (cod2/cod4) for the walk to link. */
void ctx_compile_source(atrc_ctx *ctx, source_file *src, struct script_refs *collect,
                        struct check_file_result *checked);
/* For the load walk, which discovers the files it compiles: src (read by
** the walk) is parsed ahead on the context's worker threads, and a later
** ctx_compile_prefetched compiles that record where ctx_compile_source
** would have compiled src, with the same results; the output does not
** depend on timing.  NULL when the context parses on one thread only. */
struct fe_request;
struct fe_request *ctx_prefetch_source(atrc_ctx *ctx, source_file *src);
void ctx_compile_prefetched(atrc_ctx *ctx, struct fe_request *r, struct script_refs *collect,
                            struct check_file_result *checked);

/* The scripts of the public API (atrc_add_script, atrc_add_scripts,
** atrc_add_script_buffer): each file read and parsed (ahead on the worker
** threads where it can), then replayed in the order given; operands that are
** directories stand for the .gsc files below them.  -1 when one could not be
** read. */
int ctx_add_script(atrc_ctx *ctx, const char *path);
int ctx_add_operands(atrc_ctx *ctx, const char *const *operands, size_t n);
int ctx_add_script_buffer(atrc_ctx *ctx, const char *path, const char *data, size_t len);

/* atrc_dump_tokens (tokens) and atrc_dump_ast: one script read with the
** context's rules and preprocessor; nothing joins the context. */
int ctx_dump_script(const atrc_ctx *ctx, const char *path, FILE *out, FILE *err, int tokens);

#endif
