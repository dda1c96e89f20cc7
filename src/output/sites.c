/* The site index (sites.h): a script's sites come from lexing it again,
** once, when a query first concerns it: token based, so a file with syntax
** errors still answers for what it holds.  Animation references come from
** the compilation itself (ctx->refs), so values are the compilation's. */
#include "output/sites.h"
#include "compile/context.h"
#include "gsc_parser.h"
#include "script/lexer.h"
#include "script/script_refs.h"
#include "script/syntax_log.h"
#include "os/os.h"
#include "base/text.h"
#include "base/vec.h"
#include "compile/walk.h"

#include <stdlib.h>
#include <string.h>

static void scan_free(site_scan *f)
{
    if (!f) return;
    VEC_FREE(f->sites);
    VEC_FREE(f->locals);
    VEC_FREE(f->arglists);
    VEC_FREE(f->commas);
    VEC_FREE(f->folds);
    VEC_FREE(f->usings);
    arena_free_all(&f->mem);
    free(f->text);
    free(f->path);
    free(f);
}

void sites_cache_free(lookup_cache *c)
{
    if (!c) return;
    for (size_t i = 0; i < c->file_count; i++)
        if (c->files[i]) { /* its site arrays are its scan's */
            VEC_FREE(c->files[i]->refs);
            VEC_FREE(c->files[i]->decl);
            VEC_FREE(c->files[i]->def_sites);
            hashtab_free(&c->files[i]->defs);
        }
    for (size_t i = 0; i < c->own_scans.count; i++) scan_free(c->own_scans.items[i]);
    VEC_FREE(c->own_scans);
    free(c->files);
    hashtab_free(&c->src_index);
    hashtab_free(&c->script_index);
    VEC_FREE(c->completions);
    for (size_t i = 0; i < c->tree_names.count; i++) VEC_FREE(c->tree_names.items[i].items);
    VEC_FREE(c->tree_names);
    VEC_FREE(c->symbols);
    VEC_FREE(c->functions);
    VEC_FREE(c->anim_sites);
    VEC_FREE(c->params);
    arena_free_all(&c->mem);
    free(c);
}

lookup_cache *sites_cache(const atrc_ctx *cctx)
{
    atrc_ctx *ctx = (atrc_ctx *)cctx; /* a cache of a logically const context */
    if (!ctx->lookup) {
        ctx->lookup = xcalloc(1, sizeof *ctx->lookup);
        arena_init(&ctx->lookup->mem);
    }
    lookup_cache *c = ctx->lookup;
    if (c->file_count < ctx->sources.count) {
        c->files = xrealloc(c->files, array_size(ctx->sources.count, sizeof *c->files));
        memset(c->files + c->file_count, 0, array_size(ctx->sources.count - c->file_count, sizeof *c->files));
        c->file_count = ctx->sources.count;
    }
    for (; c->src_indexed < ctx->sources.count; c->src_indexed++)
        hashtab_add(&c->src_index, hashtab_pointer_hash(ctx->sources.items[c->src_indexed]));
    return c;
}

static int source_matches(const void *sources, size_t i, const void *src)
{
    return ((source_file *const *)sources)[i] == src;
}

static long source_number(const atrc_ctx *ctx, lookup_cache *c, const source_file *src)
{
    size_t i = hashtab_find(&c->src_index, hashtab_pointer_hash(src), ctx->sources.items, src, source_matches);
    return i == HASHTAB_END ? -1 : (long)i;
}

/* ---- lexing a script's sites ---- */

/* A site of the token t: pushed on sites (f->sites, or f->locals). */
static site *push_site(site_vec *sites, site_kind kind, const gsc_token *t, const char *name)
{
    site *s = VEC_PUSH(*sites);
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->line = t->line;
    s->col = t->col;
    s->end_col = t->col + t->n;
    s->name = name;
    return s;
}

static site *add_site(site_scan *f, site_kind kind, const gsc_token *t, const char *name)
{
    return push_site(&f->sites, kind, t, name);
}

/* A ring of the last tokens seen. */
typedef struct recent {
    gsc_token tok[4];
    int code[4];
    unsigned n;
} recent;

static const gsc_token *back(const recent *r, unsigned k, int *code)
{
    if (k >= r->n || k >= 4) {
        *code = -1;
        return NULL;
    }
    unsigned i = (r->n - 1 - k) & 3;
    *code = r->code[i];
    return &r->tok[i];
}

