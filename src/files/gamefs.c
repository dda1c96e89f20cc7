#include "files/gamefs.h"
#include "files/overlay.h"
#include "base/outbuf.h"
#include "game/profile.h"
#include "base/source.h"
#include "base/text.h"
#include "base/vec.h"
#include "os/os.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
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

struct gamefs_archive {
    const char *path;      /* "main/pak0.pk3" */
    int indexed;           /* 0: damaged, skipped */
    zip_t *zip;            /* open handle, or NULL: reopened when an entry is read */
    os_file_id id;         /* the file indexed: a reopened archive must be it */
    ar_entry *entries;
    size_t count, cap;
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
    ar_entry *entries;
    size_t count;
    hashtab by_key;
    kept_warning *warnings;   /* what indexing it reported, in order */
    size_t warning_count, warning_cap;
    /* KEPT_PREFIX: the first bytes_asked bytes asked for of a loose file
    ** (gamefs_read_prefix); KEPT_TEXT: a loose file read whole
    ** (gamefs_open_where: a tree or a script) */
    unsigned char *bytes;
    size_t bytes_len, bytes_asked;
} kept;

struct gamefs_store {
    kept **items;
    size_t count, cap;
    hashtab by_path;          /* items by path */
    unsigned long round;
    int refs;
    gamefs_store_counts counts;
};

gamefs_store *gamefs_store_new(void)
{
    gamefs_store *st = xcalloc(1, sizeof *st);
    st->refs = 1;
    st->round = 1;
    return st;
}

static void kept_clear(kept *k)
{
    arena_free_all(&k->mem);
    arena_init(&k->mem);
    hashtab_free(&k->dir.by_name);
    hashtab_free(&k->by_key);
    free(k->entries);
    free(k->warnings);
    free(k->bytes);
    char *path = k->path;
    kept_kind kind = k->kind;
    memset(k, 0, sizeof *k);
    k->path = path;
    k->kind = kind;
}

static void kept_free(kept *k)
{
    kept_clear(k);
    free(k->path);
    free(k);
}

void gamefs_store_release(gamefs_store *st)
{
    if (!st || --st->refs > 0) return;
    for (size_t i = 0; i < st->count; i++) kept_free(st->items[i]);
    free(st->items);
    hashtab_free(&st->by_path);
    free(st);
}

void gamefs_use_store(gamefs *fs, gamefs_store *st)
{
    fs->store = st;
    if (st) st->refs++;
}

void gamefs_store_end_round(gamefs_store *st)
{
    if (!st) return;
    size_t k = 0;
    for (size_t i = 0; i < st->count; i++) {
        if (st->items[i]->round == st->round) st->items[k++] = st->items[i];
        else kept_free(st->items[i]);
    }
    if (k != st->count) {
        st->count = k;
        hashtab_clear(&st->by_path);
        for (size_t i = 0; i < k; i++) hashtab_add(&st->by_path, text_hash(0, st->items[i]->path, 0));
    }
    st->round++;
}

const gamefs_store_counts *gamefs_store_counts_of(const gamefs_store *st)
{
    return &st->counts;
}

size_t gamefs_store_size(const gamefs_store *st)
{
    return st->count;
}

/* Whether a file last changed as id says was changed long enough ago that a
** later change cannot leave its times as they are (GAMEFS_SETTLE_SECONDS). */
static int settled(const os_file_id *id)
{
    long long newest = id->mtime_sec > id->change_sec ? id->mtime_sec : id->change_sec;
    return newest + GAMEFS_SETTLE_SECONDS <= os_file_clock_now();
}

/* The record for path of this kind, to reuse when *now (the file as it is)
** is what it was read from; else emptied (made when missing) for the read
** about to happen, *reuse 0.  NULL when there is no store or path cannot be
** looked up (nothing kept: read as without a store). */
static kept *store_record(gamefs *fs, const char *path, kept_kind kind, os_file_id *now, int *reuse)
{
    *reuse = 0;
    gamefs_store *st = fs->store;
    if (!st || os_path_id(path, now) != 0) return NULL;
    uint32_t h = text_hash(0, path, 0);
    kept *k = NULL;
    for (size_t i = hashtab_first(&st->by_path, h); i != HASHTAB_END && !k; i = hashtab_next(&st->by_path, h, i))
        if (st->items[i]->kind == kind && strcmp(st->items[i]->path, path) == 0) k = st->items[i];
    if (!k) {
        k = xcalloc(1, sizeof *k);
        k->kind = kind;
        k->path = xstrdup(path);
        arena_init(&k->mem);
        hashtab_add(&st->by_path, h);
        *vec_push(st->items, st->count, st->cap) = k;
    } else if (((kind == KEPT_DIR || kind == KEPT_ARCHIVE) && k->round == st->round) ||
               (k->reusable && os_unchanged(&k->id, now))) {
        /* (a listing or index handed out already this round is what the
        ** context holds: never replaced under it; bytes are copied out) */
        *reuse = 1;
    } else {
        kept_clear(k);
    }
    k->round = st->round;
    if (!*reuse) {
        k->id = *now;
        k->reusable = settled(now);
    }
    return k;
}

void gamefs_init(gamefs *fs, arena *mem, const profile_rules *rules)
{
    memset(fs, 0, sizeof *fs);
    fs->mem = mem;
    fs->rules = rules;
}

static const char *trim_dir(gamefs *fs, const char *dir)
{
    size_t n = strlen(dir);
    /* "game/" and "game" name one directory ("C:\\" stays the root of C:) */
    while (n > 1 && os_is_path_sep(dir[n - 1]) && dir[n - 2] != ':') n--;
    return arena_strndup(fs->mem, dir, n);
}

void gamefs_add_dir(gamefs *fs, const char *dir)
{
    *vec_push(fs->dirs, fs->count, fs->cap) = (char *)trim_dir(fs, dir);
    fs->path_built = 0;
}

void gamefs_set_install(gamefs *fs, const char *dir, const char *fs_game)
{
    fs->install = dir ? trim_dir(fs, dir) : NULL;
    fs->fs_game = fs_game ? arena_strdup(fs->mem, fs_game) : NULL;
    fs->path_built = 0;
}

void gamefs_set_language(gamefs *fs, const char *language)
{
    fs->language = language && *language ? arena_strdup(fs->mem, language) : NULL;
    fs->path_built = 0;
}

static unsigned char fold_upper(unsigned char c)
{
    return c >= 'a' && c <= 'z' ? (unsigned char)(c - 32) : c;
}

