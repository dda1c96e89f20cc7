/* The front end of a compilation, split so that files can be parsed on
** several threads with output identical for any thread count:
**
**   FILE-LOCAL part (any thread, one file at a time): read, lex, parse, and
**   the per-item passes (the table driver.c gives frontend_new) that turn
**   each streamed top-level item into that file's compact record (fe_file):
**   the compile stage's events, and file-local diagnostics in discovery order.
**
**   GLOBAL part (the context's thread, driver.c): each file's record is
**   replayed strictly in the order the files were asked for — trees
**   registered, references added, diagnostics appended — then dropped.
**
** A frontend belongs to one context and is driven from one thread at a time
** (the context's); its workers touch only their own file's record and the
** frontend's queue, under its mutex.  Nothing is shared between contexts. */
#ifndef ATRC_FRONTEND_H
#define ATRC_FRONTEND_H
#include <stddef.h>
#include "atrc.h"
#include "base/arena.h"
#include "script/ast.h"
#include "base/diag.h"
#include "base/source.h"

/* One row per file-local pass, in the order they see each item.  ORDER:
** the pass table the driver gives frontend_new (driver.c). */
typedef enum {
    FE_PASS_CHECK = 0,   /* check.c: the compile-stage checks (their diagnostics) */
    FE_PASS_COMPILE,     /* compile.c: #using_animtree / %name / #animtree events */
    FE_PASS_WALK,        /* script_refs.c: what a file names, for the load walk */
    FE_PASS_RUNTIME,     /* runtime_calls.c: the animation builtins' calls, for the run-time checks */
    FE_PASS_COUNT
} fe_pass_id;

/* One file's record: filled by the thread that parses it, replayed by the
** context's thread, then freed. */
typedef struct fe_file {
    const atrc_options *opts;  /* read-only: the frontend's copy of the context's options */
    const struct profile_rules *rules;   /* read-only: the context's profile rules */
    const struct fe_pass *passes;        /* read-only: the frontend's passes (FE_PASS_COUNT) */
    const struct builtin_set *builtins; /* read-only: the context's extensions and user lists, or NULL */
    char *path;                /* as asked for */
    /* The file (NULL when it could not be read).  Its text is released once
    ** the passes have run (except standard input and buffers): diagnostics'
    ** excerpts read it again (source_reload) when they are printed. */
    source_file *src;
    const char *read_error;    /* why it could not be read (points into read_error_buf) */
    char read_error_buf[160];
    diag_list diags;           /* file-local diagnostics, in discovery order */
    size_t diags_replayed;     /* how many of them the replay has moved to the context */
    void *state[FE_PASS_COUNT];/* each pass's record (NULL: the pass is off for this file) */
    int item_anim_syntax;      /* the current item (or run of statements) may hold %name, #animtree or #using_animtree */
    int item_anim_call;        /* ... or a call of an animation builtin's name (SCRIPT_HOLDS_ANIM_CALL) */
    /* Load walk only (frontend_parse_source, the context's thread): where
    ** FE_PASS_WALK lists the file's references and FE_PASS_CHECK leaves
    ** what the file's checks left to its #includes; NULL: not wanted. */
    struct script_refs *collect;
    struct check_file_result *checked;
    /* A walk file parsed ahead (frontend_prefetch_walk) owns what collect
    ** and checked point to until fe_file_take_walk moves it out. */
    struct script_refs *own_refs;
    struct check_file_result *own_checked;
    struct fe_cache *cache;    /* kept records to consult and fill (the frontend's), or NULL */
} fe_file;

/* A file-local pass.  begin/item/end run on the thread that parses the file
** and may only touch f (its own state, f->diags, f->src, f->opts); a
** diagnostic added to f->diags keeps its place among the file's others.
** begin returns the pass's state (NULL: nothing to do for this file); item
** sees each top-level item once, as soon as it is reduced (valid during the
** call only), except a long function, which comes in pieces (fn_begin
** below); release frees the state after the replay (any thread). */
typedef struct fe_pass {
    void *(*begin)(fe_file *f);
    void (*item)(void *state, fe_file *f, const ast_node *item);
    void (*end)(void *state, fe_file *f);
    void (*release)(void *state);
    /* A copy of a finished state, for records kept across compilations
    ** (fe_cache).  NULL: the pass keeps nothing of its own — its state is
    ** a marker that it ran (the checks) or the walk's list (f->collect),
    ** which the cache copies itself. */
    void *(*copy)(const void *state);
    /* A function at file level comes in pieces instead of as one item
    ** (script_parse_stream): fn_begin sees its node (the body still an
    ** empty block; valid until fn_end), fn_stmts each run of elements of
    ** its body's own list, in order (first, then through `next`; valid
    ** during the call; f->item_anim_syntax set for the run), fn_end its
    ** end: complete 1 where item would have seen the whole
    ** function, 0 when the parser dropped it unfinished (the end of file
    ** inside it, the error cap) and item would never have seen it -- the
    ** pass then forgets what the statements added. */
    void (*fn_begin)(void *state, fe_file *f, const ast_node *fn);
    void (*fn_stmts)(void *state, fe_file *f, const ast_node *first);
    void (*fn_end)(void *state, fe_file *f, const ast_node *fn, int complete);
} fe_pass;

