/* The one door to game files (game-files.md): every tree, xanim header and
** script is read through here.  The search path is the engine's: game
** directories in priority order, inside each the loose files, then its
** archives (.pk3 / .iwd per profile) sorted with the engine's path compare,
** later ones on top; localized archives only with a language.  Names fold
** ASCII case and treat '\\' and ':' as '/', in archives and loose files alike.
** Archives are read with libzip, indexed once, entries read in place. */
#ifndef ATRC_GAMEFS_H
#define ATRC_GAMEFS_H
#include <stddef.h>
#include "base/arena.h"
#include "atrc.h"
#include "base/diag.h"
#include "base/hashtab.h"
#include "base/vec.h"
#include "os/os.h"

/* Largest archive entry read whole (a script or a tree); a bigger one is
** refused with a message instead of being allocated.  Loose files have no cap. */
#define GAMEFS_MAX_ENTRY_SIZE ((size_t)64 << 20)
/* An archive whose central directory lists more entries is skipped. */
#define GAMEFS_MAX_ARCHIVE_ENTRIES 262144
/* Archives holding an open descriptor at a time; the others are indexed,
** closed, and opened again when an entry is read. */
#define GAMEFS_OPEN_ARCHIVES 32

/* A listing or archive index kept by a session is reused only when its
** directory's or archive's newest time (modification, change) is at least
** this many seconds older than the clock when it was read: a change made in
** the same tick of a coarse file-system clock (FAT: 2 s) would otherwise
** leave the times equal and go unnoticed. */
#define GAMEFS_SETTLE_SECONDS 3

typedef struct dir_index dir_index;
typedef struct gamefs_store gamefs_store;
typedef struct gamefs_archive gamefs_archive;
typedef struct gamefs_entry gamefs_entry;

/* A loose game file read (an xanim header): the identity -o is checked against. */
typedef struct gamefs_file_id {
    os_file_id id;
    const char *path;
} gamefs_file_id;

typedef struct gamefs {
    VEC(const char *) dirs;    /* -g directories, lowest priority first */
    const char *install;       /* --install DIR, or NULL */
    const char *fs_game;       /* --fs-game MOD (relative to install), or NULL */
    const char *language;      /* --language L, or NULL: no localized archives */
    const struct profile_rules *rules; /* the profile's (archive extension, --install layout) */
    diag_list *diags;          /* where damaged archives are reported; may be NULL */
    gamefs_entry *path;        /* the search path, lowest first; built on first lookup */
    size_t path_count;
    int path_built;
    VEC(dir_index *) indexes;  /* cache: one listing per directory read */
    hashtab index_by_path;     /* indexes by path */
    gamefs_archive *archives;  /* every archive opened (closed by gamefs_free) */
    gamefs_archive *open[GAMEFS_OPEN_ARCHIVES]; /* those holding a handle, least recently used first */
    size_t open_count, open_budget;
    const dir_index *blocked;  /* the last lookup met this unreadable directory */
    VEC(gamefs_file_id) read_ids; /* loose files read by gamefs_read_prefix */
    arena *mem;
    const struct overlay *overlay; /* loose files it holds a text for are read from it (overlay.h); NULL */
    gamefs_store *store;       /* listings and archive indexes kept across contexts (a session's), or NULL */
    int script_gsx;            /* CoD4x (--extension cod4x): a script NAME is NAME.gsx when the
                               ** search path has one, else NAME.gsc */
} gamefs;

/* rules: the profile's row, alive as long as fs. */
void gamefs_init(gamefs *fs, arena *mem, const struct profile_rules *rules);
/* Adds a game directory on top of the others (its loose files and archives). */
void gamefs_add_dir(gamefs *fs, const char *dir);
/* The standard game directories of an install: DIR/main, the profile's base
** game directory (uo: DIR/uo), DIR/fs_game (fs_game may be NULL); all below
** every -g directory. */
void gamefs_set_install(gamefs *fs, const char *dir, const char *fs_game);
/* Uses the localized_<language>_* archives (NULL: none). */
void gamefs_set_language(gamefs *fs, const char *language);

/* Opens the game-relative file `name` (any case; '/', '\\' and ':' separate
** directories) from the highest-priority search entry that holds it.  Returns
** NULL with *err NULL when nothing holds it, NULL with *err set when one does
** but it cannot be read.  The source's path says where it was found:
** "DIR/maps/x.gsc", or "DIR/pak0.pk3:maps/x.gsc" inside an archive. */
struct source_file;
struct source_file *gamefs_open(gamefs *fs, const char *name, const char **err);
/* Same; *where (when not NULL) is set to where the file was found, also when
** it could not be read. */
struct source_file *gamefs_open_where(gamefs *fs, const char *name, const char **where,
                                      const char **err);
/* Reads at most n bytes from the start of `name` (an xanim header: nothing
** more is read or decompressed).  Returns 1 with *got bytes read, 0 when no
** search entry holds it, -1 when one does but it cannot be read (*err).
** *where is set as for gamefs_open_where. */
int gamefs_read_prefix(gamefs *fs, const char *name, unsigned char *buf, size_t n, size_t *got,
                       const char **where, const char **err);
