#include "gamefs.h"
#include "source.h"
#include "text.h"

#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct dir_entry {
    const char *lower;   /* lower-cased name: the key */
    const char *real;    /* name as on disk */
    struct dir_entry *next;
} dir_entry;

struct dir_index {
    const char *path;
    dir_entry **buckets;
    size_t bucket_count;
    dir_index *next;
};


void gamefs_init(gamefs *fs, arena *mem)
{
    memset(fs, 0, sizeof *fs);
    fs->mem = mem;
}

void gamefs_add_dir(gamefs *fs, const char *dir)
{
    if (fs->count == fs->cap) {
        fs->cap = fs->cap ? fs->cap * 2 : 4;
        fs->dirs = xrealloc(fs->dirs, fs->cap * sizeof *fs->dirs);
    }
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/') n--; /* "game/" and "game" name one directory */
    fs->dirs[fs->count++] = arena_strndup(fs->mem, dir, n);
}

/* Reads a directory listing once; an unreadable directory indexes as empty. */
static dir_index *index_dir(gamefs *fs, const char *path)
{
    for (dir_index *d = fs->indexes; d; d = d->next)
        if (strcmp(d->path, path) == 0) return d;
    dir_index *d = arena_zalloc(fs->mem, sizeof *d);
    d->path = arena_strdup(fs->mem, path);
    d->next = fs->indexes;
    fs->indexes = d;
    DIR *dp = opendir(path);
    if (!dp) return d;
    size_t n = 0, cap = 64;
    dir_entry **list = xmalloc(cap * sizeof *list);
    struct dirent *e;
    while ((e = readdir(dp)) != NULL) {
        if (e->d_name[0] == '.' && (!e->d_name[1] || (e->d_name[1] == '.' && !e->d_name[2])))
            continue;
        dir_entry *de = arena_alloc(fs->mem, sizeof *de);
        de->real = arena_strdup(fs->mem, e->d_name);
        de->lower = arena_lower(fs->mem, e->d_name, strlen(e->d_name));
        if (n == cap) list = xrealloc(list, (cap *= 2) * sizeof *list);
        list[n++] = de;
    }
    closedir(dp);
    d->bucket_count = 16;
    while (d->bucket_count < n * 2) d->bucket_count *= 2;
    d->buckets = arena_zalloc(fs->mem, d->bucket_count * sizeof *d->buckets);
    for (size_t i = 0; i < n; i++) {
        size_t b = text_hash(0, list[i]->lower, 1) & (d->bucket_count - 1);
        dir_entry *prev = NULL;
        /* Several spellings of one name: keep the byte-wise smallest, for a
        ** stable answer whatever order readdir gives. */
        for (dir_entry *x = d->buckets[b]; x; prev = x, x = x->next)
            if (strcmp(x->lower, list[i]->lower) == 0) break;
        dir_entry *x = prev ? prev->next : d->buckets[b];
        if (x && strcmp(x->lower, list[i]->lower) == 0) {
            if (strcmp(list[i]->real, x->real) < 0) x->real = list[i]->real;
            continue;
        }
        list[i]->next = d->buckets[b];
        d->buckets[b] = list[i];
    }
    free(list);
    return d;
}

static const char *lookup(dir_index *d, const char *name)
{
    if (!d->bucket_count) return NULL;
    size_t b = text_hash(0, name, 1) & (d->bucket_count - 1);
    for (dir_entry *x = d->buckets[b]; x; x = x->next)
        if (text_equal_nocase(x->lower, name)) return x->real;
    return NULL;
}

const char *gamefs_find(gamefs *fs, const char *sub, const char *file)
{
    for (size_t i = fs->count; i-- > 0;) {
        const char *dir = fs->dirs[i];
        const char *real_sub = lookup(index_dir(fs, dir), sub);
        if (!real_sub) continue;
        /* The default game directory "." names files as "animtrees/x.atr". */
        const char *subpath = strcmp(dir, ".") == 0 ? real_sub : arena_printf(fs->mem, "%s/%s", dir, real_sub);
        const char *real_file = lookup(index_dir(fs, subpath), file);
        if (real_file) return arena_printf(fs->mem, "%s/%s", subpath, real_file);
    }
    return NULL;
}

/* The real path of game-relative `name` under dir, folding case per
** component, or NULL. */
static const char *find_under(gamefs *fs, const char *dir, const char *name)
{
    const char *path = dir;
    const char *p = name;
    for (;;) {
        size_t n = strcspn(p, "/\\:");
        if (n == 0) {
            if (!*p) return NULL;
            p++;
            continue;
        }
        char *part = arena_strndup(fs->mem, p, n);
        const char *real = lookup(index_dir(fs, path), part);
        if (!real) return NULL;
        path = strcmp(path, ".") == 0 ? real : arena_printf(fs->mem, "%s/%s", path, real);
        p += n;
        while (*p == '/' || *p == '\\' || *p == ':') p++;
        if (!*p) return path;
    }
}

source_file *gamefs_open(gamefs *fs, const char *name, const char **err)
{
    *err = NULL;
    for (size_t i = fs->count; i-- > 0;) {
        const char *path = find_under(fs, fs->dirs[i], name);
        if (path) return source_read(path, err);
    }
    return NULL;
}

void gamefs_free(gamefs *fs)
{
    free(fs->dirs);
    fs->dirs = NULL;
    fs->count = fs->cap = 0;
    fs->indexes = NULL;
}