static unsigned char fold_sep(unsigned char c)
{
    return c == '\\' || c == ':' ? '/' : c;
}

/* As the engine compares paths: letters folded to upper case (so '_' sorts
** after letters), '\\' and ':' equal to '/'. */
int gamefs_path_compare(const char *a, const char *b)
{
    for (;; a++, b++) {
        unsigned char x = fold_sep(fold_upper((unsigned char)*a));
        unsigned char y = fold_sep(fold_upper((unsigned char)*b));
        if (x != y) return x < y ? -1 : 1;
        if (!x) return 0;
    }
}

/* The lookup key of a game-relative name: lower case, '\\' and ':' as '/',
** no empty components. */
static char *normalize(arena *mem, const char *name)
{
    size_t n = strlen(name);
    char *out = arena_alloc(mem, n + 1);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = fold_sep((unsigned char)name[i]);
        if (c == '/' && (k == 0 || out[k - 1] == '/')) continue;
        out[k++] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
    }
    while (k > 0 && out[k - 1] == '/') k--;
    out[k] = 0;
    return out;
}

static void evict_one(gamefs *fs);

/* The entry of `lower` (hashed h) in d, or NULL. */
static dir_entry *lookup(const dir_index *d, const char *lower, uint32_t h)
{
    for (size_t i = hashtab_first(&d->by_name, h); i != HASHTAB_END; i = hashtab_next(&d->by_name, h, i))
        if (strcmp(d->list[i]->lower, lower) == 0) return d->list[i];
    return NULL;
}

static int compare_bytes(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Reads a directory listing once; an unreadable directory indexes as empty.
** Names differing only in case are one entry with every spelling. */
static dir_index *index_dir(gamefs *fs, const char *path)
{
    uint32_t h = text_hash(0, path, 0);
    for (size_t i = hashtab_first(&fs->index_by_path, h); i != HASHTAB_END;
         i = hashtab_next(&fs->index_by_path, h, i))
        if (strcmp(fs->indexes[i]->path, path) == 0) return fs->indexes[i];
    dir_index *d = arena_zalloc(fs->mem, sizeof *d);
    d->path = arena_strdup(fs->mem, path);
    hashtab_add(&fs->index_by_path, h);
    *vec_push(fs->indexes, fs->index_count, fs->index_cap) = d;
    os_file_id now;
    int reuse;
    kept *k = store_record(fs, path, KEPT_DIR, &now, &reuse);
    if (reuse) {
        d->list = k->dir.list;
        d->count = k->dir.count;
        d->by_name = k->dir.by_name;
        d->kept = 1;
        fs->store->counts.dirs_reused++;
        return d;
    }
    arena *mem = k ? &k->mem : fs->mem;
    os_dir *dp;
    while (!(dp = os_dir_open(path)) && (errno == EMFILE || errno == ENFILE) && fs->open_count) evict_one(fs);
    if (!dp) {
        /* Missing is empty; a directory that exists but cannot be listed is
        ** reported by the lookups that need it. */
        if (errno != ENOENT && errno != ENOTDIR) d->error = errno ? errno : EIO;
        if (k) k->reusable = 0; /* tried again next time */
        return d;
    }
    if (fs->store) fs->store->counts.dirs_read++;
    size_t n = 0, cap = 0;
    char **names = NULL;
    for (const char *name; (name = os_dir_next(dp)) != NULL;) *vec_push(names, n, cap) = arena_strdup(mem, name);
    os_dir_close(dp);
    /* Sorted byte-wise, so every name's spellings come out in a stable order
    ** whatever order readdir gives. */
    if (n > 1) qsort(names, n, sizeof *names, compare_bytes);
    hashtab_reserve(&d->by_name, n);
    d->list = arena_alloc(mem, (n ? n : 1) * sizeof *d->list);
    for (size_t i = 0; i < n; i++) {
        const char *lower = arena_lower(mem, names[i], strlen(names[i]));
        uint32_t lh = text_hash(0, lower, 0);
        dir_entry *x = lookup(d, lower, lh);
        if (!x) {
            x = arena_zalloc(mem, sizeof *x);
            x->lower = lower;
            hashtab_add(&d->by_name, lh);
            d->list[d->count++] = x;
        }
        /* every spelling, in byte order (names are sorted) */
        const char **r = arena_alloc(mem, (x->real_count + 1) * sizeof *r);
        if (x->real_count) memcpy(r, x->reals, x->real_count * sizeof *r);
        r[x->real_count++] = names[i];
        x->reals = r;
    }
    free(names);
    if (k) {
        /* the store owns the listing; the context's index points into it */
        k->dir = *d;
        k->dir.path = k->path;
        d->kept = 1;
    }
    return d;
}

static const char *join(gamefs *fs, const char *dir, const char *name)
{
    /* The default game directory "." names files as "animtrees/x.atr". */
    return strcmp(dir, ".") == 0 ? arena_strdup(fs->mem, name) : arena_printf(fs->mem, "%s/%s", dir, name);
}

/* The real path of the normalized name `key` under dir, or NULL.  Every
** spelling of a directory is searched (animtrees/ and AnimTrees/ are one
** directory), in byte order. */
static const char *find_under(gamefs *fs, const char *dir, const char *key)
{
    const char *slash = strchr(key, '/');
    size_t n = slash ? (size_t)(slash - key) : strlen(key);
    if (n == 0) return NULL;
    char *part = arena_strndup(fs->mem, key, n);
    const dir_index *d = index_dir(fs, dir);
    if (d->error) {
        if (!fs->blocked) fs->blocked = d;
        return NULL;
    }
    const dir_entry *e = lookup(d, part, text_hash(0, part, 0));
    if (!e) return NULL;
    for (size_t i = 0; i < e->real_count; i++) {
        const char *path = join(fs, dir, e->reals[i]);
        if (!slash) return path;
        const char *found = find_under(fs, path, slash + 1);
        if (found) return found;
    }
    return NULL;
}

/* ---- archive index ---- */

/* A name with non-printable bytes quoted for a message. */
static const char *printable(gamefs *fs, const char *s)
{
    size_t n = strlen(s);
    if (n > 200) n = 200;
    char *out = arena_alloc(fs->mem, n * 4 + 4);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c >= 0x7f || c == '\'') k += (size_t)sprintf(out + k, "\\x%02x", c);
        else out[k++] = (char)c;
    }
    if (strlen(s) > n) k += (size_t)sprintf(out + k, "...");
    out[k] = 0;
    return out;
}

