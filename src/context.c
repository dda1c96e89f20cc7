/* The library's entry points: a context, scripts in, trees built, results out. */
#include "context.h"
#include "diag_view.h"
#include "lookup.h"
#include "session.h"
#include "check_stage.h"
#include "profile.h"
#include "ast.h"
#include "frontend.h"
#include "script_parse.h"
#include "script_refs.h"
#include "script_dir.h"
#include "walk.h"
#include "text.h"
#include "vec.h"
#include "os.h"

#include <stdlib.h>
#include <string.h>

atrc_ctx *atrc_new(const atrc_options *opts)
{
    atrc_ctx *ctx = xcalloc(1, sizeof *ctx);
    if (opts) ctx->opts = *opts;
    arena_init(&ctx->mem);
    diag_init(&ctx->diags);
    ctx->diags.no_warnings = ctx->opts.no_warnings;
    ctx->diags.warnings_as_errors = ctx->opts.warnings_as_errors;
    if (ctx->opts.max_errors != 0) ctx->diags.max_errors = ctx->opts.max_errors < 0 ? 0 : ctx->opts.max_errors;
    gamefs_init(&ctx->fs, &ctx->mem);
    ctx->fs.profile = ctx->opts.profile;
    ctx->fs.diags = &ctx->diags;
    return ctx;
}

void atrc_free(atrc_ctx *ctx)
{
    if (!ctx) return;
    session_context_freed(ctx->session, ctx);
    diag_view_free(ctx->view);
    lookup_cache_free(ctx->lookup);
    frontend_free(ctx->fe);
    registry_free(ctx);
    if (ctx->walk) walk_free(ctx->walk);
    gamefs_free(&ctx->fs);
    diag_free(&ctx->diags);
    for (size_t i = 0; i < ctx->source_count; i++) source_free(ctx->sources[i]);
    free(ctx->sources);
    free(ctx->builtins.items);
    arena_free_all(&ctx->mem);
    free(ctx);
}

void ctx_keep_source(atrc_ctx *ctx, source_file *f)
{
    *vec_push(ctx->sources, ctx->source_count, ctx->source_cap) = f;
}

void atrc_add_game_dir(atrc_ctx *ctx, const char *dir)
{
    gamefs_add_dir(&ctx->fs, dir);
}

int atrc_set_install(atrc_ctx *ctx, const char *dir, const char *fs_game)
{
    if (!dir || !*dir || (fs_game && !*fs_game)) return -1;
    gamefs_set_install(&ctx->fs, dir, fs_game);
    return 0;
}

int atrc_set_language(atrc_ctx *ctx, const char *language)
{
    if (language && (!*language || !text_is_identifier(language, strlen(language)))) return -1;
    gamefs_set_language(&ctx->fs, language);
    return 0;
}

int atrc_add_engine_anim(atrc_ctx *ctx, const char *tree, const char *name)
{
    size_t tn = strlen(tree);
    if (tn == 0 || !text_is_identifier(tree, tn) || !text_is_identifier(name, strlen(name)) || !*name)
        return -1;
    registry_engine_anim(ctx, arena_lower(&ctx->mem, tree, tn), name);
    return 0;
}

