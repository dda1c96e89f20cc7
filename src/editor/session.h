/* Sessions (session.c): the library side of atrc_session_*.  A session's
** buffers reach its compilations as a read-only overlay (files/overlay.h). */
#ifndef ATRC_SESSION_H
#define ATRC_SESSION_H
#include "atrc.h"

/* 1 when no context can be begun from s now (s NULL, or its context is still
** alive), else 0. */
int session_busy(const atrc_session *s);
/* Makes the new context ctx read s's buffers and use what s keeps across its
** compilations (parses, listings, archive indexes).  0, or -1 when s is
** busy. */
int session_attach(atrc_session *s, atrc_ctx *ctx);
/* The parses kept across s's contexts (frontend.h fe_cache), or NULL for no
** session: fe_cache_parsed / fe_cache_reused count what they saved. */
struct fe_cache *session_records(const atrc_session *s);
/* The directory listings and archive indexes kept across s's contexts
** (gamefs.h gamefs_store), or NULL for no session. */
struct gamefs_store *session_index(const atrc_session *s);
/* The scripts' sites kept across s's contexts (output/sites.h sites_store),
** or NULL for no session: sites_store_scanned / sites_store_reused count them. */
struct sites_store *session_scans(const atrc_session *s);
/* atrc_free of a context begun from s: records no file of it used are dropped. */
void session_context_freed(atrc_session *s, const atrc_ctx *ctx);

#endif