static void warn(gamefs *fs, const char *fmt, const char *a, const char *b)
{
    if (fs->diags) diag_add(fs->diags, DIAG_WARNING, NULL, 0, 0, fmt, a, b);
}

typedef enum { NAME_OK, NAME_DIR, NAME_DOTDOT, NAME_ENCODING, NAME_KINDS } name_kind;

static name_kind classify_name(const char *raw, size_t len)
{
    if (len == 0 || raw[len - 1] == '/' || raw[len - 1] == '\\') return NAME_DIR;
    for (size_t i = 0; i < len;) {
        size_t k = utf8_sequence_length((const unsigned char *)raw + i, len - i);
        if (k == 0) return NAME_ENCODING;
        i += k;
    }
    /* '..' as a component, or an absolute name: outside any game directory. */
    if (raw[0] == '/' || raw[0] == '\\') return NAME_DOTDOT;
    for (size_t i = 0; i + 1 < len; i++) {
        if (raw[i] != '.' || raw[i + 1] != '.') continue;
        int start = i == 0 || fold_sep((unsigned char)raw[i - 1]) == '/';
        int end = i + 2 == len || fold_sep((unsigned char)raw[i + 2]) == '/';
        if (start && end) return NAME_DOTDOT;
    }
    return NAME_OK;
}

/* Open handles: at most GAMEFS_OPEN_ARCHIVES archives hold a descriptor at
** a time (fewer when the process runs out of them); the others are reopened
** when an entry is read, so any number of archives works under any
** descriptor limit. */
static void release_handle(gamefs *fs, gamefs_archive *ar)
{
    if (!ar->zip) return;
    zip_discard(ar->zip);
    ar->zip = NULL;
    for (size_t i = 0; i < fs->open_count; i++)
        if (fs->open[i] == ar) {
            fs->open[i] = fs->open[--fs->open_count];
            break;
        }
}

static void evict_one(gamefs *fs)
{
    if (fs->open_count) release_handle(fs, fs->open[0]);
}

/* Handles kept: GAMEFS_OPEN_ARCHIVES, or a quarter of the descriptor limit
** when that is lower, so the scripts and files read meanwhile find room. */
static size_t handle_budget(gamefs *fs)
{
    if (!fs->open_budget) {
        unsigned long long limit = os_open_file_limit();
        size_t budget = GAMEFS_OPEN_ARCHIVES;
        if (limit && limit / 4 < budget) budget = (size_t)(limit / 4);
        fs->open_budget = budget ? budget : 1;
    }
    return fs->open_budget;
}

/* zip_open with room made: a full descriptor table closes cached handles. */
static zip_t *open_zip(gamefs *fs, const char *path, int *code)
{
    if (fs->open_count >= handle_budget(fs)) evict_one(fs);
    for (;;) {
        errno = 0;
        zip_t *z = zip_open(path, ZIP_RDONLY, code);
        if (z || *code != ZIP_ER_OPEN || (errno != EMFILE && errno != ENFILE) || !fs->open_count) return z;
        evict_one(fs);
    }
}

static void keep_handle(gamefs *fs, gamefs_archive *ar, zip_t *z)
{
    ar->zip = z;
    fs->open[fs->open_count++] = ar;
}

/* The archive's handle, reopened when it was released; NULL with *err. */
static zip_t *archive_handle(gamefs *fs, gamefs_archive *ar, const char **err)
{
    if (ar->zip) {
        /* most recently used last: evict_one takes the front */
        for (size_t i = 0; i + 1 < fs->open_count; i++)
            if (fs->open[i] == ar) {
                memmove(fs->open + i, fs->open + i + 1, (fs->open_count - i - 1) * sizeof *fs->open);
                fs->open[fs->open_count - 1] = ar;
                break;
            }
        return ar->zip;
    }
    os_file_id now;
    if (os_path_id(ar->path, &now) != 0 || !os_same_id(&now, &ar->id) || now.size != ar->id.size ||
        now.mtime_sec != ar->id.mtime_sec || now.mtime_nsec != ar->id.mtime_nsec) {
        *err = "the archive changed since it was indexed";
        return NULL;
    }
    int code = 0;
    zip_t *z = open_zip(fs, ar->path, &code);
    if (!z) {
        zip_error_t e;
        zip_error_init_with_code(&e, code);
        *err = arena_printf(fs->mem, "cannot open the archive again: %s", zip_error_strerror(&e));
        zip_error_fini(&e);
        return NULL;
    }
    keep_handle(fs, ar, z);
    return z;
}

static void close_archive(gamefs_archive *ar)
{
    if (ar->zip) zip_discard(ar->zip);
    ar->zip = NULL;
    if (ar->kept) return; /* the store's */
    free(ar->entries);
    ar->entries = NULL;
    ar->count = ar->cap = 0;
    hashtab_free(&ar->by_key);
}

/* The entry of `key` (hashed h) in ar, or NULL. */
static ar_entry *archive_lookup(const gamefs_archive *ar, const char *key, uint32_t h)
{
    for (size_t i = hashtab_first(&ar->by_key, h); i != HASHTAB_END; i = hashtab_next(&ar->by_key, h, i))
        if (strcmp(ar->entries[i].key, key) == 0) return &ar->entries[i];
    return NULL;
}

/* warn, and with a store record, kept to be given again with the index. */
static void archive_warn(gamefs *fs, kept *k, const char *fmt, const char *a, const char *b)
{
    warn(fs, fmt, a, b);
    if (!k) return;
    kept_warning *w = vec_push(k->warnings, k->warning_count, k->warning_cap);
    w->fmt = fmt;
    w->a = arena_strdup(&k->mem, a);
    w->b = arena_strdup(&k->mem, b);
}

