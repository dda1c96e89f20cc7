/* The file-local front end and its worker threads (see frontend.h): a queue
** of requested files in request order, a bounded window of files parsed
** ahead, and records handed back to the context's thread in any order it
** asks for them. */
#include "frontend.h"
#include "check_stage.h"
#include "script_parse.h"
#include "script_refs.h"
#include "builtins.h"
#include "hashtab.h"
#include "text.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a thread reuses from file to file: the read buffer and the AST arena
** (no fresh pages, hence no page faults, per file). */
typedef struct fe_worker {
    char *buf;
    size_t cap;
    arena scratch;
} fe_worker;

#define KEEP_BUFFER ((size_t)64 << 20)

static void worker_free(fe_worker *w)
{
    free(w->buf);
    arena_free_all(&w->scratch);
    memset(w, 0, sizeof *w);
}

void fe_replay_diags(fe_file *f, diag_list *to, size_t upto)
{
    if (upto > f->diags.count) upto = f->diags.count;
    for (; f->diags_replayed < upto; f->diags_replayed++) {
        diag *g = &f->diags.items[f->diags_replayed];
        diag_take(to, g);
    }
    /* The warnings past the cap, once, with the file's last diagnostics. */
    if (upto == f->diags.count && f->diags.hidden_warnings) {
        diag_take_hidden(to, &f->diags);
        f->diags.hidden_warnings = 0;
    }
}

void fe_file_free(fe_file *f)
{
    if (!f) return;
    for (int i = 0; i < FE_PASS_COUNT; i++)
        if (f->state[i] && f->passes[i].release) f->passes[i].release(f->state[i]);
    /* Diagnostics not replayed (a record never taken) still own their text. */
    for (size_t i = f->diags_replayed; i < f->diags.count; i++) free(f->diags.items[i].message);
    free(f->diags.items);
    if (f->own_refs) script_refs_free(f->own_refs);
    free(f->own_refs);
    if (f->own_checked) check_result_free(f->own_checked);
    free(f->own_checked);
    source_free(f->src);
    free(f->path);
    free(f);
}

static void on_item(void *ud, ast_node *item, int anim_syntax)
{
    fe_file *f = ud;
    f->item_anim_syntax = anim_syntax;
    for (int i = 0; i < FE_PASS_COUNT; i++)
        if (f->state[i]) f->passes[i].item(f->state[i], f, item);
}

static void on_function(void *ud, int event, const ast_node *node, int anim_syntax)
{
    fe_file *f = ud;
    f->item_anim_syntax = anim_syntax;
    for (int i = 0; i < FE_PASS_COUNT; i++) {
        void *st = f->state[i];
        if (!st) continue;
        switch (event) {
        case SCRIPT_FN_BEGIN: f->passes[i].fn_begin(st, f, node); break;
        case SCRIPT_FN_STMTS: f->passes[i].fn_stmts(st, f, node); break;
        default: f->passes[i].fn_end(st, f, node, event == SCRIPT_FN_END); break;
        }
    }
}

