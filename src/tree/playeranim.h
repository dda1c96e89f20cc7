/* mp/playeranim.script (grammar.md section 4): the names the engine
** registers in the `multiplayer` tree after a multiplayer level's scripts. */
#ifndef ATRC_PLAYERANIM_H
#define ATRC_PLAYERANIM_H
#include <stddef.h>
#include "base/arena.h"
#include "base/diag.h"
#include "base/hashtab.h"
#include "base/source.h"
#include "base/vec.h"

typedef struct playeranim_names {
    VEC(const char *) names; /* first spelling, first-seen order, once per name (case-insensitive) */
    hashtab index;        /* names by text_hash(0, name, 1) */
    arena mem;
} playeranim_names;

/* Reads src as BG_AnimParseAnimScript does and fills out (initialised here)
** with every animation named after a body part in a command line.  The first
** error is reported at its token in the engine's words and reading stops there
** (the engine drops the level).  Returns 0, or -1 after an error. */
int playeranim_read(source_file *src, int escape_backslash, diag_list *diags, playeranim_names *out);
void playeranim_names_free(playeranim_names *n);

#endif