/* A call's argument lists and commas (signature help), and the blocks that
** fold.  called: t is a '(' after a name in a body, whose call site is the
** last site (added at the name for path::f, at the '(' otherwise).  A
** statement's end (';', a brace) ends the argument lists still open, as a
** line being typed leaves them. */
typedef VEC(long) open_parens;
typedef VEC(int) open_blocks;

static void scan_brackets(site_scan *f, int code, const gsc_token *t, int called, open_parens *parens,
                          open_blocks *blocks)
{
    if (code == TK_LP) {
        long list = -1;
        if (called && f->sites.count && f->sites.items[f->sites.count - 1].kind == SITE_CALL) {
            arglist *a = VEC_PUSH(f->arglists);
            a->call = f->sites.count - 1;
            a->open_line = t->line;
            a->open_col = t->col;
            a->close_line = a->close_col = 0;
            list = (long)f->arglists.count - 1;
        }
        *VEC_PUSH(*parens) = list;
    } else if (code == TK_COMMA && parens->count && parens->items[parens->count - 1] >= 0) {
        comma *k = VEC_PUSH(f->commas);
        k->list = (size_t)parens->items[parens->count - 1];
        k->line = t->line;
        k->col = t->col;
    } else if (code == TK_RP && parens->count) {
        long list = parens->items[--parens->count];
        if (list >= 0) {
            f->arglists.items[list].close_line = t->line;
            f->arglists.items[list].close_col = t->col;
        }
    } else if (code == TK_SEMI || code == TK_LBRACE || code == TK_RBRACE) {
        while (parens->count) {
            long list = parens->items[--parens->count];
            if (list >= 0) {
                f->arglists.items[list].close_line = t->line;
                f->arglists.items[list].close_col = t->col;
            }
        }
    }
    if (code == TK_LBRACE || code == TK_DEVOPEN) {
        *VEC_PUSH(*blocks) = t->line;
    } else if ((code == TK_RBRACE || code == TK_DEVCLOSE) && blocks->count) {
        int start = blocks->items[--blocks->count];
        if (t->line > start) {
            atrc_fold *d = VEC_PUSH(f->folds);
            d->start_line = start;
            d->end_line = t->line;
        }
    }
}