/* ---- records kept across compilations ---- */

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
    kept_record **items;       /* by (path, wants): hashtab numbering */
    size_t count, cap;
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
    for (size_t i = 0; i < k->diags.count; i++) free(k->diags.items[i].message);
    free(k->diags.items);
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
    for (size_t i = 0; i < c->count; i++) kept_free(c->passes, c->items[i]);
    free(c->items);
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
    for (size_t i = 0; i < c->count; i++) {
        kept_record *r = c->items[i];
        if (r->round != c->round) {
            kept_free(c->passes, r);
            continue;
        }
        c->items[k++] = r;
        hashtab_add(&c->index, slot_hash(r->path, r->wants));
    }
    c->count = k;
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
    for (size_t i = 0; i < c->count; i++) {
        const kept_record *r = c->items[i];
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

/* The slot of (path, wants), or HASHTAB_END; under the lock. */
static size_t find_slot(const fe_cache *c, const char *path, unsigned wants)
{
    uint32_t h = slot_hash(path, wants);
    for (size_t i = hashtab_first(&c->index, h); i != HASHTAB_END; i = hashtab_next(&c->index, h, i))
        if (c->items[i]->wants == wants && strcmp(c->items[i]->path, path) == 0) return i;
    return HASHTAB_END;
}

static int kept_matches(const kept_record *k, const fe_file *f)
{
    atrc_options o;
    key_options(&o, f->opts);
    size_t n = f->builtins ? f->builtins->count : 0;
    if (k->len != f->src->len || memcmp(&k->opts, &o, sizeof o) != 0 || k->ext_count != n) return 0;
    if (n && memcmp(k->ext, f->builtins->items, n * sizeof *k->ext) != 0) return 0;
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
    vec_reserve(to->items, to->cap, from->count);
    for (size_t i = 0; i < from->count; i++) {
        diag g = from->items[i];
        g.src = g.src == from_src ? to_src : NULL;
        g.message = xstrdup(g.message);
        to->items[to->count++] = g;
    }
}

static const char *dup_name(arena *a, const char *s)
{
    return s ? arena_strdup(a, s) : NULL;
}

/* Appends from's lists to to (initialized), names copied into to's arena. */
static void copy_refs(script_refs *to, const script_refs *from)
{
    for (size_t i = 0; i < from->refs.count; i++) {
        script_ref r = from->refs.items[i];
        r.file = dup_name(&to->mem, r.file);
        r.func = dup_name(&to->mem, r.func);
        r.func_spelling = dup_name(&to->mem, r.func_spelling);
        *VEC_PUSH(to->refs) = r;
    }
    for (size_t i = 0; i < from->funcs.count; i++) {
        script_func fn = from->funcs.items[i];
        fn.name = dup_name(&to->mem, fn.name);
        fn.spelling = dup_name(&to->mem, fn.spelling);
        *VEC_PUSH(to->funcs) = fn;
    }
    for (size_t i = 0; i < from->trees.count; i++) {
        script_tree t = from->trees.items[i];
        t.name = dup_name(&to->mem, t.name);
        *VEC_PUSH(to->trees) = t;
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
    if (f->collect) copy_refs(f->collect, &k->refs);
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
        memcpy(k->ext, f->builtins->items, k->ext_count * sizeof *k->ext);
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
    if (f->collect) copy_refs(&k->refs, f->collect);
    if (f->checked) check_result_copy(&k->checked, f->checked);
    return k;
}

/* Uses a kept record for f if one fits (1), else 0. */
static int cache_lookup(fe_file *f)
{
    fe_cache *c = f->cache;
    if (!c || !keyable(f)) return 0;
    unsigned wants = wants_of(f);
    pthread_mutex_lock(&c->mu);
    size_t i = find_slot(c, f->path, wants);
    int hit = i != HASHTAB_END && kept_matches(c->items[i], f);
    if (hit) {
        reuse_kept(f, c->items[i]);
        c->items[i]->round = c->round;
        c->reused++;
    } else {
        c->parsed++;
    }
    pthread_mutex_unlock(&c->mu);
    return hit;
}

static void cache_store(fe_file *f)
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
        kept_free(c->passes, c->items[i]);
        c->items[i] = k;
    } else {
        *vec_push(c->items, c->count, c->cap) = k;
        hashtab_add(&c->index, slot_hash(k->path, wants));
    }
    pthread_mutex_unlock(&c->mu);
}

/* The whole file-local part for one file, on whichever thread runs it. */
static void run_passes(fe_worker *w, fe_file *f)
{
    if (!cache_lookup(f)) {
        for (int i = 0; i < FE_PASS_COUNT; i++) f->state[i] = f->passes[i].begin(f);
        int any = 0; /* a pass is on: --syntax-only has none, so no piece need go anywhere */
        for (int i = 0; i < FE_PASS_COUNT; i++) any |= f->state[i] != NULL;
        script_parse_stream(f->src, f->rules, &w->scratch, &f->diags, on_item, any ? on_function : NULL, f,
                            SCRIPT_STREAM_CHUNK);
        for (int i = 0; i < FE_PASS_COUNT; i++)
            if (f->state[i] && f->passes[i].end) f->passes[i].end(f->state[i], f);
        arena_reset(&w->scratch);
        cache_store(f);
    }
    if (f->src->borrowed) source_release(f->src);
}

static void process_path(fe_worker *w, fe_file *f)
{
    const char *err = NULL;
    if (f->src) {
        run_passes(w, f); /* read by the caller (frontend_prefetch_walk) */
        return;
    }
    if (strcmp(f->path, "-") == 0)
        f->src = source_read(f->path, &err); /* standard input: the caller's thread only */
    else
        f->src = source_read_into(f->path, &w->buf, &w->cap, &err, f->read_error_buf,
                                  sizeof f->read_error_buf);
    if (!f->src) {
        if (err != f->read_error_buf) snprintf(f->read_error_buf, sizeof f->read_error_buf, "%s", err);
        f->read_error = f->read_error_buf;
        return;
    }
    run_passes(w, f);
    /* A huge file's buffer is not kept for the next, ordinary one. */
    if (w->cap > KEEP_BUFFER) {
        free(w->buf);
        w->buf = NULL;
        w->cap = 0;
    }
}

/* ---- the queue and its workers ---- */

typedef enum { REQ_QUEUED = 0, REQ_RUNNING, REQ_DONE } req_state;