/* Opens and indexes one archive; a damaged one is reported and left without
** entries.  Inside one archive the entry indexed last wins. */
static gamefs_archive *open_archive(gamefs *fs, const char *path)
{
    for (gamefs_archive *a = fs->archives; a; a = a->next)
        if (strcmp(a->path, path) == 0) return a;
    gamefs_archive *ar = arena_zalloc(fs->mem, sizeof *ar);
    ar->path = arena_strdup(fs->mem, path);
    ar->next = fs->archives;
    fs->archives = ar;

    int code = 0, reuse;
    os_file_id id;
    kept *k = store_record(fs, path, KEPT_ARCHIVE, &id, &reuse);
    if (reuse) {
        /* the kept entry table, its warnings given again; no handle until an entry is read */
        ar->indexed = k->indexed;
        ar->id = k->id;
        ar->entries = k->entries;
        ar->count = k->count;
        ar->by_key = k->by_key;
        ar->kept = 1;
        for (size_t i = 0; i < k->warning_count; i++) warn(fs, k->warnings[i].fmt, k->warnings[i].a, k->warnings[i].b);
        fs->store->counts.archives_reused++;
        return ar;
    }
    if (k) fs->store->counts.archives_indexed++;
    arena *mem = k ? &k->mem : fs->mem;
    zip_t *z = k || os_path_id(path, &id) == 0 ? open_zip(fs, path, &code) : NULL;
    if (!z && code == 0) code = ZIP_ER_OPEN;
    if (!z) {
        zip_error_t e;
        zip_error_init_with_code(&e, code);
        archive_warn(fs, k, "cannot open archive '%s': %s; skipped", path, zip_error_strerror(&e));
        zip_error_fini(&e);
        /* not kept when the file could not be opened at all (permissions,
        ** no descriptor left): tried again next time */
        if (k && code == ZIP_ER_OPEN) k->reusable = 0;
        return ar;
    }
    zip_int64_t n = zip_get_num_entries(z, 0);
    if (n < 0 || n > GAMEFS_MAX_ARCHIVE_ENTRIES) {
        archive_warn(fs, k, "archive '%s' lists %s entries, more than the limit of 262144; skipped", path,
                     arena_printf(fs->mem, "%lld", (long long)n));
        zip_discard(z);
        return ar;
    }
    ar->indexed = 1;
    ar->id = id;
    keep_handle(fs, ar, z);
    hashtab_reserve(&ar->by_key, (size_t)n);
    size_t bad[NAME_KINDS] = {0};
    const char *first_bad[NAME_KINDS] = {0};
    for (zip_int64_t i = 0; i < n; i++) {
        zip_stat_t st;
        zip_stat_init(&st);
        if (zip_stat_index(z, (zip_uint64_t)i, ZIP_FL_ENC_RAW, &st) != 0 || !(st.valid & ZIP_STAT_NAME))
            continue;
        const char *raw = st.name;
        name_kind kind = classify_name(raw, strlen(raw));
        if (kind == NAME_DIR) continue;
        if (kind != NAME_OK) {
            if (!bad[kind]++) first_bad[kind] = printable(fs, raw);
            continue;
        }
        const char *key = normalize(mem, raw);
        if (!*key) continue;
        uint32_t h = text_hash(0, key, 0);
        ar_entry *e = archive_lookup(ar, key, h);
        if (!e) {
            hashtab_add(&ar->by_key, h);
            e = vec_push(ar->entries, ar->count, ar->cap);
            e->key = key;
        }
        e->name = arena_strdup(mem, raw);
        e->index = (zip_uint64_t)i;
        e->size = (st.valid & ZIP_STAT_SIZE) ? st.size : 0;
        e->method = (st.valid & ZIP_STAT_COMP_METHOD) ? (int)st.comp_method : -1;
    }
    if (bad[NAME_DOTDOT])
        archive_warn(fs, k, "archive '%s': %s", path,
             arena_printf(fs->mem, "%zu entr%s ignored: name leaves the game directory (first: '%s')",
                          bad[NAME_DOTDOT], bad[NAME_DOTDOT] == 1 ? "y" : "ies", first_bad[NAME_DOTDOT]));
    if (bad[NAME_ENCODING])
        archive_warn(fs, k, "archive '%s': %s", path,
             arena_printf(fs->mem, "%zu entr%s ignored: name is not valid UTF-8 (first: '%s')",
                          bad[NAME_ENCODING], bad[NAME_ENCODING] == 1 ? "y" : "ies", first_bad[NAME_ENCODING]));
    if (k) {
        /* the store owns the entry table; the context's archive points into it */
        k->indexed = 1;
        k->entries = ar->entries;
        k->count = ar->count;
        k->by_key = ar->by_key;
        ar->kept = 1;
    }
    return ar;
}

/* ---- the search path ---- */

typedef struct entry_list {
    gamefs_entry *items;
    size_t count, cap;
} entry_list;

static void push(entry_list *l, const char *dir, gamefs_archive *ar)
{
    *vec_push(l->items, l->count, l->cap) = (gamefs_entry){dir, ar};
}

static int compare_paths(const void *a, const void *b)
{
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    int c = gamefs_path_compare(x, y);
    return c ? c : strcmp(x, y);
}

static int has_suffix_nocase(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n > k && text_equal_nocase(s + n - k, suffix);
}

static int has_prefix_nocase(const char *s, const char *prefix)
{
    for (; *prefix; s++, prefix++) {
        unsigned char x = (unsigned char)*s, y = (unsigned char)*prefix;
        if ((x >= 'A' && x <= 'Z' ? x + 32 : x) != (y >= 'A' && y <= 'Z' ? y + 32 : y)) return 0;
    }
    return 1;
}

/* Adds directory dir: its loose files, then its archives in sorted order
** (localized ones of the language first, or into `low` for profiles that put
** them below everything). */
/* The last component of a directory path as given ("NAME" for "." or "/"). */
static const char *mod_name(const char *dir)
{
    const char *slash = strrchr(dir, '/');
    const char *name = slash ? slash + 1 : dir;
    return !*name || !strcmp(name, ".") || !strcmp(name, "..") ? "NAME" : name;
}