/* f's sites from lexing src (its text there). */
static void scan_sites(const atrc_ctx *ctx, source_file *src, site_scan *f)
{
    if (!src->data) return;
    diag_list scratch;
    diag_init(&scratch);
    scratch.max_errors = 0;
    scratch.no_warnings = 1;
    syntax_log log;
    syntax_log_init(&log, src, &scratch);
    gsc_lexer lx;
    gsc_lexer_init(&lx, src, ctx->rules, &log);
    /* The sites of the text the compilation read: CoD4x's inactive branches are none. */
    gsc_preproc pp = {ctx->rules, &ctx->builtins, ctx->opts.game_mode};
    gsc_lexer_use_preproc(&lx, &pp);
    recent r = {{{0}}, {0}, 0};
    int depth = 0, code;
    /* Indices (the array grows): the definition whose body / parameters are being read, or -1. */
    long open_func = -1, params_of = -1;
    int in_params = 0; /* between a definition's '(' and ')' */
    size_t sig_start = 0;
    open_parens parens = {0};    /* open '(': the arglist of a call's, -1 for others */
    open_blocks blocks = {0};    /* open '{' and '/#': their lines */
    gsc_token t;
    while ((code = gsc_lexer_next(&lx, &t)) != 0) {
        int c1, c2, c3;
        const gsc_token *p1 = back(&r, 0, &c1);
        const gsc_token *p2 = back(&r, 1, &c2);
        const gsc_token *p3 = back(&r, 2, &c3);
        /* The name before this token is a local or a parameter when it is no
        ** call (f(, path::), no field (.x), no function of path::f and no
        ** animation (%name, also in a statement that did not parse), and
        ** stands in a body or a definition's parameter list. */
        if (p1 && c1 == TK_IDENT && code != TK_LP && code != TK_DCOLON && c2 != TK_DOT && c2 != TK_DCOLON &&
            c2 != TK_PERCENT) {
            long fn = depth > 0 ? open_func : in_params ? params_of : -1;
            if (fn >= 0) {
                site *l = push_site(&f->locals, SITE_LOCAL, p1, arena_strndup(&f->mem, p1->z, (size_t)p1->n));
                l->func = (size_t)fn;
                l->param = depth == 0;
            }
        }
        if (code == TK_LP && p1 && c1 == TK_IDENT) {
            if (c2 == TK_DCOLON) {
                /* path::f( or ::f( : the call site was added at the name */
            } else if (depth == 0) {
                add_site(f, SITE_FUNCTION, p1, arena_strndup(&f->mem, p1->z, (size_t)p1->n));
                params_of = (long)f->sites.count - 1;
                in_params = 1;
                sig_start = (size_t)(p1->z - src->data);
            } else {
                add_site(f, SITE_CALL, p1, arena_strndup(&f->mem, p1->z, (size_t)p1->n));
            }
        } else if (code == TK_IDENT && p1 && c1 == TK_DCOLON) {
            const char *path = NULL;
            if (p2 && (c2 == TK_PATH || c2 == TK_IDENT) && p2->line == p1->line && p2->col + p2->n == p1->col) {
                path = script_canonical_name(&f->mem, p2->z, (size_t)p2->n);
                add_site(f, SITE_PATH, p2, path);
            }
            add_site(f, SITE_CALL, &t, arena_strndup(&f->mem, t.z, (size_t)t.n))->path = path;
        } else if (p1 && c1 == TK_INCLUDE && (code == TK_PATH || code == TK_IDENT)) {
            add_site(f, SITE_PATH, &t, script_canonical_name(&f->mem, t.z, (size_t)t.n))->include = 1;
        } else if (code == TK_RP && p1 && c1 == TK_STRING && p2 && c2 == TK_LP && p3 && c3 == TK_USING_ANIMTREE) {
            const char *name = p1->n >= 2 ? arena_lower(&f->mem, p1->z + 1, (size_t)p1->n - 2) : "";
            site *d = add_site(f, SITE_USING, p3, name);
            d->using_line = p3->line;
            d->using_col = p3->col;
            site *s = add_site(f, SITE_USING, p1, name);
            s->using_line = p3->line;
            s->using_col = p3->col;
        } else if (code == TK_ANIMTREE) {
            add_site(f, SITE_ANIMTREE, &t, "#animtree");
        } else if (code == TK_RP && params_of >= 0 && depth == 0) {
            in_params = 0;
            size_t end = (size_t)(t.z - src->data) + 1;
            f->sites.items[params_of].signature = arena_strndup(&f->mem, src->data + sig_start, end - sig_start);
        } else if (code == TK_LBRACE) {
            if (depth++ == 0 && params_of >= 0) {
                open_func = params_of;
                params_of = -1;
            }
        } else if (code == TK_RBRACE && depth > 0) {
            if (--depth == 0 && open_func >= 0) {
                f->sites.items[open_func].body_end_line = t.line;
                f->sites.items[open_func].body_end_col = t.col + 1;
                open_func = -1;
            }
        } else if (code == TK_SEMI && depth == 0) {
            params_of = -1;
            in_params = 0;
        }
        if (code == TK_LBRACE) in_params = 0;
        scan_brackets(f, code, &t, p1 && c1 == TK_IDENT && depth > 0, &parens, &blocks);
        unsigned i = r.n++ & 3;
        r.tok[i] = t;
        r.code[i] = code;
    }
    VEC_FREE(parens);
    VEC_FREE(blocks);
    gsc_lexer_free(&lx);
    syntax_log_free(&log);
    diag_free(&scratch);
}

static void index_refs(const atrc_ctx *ctx, lookup_cache *c)
{
    if (c->refs_indexed) return;
    c->refs_indexed = 1;
    for (const anim_ref *r = ctx->refs; r; r = r->next) {
        if (!r->src) continue;
        long i = source_number(ctx, c, r->src);
        if (i < 0) continue;
        file_index *f = c->files[i];
        if (!f) {
            f = c->files[i] = arena_alloc(&c->mem, sizeof *f);
            memset(f, 0, sizeof *f);
            f->src = ctx->sources.items[i];
        }
        *VEC_PUSH(f->refs) = r;
    }
}

int sites_is_script(const source_file *src)
{
    return gamefs_script_stem(src->path) != strlen(src->path);
}