struct fe_request {
    fe_file *file;
    req_state state;
    int caller_only;                  /* standard input: never handed to a worker */
    struct fe_request *prev, *next;   /* request order */
};

typedef struct fe_thread {
    frontend *fe;
    pthread_t id;
    fe_worker w;
} fe_thread;

struct frontend {
    atrc_options opts;
    const profile_rules *rules;       /* the context's, read-only */
    const fe_pass *passes;            /* FE_PASS_COUNT of them, read-only */
    const builtin_set *builtins;
    fe_cache *cache;                  /* kept records, or NULL */
    int jobs;
    fe_worker self;                   /* the calling thread's buffers */
    pthread_mutex_t mu;
    pthread_cond_t work, done;
    int sync_ready;
    fe_thread *threads;
    int thread_count;
    int stop;
    fe_request *head, *tail;          /* every request not yet taken */
    fe_request *scan;                 /* no request before it is waiting for a worker */
    int in_flight;                    /* started and not yet taken */
    int window;                       /* at most this many in flight */
};

static fe_file *file_new(const frontend *fe, const char *path)
{
    const atrc_options *opts = &fe->opts;
    fe_file *f = xcalloc(1, sizeof *f);
    f->opts = opts;
    f->rules = fe->rules;
    f->passes = fe->passes;
    f->builtins = fe->builtins;
    f->cache = fe->cache;
    f->path = xstrdup(path);
    diag_init(&f->diags);
    /* The context's reporting policy, applied as each diagnostic is recorded. */
    f->diags.no_warnings = opts->no_warnings;
    f->diags.warnings_as_errors = opts->warnings_as_errors;
    if (opts->max_errors != 0) f->diags.max_errors = opts->max_errors < 0 ? 0 : opts->max_errors;
    return f;
}

frontend *frontend_new(const atrc_options *opts, const profile_rules *rules, const fe_pass *passes, int jobs)
{
    frontend *fe = xcalloc(1, sizeof *fe);
    if (opts) fe->opts = *opts;
    fe->rules = rules;
    fe->passes = passes;
    fe->jobs = jobs < 1 ? 1 : jobs;
    /* Records are small (events and diagnostics; the text is dropped), so a
    ** generous window costs little memory and keeps the workers busy. */
    fe->window = 16 * fe->jobs;
    return fe;
}

static void *worker_main(void *arg);

static void start_threads(frontend *fe)
{
    if (fe->sync_ready || fe->jobs <= 1) return;
    pthread_mutex_init(&fe->mu, NULL);
    pthread_cond_init(&fe->work, NULL);
    pthread_cond_init(&fe->done, NULL);
    fe->sync_ready = 1;
    /* The calling thread parses too (whatever no worker has started when it
    ** needs it): jobs threads in all, jobs - 1 of them workers. */
    fe->threads = xcalloc((size_t)fe->jobs, sizeof *fe->threads);
    for (int i = 0; i < fe->jobs - 1; i++) {
        fe->threads[i].fe = fe;
        /* Without a thread the caller parses the file itself at take time. */
        if (pthread_create(&fe->threads[i].id, NULL, worker_main, &fe->threads[i]) != 0) break;
        fe->thread_count++;
    }
}

static void lock(frontend *fe)
{
    if (fe->sync_ready) pthread_mutex_lock(&fe->mu);
}

static void unlock(frontend *fe)
{
    if (fe->sync_ready) pthread_mutex_unlock(&fe->mu);
}

void frontend_use_builtins(frontend *fe, const builtin_set *set)
{
    lock(fe);
    fe->builtins = set;
    unlock(fe);
}

void frontend_use_cache(frontend *fe, fe_cache *c)
{
    lock(fe);
    fe->cache = c;
    unlock(fe);
}

void frontend_set_game_mode(frontend *fe, atrc_game_mode mode)
{
    lock(fe);
    fe->opts.game_mode = mode;
    unlock(fe);
}

static fe_request *next_for_worker(frontend *fe)
{
    if (fe->in_flight >= fe->window) return NULL;
    fe_request *r = fe->scan;
    while (r && (r->state != REQ_QUEUED || r->caller_only)) r = r->next;
    fe->scan = r;
    return r;
}

static void *worker_main(void *arg)
{
    fe_thread *t = arg;
    frontend *fe = t->fe;
    pthread_mutex_lock(&fe->mu);
    for (;;) {
        fe_request *r = NULL;
        while (!fe->stop && !(r = next_for_worker(fe))) pthread_cond_wait(&fe->work, &fe->mu);
        if (fe->stop) break;
        r->state = REQ_RUNNING;
        fe->in_flight++;
        pthread_mutex_unlock(&fe->mu);
        process_path(&t->w, r->file);
        pthread_mutex_lock(&fe->mu);
        r->state = REQ_DONE;
        pthread_cond_broadcast(&fe->done);
    }
    pthread_mutex_unlock(&fe->mu);
    worker_free(&t->w);
    return NULL;
}