static void add_game_dir(gamefs *fs, const char *dir, entry_list *l, entry_list *low)
{
    const profile_rules *rules = fs->rules;
    dir_index *d = index_dir(fs, dir);
    size_t n = 0, nloc = 0, spellings = 0;
    /* Room for every spelling: names differing only in case are one folded
    ** entry, but each of them is an archive of its own. */
    for (size_t i = 0; i < d->count; i++) spellings += d->list[i]->real_count;
    if (spellings == 0) spellings = 1;
    const char **names = xmalloc(spellings * 2 * sizeof *names);
    const char **loc = names + spellings;
    const char *lang_prefix = fs->language ? arena_printf(fs->mem, "localized_%s_", fs->language) : NULL;
    for (size_t i = 0; i < d->count; i++) {
        for (size_t k = 0; k < d->list[i]->real_count; k++) {
            const char *name = d->list[i]->reals[k];
            if (!has_suffix_nocase(name, rules->archive_ext)) continue;
            os_file_id st;
            const char *path = join(fs, dir, name);
            if (os_path_id(path, &st) != 0 || !st.regular) continue;
            if (has_prefix_nocase(name, "localized_")) {
                if (lang_prefix && has_prefix_nocase(name, lang_prefix)) loc[nloc++] = name;
            } else {
                names[n++] = name;
            }
        }
    }
    qsort(names, n, sizeof *names, compare_paths);
    qsort(loc, nloc, sizeof *loc, compare_paths);
    /* A built CoD4 mod keeps its scripts and trees in mod.ff, a fastfile:
    ** say so, rather than run silently over what the rest of the path holds. */
    const dir_entry *ff = lookup(d, "mod.ff", text_hash(0, "mod.ff", 0));
    if (ff && !d->fastfile_reported) {
        d->fastfile_reported = 1;
        warn(fs, "'%s' is a fastfile (a built mod), which atrc cannot read: the scripts and trees in it are not "
             "compiled, only what the other game directories hold; point -g at the mod's raw source folder "
             "(the one holding its maps/ and animtrees/, e.g. the mod tools' mods/%s) instead",
             join(fs, dir, ff->reals[0]), mod_name(dir));
    }
    push(l, dir, NULL);
    entry_list *ldest = rules->localized_below_all ? low : l;
    for (size_t i = 0; i < nloc; i++) push(ldest, NULL, open_archive(fs, join(fs, dir, loc[i])));
    for (size_t i = 0; i < n; i++) push(l, NULL, open_archive(fs, join(fs, dir, names[i])));
    free(names);
}

static void build_path(gamefs *fs)
{
    if (fs->path_built) return;
    entry_list l = {0}, low = {0};
    if (fs->install) {
        const char *dev = fs->rules->install_dev_dirs;
        while (dev && *dev) {
            size_t n = strcspn(dev, " ");
            const char *path = join(fs, fs->install, arena_strndup(fs->mem, dev, n));
            os_file_id st;
            if (os_path_id(path, &st) == 0 && st.directory) add_game_dir(fs, path, &l, &low);
            dev += n;
            while (*dev == ' ') dev++;
        }
        add_game_dir(fs, join(fs, fs->install, "main"), &l, &low);
        const char *base = fs->rules->base_game_dir;
        if (base) add_game_dir(fs, join(fs, fs->install, base), &l, &low);
        if (fs->fs_game) add_game_dir(fs, join(fs, fs->install, fs->fs_game), &l, &low);
    }
    for (size_t i = 0; i < fs->count; i++) add_game_dir(fs, fs->dirs[i], &l, &low);
    if (!fs->install && fs->count == 0) add_game_dir(fs, ".", &l, &low);
    /* lowest first: the localized archives that go below everything, then the rest */
    fs->path = arena_alloc(fs->mem, (low.count + l.count + 1) * sizeof *fs->path);
    if (low.count) memcpy(fs->path, low.items, low.count * sizeof *fs->path);
    if (l.count) memcpy(fs->path + low.count, l.items, l.count * sizeof *fs->path);
    fs->path_count = low.count + l.count;
    free(l.items);
    free(low.items);
    fs->path_built = 1;
}

/* ---- listings ---- */

typedef struct name_list {
    const char **items;
    size_t count, cap;
} name_list;

/* The files directly in directory `key` (normalized) under dir, every
** spelling of each component searched, into l (lower case, suffix cut). */
static void list_under(gamefs *fs, const char *dir, const char *key, const char *suffix, name_list *l)
{
    const dir_index *d = index_dir(fs, dir);
    if (!*key) {
        for (size_t i = 0; i < d->count; i++) {
            const char *lower = d->list[i]->lower;
            size_t n = strlen(lower);
            if (has_suffix_nocase(lower, suffix))
                *vec_push(l->items, l->count, l->cap) = arena_strndup(fs->mem, lower, n - strlen(suffix));
        }
        return;
    }
    const char *slash = strchr(key, '/');
    size_t n = slash ? (size_t)(slash - key) : strlen(key);
    char *part = arena_strndup(fs->mem, key, n);
    const dir_entry *e = lookup(d, part, text_hash(0, part, 0));
    if (!e) return;
    for (size_t i = 0; i < e->real_count; i++)
        list_under(fs, join(fs, dir, e->reals[i]), slash ? slash + 1 : "", suffix, l);
}

