/* Records kept across compilations (frontend.h "fe_cache"): a file's
** fresh record copied, keyed by its path, text, options and what the walk
** wanted of it; a later file with the same inputs gets a copy instead of
** being parsed. */
#include "compile/frontend.h"
#include "game/builtins.h"
#include "check/check_stage.h"
#include "base/hashtab.h"
#include "script/script_refs.h"
#include "base/text.h"
#include "base/vec.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Stands for the record's own file in a kept diagnostic (and, as a pass's
** state, for "the pass ran" where the pass keeps nothing of its own). */
static source_file own_file_marker;

typedef struct kept_record {
    char *path;
    unsigned wants;            /* WANT_* */
    atrc_options opts;         /* jobs zeroed */
    const builtin_extension **ext;
    size_t ext_count;
    char *text;
    size_t len;
    diag_list diags;           /* src: &own_file_marker or NULL */
    int ran[FE_PASS_COUNT];    /* the pass's state was not NULL */
    void *state[FE_PASS_COUNT];/* copies, for passes with a copy function */
    script_refs refs;          /* WANT_REFS */
    check_file_result checked; /* WANT_CHECKED */
    unsigned long round;       /* the last compilation that used it */
} kept_record;

enum { WANT_REFS = 1, WANT_CHECKED = 2 };

struct fe_cache {
    pthread_mutex_t mu;
    VEC(kept_record *) records; /* by (path, wants): hashtab numbering */
    hashtab index;
    const fe_pass *passes;     /* of the records kept (to free their states) */
    unsigned long round;
    unsigned long parsed, reused;
};

fe_cache *fe_cache_new(void)
{
    fe_cache *c = xcalloc(1, sizeof *c);
    pthread_mutex_init(&c->mu, NULL);
    c->round = 1;
    return c;
}

static void kept_free(const fe_pass *passes, kept_record *k)
{
    if (!k) return;
    diag_free(&k->diags);
    for (int i = 0; i < FE_PASS_COUNT; i++)
        if (k->state[i] && passes && passes[i].release) passes[i].release(k->state[i]);
    script_refs_free(&k->refs);
    check_result_free(&k->checked);
    free(k->ext);
    free(k->text);
    free(k->path);
    free(k);
}

void fe_cache_free(fe_cache *c)
{
    if (!c) return;
    for (size_t i = 0; i < c->records.count; i++) kept_free(c->passes, c->records.items[i]);
    VEC_FREE(c->records);
    hashtab_free(&c->index);
    pthread_mutex_destroy(&c->mu);
    free(c);
}

static uint32_t slot_hash(const char *path, unsigned wants)
{
    return text_hash_bytes(path, strlen(path)) ^ (wants * 0x9e3779b9u);
}

void fe_cache_end_round(fe_cache *c)
{
    if (!c) return;
    pthread_mutex_lock(&c->mu);
    size_t k = 0;
    hashtab_clear(&c->index);
    for (size_t i = 0; i < c->records.count; i++) {
        kept_record *r = c->records.items[i];
        if (r->round != c->round) {
            kept_free(c->passes, r);
            continue;
        }
        c->records.items[k++] = r;
        hashtab_add(&c->index, slot_hash(r->path, r->wants));
    }
    c->records.count = k;
    c->round++;
    pthread_mutex_unlock(&c->mu);
}

unsigned long fe_cache_parsed(const fe_cache *c)
{
    return c ? c->parsed : 0;
}

unsigned long fe_cache_reused(const fe_cache *c)
{
    return c ? c->reused : 0;
}

size_t fe_cache_bytes(const fe_cache *c)
{
    if (!c) return 0;
    size_t n = 0;
    for (size_t i = 0; i < c->records.count; i++) {
        const kept_record *r = c->records.items[i];
        n += sizeof *r + strlen(r->path) + r->len + r->diags.count * sizeof(diag);
        for (size_t j = 0; j < r->diags.count; j++) n += strlen(r->diags.items[j].message) + 1;
        n += r->refs.refs.count * sizeof(script_ref) + r->refs.funcs.count * sizeof(script_func) +
             r->refs.trees.count * sizeof(script_tree);
    }
    return n;
}

/* What a file's record depends on besides its text: NULL when it cannot be
** kept (a user's builtin list, read at run time, is not keyed). */
static int keyable(const fe_file *f)
{
    if (!f->builtins) return 1;
    for (size_t i = 0; i < f->builtins->count; i++) {
        const builtin_extension *e = f->builtins->items[i];
        if (e < builtin_extensions || e >= builtin_extensions + builtin_extension_count) return 0;
    }
    return 1;
}

static unsigned wants_of(const fe_file *f)
{
    return (f->collect ? WANT_REFS : 0) | (f->checked ? WANT_CHECKED : 0);
}

static void key_options(atrc_options *k, const atrc_options *opts)
{
    memcpy(k, opts, sizeof *k);
    k->jobs = 0; /* the output is the same for any thread count */
}

/* A slot's key: the file and what its record holds. */
typedef struct slot_key {
    const char *path;
    unsigned wants;
} slot_key;

static int slot_matches(const void *items, size_t i, const void *key)
{
    const slot_key *k = key;
    const kept_record *r = ((kept_record *const *)items)[i];
    return r->wants == k->wants && strcmp(r->path, k->path) == 0;
}

