/* The compile driver: scripts in through the front end, each file's record
** replayed into the context strictly in the order the files were given. */
#include "compile/driver.h"
#include "check/check_stage.h"
#include "compile/compile.h"
#include "compile/runtime_anim.h"
#include "script/ast.h"
#include "compile/frontend.h"
#include "game/profile.h"
#include "script/script_parse.h"
#include "script/lexer.h"
#include "files/overlay.h"
#include "files/script_dir.h"
#include "script/script_refs.h"
#include "base/vec.h"
#include "os/os.h"

#include <stdlib.h>
#include <string.h>

/* FE_PASS_CHECK: the compile-stage checks, into the file's own list.  Their
** source-order sort is left to the replay (diag_sort_range), which sees the
** compile stage's diagnostics too. */
static void *check_pass_begin(fe_file *f)
{
    if (f->opts->syntax_only) return NULL;
    check_state *st = check_begin(f->src, f->rules, f->opts, &f->diags);
    check_use_builtins(st, f->builtins);
    return st;
}

static void check_pass_item(void *st, fe_file *f, const ast_node *item)
{
    (void)f;
    check_item(st, item);
}

static void check_pass_fn_begin(void *st, fe_file *f, const ast_node *fn)
{
    (void)f;
    check_function_begin(st, fn);
}

static void check_pass_fn_stmts(void *st, fe_file *f, const ast_node *first)
{
    (void)f;
    check_function_stmts(st, first);
}

static void check_pass_fn_end(void *st, fe_file *f, const ast_node *fn, int complete)
{
    (void)f;
    check_function_end(st, fn, complete);
}

static void check_pass_end(void *st, fe_file *f)
{
    check_finish(st, f->checked);
}

/* The state outlives check_finish only as a marker that the checks ran. */
static void no_release(void *st)
{
    (void)st;
}

/* FE_PASS_WALK: the load walk's list of what the file names. */
static void *walk_pass_begin(fe_file *f)
{
    return f->collect;
}

static void walk_pass_item(void *st, fe_file *f, const ast_node *item)
{
    (void)f;
    script_refs_collect(st, item);
}

static void walk_pass_fn_begin(void *st, fe_file *f, const ast_node *fn)
{
    (void)f;
    script_refs_function_begin(st, fn);
}

static void walk_pass_stmts(void *st, fe_file *f, const ast_node *first)
{
    (void)f;
    for (const ast_node *s = first; s; s = s->next) script_refs_collect(st, s);
}

static void walk_pass_fn_end(void *st, fe_file *f, const ast_node *fn, int complete)
{
    (void)f;
    (void)fn;
    if (!complete) script_refs_function_cut(st);
}

/* The file-local passes, in the order each sees an item.  A new pass is one
** row here (and one fe_pass_id): ORDER: fe_pass_id in frontend.h. */
static const fe_pass passes[FE_PASS_COUNT] = {
    [FE_PASS_CHECK] = {check_pass_begin, check_pass_item, check_pass_end, no_release, NULL,
                       check_pass_fn_begin, check_pass_fn_stmts, check_pass_fn_end},
    [FE_PASS_COMPILE] = {compile_pass_begin, compile_pass_item, compile_pass_end, compile_pass_release,
                         compile_pass_copy, compile_pass_fn_begin, compile_pass_stmts, compile_pass_fn_end},
    [FE_PASS_WALK] = {walk_pass_begin, walk_pass_item, NULL, NULL, NULL,
                      walk_pass_fn_begin, walk_pass_stmts, walk_pass_fn_end},
    [FE_PASS_RUNTIME] = {runtime_pass_begin, runtime_pass_item, runtime_pass_end, runtime_pass_release,
                         runtime_pass_copy, runtime_pass_fn_begin, runtime_pass_stmts, runtime_pass_fn_end},
};
const fe_pass *const ctx_passes = passes;

void ctx_keep_source(atrc_ctx *ctx, source_file *f)
{
    *VEC_PUSH(ctx->sources) = f;
}

source_file *ctx_read_list(const char *path, const char **err)
{
    os_file_id id;
    if (strcmp(path, "-") != 0 && os_path_id(path, &id) == 0 && id.regular && id.size > CTX_LIST_MAX_BYTES) {
        *err = "larger than the 4 MiB a list may hold";
        return NULL;
    }
    source_file *src = source_read(path, err);
    if (src && src->len > CTX_LIST_MAX_BYTES) {
        /* a stream: known only once read (at most SOURCE_MAX_STREAM_SIZE) */
        source_free(src);
        *err = "larger than the 4 MiB a list may hold";
        return NULL;
    }
    return src;
}

int ctx_list_error_capped(atrc_ctx *ctx, source_file *src, int line, int *errors)
{
    if (ctx->diags.max_errors <= 0 || *errors < ctx->diags.max_errors) {
        ++*errors;
        return 0;
    }
    diag_add(&ctx->diags, DIAG_NOTE, src, line, 1, "more errors in this list are not shown (--max-errors)");
    return 1;
}

static frontend *get_frontend(atrc_ctx *ctx)
{
    if (!ctx->fe) {
        ctx->fe = frontend_new(&ctx->opts, ctx->rules, ctx_passes, ctx->opts.jobs);
        frontend_use_builtins(ctx->fe, &ctx->builtins);
        frontend_use_cache(ctx->fe, ctx->records);
    }
    return ctx->fe;
}