static int by_bytes(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

size_t gamefs_list(gamefs *fs, const char *dir, const char *suffix, const char ***names)
{
    build_path(fs);
    const char *key = normalize(fs->mem, dir);
    size_t klen = strlen(key);
    name_list l = {0};
    for (size_t i = 0; i < fs->path_count; i++) {
        const gamefs_entry *e = &fs->path[i];
        if (!e->ar) {
            list_under(fs, e->dir, key, suffix, &l);
            continue;
        }
        for (size_t k = 0; k < e->ar->count; k++) {
            const char *x = e->ar->entries[k].key;
            if (strncmp(x, key, klen) != 0 || x[klen] != '/' || strchr(x + klen + 1, '/')) continue;
            size_t n = strlen(x + klen + 1);
            if (has_suffix_nocase(x + klen + 1, suffix))
                *vec_push(l.items, l.count, l.cap) = arena_strndup(fs->mem, x + klen + 1, n - strlen(suffix));
        }
    }
    if (l.count > 1) qsort(l.items, l.count, sizeof *l.items, by_bytes);
    size_t u = 0;
    for (size_t i = 0; i < l.count; i++)
        if (!u || strcmp(l.items[u - 1], l.items[i]) != 0) l.items[u++] = l.items[i];
    const char **out = arena_alloc(fs->mem, (u ? u : 1) * sizeof *out);
    if (u) memcpy(out, l.items, u * sizeof *out);
    free(l.items);
    *names = out;
    return u;
}

typedef struct hit {
    const char *where;        /* display path */
    const char *loose;        /* loose file path, or NULL */
    gamefs_archive *ar;
    const ar_entry *entry;
} hit;

static int find(gamefs *fs, const char *name, hit *h)
{
    memset(h, 0, sizeof *h);
    build_path(fs);
    const char *key = normalize(fs->mem, name);
    if (!*key) return 0;
    uint32_t kh = text_hash(0, key, 0);
    fs->blocked = NULL;
    for (size_t i = fs->path_count; i-- > 0;) {
        const gamefs_entry *e = &fs->path[i];
        if (e->ar) {
            const ar_entry *x = archive_lookup(e->ar, key, kh);
            if (!x) continue;
            h->ar = e->ar;
            h->entry = x;
            h->where = arena_printf(fs->mem, "%s:%s", e->ar->path, x->name);
            return 1;
        }
        const char *path = find_under(fs, e->dir, key);
        if (path) {
            h->loose = path;
            h->where = path;
            return 1;
        }
        if (fs->blocked) {
            /* What the unreadable directory holds would come first. */
            h->where = fs->blocked->path;
            return -1;
        }
    }
    return 0;
}

/* find's -1: the message of the directory that could not be listed. */
static const char *blocked_message(gamefs *fs)
{
    return arena_printf(fs->mem, "cannot list this directory: %s", strerror(fs->blocked->error));
}

const char *gamefs_locate(gamefs *fs, const char *name)
{
    hit h;
    return find(fs, name, &h) > 0 ? h.where : NULL;
}

static const char *zip_message(gamefs *fs, zip_error_t *e)
{
    return arena_strdup(fs->mem, zip_error_strerror(e));
}

/* Reads at most `cap` bytes of an entry into buf; *got is what was read. With
** `whole`, the entry must be exactly its recorded size. */
static const char *read_entry(gamefs *fs, const hit *h, unsigned char *buf, size_t cap, size_t *got,
                              int whole)
{
    const char *err0 = NULL;
    *got = 0;
    /* The engines read stored and deflated entries only (their unzip has no
    ** other method): anything else fails in the game, so it fails here. */
    if (h->entry->method != ZIP_CM_STORE && h->entry->method != ZIP_CM_DEFLATE)
        return arena_printf(fs->mem, "entry is compressed with %s (method %d); the game reads only stored and deflated entries",
                            h->entry->method == ZIP_CM_BZIP2 ? "bzip2" : h->entry->method == ZIP_CM_LZMA ? "LZMA"
                            : h->entry->method == ZIP_CM_XZ ? "xz" : "another method",
                            h->entry->method);
    zip_t *z = archive_handle(fs, h->ar, &err0);
    if (!z) return err0;
    zip_file_t *zf = zip_fopen_index(z, h->entry->index, 0);
    if (!zf) return zip_message(fs, zip_get_error(z));
    const char *err = NULL;
    while (*got < cap) {
        zip_int64_t k = zip_fread(zf, buf + *got, cap - *got);
        if (k < 0) {
            err = zip_message(fs, zip_file_get_error(zf));
            break;
        }
        if (k == 0) break;
        *got += (size_t)k;
    }
    if (!err && whole) {
        unsigned char extra;
        if (*got < h->entry->size) {
            err = "entry is shorter than its recorded size";
        } else {
            zip_int64_t k = zip_fread(zf, &extra, 1); /* reaching the end checks the CRC */
            if (k > 0) err = "entry is longer than its recorded size";
            else if (k < 0) err = zip_message(fs, zip_file_get_error(zf));
        }
    }
    zip_fclose(zf);
    return err;
}

/* A loose game file read whole; with a store, the bytes read last time
** while the file is unchanged (its identity, size and times: one stat). */
static source_file *open_loose(gamefs *fs, const char *path, const char **err)
{
    os_file_id now;
    int reuse;
    kept *kp = store_record(fs, path, KEPT_TEXT, &now, &reuse);
    if (reuse && now.regular) {
        fs->store->counts.texts_reused++;
        return source_from_bytes(path, (const char *)kp->bytes, kp->bytes_len, &now);
    }
    if (kp) {
        kp->reusable = 0; /* until read below */
        fs->store->counts.texts_read++;
    }
    source_file *f = source_read_regular(path, err);
    /* kept only when the file read is the one looked up (and settled) */
    if (f && kp && f->dev == kp->id.dev && f->ino == kp->id.ino && f->size == kp->id.size &&
        f->mtime_sec == kp->id.mtime_sec && f->mtime_nsec == kp->id.mtime_nsec && f->len == f->size) {
        kp->bytes = xmalloc(f->len + 1);
        memcpy(kp->bytes, f->data, f->len + 1);
        kp->bytes_len = f->len;
        kp->reusable = settled(&kp->id);
    }
    return f;
}

source_file *gamefs_open_where(gamefs *fs, const char *name, const char **where, const char **err)
{
    *err = NULL;
    if (where) *where = NULL;
    hit h;
    int found = find(fs, name, &h);
    if (found == 0) return NULL;
    if (where) *where = h.where;
    if (found < 0) {
        *err = blocked_message(fs);
        return NULL;
    }
    if (h.loose) {
        size_t len;
        const char *buffered = overlay_find(fs->overlay, h.loose, &len);
        if (buffered) return source_from_buffer(h.loose, buffered, len);
        return open_loose(fs, h.loose, err);
    }
    if (h.entry->size > GAMEFS_MAX_ENTRY_SIZE) {
        *err = arena_printf(fs->mem, "entry is %llu bytes, over the %zu MiB limit for one file in an archive",
                            (unsigned long long)h.entry->size, GAMEFS_MAX_ENTRY_SIZE >> 20);
        return NULL;
    }
    size_t size = (size_t)h.entry->size, got;
    unsigned char *buf = xmalloc(size + 1);
    *err = read_entry(fs, &h, buf, size, &got, 1);
    if (*err) {
        free(buf);
        return NULL;
    }
    buf[got] = 0;
    source_file *f = xcalloc(1, sizeof *f);
    f->path = xstrdup(h.where);
    f->data = (char *)buf;
    f->len = got;
    return f;
}

source_file *gamefs_open(gamefs *fs, const char *name, const char **err)
{
    return gamefs_open_where(fs, name, NULL, err);
}

int gamefs_read_prefix(gamefs *fs, const char *name, unsigned char *buf, size_t n, size_t *got,
                       const char **where, const char **err)
{
    *err = NULL;
    *got = 0;
    if (where) *where = NULL;
    hit h;
    int found = find(fs, name, &h);
    if (found == 0) return 0;
    if (where) *where = h.where;
    if (found < 0) {
        *err = blocked_message(fs);
        return -1;
    }
    if (h.ar) {
        *err = read_entry(fs, &h, buf, n, got, 0);
        return *err ? -1 : 1;
    }
    /* With a store: the bytes read last time, while the file is unchanged. */
    os_file_id now;
    int reuse;
    kept *kp = store_record(fs, h.loose, KEPT_PREFIX, &now, &reuse);
    if (reuse && now.regular && kp->bytes_asked == n) {
        if (kp->bytes_len) memcpy(buf, kp->bytes, kp->bytes_len);
        *got = kp->bytes_len;
        gamefs_file_id *id = vec_push(fs->read_ids, fs->read_count, fs->read_cap);
        id->id = now;
        id->path = h.loose;
        fs->store->counts.prefixes_reused++;
        return 1;
    }
    if (kp) {
        if (reuse) { /* asked for another length: read again */
            unsigned long round = kp->round;
            kept_clear(kp);
            kp->id = now;
            kp->round = round;
        }
        kp->reusable = 0; /* until read below */
        fs->store->counts.prefixes_read++;
    }
    const char *why = NULL;
    int fd = source_open_nonblocking(h.loose, 1, &why);
    if (fd < 0) {
        *err = fd == -2 ? why : arena_strdup(fs->mem, strerror(errno));
        return -1;
    }
    os_file_id st;
    if (os_fd_id(fd, &st) == 0) {
        gamefs_file_id *id = vec_push(fs->read_ids, fs->read_count, fs->read_cap);
        id->id = st;
        id->path = h.loose;
    }
    while (*got < n) {
        ssize_t k = read(fd, buf + *got, n - *got);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) {
            *err = arena_strdup(fs->mem, strerror(errno));
            close(fd);
            return -1;
        }
        if (k == 0) break;
        *got += (size_t)k;
    }
    close(fd);
    if (kp && os_unchanged(&kp->id, &st)) {
        /* kept only when the file read is the one looked up (and settled) */
        kp->bytes = xmalloc(*got ? *got : 1);
        if (*got) memcpy(kp->bytes, buf, *got);
        kp->bytes_len = *got;
        kp->bytes_asked = n;
        kp->reusable = settled(&st);
    }
    return 1;
}

