/* The file-local front end and its worker threads (see frontend.h): a queue
** of requested files in request order, a bounded window of files parsed
** ahead, and records handed back to the context's thread in any order it
** asks for them. */
#include "compile/frontend.h"
#include "check/check_stage.h"
#include "script/script_parse.h"
#include "script/lexer.h"
#include "script/script_refs.h"
#include "game/builtins.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a thread reuses from file to file: the read buffer and the AST arena
** (no fresh pages, hence no page faults, per file). */
typedef struct fe_worker {
    source_buffer buf;
    arena scratch;
} fe_worker;

#define KEEP_BUFFER ((size_t)64 << 20)

static void worker_free(fe_worker *w)
{
    VEC_FREE(w->buf);
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

/* What the item (or run of statements) may hold, for the passes to skip it. */
static void set_holds(fe_file *f, int holds)
{
    f->item_anim_syntax = (holds & SCRIPT_HOLDS_ANIM_SYNTAX) != 0;
    f->item_anim_call = (holds & SCRIPT_HOLDS_ANIM_CALL) != 0;
}

static void on_item(void *ud, ast_node *item, int holds)
{
    fe_file *f = ud;
    set_holds(f, holds);
    for (int i = 0; i < FE_PASS_COUNT; i++)
        if (f->state[i]) f->passes[i].item(f->state[i], f, item);
}

static void on_function(void *ud, int event, const ast_node *node, int holds)
{
    fe_file *f = ud;
    set_holds(f, holds);
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

/* The whole file-local part for one file, on whichever thread runs it. */
static void run_passes(fe_worker *w, fe_file *f)
{
    if (!fe_cache_use(f)) {
        for (int i = 0; i < FE_PASS_COUNT; i++) f->state[i] = f->passes[i].begin(f);
        int any = 0; /* a pass is on: --syntax-only has none, so no piece need go anywhere */
        for (int i = 0; i < FE_PASS_COUNT; i++) any |= f->state[i] != NULL;
        /* CoD4x's preprocessor asks the builtins the calls resolve with. */
        gsc_preproc pp = {f->rules, f->builtins, f->opts->game_mode};
        script_parse_stream(f->src, f->rules, &pp, &w->scratch, &f->diags, on_item, any ? on_function : NULL, f,
                            SCRIPT_STREAM_CHUNK);
        for (int i = 0; i < FE_PASS_COUNT; i++)
            if (f->state[i] && f->passes[i].end) f->passes[i].end(f->state[i], f);
        arena_reset(&w->scratch);
        fe_cache_keep(f);
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
        f->src = source_read_into(f->path, &w->buf, &err, f->read_error_buf,
                                  sizeof f->read_error_buf);
    if (!f->src) {
        if (err != f->read_error_buf) snprintf(f->read_error_buf, sizeof f->read_error_buf, "%s", err);
        f->read_error = f->read_error_buf;
        return;
    }
    run_passes(w, f);
    /* A huge file's buffer is not kept for the next, ordinary one. */
    if (w->buf.cap > KEEP_BUFFER) VEC_FREE(w->buf);
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
    diag_set_policy(&f->diags, opts);
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