/* The global part of the compile stage for one file, strictly in the order
** the scripts were given: the file joins the context, its recorded events
** register trees and add references, its diagnostics keep their places. */
static int replay_file(atrc_ctx *ctx, fe_file *f)
{
    int rc = 0;
    if (!f->src) {
        diag_add(&ctx->diags, DIAG_ERROR, NULL, 0, 0, "cannot read '%s': %s", f->path, f->read_error);
        ctx->diags.read_failures++;
        ctx->unreadable_inputs++;
        rc = -1;
    } else {
        source_file *src = f->src;
        f->src = NULL;
        ctx_keep_source(ctx, src);
        size_t first = ctx->diags.count;
        anim_ref *before = ctx->refs_tail;
        compile_replay(ctx, f, src);
        runtime_replay(ctx, f, src, before ? before->next : ctx->refs);
        fe_replay_diags(f, &ctx->diags, f->diags.count);
        /* As the compile-stage checks order a file's diagnostics: by position. */
        if (f->state[FE_PASS_CHECK]) diag_sort_range(&ctx->diags, first, src);
    }
    fe_file_free(f);
    return rc;
}

void ctx_compile_source(atrc_ctx *ctx, source_file *src, script_refs *collect,
                        check_file_result *checked)
{
    /* On this thread, through the same record and replay as every file. */
    replay_file(ctx, frontend_parse_source(get_frontend(ctx), src, collect, checked));
}

fe_request *ctx_prefetch_source(atrc_ctx *ctx, source_file *src)
{
    if (ctx->opts.jobs <= 1) return NULL;
    return frontend_prefetch_walk(get_frontend(ctx), src);
}

void ctx_compile_prefetched(atrc_ctx *ctx, fe_request *r, script_refs *collect,
                            check_file_result *checked)
{
    fe_file *f = frontend_take(get_frontend(ctx), r);
    fe_file_take_walk(f, collect, checked);
    replay_file(ctx, f);
}

static int add_files(atrc_ctx *ctx, const char *const *paths, size_t n)
{
    frontend *fe = get_frontend(ctx);
    /* Files are queued a bounded distance ahead; the workers parse them
    ** (within the frontend's window) while this thread replays in order. */
    fe_request **reqs = xmalloc(array_size(n ? n : 1, sizeof *reqs));
    size_t ahead = 64 * (size_t)(ctx->opts.jobs > 1 ? ctx->opts.jobs : 1), queued = 0;
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        /* A file the session holds a buffer for is parsed from it, in its turn (NULL request). */
        size_t len;
        while (queued < n && queued < i + ahead) {
            reqs[queued] = overlay_find(ctx->overlay, paths[queued], &len) ? NULL : frontend_prefetch(fe, paths[queued]);
            queued++;
        }
        const char *buffered = reqs[i] ? NULL : overlay_find(ctx->overlay, paths[i], &len);
        fe_file *f = buffered ? frontend_parse_buffer(fe, paths[i], buffered, len) : frontend_take(fe, reqs[i]);
        if (replay_file(ctx, f) != 0) rc = -1;
    }
    free(reqs);
    return rc;
}

/* Operands that are directories stand for the .gsc files below them (and
** under CoD4x the .gsx files, preferred; script_dir.h). */
int ctx_add_operands(atrc_ctx *ctx, const char *const *operands, size_t n)
{
    script_list l;
    script_list_expand(operands, n, ctx->fs.script_gsx, &l);
    int rc = 0;
    for (size_t i = 0; i < l.bad.count; i++) {
        diag_add(&ctx->diags, DIAG_ERROR, NULL, 0, 0, "cannot read '%s': %s", l.bad.items[i].dir, l.bad.items[i].why);
        ctx->diags.read_failures++;
        ctx->unreadable_inputs++;
        rc = -1;
    }
    if (add_files(ctx, l.paths.items, l.paths.count) != 0) rc = -1;
    script_list_free(&l);
    return rc;
}

int ctx_add_script(atrc_ctx *ctx, const char *path)
{
    os_file_id id;
    if (strcmp(path, "-") != 0 && os_path_id(path, &id) == 0 && id.directory) return ctx_add_operands(ctx, &path, 1);
    size_t len;
    const char *buffered = overlay_find(ctx->overlay, path, &len);
    if (buffered) return replay_file(ctx, frontend_parse_buffer(get_frontend(ctx), path, buffered, len));
    return replay_file(ctx, frontend_parse_path(get_frontend(ctx), path));
}

int ctx_add_script_buffer(atrc_ctx *ctx, const char *path, const char *data, size_t len)
{
    return replay_file(ctx, frontend_parse_buffer(get_frontend(ctx), path, data, len));
}

int ctx_dump_script(const atrc_ctx *ctx, const char *path, FILE *out, FILE *err, int tokens)
{
    const char *why = NULL;
    source_file *src = source_read(path, &why);
    if (!src) {
        fprintf(err, "atrc: error: cannot read '%s': %s\n", path, why);
        return 2;
    }
    /* CoD4x's preprocessor asks the builtins the calls resolve with, as in a run. */
    gsc_preproc pp = {ctx->rules, &ctx->builtins, ctx->opts.game_mode};
    diag_list diags;
    diag_init(&diags);
    if (tokens) {
        char *text = script_dump_tokens(src, ctx->rules, &pp, &diags);
        fputs(text, out);
        free(text);
    } else {
        arena mem;
        arena_init(&mem);
        ast_dump(script_parse(src, ctx->rules, &pp, &mem, &diags), out);
        arena_free_all(&mem);
    }
    diag_print(&diags, NULL, err);
    int rc = diags.errors ? 1 : 0;
    diag_free(&diags);
    source_free(src);
    return rc;
}

