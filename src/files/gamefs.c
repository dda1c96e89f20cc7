/* The game filesystem (gamefs.h): the engine's search path over game
** directories and their archives, loose directories listed once and looked
** up by folded name, reads of files and entries, listings, and a path's
** game-relative name.  Archives: gamefs_archive.c; what a session keeps:
** gamefs_store.c. */
#include "files/gamefs_internal.h"
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
#include <strings.h>
#include <unistd.h>

void gamefs_warn(gamefs *fs, const char *fmt, const char *a, const char *b)
{
    if (fs->diags) diag_add(fs->diags, DIAG_WARNING, NULL, 0, 0, fmt, a, b);
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
    *VEC_PUSH(fs->dirs) = trim_dir(fs, dir);
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

/* A game-relative name as the file system names it: the engine's canonical
** script name (text_canonical_name), with ':' a separator too (game-files.md
** 3), no trailing separator and bytes below 0x20 kept; lower case when
** `lower` (the lookup key), else as spelled (for messages; the same layout). */
static char *clean_name(arena *mem, const char *name, int lower)
{
    size_t n = strlen(name);
    char *out = arena_alloc(mem, n + 1);
    for (size_t i = 0; i <= n; i++) out[i] = name[i] == ':' ? '/' : name[i];
    unsigned keep = TEXT_NAME_KEEP_CONTROL | (lower ? 0 : TEXT_NAME_KEEP_CASE);
    size_t k = text_canonical_name(out, out, n, keep);
    while (k > 0 && out[k - 1] == '/') k--;
    out[k] = 0;
    return out;
}

/* The lookup key of a game-relative name: lower case, '\\' and ':' as '/',
** no empty components. */
char *gamefs_normalize(arena *mem, const char *name)
{
    return clean_name(mem, name, 1);
}

static const char *entry_lower_at(const void *list, size_t i)
{
    return ((dir_entry *const *)list)[i]->lower;
}

/* The entry of `lower` (hashed h) in d, or NULL. */
static dir_entry *lookup(const dir_index *d, const char *lower, uint32_t h)
{
    size_t i = hashtab_find_string(&d->by_name, h, lower, 0, d->list, entry_lower_at);
    return i == HASHTAB_END ? NULL : d->list[i];
}

static const char *index_path_at(const void *indexes, size_t i)
{
    return ((dir_index *const *)indexes)[i]->path;
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
    size_t at = hashtab_find_string(&fs->index_by_path, h, path, 0, fs->indexes.items, index_path_at);
    if (at != HASHTAB_END) return fs->indexes.items[at];
    dir_index *d = arena_zalloc(fs->mem, sizeof *d);
    d->path = arena_strdup(fs->mem, path);
    hashtab_add(&fs->index_by_path, h);
    *VEC_PUSH(fs->indexes) = d;
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
    while (!(dp = os_dir_open(path)) && (errno == EMFILE || errno == ENFILE) && fs->open_count) archive_evict_one(fs);
    if (!dp) {
        /* Missing is empty; a directory that exists but cannot be listed is
        ** reported by the lookups that need it. */
        if (errno != ENOENT && errno != ENOTDIR) d->error = errno ? errno : EIO;
        if (k) k->reusable = 0; /* tried again next time */
        return d;
    }
    if (fs->store) fs->store->counts.dirs_read++;
    VEC(char *) names = {0};
    for (const char *name; (name = os_dir_next(dp)) != NULL;) *VEC_PUSH(names) = arena_strdup(mem, name);
    os_dir_close(dp);
    /* Sorted byte-wise, so every name's spellings come out in a stable order
    ** whatever order readdir gives. */
    size_t n = names.count;
    if (n > 1) qsort(names.items, n, sizeof *names.items, compare_bytes);
    hashtab_reserve(&d->by_name, n);
    d->list = arena_alloc(mem, array_size(n ? n : 1, sizeof *d->list));
    for (size_t i = 0; i < n; i++) {
        const char *lower = arena_lower(mem, names.items[i], strlen(names.items[i]));
        uint32_t lh = text_hash(0, lower, 0);
        dir_entry *x = lookup(d, lower, lh);
        if (!x) {
            x = arena_zalloc(mem, sizeof *x);
            x->lower = lower;
            hashtab_add(&d->by_name, lh);
            d->list[d->count++] = x;
        }
        /* every spelling, in byte order (names are sorted) */
        const char **r = arena_alloc(mem, array_size(x->real_count + 1, sizeof *r));
        if (x->real_count) memcpy(r, x->reals, array_size(x->real_count, sizeof *r));
        r[x->real_count++] = names.items[i];
        x->reals = r;
    }
    VEC_FREE(names);
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

/* ---- the search path ---- */

typedef VEC_STRUCT(entry_list, gamefs_entry) entry_list;

static void push(entry_list *l, const char *dir, gamefs_archive *ar)
{
    *VEC_PUSH(*l) = (gamefs_entry){dir, ar};
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
    const char **names = xmalloc(array_size(spellings, 2 * sizeof *names));
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
        gamefs_warn(fs, "'%s' is a fastfile (a built mod), which atrc cannot read: the scripts and trees in it are not "
             "compiled, only what the other game directories hold; point -g at the mod's raw source folder "
             "(the one holding its maps/ and animtrees/, e.g. the mod tools' mods/%s) instead",
             join(fs, dir, ff->reals[0]), mod_name(dir));
    }
    push(l, dir, NULL);
    entry_list *ldest = rules->localized_below_all ? low : l;
    for (size_t i = 0; i < nloc; i++) push(ldest, NULL, archive_open(fs, join(fs, dir, loc[i])));
    for (size_t i = 0; i < n; i++) push(l, NULL, archive_open(fs, join(fs, dir, names[i])));
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
    for (size_t i = 0; i < fs->dirs.count; i++) add_game_dir(fs, fs->dirs.items[i], &l, &low);
    if (!fs->install && fs->dirs.count == 0) add_game_dir(fs, ".", &l, &low);
    /* lowest first: the localized archives that go below everything, then the rest */
    fs->path = arena_alloc(fs->mem, array_size(low.count + l.count + 1, sizeof *fs->path));
    if (low.count) memcpy(fs->path, low.items, array_size(low.count, sizeof *fs->path));
    if (l.count) memcpy(fs->path + low.count, l.items, array_size(l.count, sizeof *fs->path));
    fs->path_count = low.count + l.count;
    free(l.items);
    free(low.items);
    fs->path_built = 1;
}

/* ---- listings ---- */

typedef VEC_STRUCT(name_list, const char *) name_list;

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
                *VEC_PUSH(*l) = arena_strndup(fs->mem, lower, n - strlen(suffix));
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
    const char *key = gamefs_normalize(fs->mem, dir);
    size_t klen = strlen(key);
    name_list l = {0};
    for (size_t i = 0; i < fs->path_count; i++) {
        const gamefs_entry *e = &fs->path[i];
        if (!e->ar) {
            list_under(fs, e->dir, key, suffix, &l);
            continue;
        }
        for (size_t k = 0; k < e->ar->entries.count; k++) {
            const char *x = e->ar->entries.items[k].key;
            if (strncmp(x, key, klen) != 0 || x[klen] != '/' || strchr(x + klen + 1, '/')) continue;
            size_t n = strlen(x + klen + 1);
            if (has_suffix_nocase(x + klen + 1, suffix))
                *VEC_PUSH(l) = arena_strndup(fs->mem, x + klen + 1, n - strlen(suffix));
        }
    }
    if (l.count > 1) qsort(l.items, l.count, sizeof *l.items, by_bytes);
    size_t u = 0;
    for (size_t i = 0; i < l.count; i++)
        if (!u || strcmp(l.items[u - 1], l.items[i]) != 0) l.items[u++] = l.items[i];
    const char **out = arena_alloc(fs->mem, array_size(u ? u : 1, sizeof *out));
    if (u) memcpy(out, l.items, array_size(u, sizeof *out));
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
    const char *key = gamefs_normalize(fs->mem, name);
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
        kp->reusable = store_settled(&kp->id);
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
    *err = archive_read_entry(fs, h.ar, h.entry, buf, size, &got, 1);
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
        *err = archive_read_entry(fs, h.ar, h.entry, buf, n, got, 0);
        return *err ? -1 : 1;
    }
    /* With a store: the bytes read last time, while the file is unchanged. */
    os_file_id now;
    int reuse;
    kept *kp = store_record(fs, h.loose, KEPT_PREFIX, &now, &reuse);
    if (reuse && now.regular && kp->bytes_asked == n) {
        if (kp->bytes_len) memcpy(buf, kp->bytes, kp->bytes_len);
        *got = kp->bytes_len;
        gamefs_file_id *id = VEC_PUSH(fs->read_ids);
        id->id = now;
        id->path = h.loose;
        fs->store->counts.prefixes_reused++;
        return 1;
    }
    if (kp) {
        if (reuse) { /* asked for another length: read again */
            unsigned long round = kp->round;
            store_clear(kp);
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
        gamefs_file_id *id = VEC_PUSH(fs->read_ids);
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
        kp->reusable = store_settled(&st);
    }
    return 1;
}