/* ---- what an output file must never replace ---- */

/* What the game would read at game-relative name `rel` (any case, any
** separator): an archive at the top of a game directory, a tree, an xanim,
** the player animation script, a script; NULL for anything else. */
static const char *game_file_kind(gamefs *fs, const char *rel)
{
    const char *key = normalize(fs->mem, rel);
    const char *slash = strchr(key, '/');
    if (!slash && (has_suffix_nocase(key, ".pk3") || has_suffix_nocase(key, ".iwd"))) return "an archive";
    if (slash && (size_t)(slash - key) == 9 && memcmp(key, "animtrees", 9) == 0) return "an animation tree";
    if (slash && (size_t)(slash - key) == 5 && memcmp(key, "xanim", 5) == 0) return "an xanim";
    if (strcmp(key, "mp/playeranim.script") == 0) return "the player animation script";
    if (has_suffix_nocase(key, ".gsc") || has_suffix_nocase(key, ".csc")) return "a script";
    if (has_suffix_nocase(key, ".atr")) return "an animation tree";
    return NULL;
}

const char *gamefs_output_conflict(gamefs *fs, const char *path)
{
    build_path(fs);
    os_file_id out;
    if (os_path_id(path, &out) == 0 && out.regular) {
        for (gamefs_archive *a = fs->archives; a; a = a->next) {
            os_file_id st;
            if (os_path_id(a->path, &st) == 0 && os_same_id(&st, &out))
                return arena_printf(fs->mem, "is the archive '%s' of the search path", a->path);
        }
        for (size_t i = 0; i < fs->read_count; i++)
            if (os_same_id(&fs->read_ids[i].id, &out))
                return arena_printf(fs->mem, "is '%s', a game file this run read", fs->read_ids[i].path);
    }
    /* Inside a game directory (by identity: any spelling, path or link of
    ** it), a name the game reads is refused whether or not it exists yet. */
    const char *slash = os_last_path_sep(path);
    /* the parent keeps its root's separator: "/", "C:\\" */
    size_t parent_len = slash ? (size_t)(slash - path) : 0, path_root = os_path_root_length(path);
    if (slash && parent_len < path_root) parent_len = path_root;
    const char *parent = slash ? arena_strndup(fs->mem, path, parent_len) : ".";
    const char *base = slash ? slash + 1 : path;
    char *real = os_real_path(parent);
    if (!real) return NULL;
    size_t ndirs = 0, root = os_path_root_length(real);
    os_file_id *ids = xmalloc((fs->path_count ? fs->path_count : 1) * sizeof *ids);
    const char **names = xmalloc((fs->path_count ? fs->path_count : 1) * sizeof *names);
    for (size_t i = 0; i < fs->path_count; i++)
        if (fs->path[i].dir && os_path_id(fs->path[i].dir, &ids[ndirs]) == 0) names[ndirs++] = fs->path[i].dir;
    const char *why = NULL;
    /* real, then each of its ancestors down to its root, against every game directory */
    for (size_t len = strlen(real); !why;) {
        size_t end = len < root ? root : len;
        char saved = real[end];
        real[end] = 0;
        os_file_id st;
        int ok = os_path_id(real, &st) == 0;
        real[end] = saved;
        for (size_t d = 0; ok && d < ndirs && !why; d++) {
            if (!os_same_id(&st, &ids[d])) continue;
            const char *rest = real + len + os_is_path_sep((unsigned char)real[len]);
            const char *rel = *rest ? arena_printf(fs->mem, "%s/%s", rest, base) : base;
            const char *kind = game_file_kind(fs, rel);
            if (kind) why = arena_printf(fs->mem, "is '%s' in the game directory '%s', %s the game reads", rel, names[d], kind);
        }
        if (len <= root) break;
        while (len > 0 && !os_is_path_sep((unsigned char)real[len - 1])) len--;
        if (len > 0) len--; /* drop the separator too; below root, the root */
    }
    free(real);
    free(ids);
    free(names);
    return why;
}

/* ---- game-relative names ---- */

/* path with '\\' as '/' and no empty or "." components into out (cap
** bytes); "" for "." itself.  Returns the length, or (size_t)-1 when it does
** not fit. */
static size_t clean_path(const char *path, char *out, size_t cap)
{
    size_t k = 0;
    const char *p = path;
    if (*p == '/' || *p == '\\') {
        if (cap < 2) return (size_t)-1;
        out[k++] = '/';
    }
    while (*p) {
        while (*p == '/' || *p == '\\') p++;
        size_t n = strcspn(p, "/\\");
        if (n == 0) break;
        if (!(n == 1 && p[0] == '.')) {
            int sep = k > 0 && out[k - 1] != '/';
            if (k + sep + n + 1 > cap) return (size_t)-1;
            if (sep) out[k++] = '/';
            memcpy(out + k, p, n);
            k += n;
        }
        p += n;
    }
    out[k] = 0;
    return k;
}

