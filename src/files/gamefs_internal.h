/* What the game filesystem's files share (gamefs.c: the search path and
** reads; gamefs_archive.c: archive indexes and entries; gamefs_store.c:
** listings, indexes and bytes kept across contexts): private to them. */
#ifndef ATRC_GAMEFS_INTERNAL_H
#define ATRC_GAMEFS_INTERNAL_H
#include "files/gamefs.h"
#include "base/arena.h"
#include "base/hashtab.h"
#include "os/os.h"

#ifdef ATRC_NO_ARCHIVES
#include "files/gamefs_noarchives.h"
#else
#include <zip.h>
#endif

/* ---- loose files: directory listings, read once, looked up by folded name ---- */

typedef struct dir_entry {
    const char *lower;     /* lower-cased name: the key */
    const char **reals;    /* every spelling on disk, byte-wise ascending */
    size_t real_count;
} dir_entry;

struct dir_index {
    const char *path;
    int error;             /* errno of a directory that exists but cannot be listed, or 0 */
    dir_entry **list;      /* every name (folded), first spelling's byte order */
    size_t count;
    hashtab by_name;       /* list by lower-cased name */
    int fastfile_reported; /* its mod.ff was warned about */
    int kept;              /* list and by_name belong to the store */
};

/* ---- archives ---- */

typedef struct ar_entry {
    const char *key;       /* normalized: lower case, '/' separators */
    const char *name;      /* as stored (validated UTF-8) */
    zip_uint64_t index;
    zip_uint64_t size;     /* uncompressed size the central directory claims */
    int method;            /* compression method (ZIP_CM_*), -1 unknown */
} ar_entry;
/* An archive's entry table: the context's archive and the store's record
** share one (kept). */
typedef VEC(ar_entry) ar_entry_vec;

struct gamefs_archive {
    const char *path;      /* "main/pak0.pk3" */
    int indexed;           /* 0: damaged, skipped */
    zip_t *zip;            /* open handle, or NULL: reopened when an entry is read */
    os_file_id id;         /* the file indexed: a reopened archive must be it */
    ar_entry_vec entries;
    hashtab by_key;        /* entries by key */
    int kept;              /* entries and by_key belong to the store */
    gamefs_archive *next;
};

struct gamefs_entry {
    const char *dir;       /* loose files of this directory, or NULL */
    gamefs_archive *ar;    /* or this archive */
};

/* ---- the store: listings and archive indexes kept across contexts ---- */

typedef struct kept_warning {
    const char *fmt, *a, *b;
} kept_warning;

typedef enum { KEPT_DIR, KEPT_ARCHIVE, KEPT_PREFIX, KEPT_TEXT } kept_kind;

/* One listing, archive index or loose file's bytes, with everything it points to. */
typedef struct kept {
    kept_kind kind;
    char *path;
    os_file_id id;            /* of the directory, archive or file, taken before it was read */
    int reusable;             /* read long enough after its last change (GAMEFS_SETTLE_SECONDS) */
    unsigned long round;      /* the last round that used it */
    arena mem;                /* names, keys, warning texts */
    dir_index dir;            /* KEPT_DIR: list, count, by_name */
    int indexed;              /* KEPT_ARCHIVE: as gamefs_archive's */
    ar_entry_vec entries;
    hashtab by_key;
    VEC(kept_warning) warnings; /* what indexing it reported, in order */
    /* KEPT_PREFIX: the first bytes_asked bytes asked for of a loose file
    ** (gamefs_read_prefix); KEPT_TEXT: a loose file read whole
    ** (gamefs_open_where: a tree or a script) */
    unsigned char *bytes;
    size_t bytes_len, bytes_asked;
} kept;

struct gamefs_store {
    VEC(kept *) items;
    hashtab by_path;          /* items by path */
    unsigned long round;
    int refs;
    gamefs_store_counts counts;
};

/* ---- names (gamefs.c) ---- */

static inline unsigned char fold_upper(unsigned char c)
{
    return c >= 'a' && c <= 'z' ? (unsigned char)(c - 32) : c;
}

static inline unsigned char fold_sep(unsigned char c)
{
    return c == '\\' || c == ':' ? '/' : c;
}

/* The lookup key of a game-relative name: lower case, '\\' and ':' as '/',
** no empty components (the engine's script-name rule, bytes below 0x20 kept,
** ':' a separator, no trailing one). */
char *gamefs_normalize(arena *mem, const char *name);
/* A warning of the filesystem (no position), when it has a diagnostics list. */
void gamefs_warn(gamefs *fs, const char *fmt, const char *a, const char *b);

/* ---- archives (gamefs_archive.c) ---- */

/* Opens and indexes one archive (once per path); a damaged one is reported
** and left without entries. */
gamefs_archive *archive_open(gamefs *fs, const char *path);
/* The entry of key (hashed h) in ar, or NULL. */
ar_entry *archive_lookup(const gamefs_archive *ar, const char *key, uint32_t h);
/* Reads at most cap bytes of entry into buf; *got is what was read; with
** whole, the entry must be exactly its recorded size.  NULL, or why not. */
const char *archive_read_entry(gamefs *fs, gamefs_archive *ar, const ar_entry *entry, unsigned char *buf, size_t cap,
                               size_t *got, int whole);
/* Releases the least recently used archive's descriptor, if any holds one. */
void archive_evict_one(gamefs *fs);
/* The archive's handle, reopened when it was released; NULL with *err. */
zip_t *archive_handle(gamefs *fs, gamefs_archive *ar, const char **err);
void archive_close(gamefs_archive *ar);

/* ---- the store (gamefs_store.c) ---- */

/* The record for path of this kind, to reuse when *now (the file as it is)
** is what it was read from; else emptied (made when missing) for the read
** about to happen, *reuse 0.  NULL when there is no store or path cannot be
** looked up (nothing kept: read as without a store). */
kept *store_record(gamefs *fs, const char *path, kept_kind kind, os_file_id *now, int *reuse);
/* Empties k for a new read (its kind and path stay). */
void store_clear(kept *k);
/* Whether a file last changed as id says was changed long enough ago that a
** later change cannot leave its times as they are (GAMEFS_SETTLE_SECONDS). */
int store_settled(const os_file_id *id);

#endif