/* The slot of (path, wants), or HASHTAB_END; under the lock. */
static size_t find_slot(const fe_cache *c, const char *path, unsigned wants)
{
    return hashtab_find(&c->index, slot_hash(path, wants), c->records.items, &(const slot_key){path, wants}, slot_matches);
}

static int kept_matches(const kept_record *k, const fe_file *f)
{
    atrc_options o;
    key_options(&o, f->opts);
    size_t n = f->builtins ? f->builtins->count : 0;
    if (k->len != f->src->len || memcmp(&k->opts, &o, sizeof o) != 0 || k->ext_count != n) return 0;
    if (n && memcmp(k->ext, f->builtins->items, array_size(n, sizeof *k->ext)) != 0) return 0;
    return memcmp(k->text, f->src->data, k->len) == 0;
}

static void copy_diags(diag_list *to, const diag_list *from, const source_file *from_src,
                       source_file *to_src)
{
    diag *items = to->items;
    size_t cap = to->cap;
    *to = *from;
    to->items = items;
    to->cap = cap;
    to->count = 0;
    VEC_RESERVE(*to, from->count);
    for (size_t i = 0; i < from->count; i++) {
        diag g = from->items[i];
        g.src = g.src == from_src ? to_src : NULL;
        g.message = xstrdup(g.message);
        to->items[to->count++] = g;
    }
}

/* f's record made from a kept one with the same inputs. */
static void reuse_kept(fe_file *f, const kept_record *k)
{
    copy_diags(&f->diags, &k->diags, &own_file_marker, f->src);
    for (int i = 0; i < FE_PASS_COUNT; i++) {
        if (!k->ran[i]) f->state[i] = NULL;
        else if (f->passes[i].copy) f->state[i] = f->passes[i].copy(k->state[i]);
        else f->state[i] = i == FE_PASS_WALK ? (void *)f->collect : (void *)&own_file_marker;
    }
    if (f->collect) script_refs_append_copy(f->collect, &k->refs);
    if (f->checked) check_result_copy(f->checked, &k->checked);
}

/* A kept copy of f's fresh record, or NULL when it cannot be kept. */
static kept_record *keep_record(const fe_file *f, unsigned wants)
{
    for (size_t i = 0; i < f->diags.count; i++)
        if (f->diags.items[i].src && f->diags.items[i].src != f->src) return NULL;
    for (int i = 0; i < FE_PASS_COUNT; i++)
        if (f->state[i] && !f->passes[i].copy && i != FE_PASS_WALK && i != FE_PASS_CHECK) return NULL;
    kept_record *k = xcalloc(1, sizeof *k);
    k->path = xstrdup(f->path);
    k->wants = wants;
    key_options(&k->opts, f->opts);
    k->ext_count = f->builtins ? f->builtins->count : 0;
    if (k->ext_count) {
        k->ext = xmalloc(array_size(k->ext_count, sizeof *k->ext));
        memcpy(k->ext, f->builtins->items, array_size(k->ext_count, sizeof *k->ext));
    }
    k->len = f->src->len;
    k->text = xmalloc(k->len + 1);
    memcpy(k->text, f->src->data, k->len);
    k->text[k->len] = 0;
    diag_init(&k->diags);
    copy_diags(&k->diags, &f->diags, f->src, &own_file_marker);
    for (int i = 0; i < FE_PASS_COUNT; i++) {
        k->ran[i] = f->state[i] != NULL;
        if (f->state[i] && f->passes[i].copy) k->state[i] = f->passes[i].copy(f->state[i]);
    }
    script_refs_init(&k->refs);
    if (f->collect) script_refs_append_copy(&k->refs, f->collect);
    if (f->checked) check_result_copy(&k->checked, f->checked);
    return k;
}

/* Uses a kept record for f if one fits (1), else 0. */
int fe_cache_use(fe_file *f)
{
    fe_cache *c = f->cache;
    if (!c || !keyable(f)) return 0;
    unsigned wants = wants_of(f);
    pthread_mutex_lock(&c->mu);
    size_t i = find_slot(c, f->path, wants);
    int hit = i != HASHTAB_END && kept_matches(c->records.items[i], f);
    if (hit) {
        reuse_kept(f, c->records.items[i]);
        c->records.items[i]->round = c->round;
        c->reused++;
    } else {
        c->parsed++;
    }
    pthread_mutex_unlock(&c->mu);
    return hit;
}

void fe_cache_keep(fe_file *f)
{
    fe_cache *c = f->cache;
    if (!c || !keyable(f)) return;
    unsigned wants = wants_of(f);
    kept_record *k = keep_record(f, wants);
    if (!k) return;
    pthread_mutex_lock(&c->mu);
    c->passes = f->passes;
    k->round = c->round;
    size_t i = find_slot(c, f->path, wants);
    if (i != HASHTAB_END) {
        kept_free(c->passes, c->records.items[i]);
        c->records.items[i] = k;
    } else {
        *VEC_PUSH(c->records) = k;
        hashtab_add(&c->index, slot_hash(k->path, wants));
    }
    pthread_mutex_unlock(&c->mu);
}