/* The length of dir's prefix in path when path lies below dir (both clean),
** else 0; dir "" (the current directory) holds every relative path that
** does not leave it. */
static size_t below(const char *dir, size_t dn, const char *path)
{
    /* "top/../x" is not below "top": such a path is compared by its real path */
    for (const char *p = strstr(path, ".."); p; p = strstr(p + 2, ".."))
        if ((p == path || p[-1] == '/') && (p[2] == '/' || p[2] == 0) && (dn || p != path)) return 0;
    if (dn == 0) return path[0] != '/' && strncmp(path, "../", 3) != 0 && strcmp(path, "..") != 0 ? 1 : 0;
    if (strncasecmp(path, dir, dn) != 0 || path[dn] != '/') return 0;
    return dn + 1;
}

char *gamefs_relative_name(const gamefs *fs, const char *path, char *out, size_t cap)
{
    char *clean = xmalloc(strlen(path) + 2), *dir = NULL;
    size_t len = clean_path(path, clean, strlen(path) + 2), best = 0, start = 0;
    const char *rest = NULL;
    /* The directories the search path has (or, not yet built, will have). */
    size_t count = fs->path_built ? fs->path_count : fs->count ? fs->count : 1;
    for (size_t i = 0; i < count && !rest; i++) {
        const char *d = fs->path_built ? fs->path[i].dir : fs->count ? fs->dirs[i] : ".";
        if (fs->path_built && fs->path[i].ar) {
            size_t an = strlen(fs->path[i].ar->path);
            if (strncmp(path, fs->path[i].ar->path, an) == 0 && path[an] == ':') rest = path + an + 1;
            continue;
        }
        size_t dn = strlen(d) + 2;
        dir = xrealloc(dir, dn);
        dn = clean_path(d, dir, dn);
        size_t at = below(dir, dn, clean);
        if (at && dn + 1 > best) {
            best = dn + 1;
            start = dn ? at : 0;
        }
    }
    if (!rest && !best) {
        /* The same file through another spelling: compare real paths. */
        char *real = os_real_path(path);
        for (size_t i = 0; real && i < count; i++) {
            const char *d = fs->path_built ? fs->path[i].dir : fs->count ? fs->dirs[i] : ".";
            if (!d) continue;
            char *rd = os_real_path(d);
            size_t dn = rd ? strlen(rd) : 0;
            if (rd && dn > os_path_root_length(rd) && dn + 1 > best && strncmp(real, rd, dn) == 0 &&
                os_is_path_sep((unsigned char)real[dn])) {
                best = dn + 1;
                clean = xrealloc(clean, strlen(real) + 2);
                len = clean_path(real + dn + 1, clean, strlen(real) + 2);
                start = 0;
            }
            free(rd);
        }
        free(real);
    }
    const char *name = rest ? rest : len == (size_t)-1 ? path : clean + start;
    size_t k = 0;
    for (; name[k] && k + 1 < cap; k++) {
        char c = name[k] == '\\' ? '/' : name[k];
        out[k] = c >= 'A' && c <= 'Z' ? (char)(c + 32) : c;
    }
    if (cap) out[k] = 0;
    free(clean);
    free(dir);
    return out;
}

void gamefs_describe(gamefs *fs, FILE *out)
{
    build_path(fs);
    for (size_t i = fs->path_count; i-- > 0;) {
        const gamefs_entry *e = &fs->path[i];
        if (e->ar) fprintf(out, "archive %s%s\n", e->ar->path, e->ar->indexed ? "" : " (unreadable)");
        else fprintf(out, "dir %s\n", e->dir);
    }
}

void gamefs_list_dir(gamefs *fs, const char *dir, const char *ext,
                     void (*fn)(void *ud, const char *name, size_t len), void *ud)
{
    build_path(fs);
    const char *key = normalize(fs->mem, dir);
    size_t klen = strlen(key), elen = strlen(ext);
    for (size_t i = fs->path_count; i-- > 0;) {
        const gamefs_entry *e = &fs->path[i];
        if (e->ar) {
            for (size_t k = 0; k < e->ar->count; k++) {
                const char *name = e->ar->entries[k].key;
                size_t n = strlen(name);
                if (n <= klen + 1 + elen || (klen && (memcmp(name, key, klen) != 0 || name[klen] != '/')))
                    continue;
                const char *base = klen ? name + klen + 1 : name;
                if (strchr(base, '/') || !has_suffix_nocase(base, ext)) continue;
                fn(ud, base, strlen(base) - elen);
            }
            continue;
        }
        const char *path = klen ? find_under(fs, e->dir, key) : e->dir;
        if (!path) continue;
        const dir_index *d = index_dir(fs, path);
        for (size_t k = 0; k < d->count; k++) {
            const char *name = d->list[k]->lower;
            if (has_suffix_nocase(name, ext)) fn(ud, name, strlen(name) - elen);
        }
    }
}

const char *gamefs_dir_names(gamefs *fs)
{
    build_path(fs);
    outbuf b = {0};
    for (size_t i = fs->path_count; i-- > 0;) {
        const gamefs_entry *e = &fs->path[i];
        if (e->ar) continue;
        if (b.len) outbuf_str(&b, ", ");
        outbuf_str(&b, e->dir);
    }
    const char *out = arena_strdup(fs->mem, b.s ? b.s : "");
    outbuf_free(&b);
    return out;
}

const char *gamefs_archive_of(const gamefs *fs, const char *path)
{
    for (const gamefs_archive *a = fs->archives; a; a = a->next) {
        size_t n = strlen(a->path);
        if (strncmp(path, a->path, n) == 0 && path[n] == ':') return a->path;
    }
    return NULL;
}

void gamefs_free(gamefs *fs)
{
    for (gamefs_archive *a = fs->archives; a; a = a->next) close_archive(a);
    fs->archives = NULL;
    fs->open_count = 0;
    free(fs->read_ids);
    fs->read_ids = NULL;
    fs->read_count = fs->read_cap = 0;
    free(fs->dirs);
    fs->dirs = NULL;
    fs->count = fs->cap = 0;
    for (size_t i = 0; i < fs->index_count; i++)
        if (!fs->indexes[i]->kept) hashtab_free(&fs->indexes[i]->by_name);
    free(fs->indexes);
    fs->indexes = NULL;
    fs->index_count = fs->index_cap = 0;
    hashtab_free(&fs->index_by_path);
    fs->path = NULL;
    fs->path_count = 0;
    fs->path_built = 0;
    gamefs_store_release(fs->store);
    fs->store = NULL;
}
