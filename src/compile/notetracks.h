/* Leaves' notetracks (runtime-anim.md 4): each leaf's xanim read whole and
** walked the first time its notetracks are asked for, and kept with the
** built tree.  The link stage reads every leaf's when the context's options
** ask for them (JSON); the checks and the editor ask for single leaves. */
#ifndef ATRC_NOTETRACKS_H
#define ATRC_NOTETRACKS_H
#include "atrc.h"
#include "tree/xanim_notes.h"

/* The notetracks of leaf `node` of built tree t, `end` last, or NULL when
** they are unknown: --no-xanim, a group, an xanim no game directory holds
** (other than the built-in `void`/`void_loop`), a file that cannot be read
** or whose walk does not end at its end.  Then *why (when why is not NULL)
** says why in a phrase for a message ("xanim/x ends at byte 10 ...").  The
** file is read through the context's game files (a session keeps it). */
const xanim_notes *ctx_leaf_notes(atrc_ctx *ctx, atrc_tree *t, int node, const char **why);

/* What ctx_leaf_notes read before, without reading: NULL when unknown or not
** read (the JSON writer, which holds the context read-only). */
const xanim_notes *atr_leaf_notes_kept(const atrc_tree *t, int node);

#endif
