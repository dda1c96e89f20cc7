/* Sessions (session.c): the library side of atrc_session_*.  Reads by path
** consult session_buffer first. */
#ifndef ATRC_SESSION_H
#define ATRC_SESSION_H
#include <stddef.h>
#include "atrc.h"

/* The editor's text standing for the file at path (any spelling of it), or
** NULL; *len gets its length.  Valid until the buffer is set or dropped
** again.  s may be NULL. */
const char *session_buffer(const atrc_session *s, const char *path, size_t *len);
/* The parses kept across s's contexts (frontend.h fe_cache), or NULL for no
** session: fe_cache_parsed / fe_cache_reused count what they saved. */
struct fe_cache *session_records(const atrc_session *s);
/* The directory listings and archive indexes kept across s's contexts
** (gamefs.h gamefs_store), or NULL for no session. */
struct gamefs_store *session_index(const atrc_session *s);
/* atrc_free of a context begun from s: records no file of it used are dropped. */
void session_context_freed(atrc_session *s, const atrc_ctx *ctx);

#endif
