/* Sessions (atrc.h "sessions"): the editor's buffers (an overlay on the
** files, files/overlay.h), consulted by every read a compilation begun from
** the session makes of a file by path, and what the session keeps across
** its compilations: the files' parses, the game-file index and the scripts'
** sites.
** atrc_session_begin (api.c) makes the context and attaches it here. */
#include "editor/session.h"
#include "compile/context.h"
#include "compile/frontend.h"
#include "files/gamefs.h"
#include "files/overlay.h"
#include "output/sites.h"

#include <stdlib.h>

struct atrc_session {
    overlay *buffers;          /* the editor's texts, read instead of files */
    atrc_ctx *live;            /* the context begun from it, until atrc_free */
    fe_cache *records;         /* the files' parses, kept for the next context */
    gamefs_store *index;       /* directory listings and archive indexes, likewise */
    sites_store *scans;        /* the scripts' sites the position queries lexed, likewise */
};

atrc_session *atrc_session_new(void)
{
    atrc_session *s = xcalloc(1, sizeof(atrc_session));
    s->buffers = overlay_new();
    s->records = fe_cache_new();
    s->index = gamefs_store_new();
    s->scans = sites_store_new();
    return s;
}

/* The context no longer reads what the session kept for it. */
static void detach(atrc_ctx *ctx)
{
    ctx->session = NULL;
    ctx->overlay = NULL;
    ctx->records = NULL;
    ctx->scans = NULL;
    ctx->fs.overlay = NULL;
}

void atrc_session_free(atrc_session *s)
{
    if (!s) return;
    if (s->live) detach(s->live);
    overlay_free(s->buffers);
    fe_cache_free(s->records);
    sites_store_free(s->scans);
    gamefs_store_release(s->index); /* a live context keeps it until its end */
    free(s);
}

int atrc_session_set_buffer(atrc_session *s, const char *path, const char *data, size_t len)
{
    return overlay_set(s->buffers, path, data, len);
}

void atrc_session_drop_buffer(atrc_session *s, const char *path)
{
    overlay_drop(s->buffers, path);
}

int session_attach(atrc_session *s, atrc_ctx *ctx)
{
    if (!s || s->live) return -1;
    ctx->session = s;
    ctx->overlay = s->buffers;
    ctx->records = s->records;
    ctx->scans = s->scans;
    ctx->fs.overlay = s->buffers;
    gamefs_use_store(&ctx->fs, s->index);
    s->live = ctx;
    return 0;
}

void session_context_freed(atrc_session *s, const atrc_ctx *ctx)
{
    if (s && s->live == ctx) {
        s->live = NULL;
        fe_cache_end_round(s->records);
        sites_store_end_round(s->scans, ctx);
        gamefs_store_end_round(s->index);
    }
}

int session_busy(const atrc_session *s)
{
    return !s || s->live != NULL;
}

struct gamefs_store *session_index(const atrc_session *s)
{
    return s ? s->index : NULL;
}

struct fe_cache *session_records(const atrc_session *s)
{
    return s ? s->records : NULL;
}

struct sites_store *session_scans(const atrc_session *s)
{
    return s ? s->scans : NULL;
}