static frontend *get_frontend(atrc_ctx *ctx)
{
    if (!ctx->fe) {
        ctx->fe = frontend_new(&ctx->opts, ctx->opts.jobs);
        frontend_use_builtins(ctx->fe, &ctx->builtins);
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
        compile_replay(ctx, f, src);
        fe_replay_diags(f, &ctx->diags, f->diags.count);
        /* As the compile-stage checks order a file's diagnostics: by position. */
        if (f->state[FE_PASS_CHECK]) check_sort_diags(&ctx->diags, first, src);
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

static int add_files(atrc_ctx *ctx, const char *const *paths, size_t n);

/* Operands that are directories stand for the .gsc files below them. */
static int add_operands(atrc_ctx *ctx, const char *const *operands, size_t n)
{
    script_list l;
    script_list_expand(operands, n, &l);
    int rc = 0;
    for (size_t i = 0; i < l.bad_count; i++) {
        diag_add(&ctx->diags, DIAG_ERROR, NULL, 0, 0, "cannot read '%s': %s", l.bad[i].dir, l.bad[i].why);
        ctx->diags.read_failures++;
        ctx->unreadable_inputs++;
        rc = -1;
    }
    if (add_files(ctx, l.paths, l.count) != 0) rc = -1;
    script_list_free(&l);
    return rc;
}

int atrc_add_script(atrc_ctx *ctx, const char *path)
{
    os_file_id id;
    if (strcmp(path, "-") != 0 && os_path_id(path, &id) == 0 && id.directory) return add_operands(ctx, &path, 1);
    size_t len;
    const char *buffered = session_buffer(ctx->session, path, &len);
    if (buffered) return replay_file(ctx, frontend_parse_buffer(get_frontend(ctx), path, buffered, len));
    return replay_file(ctx, frontend_parse_path(get_frontend(ctx), path));
}

int atrc_add_scripts(atrc_ctx *ctx, const char *const *paths, size_t n)
{
    return add_operands(ctx, paths, n);
}

static int add_files(atrc_ctx *ctx, const char *const *paths, size_t n)
{
    frontend *fe = get_frontend(ctx);
    /* Files are queued a bounded distance ahead; the workers parse them
    ** (within the frontend's window) while this thread replays in order. */
    fe_request **reqs = xmalloc((n ? n : 1) * sizeof *reqs);
    size_t ahead = 64 * (size_t)(ctx->opts.jobs > 1 ? ctx->opts.jobs : 1), queued = 0;
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        /* A file the session holds a buffer for is parsed from it, in its turn (NULL request). */
        size_t len;
        while (queued < n && queued < i + ahead) {
            reqs[queued] = session_buffer(ctx->session, paths[queued], &len) ? NULL : frontend_prefetch(fe, paths[queued]);
            queued++;
        }
        const char *buffered = reqs[i] ? NULL : session_buffer(ctx->session, paths[i], &len);
        fe_file *f = buffered ? frontend_parse_buffer(fe, paths[i], buffered, len) : frontend_take(fe, reqs[i]);
        if (replay_file(ctx, f) != 0) rc = -1;
    }
    free(reqs);
    return rc;
}

int atrc_add_script_buffer(atrc_ctx *ctx, const char *path, const char *data, size_t len)
{
    return replay_file(ctx, frontend_parse_buffer(get_frontend(ctx), path, data, len));
}

void atrc_build_trees(atrc_ctx *ctx)
{
    if (ctx->opts.syntax_only || ctx->trees_built) return;
    link_trees(ctx);
}

int atrc_error_count(const atrc_ctx *ctx)
{
    return ctx->diags.errors;
}

int atrc_warning_count(const atrc_ctx *ctx)
{
    return ctx->diags.warnings;
}

int atrc_unreadable_count(const atrc_ctx *ctx)
{
    return ctx->unreadable_inputs;
}

const char *atrc_input_same_as(const atrc_ctx *ctx, const char *path)
{
    os_file_id out, in;
    if (os_path_id(path, &out) != 0) return NULL;
    for (size_t i = 0; i < ctx->source_count; i++) {
        const char *p = ctx->sources[i]->path;
        if (os_path_id(p, &in) == 0 && os_same_id(&in, &out)) return p;
    }
    return NULL;
}

const char *atrc_output_conflict(atrc_ctx *ctx, const char *path)
{
    return gamefs_output_conflict(&ctx->fs, path);
}

int atrc_read_failure_count(const atrc_ctx *ctx)
{
    return ctx->diags.read_failures;
}

void atrc_print_diagnostics(const atrc_ctx *ctx, FILE *out)
{
    diag_print(&ctx->diags, NULL, out);
}

int atrc_write_diagnostics(const atrc_ctx *ctx, const atrc_diag_style *style, FILE *out)
{
    diag_style s;
    diag_style_init(&s, style && style->color, style ? style->gcc_colors : NULL, style && style->no_summary);
    return diag_print(&ctx->diags, &s, out);
}

int atrc_tree_count(const atrc_ctx *ctx)
{
    return ctx->tree_count;
}

const atrc_tree *atrc_get_tree(const atrc_ctx *ctx, int index)
{
    if (index < 1 || index > ctx->tree_count) return NULL;
    const tree_entry *t = ctx->trees[index];
    return t->built ? &t->tree : NULL;
}

const char *atrc_tree_name(const atrc_ctx *ctx, int index)
{
    if (index < 1 || index > ctx->tree_count) return NULL;
    return ctx->trees[index]->name;
}

static int dump_script(const char *path, atrc_profile profile, FILE *out, FILE *err, int tokens)
{
    const char *why = NULL;
    source_file *src = source_read(path, &why);
    if (!src) {
        fprintf(err, "atrc: error: cannot read '%s': %s\n", path, why);
        return 2;
    }
    diag_list diags;
    diag_init(&diags);
    if (tokens) {
        char *text = script_dump_tokens(src, profile_get(profile), &diags);
        fputs(text, out);
        free(text);
    } else {
        arena mem;
        arena_init(&mem);
        ast_dump(script_parse(src, profile_get(profile), &mem, &diags), out);
        arena_free_all(&mem);
    }
    diag_print(&diags, NULL, err);
    int rc = diags.errors ? 1 : 0;
    diag_free(&diags);
    source_free(src);
    return rc;
}

int atrc_dump_tokens(const char *path, atrc_profile profile, FILE *out, FILE *err)
{
    return dump_script(path, profile, out, err, 1);
}

int atrc_dump_ast(const char *path, atrc_profile profile, FILE *out, FILE *err)
{
    return dump_script(path, profile, out, err, 0);
}