/* The index of ctx->sources.items[i], lexed on first use. */
file_index *sites_file_at(const atrc_ctx *ctx, lookup_cache *c, size_t i)
{
    index_refs(ctx, c);
    file_index *f = c->files[i];
    if (!f) {
        f = c->files[i] = arena_alloc(&c->mem, sizeof *f);
        memset(f, 0, sizeof *f);
        f->src = ctx->sources.items[i];
    }
    if (!f->script) {
        char buf[1024];
        gamefs_relative_name(&((atrc_ctx *)ctx)->fs, f->src->path, buf, sizeof buf);
        f->script = arena_strndup(&c->mem, buf, gamefs_script_stem(buf));
    }
    return f;
}

/* ---- the scans a session keeps (sites.h "sites_store") ---- */

struct sites_store {
    VEC(site_scan *) scans;    /* hashtab numbering: by path */
    hashtab by_path;
    unsigned long scanned, reused;
};

sites_store *sites_store_new(void)
{
    return xcalloc(1, sizeof(sites_store));
}

void sites_store_free(sites_store *s)
{
    if (!s) return;
    for (size_t i = 0; i < s->scans.count; i++) scan_free(s->scans.items[i]);
    VEC_FREE(s->scans);
    hashtab_free(&s->by_path);
    free(s);
}

unsigned long sites_store_scanned(const sites_store *s)
{
    return s ? s->scanned : 0;
}

unsigned long sites_store_reused(const sites_store *s)
{
    return s ? s->reused : 0;
}

size_t sites_store_kept(const sites_store *s)
{
    return s ? s->scans.count : 0;
}

static uint32_t path_hash(const char *path)
{
    return text_hash_bytes(path, strlen(path));
}

static const char *scan_path_at(const void *scans, size_t i)
{
    return ((site_scan *const *)scans)[i]->path;
}

static const char *source_path_at(const void *sources, size_t i)
{
    return ((source_file *const *)sources)[i]->path;
}

/* The newest scan of path, or HASHTAB_END (the table finds the newest first). */
static size_t newest_scan(const sites_store *s, const char *path)
{
    return hashtab_find_string(&s->by_path, path_hash(path), path, 0, s->scans.items, scan_path_at);
}

/* Keeps the newest scan of each path the context read (its scans are no
** longer borrowed: the context is being freed); the round's replaced scans
** go, so a script edited N times holds one scan, not N. */
void sites_store_end_round(sites_store *s, const atrc_ctx *ctx)
{
    if (!s) return;
    hashtab read = {0}; /* ctx->sources by path */
    for (size_t i = 0; i < ctx->sources.count; i++) hashtab_add(&read, path_hash(ctx->sources.items[i]->path));
    VEC(site_scan *) keep = {0};
    for (size_t i = 0; i < s->scans.count; i++) {
        site_scan *f = s->scans.items[i];
        int was_read =
            hashtab_find_string(&read, path_hash(f->path), f->path, 0, ctx->sources.items, source_path_at) != HASHTAB_END;
        if (was_read && newest_scan(s, f->path) == i) *VEC_PUSH(keep) = f;
    }
    for (size_t i = 0, k = 0; i < s->scans.count; i++) {
        if (k < keep.count && keep.items[k] == s->scans.items[i]) k++;
        else scan_free(s->scans.items[i]);
    }
    /* in their order: the newest of a path is still the last one added */
    VEC_FREE(s->scans);
    s->scans.items = keep.items;
    s->scans.count = keep.count;
    s->scans.cap = keep.cap;
    hashtab_clear(&s->by_path);
    for (size_t i = 0; i < s->scans.count; i++) hashtab_add(&s->by_path, path_hash(s->scans.items[i]->path));
    hashtab_free(&read);
}

