/* The library's entry points over the context (compile/context.h): a context, scripts
** in, trees built, results out.  Only atrc_* functions live here; the
** stages' own (emit.c, walk.c, query.c, extensions.c, ...) live with them. */
#include "compile/driver.h"
#include "output/diag_view.h"
#include "output/sites.h"
#include "editor/session.h"
#include "compile/frontend.h"
#include "compile/link.h"
#include "compile/registry.h"
#include "compile/walk.h"
#include "base/text.h"
#include "os/os.h"
#include "game/profile.h"

#include <stdlib.h>
#include <string.h>

atrc_ctx *atrc_new(const atrc_options *opts)
{
    atrc_ctx *ctx = xcalloc(1, sizeof *ctx);
    if (opts) ctx->opts = *opts;
    ctx->rules = profile_get(ctx->opts.profile);
    arena_init(&ctx->mem);
    diag_init(&ctx->diags);
    diag_set_policy(&ctx->diags, &ctx->opts);
    gamefs_init(&ctx->fs, &ctx->mem, ctx->rules);
    ctx->fs.diags = &ctx->diags;
    return ctx;
}

atrc_ctx *atrc_session_begin(atrc_session *s, const atrc_options *opts)
{
    if (session_busy(s)) return NULL;
    atrc_ctx *ctx = atrc_new(opts);
    session_attach(s, ctx);
    return ctx;
}

void atrc_free(atrc_ctx *ctx)
{
    if (!ctx) return;
    session_context_freed(ctx->session, ctx);
    diag_view_free(ctx->view);
    sites_cache_free(ctx->lookup);
    frontend_free(ctx->fe);
    registry_free(ctx);
    if (ctx->walk) walk_free(ctx->walk);
    gamefs_free(&ctx->fs);
    diag_free(&ctx->diags);
    for (size_t i = 0; i < ctx->sources.count; i++) source_free(ctx->sources.items[i]);
    VEC_FREE(ctx->sources);
    VEC_FREE(ctx->note_waits);
    free(ctx->builtins.items);
    arena_free_all(&ctx->mem);
    free(ctx);
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

int atrc_add_script(atrc_ctx *ctx, const char *path)
{
    return ctx_add_script(ctx, path);
}

int atrc_add_scripts(atrc_ctx *ctx, const char *const *paths, size_t n)
{
    return ctx_add_operands(ctx, paths, n);
}

int atrc_add_script_buffer(atrc_ctx *ctx, const char *path, const char *data, size_t len)
{
    return ctx_add_script_buffer(ctx, path, data, len);
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
    for (size_t i = 0; i < ctx->sources.count; i++) {
        const char *p = ctx->sources.items[i]->path;
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

int atrc_dump_tokens(const atrc_ctx *ctx, const char *path, FILE *out, FILE *err)
{
    return ctx_dump_script(ctx, path, out, err, 1);
}

int atrc_dump_ast(const atrc_ctx *ctx, const char *path, FILE *out, FILE *err)
{
    return ctx_dump_script(ctx, path, out, err, 0);
}
