/* Leaves' notetracks: the xanim of a leaf read whole through the game files
** and walked once (xanim_notes.c), the result kept per node with the built
** tree.  Reading is done only when asked: a whole-game run that needs no
** notetracks reads the headers alone, as before. */
#include "compile/driver.h"
#include "compile/notetracks.h"
#include "game/profile.h"

#include <string.h>

static const xanim_notes *read_notes(atrc_ctx *ctx, atrc_tree *t, int node, const char **why)
{
    const atrc_node *n = &t->nodes[node];
    /* a missing xanim's leaf plays the `void` copy (xanim.c), swapped for
    ** `void_loop` inside a looping sync group (atr_sync.c) */
    const char *name = n->placeholder ? n->name
                       : t->state->default_asset[node] ? (n->looping == 1 ? "void_loop" : "void")
                       : atr_node_spelling(t, node);
    const char *path = arena_printf(&ctx->mem, "xanim/%s", name);
    const char *where = NULL, *err = NULL;
    source_file *src = gamefs_open_where(&ctx->fs, path, &where, &err);
    if (!src && !err) {
        /* (the built-in `void` stand-ins are atrc's: their notetracks are not known) */
        *why = arena_printf(&ctx->mem, "no game directory holds %s", path);
        return NULL;
    }
    if (!src) {
        *why = arena_printf(&ctx->mem, "%s cannot be read (%s)", where ? where : path, err);
        return NULL;
    }
    xanim_notes *notes = arena_zalloc(&ctx->mem, sizeof *notes);
    xanim_notes_status st = xanim_read_notes((const unsigned char *)src->data, src->len, ctx->rules, &ctx->mem, notes);
    switch (st) {
    case XANIM_NOTES_OK:
        break;
    case XANIM_NOTES_BAD_VERSION:
        *why = arena_printf(&ctx->mem, "%s is not a version %d xanim", src->path, ctx->rules->xanim_version);
        break;
    case XANIM_NOTES_TRAILING:
        *why = arena_printf(&ctx->mem, "%s is %zu bytes but its frame data and notetracks end at byte %zu",
                            src->path, src->len, notes->stopped_at);
        break;
    case XANIM_NOTES_TRUNCATED:
    default:
        *why = arena_printf(&ctx->mem, "%s ends at byte %zu, inside its %s (a truncated or header-only file)",
                            src->path, src->len, notes->stopped_at <= (size_t)ctx->rules->xanim_header_size
                            ? "header" : "frame data or notetracks");
        break;
    }
    source_free(src);
    return st == XANIM_NOTES_OK ? notes : NULL;
}

const xanim_notes *ctx_leaf_notes(atrc_ctx *ctx, atrc_tree *t, int node, const char **why)
{
    const char *dummy;
    if (!why) why = &dummy;
    *why = NULL;
    if (!t || !t->state || node < 0 || node >= t->node_count || t->nodes[node].child_count != 0) {
        *why = "it is not a leaf";
        return NULL;
    }
    if (ctx->opts.no_xanim) {
        *why = "xanims are not read (--no-xanim)";
        return NULL;
    }
    struct atrc_tree_state *s = t->state;
    if (!s->notes) {
        s->notes = arena_zalloc(&ctx->mem, array_size((size_t)t->node_count, sizeof *s->notes));
        s->notes_why = arena_zalloc(&ctx->mem, array_size((size_t)t->node_count, sizeof *s->notes_why));
        s->notes_read = arena_zalloc(&ctx->mem, (size_t)t->node_count);
    }
    if (!s->notes_read[node]) {
        s->notes[node] = read_notes(ctx, t, node, &s->notes_why[node]);
        s->notes_read[node] = 1;
    }
    *why = s->notes_why[node];
    return s->notes[node];
}

const xanim_notes *atr_leaf_notes_kept(const atrc_tree *t, int node)
{
    if (!t || !t->state || !t->state->notes || node < 0 || node >= t->node_count) return NULL;
    return t->state->notes_read[node] ? t->state->notes[node] : NULL;
}