/* src's scan: the store's when one has its path, rules and text, else a new
** one (kept by the store, or by the context's index). */
static site_scan *scan_of(const atrc_ctx *ctx, source_file *src)
{
    sites_store *s = ctx->scans;
    gsc_preproc pp = {ctx->rules, &ctx->builtins, ctx->opts.game_mode};
    if (gsc_preproc_on(&pp)) s = NULL; /* what it lexes depends on the run's builtins */
    if (s) {
        size_t i = newest_scan(s, src->path);
        site_scan *f = i == HASHTAB_END ? NULL : s->scans.items[i];
        if (f && f->rules == ctx->rules && f->len == src->len && memcmp(f->text, src->data, src->len) == 0) {
            s->reused++;
            return f;
        }
    }
    site_scan *f = xcalloc(1, sizeof *f);
    arena_init(&f->mem);
    scan_sites(ctx, src, f);
    for (size_t i = 0; i < f->sites.count; i++)
        if (f->sites.items[i].kind == SITE_USING) *VEC_PUSH(f->usings) = i;
    if (!s) {
        *VEC_PUSH(sites_cache(ctx)->own_scans) = f;
        return f;
    }
    f->path = xstrdup(src->path);
    f->rules = ctx->rules;
    f->len = src->len;
    f->text = xmalloc(src->len ? src->len : 1);
    memcpy(f->text, src->data, src->len);
    *VEC_PUSH(s->scans) = f;
    hashtab_add(&s->by_path, path_hash(f->path));
    s->scanned++;
    return f;
}

/* f with its sites: a script is lexed the first time a query needs them. */
file_index *sites_with_sites(const atrc_ctx *ctx, file_index *f)
{
    if (!f || f->scanned) return f;
    f->scanned = 1;
    if (sites_is_script(f->src)) {
        int reloaded = f->src->released && source_reload(f->src) == 0;
        if (f->src->data) {
            const site_scan *scan = scan_of(ctx, f->src);
            f->sites = scan->sites;
            f->locals = scan->locals;
            f->arglists = scan->arglists;
            f->commas = scan->commas;
            f->folds = scan->folds;
            f->usings = scan->usings;
        }
        if (reloaded) source_release(f->src);
    }
    return f;
}

file_index *sites_file_of_src(const atrc_ctx *ctx, const source_file *src)
{
    lookup_cache *c = sites_cache(ctx);
    long i = source_number(ctx, c, src);
    return i < 0 ? NULL : sites_with_sites(ctx, sites_file_at(ctx, c, (size_t)i));
}

/* The real path of a file (malloc'ed), or of an archive's entry
** "ARCHIVE:ENTRY": the archive's real path, ':' and the entry (the archive
** ends at archive_len when known, else at the first ':' after the path's
** root).  NULL when there is none. */
static char *real_name(const char *name, size_t archive_len)
{
    char *real = archive_len ? NULL : os_real_path(name);
    if (real) return real;
    const char *colon = archive_len ? name + archive_len : strchr(name + os_path_root_length(name), ':');
    if (!colon || *colon != ':') return NULL;
    char *archive = os_strndup(name, (size_t)(colon - name));
    char *ra = archive ? os_real_path(archive) : NULL;
    free(archive);
    if (!ra) return NULL;
    size_t n = strlen(ra), e = strlen(colon);
    real = xmalloc(n + e + 1);
    memcpy(real, ra, n);
    memcpy(real + n, colon, e + 1);
    free(ra);
    return real;
}

/* The file a query names: as in diagnostics, else the same file by real
** path (an archive's entry by its archive's: a client names it as the
** atrc-archive: URI spells it, forward slashes and all). */
file_index *sites_file_named(const atrc_ctx *ctx, const char *name)
{
    if (!name) return NULL;
    lookup_cache *c = sites_cache(ctx);
    for (size_t i = 0; i < ctx->sources.count; i++)
        if (strcmp(ctx->sources.items[i]->path, name) == 0) return sites_with_sites(ctx, sites_file_at(ctx, c, i));
    char *real = real_name(name, 0);
    if (!real) return NULL;
    file_index *found = NULL;
    for (size_t i = 0; i < ctx->sources.count && !found; i++) {
        file_index *f = sites_file_at(ctx, c, i);
        if (!f->real) {
            const char *archive = gamefs_archive_of(&((atrc_ctx *)ctx)->fs, f->src->path);
            char *r = real_name(f->src->path, archive ? strlen(archive) : 0);
            f->real = r ? arena_strdup(&c->mem, r) : "";
            free(r);
        }
        if (strcmp(f->real, real) == 0) found = f;
    }
    free(real);
    return sites_with_sites(ctx, found);
}

/* Indexed file i is the script named `name`. */
static int script_matches(const void *files, size_t i, const void *name)
{
    const file_index *f = ((file_index *const *)files)[i];
    return sites_is_script(f->src) && strcmp(f->script, name) == 0;
}