/* Where `name` would be read from, or NULL. */
const char *gamefs_locate(gamefs *fs, const char *name);
/* The file of script `name` (game-relative, no extension: "maps/mp/x"):
** "NAME.gsc", or with fs->script_gsx "NAME.gsx" when the search path holds
** one anywhere (CoD4x's server asks for the .gsx first).  In fs->mem.  The
** one place that decides, for #include, path::f and the level's scripts. */
const char *gamefs_script_file(gamefs *fs, const char *name);
/* The length of script file name `name` without its ".gsc" or ".gsx" (any
** case; a .gsx is only ever read as CoD4x's script), else strlen(name). */
size_t gamefs_script_stem(const char *name);
/* Why `path` (a file the output would replace, symlinks already followed)
** must not be written: it is an archive of the search path or a game file
** this run read (by identity: any path or link), or it lies inside a game
** directory under a name the game reads (an archive, animtrees/, xanim/,
** mp/playeranim.script, a script), existing or not.  NULL when it may be
** written. */
const char *gamefs_output_conflict(gamefs *fs, const char *path);
/* The names of the files directly in game directory `dir` ("maps/mp/gametypes")
** ending in `suffix` (lower case, ".gsc"), over the whole search path: lower
** case, the suffix cut, sorted byte-wise, each once.  *names lives in the
** arena; returns the count. */
size_t gamefs_list(gamefs *fs, const char *dir, const char *suffix, const char ***names);
/* The engine's path compare: ASCII case-insensitive, '\\' and ':' equal '/'. */
int gamefs_path_compare(const char *a, const char *b);
/* The game-relative name of a file path this context read (a script named on
** the command line, or a path gamefs_open_where reported): its part below
** the game directory or archive of the search path that holds it (the
** deepest directory when several do; compared by spelling, then by real
** path), else the path as given; in lower case with '/' separators and no
** "." or empty components, at most cap - 1 bytes (longer: truncated).  So
** "uo/maps/A.gsc" with -g uo, "maps\\a.gsc" in "." and
** "main/pak0.pk3:maps/a.gsc" all give "maps/a.gsc".  Writes out, returns it. */
char *gamefs_relative_name(const gamefs *fs, const char *path, char *out, size_t cap);
/* The search path as built, one entry a line, highest priority first
** ("archive main/pak1.pk3", "dir main"): for the tests and fuzz harnesses. */
void gamefs_describe(gamefs *fs, FILE *out);
/* For messages that suggest a name: fn(ud, name, len) for every file
** directly in the game directory `dir` ("maps/mp", "animtrees"; any case)
** whose name ends in `ext` (".gsc"; any case), loose or in an archive, over
** the whole search path: name[0, len) is its name without ext, lower case
** (not NUL-terminated there), valid as long as fs; a name held by several
** entries comes once per entry. */
void gamefs_list_dir(gamefs *fs, const char *dir, const char *ext,
                     void (*fn)(void *ud, const char *name, size_t len), void *ud);
/* The game directories of the search path, highest priority first, as one
** line for a message ("mods/mymod, main"); their archives are not named. */
const char *gamefs_dir_names(gamefs *fs);
/* The archive (as named in the search path) whose entry path names
** ("ARCHIVE:ENTRY", as gamefs_open names it), or NULL for a loose file. */
const char *gamefs_archive_of(const gamefs *fs, const char *path);
void gamefs_free(gamefs *fs);

/* ---- what a session keeps: directory listings and archive indexes ----
** A context using a store (gamefs_use_store) takes each listing and each
** archive's entry table from it when the directory's or archive's identity,
** size and times are those it was read with (os_unchanged, every
** compilation, each directory of a walk on its own), else reads it again
** and keeps the new one.  The warnings an archive's indexing gave are kept
** with it and given again, in the same place.  Nothing kept holds a
** descriptor: a context opens archives again as it reads their entries.
** The first bytes gamefs_read_prefix read of a loose file (an xanim header)
** and the loose files gamefs_open reads whole (scripts, trees) are kept the
** same way, so an unchanged one costs one stat. */
typedef struct gamefs_store_counts {
    unsigned long dirs_read, dirs_reused;           /* listings read from the disk / taken from the store */
    unsigned long archives_indexed, archives_reused; /* central directories read / taken */
    unsigned long prefixes_read, prefixes_reused;   /* loose xanim headers (gamefs_read_prefix) */
    unsigned long texts_read, texts_reused;         /* loose files read whole (gamefs_open: trees, scripts) */
} gamefs_store_counts;

gamefs_store *gamefs_store_new(void);
/* Drops the owner's reference; the store is freed with the last one (a
** context using it holds one until gamefs_free). */
void gamefs_store_release(gamefs_store *st);
/* fs reads through st (before its first lookup); holds a reference. */
void gamefs_use_store(gamefs *fs, gamefs_store *st);
/* The end of a context's use: what it did not use is dropped (a listing or
** archive no longer on the search path). */
void gamefs_store_end_round(gamefs_store *st);
const gamefs_store_counts *gamefs_store_counts_of(const gamefs_store *st);
/* Listings and archive indexes kept. */
size_t gamefs_store_size(const gamefs_store *st);

#endif
