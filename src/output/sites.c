/* The site index (sites.h): a script's sites come from lexing it again,
** once, when a query first concerns it: token based, so a file with syntax
** errors still answers for what it holds.  Animation references come from
** the compilation itself (ctx->refs), so values are the compilation's. */
#include "output/sites.h"
#include "compile/context.h"
#include "gsc_parser.h"
#include "script/lexer.h"
#include "script/syntax_log.h"
#include "os/os.h"
#include "base/text.h"
#include "base/vec.h"
#include "compile/walk.h"

#include <stdlib.h>
#include <string.h>

void sites_cache_free(lookup_cache *c)
{
    if (!c) return;
    for (size_t i = 0; i < c->file_count; i++)
        if (c->files[i]) {
            VEC_FREE(c->files[i]->sites);
            VEC_FREE(c->files[i]->locals);
            VEC_FREE(c->files[i]->arglists);
            VEC_FREE(c->files[i]->commas);
            VEC_FREE(c->files[i]->folds);
            VEC_FREE(c->files[i]->refs);
            VEC_FREE(c->files[i]->decl);
            VEC_FREE(c->files[i]->def_sites);
            VEC_FREE(c->files[i]->usings);
            hashtab_free(&c->files[i]->defs);
        }
    free(c->files);
    hashtab_free(&c->src_index);
    hashtab_free(&c->script_index);
    VEC_FREE(c->completions);
    VEC_FREE(c->symbols);
    VEC_FREE(c->anim_sites);
    VEC_FREE(c->params);
    arena_free_all(&c->mem);
    free(c);
}

static uint32_t pointer_hash(const void *p)
{
    uintptr_t u = (uintptr_t)p;
    return text_hash_bytes((const char *)&u, sizeof u);
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
        hashtab_add(&c->src_index, pointer_hash(ctx->sources.items[c->src_indexed]));
    return c;
}

static long source_number(const atrc_ctx *ctx, lookup_cache *c, const source_file *src)
{
    uint32_t h = pointer_hash(src);
    for (size_t i = hashtab_first(&c->src_index, h); i != HASHTAB_END; i = hashtab_next(&c->src_index, h, i))
        if (ctx->sources.items[i] == src) return (long)i;
    return -1;
}

/* ---- lexing a script's sites ---- */

const char *sites_canonical_script(arena *a, const char *z, size_t n)
{
    char *s = arena_lower(a, z, n);
    for (char *p = s; *p; p++)
        if (*p == '\\') *p = '/';
    return s;
}

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

static site *add_site(file_index *f, site_kind kind, const gsc_token *t, const char *name)
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

static void scan_brackets(file_index *f, int code, const gsc_token *t, int called, open_parens *parens,
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

static void scan_sites(const atrc_ctx *ctx, lookup_cache *c, file_index *f)
{
    source_file *src = f->src;
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
        ** call (f(, path::), no field (.x) and no function of path::f, and
        ** stands in a body or a definition's parameter list. */
        if (p1 && c1 == TK_IDENT && code != TK_LP && code != TK_DCOLON && c2 != TK_DOT && c2 != TK_DCOLON) {
            long fn = depth > 0 ? open_func : in_params ? params_of : -1;
            if (fn >= 0) {
                site *l = push_site(&f->locals, SITE_LOCAL, p1, arena_strndup(&c->mem, p1->z, (size_t)p1->n));
                l->func = (size_t)fn;
                l->param = depth == 0;
            }
        }
        if (code == TK_LP && p1 && c1 == TK_IDENT) {
            if (c2 == TK_DCOLON) {
                /* path::f( or ::f( : the call site was added at the name */
            } else if (depth == 0) {
                add_site(f, SITE_FUNCTION, p1, arena_strndup(&c->mem, p1->z, (size_t)p1->n));
                params_of = (long)f->sites.count - 1;
                in_params = 1;
                sig_start = (size_t)(p1->z - src->data);
            } else {
                add_site(f, SITE_CALL, p1, arena_strndup(&c->mem, p1->z, (size_t)p1->n));
            }
        } else if (code == TK_IDENT && p1 && c1 == TK_DCOLON) {
            const char *path = NULL;
            if (p2 && (c2 == TK_PATH || c2 == TK_IDENT) && p2->line == p1->line && p2->col + p2->n == p1->col) {
                path = sites_canonical_script(&c->mem, p2->z, (size_t)p2->n);
                add_site(f, SITE_PATH, p2, path);
            }
            add_site(f, SITE_CALL, &t, arena_strndup(&c->mem, t.z, (size_t)t.n))->path = path;
        } else if (p1 && c1 == TK_INCLUDE && (code == TK_PATH || code == TK_IDENT)) {
            add_site(f, SITE_PATH, &t, sites_canonical_script(&c->mem, t.z, (size_t)t.n))->include = 1;
        } else if (code == TK_RP && p1 && c1 == TK_STRING && p2 && c2 == TK_LP && p3 && c3 == TK_USING_ANIMTREE) {
            const char *name = p1->n >= 2 ? arena_lower(&c->mem, p1->z + 1, (size_t)p1->n - 2) : "";
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
            f->sites.items[params_of].signature = arena_strndup(&c->mem, src->data + sig_start, end - sig_start);
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
    for (size_t i = 0; i < f->sites.count; i++)
        if (f->sites.items[i].kind == SITE_USING) *VEC_PUSH(f->usings) = i;
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

/* f with its sites: a script is lexed the first time a query needs them. */
file_index *sites_with_sites(const atrc_ctx *ctx, file_index *f)
{
    if (!f || f->scanned) return f;
    f->scanned = 1;
    if (sites_is_script(f->src)) {
        int reloaded = f->src->released && source_reload(f->src) == 0;
        scan_sites(ctx, sites_cache(ctx), f);
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

/* The file a query names: as in diagnostics, else the same file by real path. */
file_index *sites_file_named(const atrc_ctx *ctx, const char *name)
{
    if (!name) return NULL;
    lookup_cache *c = sites_cache(ctx);
    for (size_t i = 0; i < ctx->sources.count; i++)
        if (strcmp(ctx->sources.items[i]->path, name) == 0) return sites_with_sites(ctx, sites_file_at(ctx, c, i));
    char *real = os_real_path(name);
    if (!real) return NULL;
    file_index *found = NULL;
    for (size_t i = 0; i < ctx->sources.count && !found; i++) {
        file_index *f = sites_file_at(ctx, c, i);
        if (!f->real) {
            char *r = os_real_path(f->src->path);
            f->real = r ? arena_strdup(&c->mem, r) : "";
            free(r);
        }
        if (strcmp(f->real, real) == 0) found = f;
    }
    free(real);
    return sites_with_sites(ctx, found);
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
    size_t first = HASHTAB_END; /* chains list the newest first */
    for (size_t i = hashtab_first(&c->script_index, h); i != HASHTAB_END; i = hashtab_next(&c->script_index, h, i))
        if (sites_is_script(c->files[i]->src) && strcmp(c->files[i]->script, name) == 0) first = i;
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