/* The script of canonical name (game-relative, no .gsc), or NULL: the
** files indexed by that name as the compilation's list of them grows (the
** first of two scripts with one name wins, as the loop before did). */
file_index *sites_script_named(const atrc_ctx *ctx, const char *name)
{
    lookup_cache *c = sites_cache(ctx);
    for (; c->script_indexed < ctx->sources.count; c->script_indexed++) {
        file_index *f = sites_file_at(ctx, c, c->script_indexed);
        hashtab_add(&c->script_index, text_hash(0, f->script, 0));
    }
    uint32_t h = text_hash(0, name, 0);
    size_t first = HASHTAB_END; /* chains list the newest first: the last match is the oldest */
    for (size_t i = hashtab_find(&c->script_index, h, c->files, name, script_matches); i != HASHTAB_END;
         i = hashtab_find_next(&c->script_index, h, i, c->files, name, script_matches))
        first = i;
    return first == HASHTAB_END ? NULL : sites_with_sites(ctx, c->files[first]);
}

/* ---- related places (diag_view.c) and the position queries ---- */

int sites_before(int l1, int c1, int l2, int c2)
{
    return l1 < l2 || (l1 == l2 && c1 < c2);
}

/* The nearest #using_animtree before line:col: a binary search over the
** file's directives (usings[], in source order), so the diagnostics of a
** file with thousands of them cost O(log n) each. */
const site *sites_using_in(const file_index *f, int line, int col)
{
    size_t lo = 0, hi = f->usings.count; /* the first directive not before line:col */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const site *u = &f->sites.items[f->usings.items[mid]];
        if (sites_before(u->line, u->col, line, col)) lo = mid + 1;
        else hi = mid;
    }
    return lo ? &f->sites.items[f->usings.items[lo - 1]] : NULL;
}

int sites_using_before(const atrc_ctx *ctx, source_file *src, int line, int col, int *at_line, int *at_col)
{
    file_index *f = sites_file_of_src(ctx, src);
    const site *u = f ? sites_using_in(f, line, col) : NULL;
    if (!u) return 0;
    *at_line = u->using_line;
    *at_col = u->using_col;
    return 1;
}

/* The first definition of each function name (case folded) of f, for
** duplicate-function's related place: a table built once per file. */
static const char *def_name_at(const void *file, size_t k)
{
    const file_index *f = file;
    return f->sites.items[f->def_sites.items[k]].name;
}

static void build_defs(file_index *f)
{
    if (f->defs_built) return;
    f->defs_built = 1;
    for (size_t i = 0; i < f->sites.count; i++) {
        const site *s = &f->sites.items[i];
        if (s->kind != SITE_FUNCTION) continue;
        uint32_t h = text_hash(0, s->name, 1);
        if (hashtab_find_string(&f->defs, h, s->name, 1, f, def_name_at) != HASHTAB_END) continue;
        hashtab_add(&f->defs, h);
        *VEC_PUSH(f->def_sites) = i;
    }
}

const site *sites_defined_in(lookup_cache *c, file_index *f, const char *name)
{
    (void)c;
    build_defs(f);
    size_t k = hashtab_find_string(&f->defs, text_hash(0, name, 1), name, 1, f, def_name_at);
    return k == HASHTAB_END ? NULL : &f->sites.items[f->def_sites.items[k]];
}

static const site *first_definition_of(lookup_cache *c, file_index *f, const site *later)
{
    const site *first = sites_defined_in(c, f, later->name);
    return first != later ? first : NULL;
}

int sites_first_definition(const atrc_ctx *ctx, source_file *src, int line, int col, int *at_line, int *at_col)
{
    file_index *f = sites_file_of_src(ctx, src);
    if (!f) return 0;
    /* the later definition: the site at line:col (binary search: source order) */
    size_t lo = 0, hi = f->sites.count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (sites_before(f->sites.items[mid].line, f->sites.items[mid].col, line, col)) lo = mid + 1;
        else hi = mid;
    }
    if (lo == f->sites.count || f->sites.items[lo].kind != SITE_FUNCTION || f->sites.items[lo].line != line || f->sites.items[lo].col != col)
        return 0;
    const site *first = first_definition_of(sites_cache(ctx), f, &f->sites.items[lo]);
    if (!first) return 0;
    *at_line = first->line;
    *at_col = first->col;
    return 1;
}