static fe_request *enqueue(frontend *fe, fe_file *f)
{
    start_threads(fe);
    fe_request *r = xcalloc(1, sizeof *r);
    r->file = f;
    r->caller_only = strcmp(f->path, "-") == 0;
    lock(fe);
    r->prev = fe->tail;
    if (fe->tail) fe->tail->next = r;
    else fe->head = r;
    fe->tail = r;
    if (!fe->scan) fe->scan = r;
    if (fe->sync_ready) pthread_cond_signal(&fe->work);
    unlock(fe);
    return r;
}

fe_request *frontend_prefetch(frontend *fe, const char *path)
{
    return enqueue(fe, file_new(fe, path));
}

fe_request *frontend_prefetch_walk(frontend *fe, source_file *src)
{
    fe_file *f = file_new(fe, src->path);
    f->src = src;
    f->collect = f->own_refs = xcalloc(1, sizeof *f->own_refs);
    script_refs_init(f->own_refs);
    f->checked = f->own_checked = xcalloc(1, sizeof *f->own_checked);
    return enqueue(fe, f);
}

void fe_file_take_walk(fe_file *f, script_refs *refs, check_file_result *checked)
{
    if (f->own_refs) {
        *refs = *f->own_refs;
        free(f->own_refs);
        f->own_refs = NULL;
    }
    if (f->own_checked) {
        *checked = *f->own_checked;
        free(f->own_checked);
        f->own_checked = NULL;
    }
    f->collect = NULL;
    f->checked = NULL;
}

/* Under the lock: forgets r (taken). */
static void unlink_request(frontend *fe, fe_request *r)
{
    if (fe->scan == r) fe->scan = r->next;
    if (r->prev) r->prev->next = r->next;
    else fe->head = r->next;
    if (r->next) r->next->prev = r->prev;
    else fe->tail = r->prev;
}

fe_file *frontend_take(frontend *fe, fe_request *r)
{
    lock(fe);
    if (r->state == REQ_QUEUED) {
        /* Not started: parse it here rather than wait for a worker. */
        r->state = REQ_RUNNING;
        fe->in_flight++;
        unlock(fe);
        process_path(&fe->self, r->file);
        lock(fe);
        r->state = REQ_DONE;
    }
    while (r->state != REQ_DONE) {
        /* Its worker is still at it: parse a later file meanwhile rather
        ** than wait (the window still bounds what is parsed ahead). */
        fe_request *o = next_for_worker(fe);
        if (!o) {
            pthread_cond_wait(&fe->done, &fe->mu);
            continue;
        }
        o->state = REQ_RUNNING;
        fe->in_flight++;
        unlock(fe);
        process_path(&fe->self, o->file);
        lock(fe);
        o->state = REQ_DONE;
    }
    unlink_request(fe, r);
    fe->in_flight--;
    if (fe->sync_ready) pthread_cond_signal(&fe->work);
    unlock(fe);
    fe_file *f = r->file;
    free(r);
    return f;
}

fe_file *frontend_parse_path(frontend *fe, const char *path)
{
    fe_file *f = file_new(fe, path);
    process_path(&fe->self, f);
    return f;
}

fe_file *frontend_parse_buffer(frontend *fe, const char *path, const char *data, size_t len)
{
    fe_file *f = file_new(fe, path);
    f->src = source_from_buffer(path, data, len);
    run_passes(&fe->self, f);
    return f;
}

fe_file *frontend_parse_source(frontend *fe, source_file *src, struct script_refs *collect,
                               struct check_file_result *checked)
{
    fe_file *f = file_new(fe, src->path);
    f->src = src;
    f->collect = collect;
    f->checked = checked;
    run_passes(&fe->self, f);
    return f;
}

void frontend_free(frontend *fe)
{
    if (!fe) return;
    if (fe->sync_ready) {
        pthread_mutex_lock(&fe->mu);
        fe->stop = 1;
        pthread_cond_broadcast(&fe->work);
        pthread_mutex_unlock(&fe->mu);
        for (int i = 0; i < fe->thread_count; i++) pthread_join(fe->threads[i].id, NULL);
        pthread_cond_destroy(&fe->work);
        pthread_cond_destroy(&fe->done);
        pthread_mutex_destroy(&fe->mu);
    }
    for (fe_request *r = fe->head, *next; r; r = next) {
        next = r->next;
        fe_file_free(r->file);
        free(r);
    }
    free(fe->threads);
    worker_free(&fe->self);
    free(fe);
}
