/* Directory operands: `atrc maps/` compiles every .gsc below maps/, in the
** engine's path order (game-files.md: ASCII case folded, '\\' and ':' equal
** to '/'), so the run is the same on every platform and file system. */
#ifndef ATRC_SCRIPT_DIR_H
#define ATRC_SCRIPT_DIR_H
#include <stddef.h>
#include "base/vec.h"

/* The operands with every directory replaced by the .gsc files below it
** (any case of ".gsc"; symbolic links to directories are not followed).
** With gsx (CoD4x's server, --extension cod4x) .gsx files count too and
** are read instead of the .gsc of the same name (any case) in the same
** directory, below a directory or named as an operand.
** paths[i] points into the operands or into owned storage. */
typedef struct script_dir_problem { const char *dir, *why; } script_dir_problem;
typedef struct script_list {
    VEC(const char *) paths;
    VEC(char *) owned;        /* the joined paths and messages (freed by script_list_free) */
    /* Directories that hold no script or could not be read, in operand
    ** order, each with why (no script below it, or an errno text), and
    ** scripts that are no regular file (FIFOs, devices, links to them or
    ** to standard input: never opened), in the scripts' order. */
    VEC(script_dir_problem) bad;
} script_list;

void script_list_expand(const char *const *operands, size_t n, int gsx, script_list *out);
void script_list_free(script_list *l);

#endif
