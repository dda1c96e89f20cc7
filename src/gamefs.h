/* Game directories: `-g DIR` repeatable, later ones override earlier ones;
** names are looked up case-insensitively, as the game's file system does.
** Each directory listing is read once into a hash index. */
#ifndef ATRC_GAMEFS_H
#define ATRC_GAMEFS_H
#include <stddef.h>
#include "arena.h"

typedef struct dir_index dir_index;

typedef struct gamefs {
    char **dirs;
    size_t count, cap;
    dir_index *indexes;        /* cache: one per directory listed */
    arena *mem;
} gamefs;

void gamefs_init(gamefs *fs, arena *mem);
void gamefs_add_dir(gamefs *fs, const char *dir);
/* Path of <dir>/<sub>/<file> in the last game directory that has it
** (case-insensitive on sub and file), or NULL. */
const char *gamefs_find(gamefs *fs, const char *sub, const char *file);
/* Opens the game-relative file `name` (any case; '/', '\\' and ':' separate
** directories) from the highest-priority game directory that holds it, as the
** engine's search path does.  Returns NULL with *err NULL when no directory
** holds it, NULL with *err set when one does but it cannot be read.  The
** source's path says where it was found ("DIR/maps/x.gsc"). */
struct source_file;
struct source_file *gamefs_open(gamefs *fs, const char *name, const char **err);
void gamefs_free(gamefs *fs);

#endif
