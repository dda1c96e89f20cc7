/* The editor's buffers as an overlay on the files (overlay.c): texts that
** stand for files by path, which the game filesystem and the driver read
** instead of the disk.  A session owns one and edits it (editor/session.c);
** a compilation begun from the session only reads it. */
#ifndef ATRC_OVERLAY_H
#define ATRC_OVERLAY_H
#include <stddef.h>

typedef struct overlay overlay;

overlay *overlay_new(void);
void overlay_free(overlay *o);
/* Sets the text standing for the file at path (any spelling of it): a copy
** of data[0, len).  0, or -1 for an empty path. */
int overlay_set(overlay *o, const char *path, const char *data, size_t len);
/* Drops path's text, if any: the file is read from disk again. */
void overlay_drop(overlay *o, const char *path);
/* The text standing for the file at path, or NULL; *len gets its length.
** Valid until path's text is set or dropped again.  o may be NULL. */
const char *overlay_find(const overlay *o, const char *path, size_t *len);

#endif
