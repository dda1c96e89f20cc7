/* The compile stage (compile.c) in two parts (see frontend.h).  The pass
** (FE_PASS_COMPILE in the driver's pass table) records each file's
** #using_animtree, %name and #animtree with positions; compile_replay
** registers trees and adds the references on the context's thread, in
** order, with the file's diagnostics. */
#ifndef ATRC_COMPILE_H
#define ATRC_COMPILE_H
#include "atrc.h"
#include "base/source.h"

struct ast_node;
struct fe_file;
void *compile_pass_begin(struct fe_file *f);
void compile_pass_item(void *state, struct fe_file *f, const struct ast_node *item);
void compile_pass_end(void *state, struct fe_file *f);
/* A function in pieces (fe_pass): each run of statements is walked as
** items are; at its end the events they recorded are placed as the whole
** item's would be (after all of its diagnostics), or dropped with an
** unfinished one. */
void compile_pass_fn_begin(void *state, struct fe_file *f, const struct ast_node *fn);
void compile_pass_stmts(void *state, struct fe_file *f, const struct ast_node *first);
void compile_pass_fn_end(void *state, struct fe_file *f, const struct ast_node *fn, int complete);
void compile_pass_release(void *state);
/* A copy of a finished record (for a file record kept across compilations):
** replayed like the original, freed with compile_pass_release. */
void *compile_pass_copy(const void *state);
void compile_replay(atrc_ctx *ctx, struct fe_file *f, source_file *src);

#endif
