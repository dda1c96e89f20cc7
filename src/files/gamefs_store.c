/* What a session keeps of the game files across its contexts (gamefs.h,
** "the store"): directory listings, archive indexes with the warnings
** indexing gave, and loose files' bytes, each reused while the file is
** unchanged (its identity, size and times) and dropped after a round that
** did not use it. */
#include "files/gamefs_internal.h"
#include "base/text.h"
#include "base/vec.h"

#include <stdlib.h>
#include <string.h>

gamefs_store *gamefs_store_new(void)
{
    gamefs_store *st = xcalloc(1, sizeof *st);
    st->refs = 1;
    st->round = 1;
    return st;
}

void store_clear(kept *k)
{
    arena_free_all(&k->mem);
    arena_init(&k->mem);
    hashtab_free(&k->dir.by_name);
    hashtab_free(&k->by_key);
    VEC_FREE(k->entries);
    VEC_FREE(k->warnings);
    free(k->bytes);
    char *path = k->path;
    kept_kind kind = k->kind;
    memset(k, 0, sizeof *k);
    k->path = path;
    k->kind = kind;
}

static void kept_free(kept *k)
{
    store_clear(k);
    free(k->path);
    free(k);
}

void gamefs_store_release(gamefs_store *st)
{
    if (!st || --st->refs > 0) return;
    for (size_t i = 0; i < st->items.count; i++) kept_free(st->items.items[i]);
    VEC_FREE(st->items);
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
    for (size_t i = 0; i < st->items.count; i++) {
        if (st->items.items[i]->round == st->round) st->items.items[k++] = st->items.items[i];
        else kept_free(st->items.items[i]);
    }
    if (k != st->items.count) {
        st->items.count = k;
        hashtab_clear(&st->by_path);
        for (size_t i = 0; i < k; i++) hashtab_add(&st->by_path, text_hash(0, st->items.items[i]->path, 0));
    }
    st->round++;
}

const gamefs_store_counts *gamefs_store_counts_of(const gamefs_store *st)
{
    return &st->counts;
}

size_t gamefs_store_size(const gamefs_store *st)
{
    return st->items.count;
}

/* Whether a file last changed as id says was changed long enough ago that a
** later change cannot leave its times as they are (GAMEFS_SETTLE_SECONDS). */
int store_settled(const os_file_id *id)
{
    long long newest = id->mtime_sec > id->change_sec ? id->mtime_sec : id->change_sec;
    return newest + GAMEFS_SETTLE_SECONDS <= os_file_clock_now();
}

/* A record's key: its path and its kind (one path may be kept as more than one kind). */
typedef struct kept_key {
    const char *path;
    kept_kind kind;
} kept_key;

static int kept_matches(const void *items, size_t i, const void *key)
{
    const kept_key *want = key;
    const kept *k = ((kept *const *)items)[i];
    return k->kind == want->kind && strcmp(k->path, want->path) == 0;
}

/* The record for path of this kind, to reuse when *now (the file as it is)
** is what it was read from; else emptied (made when missing) for the read
** about to happen, *reuse 0.  NULL when there is no store or path cannot be
** looked up (nothing kept: read as without a store). */
kept *store_record(gamefs *fs, const char *path, kept_kind kind, os_file_id *now, int *reuse)
{
    *reuse = 0;
    gamefs_store *st = fs->store;
    if (!st || os_path_id(path, now) != 0) return NULL;
    uint32_t h = text_hash(0, path, 0);
    kept *k = NULL;
    size_t at = hashtab_find(&st->by_path, h, st->items.items, &(const kept_key){path, kind}, kept_matches);
    if (at != HASHTAB_END) k = st->items.items[at];
    if (!k) {
        k = xcalloc(1, sizeof *k);
        k->kind = kind;
        k->path = xstrdup(path);
        arena_init(&k->mem);
        hashtab_add(&st->by_path, h);
        *VEC_PUSH(st->items) = k;
    } else if (((kind == KEPT_DIR || kind == KEPT_ARCHIVE) && k->round == st->round) ||
               (k->reusable && os_unchanged(&k->id, now))) {
        /* (a listing or index handed out already this round is what the
        ** context holds: never replaced under it; bytes are copied out) */
        *reuse = 1;
    } else {
        store_clear(k);
    }
    k->round = st->round;
    if (!*reuse) {
        k->id = *now;
        k->reusable = store_settled(now);
    }
    return k;
}
