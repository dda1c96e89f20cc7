/* The game filesystem's archives (gamefs_internal.h): each .pk3/.iwd
** indexed once (names validated and folded, the entry indexed last wins),
** at most GAMEFS_OPEN_ARCHIVES of them holding a descriptor at a time, and
** entries read in place, stored or deflated only, as the engines read them. */
#include "files/gamefs_internal.h"
#include "base/text.h"
#include "base/vec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

void archive_evict_one(gamefs *fs)
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
    if (fs->open_count >= handle_budget(fs)) archive_evict_one(fs);
    for (;;) {
        errno = 0;
        zip_t *z = zip_open(path, ZIP_RDONLY, code);
        if (z || *code != ZIP_ER_OPEN || (errno != EMFILE && errno != ENFILE) || !fs->open_count) return z;
        archive_evict_one(fs);
    }
}

static void keep_handle(gamefs *fs, gamefs_archive *ar, zip_t *z)
{
    ar->zip = z;
    fs->open[fs->open_count++] = ar;
}

/* The archive's handle, reopened when it was released; NULL with *err. */
zip_t *archive_handle(gamefs *fs, gamefs_archive *ar, const char **err)
{
    if (ar->zip) {
        /* most recently used last: evict_one takes the front */
        for (size_t i = 0; i + 1 < fs->open_count; i++)
            if (fs->open[i] == ar) {
                memmove(fs->open + i, fs->open + i + 1, array_size(fs->open_count - i - 1, sizeof *fs->open));
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

void archive_close(gamefs_archive *ar)
{
    if (ar->zip) zip_discard(ar->zip);
    ar->zip = NULL;
    if (ar->kept) return; /* the store's */
    VEC_FREE(ar->entries);
    hashtab_free(&ar->by_key);
}

static const char *entry_key_at(const void *entries, size_t i)
{
    return ((const ar_entry *)entries)[i].key;
}

/* The entry of `key` (hashed h) in ar, or NULL. */
ar_entry *archive_lookup(const gamefs_archive *ar, const char *key, uint32_t h)
{
    size_t i = hashtab_find_string(&ar->by_key, h, key, 0, ar->entries.items, entry_key_at);
    return i == HASHTAB_END ? NULL : &ar->entries.items[i];
}

/* warn, and with a store record, kept to be given again with the index. */
static void archive_warn(gamefs *fs, kept *k, const char *fmt, const char *a, const char *b)
{
    gamefs_warn(fs, fmt, a, b);
    if (!k) return;
    kept_warning *w = VEC_PUSH(k->warnings);
    w->fmt = fmt;
    w->a = arena_strdup(&k->mem, a);
    w->b = arena_strdup(&k->mem, b);
}

/* Opens and indexes one archive; a damaged one is reported and left without
** entries.  Inside one archive the entry indexed last wins. */
gamefs_archive *archive_open(gamefs *fs, const char *path)
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
        ar->by_key = k->by_key;
        ar->kept = 1;
        for (size_t i = 0; i < k->warnings.count; i++)
            gamefs_warn(fs, k->warnings.items[i].fmt, k->warnings.items[i].a, k->warnings.items[i].b);
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
        const char *key = gamefs_normalize(mem, raw);
        if (!*key) continue;
        uint32_t h = text_hash(0, key, 0);
        ar_entry *e = archive_lookup(ar, key, h);
        if (!e) {
            hashtab_add(&ar->by_key, h);
            e = VEC_PUSH(ar->entries);
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
        k->by_key = ar->by_key;
        ar->kept = 1;
    }
    return ar;
}

/* ---- entries ---- */

static const char *zip_message(gamefs *fs, zip_error_t *e)
{
    return arena_strdup(fs->mem, zip_error_strerror(e));
}

/* Reads at most `cap` bytes of an entry into buf; *got is what was read. With
** `whole`, the entry must be exactly its recorded size. */
const char *archive_read_entry(gamefs *fs, gamefs_archive *ar, const ar_entry *entry, unsigned char *buf, size_t cap,
                               size_t *got, int whole)
{
    const char *err0 = NULL;
    *got = 0;
    /* The engines read stored and deflated entries only (their unzip has no
    ** other method): anything else fails in the game, so it fails here. */
    if (entry->method != ZIP_CM_STORE && entry->method != ZIP_CM_DEFLATE)
        return arena_printf(fs->mem, "entry is compressed with %s (method %d); the game reads only stored and deflated entries",
                            entry->method == ZIP_CM_BZIP2 ? "bzip2" : entry->method == ZIP_CM_LZMA ? "LZMA"
                            : entry->method == ZIP_CM_XZ ? "xz" : "another method",
                            entry->method);
    zip_t *z = archive_handle(fs, ar, &err0);
    if (!z) return err0;
    zip_file_t *zf = zip_fopen_index(z, entry->index, 0);
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
        if (*got < entry->size) {
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
