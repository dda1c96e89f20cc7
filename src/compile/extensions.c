/* Builtin names beyond a game's stock list (interface.md "Extension
** builtins"): the engine extensions shipped in data/builtins/extensions/
** (tables made at build time, builtins.h) and a user's lists read at run
** time in the same format.  The context keeps them in one builtin_set that
** the checks of every file consult after the stock list. */
#include "compile/driver.h"
#include "game/builtins.h"
#include "base/text.h"
#include "base/vec.h"

#include <stdlib.h>
#include <string.h>

const char *atrc_extension_name(atrc_profile profile, size_t i)
{
    const char *game = atrc_profile_name(profile);
    for (size_t k = 0; k < builtin_extension_count; k++)
        if (strcmp(builtin_extensions[k].game, game) == 0 && i-- == 0) return builtin_extensions[k].name;
    return NULL;
}

const char *atrc_extension_game(const char *name)
{
    for (size_t k = 0; k < builtin_extension_count; k++)
        if (text_equal_nocase(builtin_extensions[k].name, name)) return builtin_extensions[k].game;
    return NULL;
}

const char *atrc_extension_defining(atrc_profile profile, const char *name, int method)
{
    const char *game = atrc_profile_name(profile);
    for (size_t k = 0; k < builtin_extension_count; k++)
        if (strcmp(builtin_extensions[k].game, game) == 0 &&
            builtin_find(builtin_extensions[k].add, method ? BUILTIN_METHOD : BUILTIN_FUNCTION, name))
            return builtin_extensions[k].name;
    return NULL;
}

static void add_to_set(atrc_ctx *ctx, const builtin_extension *e)
{
    for (size_t i = 0; i < ctx->builtins.count; i++)
        if (ctx->builtins.items[i] == e) return;
    *VEC_PUSH(ctx->builtins) = e;
    /* Every way a script is found reads NAME.gsx first under CoD4x. */
    ctx->fs.script_gsx = builtin_set_cod4x(&ctx->builtins);
}

int atrc_add_extension(atrc_ctx *ctx, const char *name)
{
    if (ctx->fe) return -2;
    const char *game = atrc_profile_name(ctx->opts.profile);
    for (size_t k = 0; k < builtin_extension_count; k++) {
        const builtin_extension *e = &builtin_extensions[k];
        if (strcmp(e->game, game) == 0 && text_equal_nocase(e->name, name)) {
            add_to_set(ctx, e);
            return 0;
        }
    }
    return -1;
}

int atrc_add_builtins_file(atrc_ctx *ctx, const char *path)
{
    if (ctx->fe) return -2;
    const char *err = NULL;
    source_file *src = ctx_read_list(path, &err);
    if (!src) {
        diag_add(&ctx->diags, DIAG_ERROR, NULL, 0, 0, "cannot read builtin list '%s': %s", path, err);
        ctx->diags.read_failures++;
        ctx->unreadable_inputs++;
        return -1;
    }
    ctx_keep_source(ctx, src);
    VEC(builtin_entry) entries = {0};
    VEC(int) lines = {0}; /* entries.items[i] is on line lines.items[i] */
    int bad = 0, errors = 0;
    const char *p = src->data, *end = src->data + src->len;
    for (int line = 1; p < end; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        builtin_line b;
        const char *why = NULL;
        int col = 0;
        int r = builtin_parse_line(p, len, 0, &b, &why, &col);
        if (r < 0 && ctx_list_error_capped(ctx, src, line, &errors)) {
            bad = 1;
            break;
        } else if (r < 0) {
            diag_add(&ctx->diags, DIAG_ERROR, src, line, col, "%s (a builtin list has lines 'function NAME' "
                     "or 'method NAME', optionally followed by 'dev', and '#' comments)", why);
            bad = 1;
        } else if (r > 0) {
            *VEC_PUSH(entries) =
                (builtin_entry){arena_lower(&ctx->mem, b.name, b.name_len), (unsigned char)b.kind,
                                (unsigned char)b.dev};
            *VEC_PUSH(lines) = line;
        }
        p = nl ? nl + 1 : end;
    }
    size_t count = entries.count;
    if (count >= 65535) {
        diag_add(&ctx->diags, DIAG_ERROR, src, lines.items[65534], 1, "a builtin list holds at most 65,534 names");
        count = 65534;
        bad = 1;
    }
    size_t slot_count = 64;
    while (slot_count < count * 2) slot_count *= 2;
    builtin_entry *kept = arena_alloc(&ctx->mem, array_size(count ? count : 1, sizeof *kept));
    uint16_t *slots = arena_alloc(&ctx->mem, array_size(slot_count, sizeof *slots));
    memset(slots, 0, array_size(slot_count, sizeof *slots));
    size_t n = 0;
    for (size_t i = 0; i < count; i++) {
        kept[n] = entries.items[i];
        if (builtin_slot_add(kept, n, slots, slot_count) == 0) n++;
        else
            diag_add(&ctx->diags, DIAG_WARNING, src, lines.items[i], 1, "%s '%s' is listed already",
                     entries.items[i].kind == BUILTIN_METHOD ? "method" : "function", entries.items[i].name);
    }
    VEC_FREE(entries);
    VEC_FREE(lines);
    builtin_list *list = arena_alloc(&ctx->mem, sizeof *list);
    *list = (builtin_list){src->path, kept, n, slots, slot_count};
    builtin_extension *e = arena_alloc(&ctx->mem, sizeof *e);
    *e = (builtin_extension){NULL, src->path, list, NULL, NULL};
    add_to_set(ctx, e);
    return bad ? -1 : 0;
}
