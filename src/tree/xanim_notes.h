/* xanim notetracks (runtime-anim.md 4.1, 4.2): the whole-file walk that
** reaches them, for both layouts (version 14: CoD1, UO, CoD2; version 17:
** CoD4), with the engine's implicit `end`. */
#ifndef ATRC_XANIM_NOTES_H
#define ATRC_XANIM_NOTES_H
#include "tree/atr.h"

typedef struct xanim_note {
    const char *name;   /* exactly as stored: case-sensitive, may hold spaces, '=' and quotes */
    unsigned frame;     /* as stored; `end`: the last frame */
    double time;        /* frame / N in [0, 1] (0 when N is 0); `end`: 1 */
    int implicit;       /* the engine's `end`, not stored in the file */
} xanim_note;

typedef struct xanim_notes {
    xanim_note *items;  /* the stored notetracks in file order, then `end` */
    size_t count;
    unsigned last_frame; /* N = T - 1: the frame `end` stands at */
    int looping;
    size_t stopped_at;  /* when not read: the byte where the walk stopped */
} xanim_notes;

typedef enum {
    XANIM_NOTES_OK = 0,
    XANIM_NOTES_TRUNCATED,   /* the walk needs bytes past the end of the file */
    XANIM_NOTES_TRAILING,    /* the walk ends before the end of the file */
    XANIM_NOTES_BAD_VERSION, /* not the profile's version */
} xanim_notes_status;

/* Walks the whole file data[0, len) as the profile's version; on
** XANIM_NOTES_OK fills out with the notetracks (names in a) and `end`.
** Otherwise out holds none and out->stopped_at says where the walk stopped.
** Reads no byte outside data and allocates at most the names it returns. */
xanim_notes_status xanim_read_notes(const unsigned char *data, size_t len,
                                    const struct profile_rules *rules, arena *a, xanim_notes *out);

/* The first notetrack named exactly `name`, or NULL. */
const xanim_note *xanim_notes_find(const xanim_notes *notes, const char *name);

#endif