const char *gamefs_script_file(gamefs *fs, const char *name)
{
    if (fs->script_gsx) {
        const char *gsx = arena_printf(fs->mem, "%s.gsx", name);
        if (gamefs_locate(fs, gsx)) return gsx;
    }
    return arena_printf(fs->mem, "%s.gsc", name);
}

size_t gamefs_script_stem(const char *name)
{
    size_t n = strlen(name);
    if (n > 4 && (has_suffix_nocase(name, ".gsc") || has_suffix_nocase(name, ".gsx"))) n -= 4;
    return n;
}

/* ---- what an output file must never replace ---- */

/* What the game would read at game-relative name `rel` (any case, any
** separator), said as the game would use it, or NULL when the game reads
** nothing there: an archive of the profile's kind at the top of a game
** directory (game-files.md 1: *.pk3 for CoD1 and UO, *.iwd for CoD2 and
** CoD4, every one loaded), the tree NAME at animtrees/NAME.atr, the xanim
** NAME at xanim/NAME, the player animation script, a script by its path
** (maps/x.gsc is maps\x).  Other files (notes, a .pk3 beside CoD2's .iwd
** files, an .atr outside animtrees/) are never read by the game. */
static const char *game_file_kind(gamefs *fs, const char *rel)
{
    /* key decides, spelled (the same length and layout) is quoted */
    const char *key = gamefs_normalize(fs->mem, rel), *spelled = clean_name(fs->mem, rel, 0);
    const char *slash = strchr(key, '/');
    const char *ext = fs->rules->archive_ext;
    if (!slash && has_suffix_nocase(key, ext))
        return arena_printf(fs->mem, "an archive the game loads (%s reads every *%s there)", fs->rules->name, ext);
    const char *leaf = slash ? spelled + (slash - key) + 1 : NULL;
    int one_level = leaf && *leaf && !strchr(leaf, '/');
    size_t leaf_len = leaf ? strlen(leaf) : 0;
    if (one_level && (size_t)(slash - key) == 9 && memcmp(key, "animtrees", 9) == 0 && leaf_len > 4 &&
        has_suffix_nocase(leaf, ".atr"))
        return arena_printf(fs->mem, "the animation tree '%.*s' the game reads (#using_animtree(\"%.*s\"))",
                            (int)(leaf_len - 4), leaf, (int)(leaf_len - 4), leaf);
    if (one_level && (size_t)(slash - key) == 5 && memcmp(key, "xanim", 5) == 0)
        return arena_printf(fs->mem, "the xanim the game reads for %%%s", leaf);
    if (strcmp(key, "mp/playeranim.script") == 0) return "the player animation script the game reads";
    size_t key_len = strlen(key);
    if (key_len > 4 && has_suffix_nocase(key, ".gsc")) {
        char *name = arena_strndup(fs->mem, spelled, key_len - 4);
        for (char *p = name; *p; p++)
            if (*p == '/') *p = '\\';
        return arena_printf(fs->mem, "the script the game reads as %s (%s::f)", name, name);
    }
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
        for (size_t i = 0; i < fs->read_ids.count; i++)
            if (os_same_id(&fs->read_ids.items[i].id, &out))
                return arena_printf(fs->mem, "is '%s', a game file this run read", fs->read_ids.items[i].path);
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
    os_file_id *ids = xmalloc(array_size(fs->path_count ? fs->path_count : 1, sizeof *ids));
    const char **names = xmalloc(array_size(fs->path_count ? fs->path_count : 1, sizeof *names));
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
            if (kind) why = arena_printf(fs->mem, "is '%s' in the game directory '%s', %s", rel, names[d], kind);
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
    size_t count = fs->path_built ? fs->path_count : fs->dirs.count ? fs->dirs.count : 1;
    for (size_t i = 0; i < count && !rest; i++) {
        const char *d = fs->path_built ? fs->path[i].dir : fs->dirs.count ? fs->dirs.items[i] : ".";
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
            const char *d = fs->path_built ? fs->path[i].dir : fs->dirs.count ? fs->dirs.items[i] : ".";
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
    const char *key = gamefs_normalize(fs->mem, dir);
    size_t klen = strlen(key), elen = strlen(ext);
    for (size_t i = fs->path_count; i-- > 0;) {
        const gamefs_entry *e = &fs->path[i];
        if (e->ar) {
            for (size_t k = 0; k < e->ar->entries.count; k++) {
                const char *name = e->ar->entries.items[k].key;
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
    for (gamefs_archive *a = fs->archives; a; a = a->next) archive_close(a);
    fs->archives = NULL;
    fs->open_count = 0;
    VEC_FREE(fs->read_ids);
    VEC_FREE(fs->dirs);
    for (size_t i = 0; i < fs->indexes.count; i++)
        if (!fs->indexes.items[i]->kept) hashtab_free(&fs->indexes.items[i]->by_name);
    VEC_FREE(fs->indexes);
    hashtab_free(&fs->index_by_path);
    fs->path = NULL;
    fs->path_count = 0;
    fs->path_built = 0;
    gamefs_store_release(fs->store);
    fs->store = NULL;
}