/* Moves f's file-local diagnostics to `to` up to (not including) index upto
** (clamped to their count), keeping their order: the replay calls it before
** each event that was recorded after them. */
void fe_replay_diags(fe_file *f, diag_list *to, size_t upto);
void fe_file_free(fe_file *f);

typedef struct frontend frontend;
typedef struct fe_request fe_request;

/* Records kept across compilations (a session's, session.c): a file whose
** path, text (compared byte for byte) and parse inputs — the options but
** the thread count, the game mode, the builtin extensions, whether the walk
** wants its lists — equal a kept record's is not parsed again; its record is
** a copy of the kept one, replayed like a fresh record with the same result.
** Thread-safe (the workers consult it).  Only shipped extensions are keyed:
** with a user's builtin list (read at run time) nothing is kept. */
typedef struct fe_cache fe_cache;
fe_cache *fe_cache_new(void);
void fe_cache_free(fe_cache *c);
/* Ends one compilation: records no file of it used are dropped, so what is
** kept is bounded by one compilation's files. */
void fe_cache_end_round(fe_cache *c);
/* Files parsed (not found kept) and files whose kept record was used, so far. */
unsigned long fe_cache_parsed(const fe_cache *c);
unsigned long fe_cache_reused(const fe_cache *c);
/* Bytes the kept records hold (texts, diagnostics, events, lists), roughly. */
size_t fe_cache_bytes(const fe_cache *c);
/* The front end's use (src/compile/fe_cache.c), on the thread that parses f:
** fe_cache_use gives f a kept record's copy when one fits f's inputs (1;
** 0: f must be parsed), fe_cache_keep keeps a copy of f's fresh record. */
int fe_cache_use(fe_file *f);
void fe_cache_keep(fe_file *f);

/* jobs: threads that parse, the calling one included: jobs - 1 workers,
** started at the first prefetch (<= 1: none, every file is parsed on the
** calling thread when it is taken).  A take that would wait parses a later
** queued file meanwhile.  rules (the profile's) and passes (FE_PASS_COUNT
** of them, in fe_pass_id order) are the caller's and must outlive the
** frontend. */
frontend *frontend_new(const atrc_options *opts, const struct profile_rules *rules,
                       const struct fe_pass *passes, int jobs);
/* The builtin names beyond the stock list for every file asked for from now
** on (read-only, owned by the caller, alive as long as the frontend). */
void frontend_use_builtins(frontend *fe, const struct builtin_set *set);
/* The game mode of the files asked for from now on (level mode learns it
** after file-list scripts may have been parsed); no file may be in flight. */
void frontend_set_game_mode(frontend *fe, atrc_game_mode mode);
/* Consults and fills c from now on (NULL: none); c outlives the frontend. */
void frontend_use_cache(frontend *fe, fe_cache *c);
/* Stops and joins the workers; frees every record not taken. */
void frontend_free(frontend *fe);
/* Asks for path to be parsed ahead, by a worker, while the caller goes on
** (standard input "-" is always read by the calling thread, at take time).
** At most a bounded window of files is parsed ahead of the takes. */
fe_request *frontend_prefetch(frontend *fe, const char *path);
/* The record of a prefetched file: waits for its worker, or parses it on the
** calling thread if no worker has started it.  The caller owns the result. */
fe_file *frontend_take(frontend *fe, fe_request *r);
/* Reads and parses path now, on the calling thread. */
fe_file *frontend_parse_path(frontend *fe, const char *path);
/* Parses a script held in memory on the calling thread (the text is copied). */
fe_file *frontend_parse_buffer(frontend *fe, const char *path, const char *data, size_t len);
/* For the load walk, which discovers files as it compiles them: asks for src
** (read by the caller, perhaps from an archive; the record takes it over)
** to be parsed ahead by a worker, with the walk's passes (its references,
** the checks' result for the walk).  Taken with frontend_take; then
** fe_file_take_walk moves those results to the walk's own structures. */
fe_request *frontend_prefetch_walk(frontend *fe, source_file *src);
void fe_file_take_walk(fe_file *f, struct script_refs *refs, struct check_file_result *checked);
/* Parses src (the record takes it over) on the calling thread; with collect,
** FE_PASS_WALK lists its references there; with checked, the checks' result
** for the walk is stored there. */
fe_file *frontend_parse_source(frontend *fe, source_file *src, struct script_refs *collect,
                               struct check_file_result *checked);

#endif
