/* Position queries: see lookup.h and atrc.h ("position queries").
**
** A script's sites (function definitions, calls, includes, tree directives)
** come from lexing it again, once, when a query first concerns it: token
** based, so a file with syntax errors still answers for what it holds.
** Animation references, trees and nodes come from the compilation itself
** (ctx->refs, the built trees), so values are the compilation's. */
#include "editor/lookup.h"
#include "tree/atr.h"
#include "game/builtins.h"
#include "compile/driver.h"
#include "compile/registry.h"
#include "output/diag_view.h"
#include "gsc_parser.h"
#include "script/lexer.h"
#include "script/syntax_log.h"
#include "os/os.h"
#include "game/profile.h"
#include "base/text.h"
#include "base/vec.h"
#include "compile/walk.h"

#include <stdlib.h>
#include <string.h>

typedef enum {
    SITE_FUNCTION = 0, /* a definition's name */
    SITE_CALL,         /* name of f(), ::f, path::f */
    SITE_PATH,         /* #include's path, or path of path::f */
    SITE_USING,        /* #using_animtree (directive token and its string) */
    SITE_ANIMTREE      /* #animtree */
} site_kind;

typedef struct site {
    site_kind kind;
    int line, col, end_col;    /* the token (one line) */
    const char *name;          /* as written (function, tree: lower case; path: canonical) */
    const char *path;          /* SITE_CALL with path::, canonical; else NULL */
    int using_line, using_col; /* SITE_USING: the directive */
    int body_end_line, body_end_col; /* SITE_FUNCTION: just past the closing brace */
    const char *signature;     /* SITE_FUNCTION: "name(a, b)" */
    int include;               /* SITE_PATH of an #include */
} site;

typedef struct file_index {
    source_file *src;
    VEC(site) sites;           /* source order */
    VEC(const anim_ref *) refs; /* its %name and #animtree references, compile order */
    const char *script;        /* game-relative name without .gsc (lower case) */
    const char *real;          /* real path, when asked for; "" when none */
    int scanned;               /* sites listed (with_sites) */
    VEC(atr_node *) decl;      /* .atr: every node as declared, pruned ones too (full_atr) */
    int decl_parsed;
    hashtab defs;              /* first definitions by lower-case name: entry k is def_sites.items[k] */
    VEC(size_t) def_sites;
    int defs_built;
    VEC(size_t) usings;        /* indices of the SITE_USING sites, source order */
} file_index;

struct lookup_cache {
    arena mem;
    file_index **files;        /* one per ctx->sources entry, made on demand */
    size_t file_count;
    int refs_indexed;
    hashtab src_index;         /* ctx->sources by pointer */
    size_t src_indexed;
    VEC(atrc_completion) completions;
    VEC(atrc_symbol) symbols;
};

void lookup_cache_free(lookup_cache *c)
{
    if (!c) return;
    for (size_t i = 0; i < c->file_count; i++)
        if (c->files[i]) {
            VEC_FREE(c->files[i]->sites);
            VEC_FREE(c->files[i]->refs);
            VEC_FREE(c->files[i]->decl);
            VEC_FREE(c->files[i]->def_sites);
            VEC_FREE(c->files[i]->usings);
            hashtab_free(&c->files[i]->defs);
        }
    free(c->files);
    hashtab_free(&c->src_index);
    VEC_FREE(c->completions);
    VEC_FREE(c->symbols);
    arena_free_all(&c->mem);
    free(c);
}

static uint32_t pointer_hash(const void *p)
{
    uintptr_t u = (uintptr_t)p;
    return text_hash_bytes((const char *)&u, sizeof u);
}

static lookup_cache *cache_of(const atrc_ctx *cctx)
{
    atrc_ctx *ctx = (atrc_ctx *)cctx; /* a cache of a logically const context */
    if (!ctx->lookup) {
        ctx->lookup = xcalloc(1, sizeof *ctx->lookup);
        arena_init(&ctx->lookup->mem);
    }
    lookup_cache *c = ctx->lookup;
    if (c->file_count < ctx->sources.count) {
        c->files = xrealloc(c->files, array_size(ctx->sources.count, sizeof *c->files));
        memset(c->files + c->file_count, 0, (ctx->sources.count - c->file_count) * sizeof *c->files);
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

static const char *canonical_script(arena *a, const char *z, size_t n)
{
    char *s = arena_lower(a, z, n);
    for (char *p = s; *p; p++)
        if (*p == '\\') *p = '/';
    return s;
}

static site *add_site(file_index *f, site_kind kind, const gsc_token *t, const char *name)
{
    site *s = VEC_PUSH(f->sites);
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->line = t->line;
    s->col = t->col;
    s->end_col = t->col + t->n;
    s->name = name;
    return s;
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
    recent r = {{{0}}, {0}, 0};
    int depth = 0, code;
    /* Indices (the array grows): the definition whose body / parameters are being read, or -1. */
    long open_func = -1, params_of = -1;
    size_t sig_start = 0;
    gsc_token t;
    while ((code = gsc_lexer_next(&lx, &t)) != 0) {
        int c1, c2, c3;
        const gsc_token *p1 = back(&r, 0, &c1);
        const gsc_token *p2 = back(&r, 1, &c2);
        const gsc_token *p3 = back(&r, 2, &c3);
        if (code == TK_LP && p1 && c1 == TK_IDENT) {
            if (c2 == TK_DCOLON) {
                /* path::f( or ::f( : the call site was added at the name */
            } else if (depth == 0) {
                add_site(f, SITE_FUNCTION, p1, arena_strndup(&c->mem, p1->z, (size_t)p1->n));
                params_of = (long)f->sites.count - 1;
                sig_start = (size_t)(p1->z - src->data);
            } else {
                add_site(f, SITE_CALL, p1, arena_strndup(&c->mem, p1->z, (size_t)p1->n));
            }
        } else if (code == TK_IDENT && p1 && c1 == TK_DCOLON) {
            const char *path = NULL;
            if (p2 && (c2 == TK_PATH || c2 == TK_IDENT) && p2->line == p1->line && p2->col + p2->n == p1->col) {
                path = canonical_script(&c->mem, p2->z, (size_t)p2->n);
                add_site(f, SITE_PATH, p2, path);
            }
            add_site(f, SITE_CALL, &t, arena_strndup(&c->mem, t.z, (size_t)t.n))->path = path;
        } else if (p1 && c1 == TK_INCLUDE && (code == TK_PATH || code == TK_IDENT)) {
            add_site(f, SITE_PATH, &t, canonical_script(&c->mem, t.z, (size_t)t.n))->include = 1;
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
        }
        unsigned i = r.n++ & 3;
        r.tok[i] = t;
        r.code[i] = code;
    }
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

static int is_script(const source_file *src)
{
    size_t n = strlen(src->path);
    return n >= 4 && text_equal_nocase(src->path + n - 4, ".gsc");
}

/* The index of ctx->sources.items[i], lexed on first use. */
static file_index *file_at(const atrc_ctx *ctx, lookup_cache *c, size_t i)
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
        size_t n = strlen(buf);
        if (n >= 4 && strcmp(buf + n - 4, ".gsc") == 0) n -= 4;
        f->script = arena_strndup(&c->mem, buf, n);
    }
    return f;
}

/* f with its sites: a script is lexed the first time a query needs them. */
static file_index *with_sites(const atrc_ctx *ctx, file_index *f)
{
    if (!f || f->scanned) return f;
    f->scanned = 1;
    if (is_script(f->src)) {
        int reloaded = f->src->released && source_reload(f->src) == 0;
        scan_sites(ctx, cache_of(ctx), f);
        if (reloaded) source_release(f->src);
    }
    return f;
}

static file_index *file_of_src(const atrc_ctx *ctx, const source_file *src)
{
    lookup_cache *c = cache_of(ctx);
    long i = source_number(ctx, c, src);
    return i < 0 ? NULL : with_sites(ctx, file_at(ctx, c, (size_t)i));
}

/* The file a query names: as in diagnostics, else the same file by real path. */
static file_index *file_named(const atrc_ctx *ctx, const char *name)
{
    if (!name) return NULL;
    lookup_cache *c = cache_of(ctx);
    for (size_t i = 0; i < ctx->sources.count; i++)
        if (strcmp(ctx->sources.items[i]->path, name) == 0) return with_sites(ctx, file_at(ctx, c, i));
    char *real = os_real_path(name);
    if (!real) return NULL;
    file_index *found = NULL;
    for (size_t i = 0; i < ctx->sources.count && !found; i++) {
        file_index *f = file_at(ctx, c, i);
        if (!f->real) {
            char *r = os_real_path(f->src->path);
            f->real = r ? arena_strdup(&c->mem, r) : "";
            free(r);
        }
        if (strcmp(f->real, real) == 0) found = f;
    }
    free(real);
    return with_sites(ctx, found);
}

/* The script of canonical name (game-relative, no .gsc), or NULL. */
static file_index *script_named(const atrc_ctx *ctx, const char *name)
{
    lookup_cache *c = cache_of(ctx);
    for (size_t i = 0; i < ctx->sources.count; i++) {
        file_index *f = file_at(ctx, c, i);
        if (is_script(f->src) && strcmp(f->script, name) == 0) return with_sites(ctx, f);
    }
    return NULL;
}

/* ---- internal queries (diag_view.c) ---- */

static int before(int l1, int c1, int l2, int c2)
{
    return l1 < l2 || (l1 == l2 && c1 < c2);
}

/* The nearest #using_animtree before line:col: a binary search over the
** file's directives (usings[], in source order), so the diagnostics of a
** file with thousands of them cost O(log n) each. */
static const site *using_before(const file_index *f, int line, int col)
{
    size_t lo = 0, hi = f->usings.count; /* the first directive not before line:col */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const site *u = &f->sites.items[f->usings.items[mid]];
        if (before(u->line, u->col, line, col)) lo = mid + 1;
        else hi = mid;
    }
    return lo ? &f->sites.items[f->usings.items[lo - 1]] : NULL;
}

int lookup_using_before(const atrc_ctx *ctx, source_file *src, int line, int col, int *at_line, int *at_col)
{
    file_index *f = file_of_src(ctx, src);
    const site *u = f ? using_before(f, line, col) : NULL;
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

static const site *first_definition_of(lookup_cache *c, file_index *f, const site *later)
{
    if (!f->defs_built) {
        f->defs_built = 1;
        for (size_t i = 0; i < f->sites.count; i++) {
            const site *s = &f->sites.items[i];
            if (s->kind != SITE_FUNCTION) continue;
            char *lower = arena_lower(&c->mem, s->name, strlen(s->name));
            uint32_t h = text_hash_bytes(lower, strlen(lower));
            if (hashtab_find_string(&f->defs, h, s->name, 1, f, def_name_at) != HASHTAB_END) continue;
            hashtab_add(&f->defs, h);
            *VEC_PUSH(f->def_sites) = i;
        }
    }
    char *lower = arena_lower(&c->mem, later->name, strlen(later->name));
    uint32_t h = text_hash_bytes(lower, strlen(lower));
    size_t k = hashtab_find_string(&f->defs, h, later->name, 1, f, def_name_at);
    if (k == HASHTAB_END) return NULL;
    const site *first = &f->sites.items[f->def_sites.items[k]];
    return first != later ? first : NULL;
}

int lookup_first_definition(const atrc_ctx *ctx, source_file *src, int line, int col, int *at_line, int *at_col)
{
    file_index *f = file_of_src(ctx, src);
    if (!f) return 0;
    /* the later definition: the site at line:col (binary search: source order) */
    size_t lo = 0, hi = f->sites.count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (before(f->sites.items[mid].line, f->sites.items[mid].col, line, col)) lo = mid + 1;
        else hi = mid;
    }
    if (lo == f->sites.count || f->sites.items[lo].kind != SITE_FUNCTION || f->sites.items[lo].line != line || f->sites.items[lo].col != col)
        return 0;
    const site *first = first_definition_of(cache_of(ctx), f, &f->sites.items[lo]);
    if (!first) return 0;
    *at_line = first->line;
    *at_col = first->col;
    return 1;
}

/* ---- atrc_lookup ---- */

static void set_where(const atrc_ctx *ctx, source_file *src, int line, int col, int end_col, atrc_location *w)
{
    location_of(ctx, src, line, col, w);
    if (end_col > col) w->end_column = end_col;
}

static const tree_entry *tree_named(const atrc_ctx *ctx, const char *name)
{
    for (int i = 1; name && i <= ctx->tree_count; i++)
        if (ctx->trees[i] && strcmp(ctx->trees[i]->name, name) == 0) return ctx->trees[i];
    return NULL;
}

static void tree_facts(const tree_entry *t, atrc_at *out)
{
    out->tree = t->index;
    out->tree_name = t->name;
    out->tree_file = t->file;
    if (t->built) {
        out->node_count = t->tree.node_count;
        out->node_total = t->tree.node_count + (int)t->pruned_count;
        out->checksum = t->tree.checksum;
    }
}

/* "root/body/idle" as written in the .atr. */
static const char *node_path(lookup_cache *c, const atrc_tree *t, int node)
{
    size_t len = 0;
    int depth = 0;
    for (int n = node; n >= 0; n = t->nodes[n].parent, depth++) len += strlen(atr_node_spelling(t, n)) + 1;
    char *s = arena_alloc(&c->mem, len);
    size_t at = len - 1;
    s[at] = 0;
    for (int n = node; n >= 0; n = t->nodes[n].parent) {
        const char *w = atr_node_spelling(t, n);
        size_t k = strlen(w);
        at -= k;
        memcpy(s + at, w, k);
        if (at) s[--at] = '/';
    }
    (void)depth;
    return s;
}

/* The explain lines that say why the node has its index (atrc_explain's
** "why:" and "pruning:"), joined; NULL when there are none. */
static const char *index_reason(const atrc_ctx *ctx, lookup_cache *c, int64_t value)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = os_memstream_open(&buf, &len);
    if (!f) return NULL;
    uint32_t v = (uint32_t)value;
    atrc_explain_values(ctx, &v, 1, ATRC_FORMAT_TEXT, f, f);
    if (os_memstream_close(f, &buf, &len) != 0 || !buf) return NULL;
    size_t cap = len + 1, n = 0;
    char *out = arena_alloc(&c->mem, cap);
    for (char *line = buf; line && *line;) {
        char *nl = strchr(line, '\n');
        size_t k = nl ? (size_t)(nl - line) : strlen(line);
        while (k && *line == ' ') line++, k--;
        if ((k >= 4 && memcmp(line, "why:", 4) == 0) || (k >= 8 && memcmp(line, "pruning:", 8) == 0)) {
            if (n) out[n++] = '\n';
            memcpy(out + n, line, k);
            n += k;
        }
        line = nl ? nl + 1 : NULL;
    }
    out[n] = 0;
    free(buf);
    return n ? out : NULL;
}

static void node_facts(const atrc_ctx *ctx, lookup_cache *c, const tree_entry *t, int node, atrc_at *out)
{
    tree_facts(t, out);
    out->node = node;
    if (!t->built || node < 0 || node >= t->tree.node_count) return;
    const atrc_node *n = &t->tree.nodes[node];
    out->is_leaf = n->child_count == 0 && node != 0;
    out->looping = atrc_is_looped(&t->tree, node);
    out->parse_flags = n->parse_flags;
    /* a leaf is in the sync group of its parent */
    int holder = n->child_count == 0 && n->parent >= 0 ? n->parent : node;
    out->sync_flags = atr_runtime_flags(&t->tree, holder) & (ATRC_FLAG_LOOPSYNC | ATRC_FLAG_NONLOOPSYNC);
    out->node_path = node_path(c, &t->tree, node);
    out->value = ((int64_t)t->index << 16) | node;
    out->reason = index_reason(ctx, c, out->value);
}

static void clear_at(atrc_at *out)
{
    memset(out, 0, sizeof *out);
    out->tree = out->node = -1;
    out->value = -1;
    out->is_leaf = out->looping = -1;
    out->node_count = out->node_total = -1;
}

static int in_token(int line, int col, int tline, int tcol, int tend)
{
    return line == tline && col >= tcol && col < tend;
}

/* Which builtin list has name (kind), for the game of ctx. */
static const char *builtin_list_of(const atrc_ctx *ctx, lookup_cache *c, const char *name, int method)
{
    const profile_rules *rules = ctx->rules;
    builtin_kind kind = method ? BUILTIN_METHOD : BUILTIN_FUNCTION;
    const char *game = rules->name;
    if (ctx->opts.game_mode != ATRC_GAME_SP && builtin_find(rules->builtins_mp, kind, name))
        return arena_printf(&c->mem, "stock %s multiplayer", game);
    if (ctx->opts.game_mode != ATRC_GAME_MP && builtin_find(rules->builtins_sp, kind, name))
        return arena_printf(&c->mem, "stock %s single player", game);
    for (size_t i = 0; i < ctx->builtins.count; i++) {
        const builtin_extension *e = ctx->builtins.items[i];
        if (e->add && builtin_find(e->add, kind, name))
            return e->game ? arena_printf(&c->mem, "extension %s", e->name) : arena_printf(&c->mem, "builtins %s", e->name);
    }
    return NULL;
}

/* The function a call names, from the file it is in: its own, its includes', or path's. */
/* The definition of name in one file, or NULL. */
static const site *defined_in(const file_index *f, const char *name)
{
    for (size_t i = 0; i < f->sites.count; i++)
        if (f->sites.items[i].kind == SITE_FUNCTION && text_equal_nocase(f->sites.items[i].name, name)) return &f->sites.items[i];
    return NULL;
}

/* The function a call names, from the file it is in: path's, else its own,
** then its includes' in #include order. */
static const site *function_site(const atrc_ctx *ctx, file_index *f, const char *name, const char *path,
                                 file_index **in)
{
    if (path) {
        file_index *p = script_named(ctx, path);
        const site *s = p ? defined_in(p, name) : NULL;
        if (s) *in = p;
        return s;
    }
    const site *s = defined_in(f, name);
    if (s) {
        *in = f;
        return s;
    }
    for (size_t i = 0; i < f->sites.count; i++)
        if (f->sites.items[i].kind == SITE_PATH && f->sites.items[i].include) {
            file_index *inc = script_named(ctx, f->sites.items[i].name);
            if (inc && inc != f && (s = defined_in(inc, name)) != NULL) {
                *in = inc;
                return s;
            }
        }
    return NULL;
}

static int lookup_script(const atrc_ctx *ctx, lookup_cache *c, file_index *f, int line, int col, atrc_at *out)
{
    for (size_t i = 0; i < f->refs.count; i++) {
        const anim_ref *r = f->refs.items[i];
        if (r->line != line) continue;
        atrc_location w;
        location_of(ctx, f->src, r->line, r->col, &w);
        if (!(line == w.line && col >= w.column && col < w.end_column)) continue;
        out->where = w;
        out->value = r->value;
        if (r->kind == REF_ANIMTREE) {
            out->kind = ATRC_AT_ANIMTREE;
            out->name = "#animtree";
            if (r->tree) tree_facts(r->tree, out);
            return 1;
        }
        out->kind = ATRC_AT_ANIM;
        out->name = r->spelling ? r->spelling : r->name;
        if (r->tree) {
            tree_facts(r->tree, out);
            if (r->value >= 0) node_facts(ctx, c, r->tree, (int)(r->value & 0xffff), out);
        }
        return 1;
    }
    for (size_t i = 0; i < f->sites.count; i++) {
        const site *s = &f->sites.items[i];
        if (!in_token(line, col, s->line, s->col, s->end_col)) continue;
        set_where(ctx, f->src, s->line, s->col, s->end_col, &out->where);
        out->name = s->name;
        switch (s->kind) {
        case SITE_FUNCTION:
            out->kind = ATRC_AT_FUNCTION;
            out->signature = s->signature;
            return 1;
        case SITE_CALL: {
            out->kind = ATRC_AT_CALL;
            out->path = s->path;
            file_index *in = NULL;
            const site *def = function_site(ctx, f, s->name, s->path, &in);
            if (def) out->signature = def->signature;
            else if (!s->path) {
                char *lower = arena_lower(&c->mem, s->name, strlen(s->name));
                out->builtin_list = builtin_list_of(ctx, c, lower, 0);
                if (!out->builtin_list) out->builtin_list = builtin_list_of(ctx, c, lower, 1);
            }
            return 1;
        }
        case SITE_PATH:
            out->kind = ATRC_AT_INCLUDE;
            out->path = s->name;
            return 1;
        case SITE_USING: {
            out->kind = ATRC_AT_USING_ANIMTREE;
            const tree_entry *t = tree_named(ctx, s->name);
            if (t) {
                tree_facts(t, out);
                out->value = t->index;
            }
            return 1;
        }
        case SITE_ANIMTREE:
            break;
        }
    }
    return 0;
}

static const tree_entry *tree_of_atr(const atrc_ctx *ctx, const source_file *src)
{
    for (int i = 1; i <= ctx->tree_count; i++)
        if (ctx->trees[i] && ctx->trees[i]->atr_src == src) return ctx->trees[i];
    return NULL;
}

static int by_order(const void *a, const void *b)
{
    const atr_node *x = *(atr_node *const *)a, *y = *(atr_node *const *)b;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* Every node the .atr declares, in declaration order, pruned or not (the
** file parsed again with nothing pruned, once); each node's `index` holds
** its depth (0: top level).  NULL count when it does not parse. */
static void full_atr(const atrc_ctx *ctx, lookup_cache *c, file_index *f)
{
    if (f->decl_parsed) return;
    f->decl_parsed = 1;
    int reloaded = f->src->released && source_reload(f->src) == 0;
    diag_list quiet;
    diag_init(&quiet);
    quiet.no_warnings = 1;
    atr_file *all = f->src->data ? atr_parse(f->src, NULL, 1, ctx->rules, &c->mem, &quiet) : NULL;
    diag_free(&quiet);
    if (reloaded) source_release(f->src);
    if (!all) return;
    VEC(atr_node *) stack = {0};
    *VEC_PUSH(stack) = all->root;
    while (stack.count) {
        atr_node *n = stack.items[--stack.count];
        for (atr_node *k = n->first; k; k = k->next) *VEC_PUSH(stack) = k;
        if (n != all->root && !n->placeholder) *VEC_PUSH(f->decl) = n;
    }
    VEC_FREE(stack);
    qsort(f->decl.items, f->decl.count, sizeof *f->decl.items, by_order);
    /* a parent is declared before its children */
    for (size_t i = 0; i < f->decl.count; i++) {
        atr_node *n = f->decl.items[i];
        n->index = n->parent && n->parent->parent ? n->parent->index + 1 : 0;
    }
}

/* "root/group/name" of a declared node. */
static const char *declared_path(lookup_cache *c, const atr_node *n)
{
    size_t len = 0;
    for (const atr_node *p = n; p; p = p->parent) len += strlen(p->spelling) + 1;
    char *s = arena_alloc(&c->mem, len);
    size_t at = len - 1;
    s[at] = 0;
    for (const atr_node *p = n; p; p = p->parent) {
        size_t k = strlen(p->spelling);
        at -= k;
        memcpy(s + at, p->spelling, k);
        if (at) s[--at] = '/';
    }
    return s;
}

static int lookup_atr(const atrc_ctx *ctx, lookup_cache *c, file_index *f, int line, int col, atrc_at *out)
{
    const tree_entry *t = tree_of_atr(ctx, f->src);
    if (!t || !t->built) return 0;
    for (int i = 1; i < t->tree.node_count; i++) {
        const atrc_node *n = &t->tree.nodes[i];
        if (n->placeholder || n->line != line) continue;
        int end = n->column + (int)strlen(atr_node_spelling(&t->tree, i));
        if (!in_token(line, col, n->line, n->column, end)) continue;
        out->kind = ATRC_AT_NODE;
        set_where(ctx, f->src, n->line, n->column, end, &out->where);
        out->name = atr_node_spelling(&t->tree, i);
        node_facts(ctx, c, t, i, out);
        return 1;
    }
    /* a node pruning removed: no index, no value, no references */
    full_atr(ctx, c, f);
    for (size_t i = 0; i < f->decl.count; i++) {
        const atr_node *n = f->decl.items[i];
        int end = n->col + (int)strlen(n->spelling);
        if (!in_token(line, col, n->line, n->col, end)) continue;
        out->kind = ATRC_AT_NODE;
        set_where(ctx, f->src, n->line, n->col, end, &out->where);
        out->name = n->spelling;
        tree_facts(t, out);
        out->node = -1;
        out->is_leaf = !n->is_container;
        out->parse_flags = n->flags;
        out->node_path = declared_path(c, n);
        out->reason = "pruned: no script or engine reference names it or a node below it, so the tree holds no index for it";
        return 1;
    }
    return 0;
}

int atrc_lookup(atrc_ctx *ctx, const char *file, int line, int column, atrc_at *out)
{
    clear_at(out);
    if (!ctx) return 0;
    file_index *f = file_named(ctx, file);
    if (!f) return 0;
    lookup_cache *c = cache_of(ctx);
    int found = is_script(f->src) ? lookup_script(ctx, c, f, line, column, out)
                                  : lookup_atr(ctx, c, f, line, column, out);
    if (!found) clear_at(out);
    return found;
}

/* ---- definition and references ---- */

static int node_location(const atrc_ctx *ctx, const tree_entry *t, int node, atrc_location *out)
{
    if (!t || !t->built || !t->atr_src || node < 0 || node >= t->tree.node_count) return 0;
    int line, col;
    atr_node_position(&t->tree, node, &line, &col);
    location_of(ctx, t->atr_src, line, col, out);
    return 1;
}

int atrc_definition(atrc_ctx *ctx, const atrc_at *at, atrc_location *out)
{
    memset(out, 0, sizeof *out);
    if (!ctx || !at) return 0;
    switch (at->kind) {
    case ATRC_AT_ANIM:
    case ATRC_AT_NODE:
        return node_location(ctx, at->tree > 0 ? ctx->trees[at->tree] : NULL, at->node, out);
    case ATRC_AT_ANIMTREE:
    case ATRC_AT_USING_ANIMTREE: {
        const tree_entry *t = at->tree > 0 ? ctx->trees[at->tree] : NULL;
        if (!t || !t->atr_src) return 0;
        location_of(ctx, t->atr_src, 1, 1, out);
        return 1;
    }
    case ATRC_AT_INCLUDE: {
        file_index *f = at->path ? script_named(ctx, at->path) : NULL;
        if (!f) return 0;
        location_of(ctx, f->src, 1, 1, out);
        return 1;
    }
    case ATRC_AT_CALL:
    case ATRC_AT_FUNCTION: {
        file_index *f = file_named(ctx, at->where.file), *in = NULL;
        const site *def = f ? function_site(ctx, f, at->name, at->path, &in) : NULL;
        if (!def) return 0;
        set_where(ctx, in->src, def->line, def->col, def->end_col, out);
        return 1;
    }
    case ATRC_AT_NONE:
        break;
    }
    return 0;
}

size_t atrc_references(const atrc_ctx *ctx, const atrc_at *at, atrc_location *out, size_t max)
{
    if (!ctx || !at || (at->kind != ATRC_AT_ANIM && at->kind != ATRC_AT_NODE) || at->tree <= 0 || at->node < 0)
        return 0;
    const tree_entry *t = ctx->trees[at->tree];
    int64_t value = ((int64_t)at->tree << 16) | at->node;
    size_t n = 0;
    for (const anim_ref *r = ctx->refs; r; r = r->next) {
        if (r->tree != t || r->kind != REF_ANIM || r->value != value || !r->src) continue;
        if (n < max) location_of(ctx, r->src, r->line, r->col, &out[n]);
        n++;
    }
    return n;
}

/* ---- completion ---- */

static void add_completion(lookup_cache *c, atrc_completion_kind kind, const char *label, const char *detail)
{
    atrc_completion *x = VEC_PUSH(c->completions);
    x->kind = kind;
    x->label = label;
    x->detail = detail;
}

static void complete_nodes(lookup_cache *c, const tree_entry *t)
{
    if (!t || !t->built) return;
    for (int i = 1; i < t->tree.node_count; i++) {
        const atrc_node *n = &t->tree.nodes[i];
        if (n->placeholder) continue;
        add_completion(c, n->child_count ? ATRC_COMPLETE_GROUP : ATRC_COMPLETE_LEAF, atr_node_spelling(&t->tree, i),
                       arena_printf(&c->mem, "%s[%d] node %d", t->name, t->index, i));
    }
}

static void complete_functions(lookup_cache *c, const file_index *f)
{
    for (size_t i = 0; i < f->sites.count; i++)
        if (f->sites.items[i].kind == SITE_FUNCTION)
            add_completion(c, ATRC_COMPLETE_FUNCTION, f->sites.items[i].name,
                           arena_printf(&c->mem, "%s:%d", f->src->path, f->sites.items[i].line));
}

static void complete_builtins(lookup_cache *c, const builtin_list *l, const char *detail)
{
    for (size_t i = 0; l && i < l->count; i++)
        add_completion(c, l->entries[i].kind == BUILTIN_METHOD ? ATRC_COMPLETE_BUILTIN_METHOD : ATRC_COMPLETE_BUILTIN_FUNCTION,
                       l->entries[i].name, detail);
}

/* Does text[0, end) end with `directive` and a '(' (spaces allowed between)? */
static int directive_before(const char *text, size_t end, const char *directive)
{
    while (end && (text[end - 1] == ' ' || text[end - 1] == '\t')) end--;
    if (!end || text[end - 1] != '(') return 0;
    end--;
    while (end && (text[end - 1] == ' ' || text[end - 1] == '\t')) end--;
    size_t n = strlen(directive);
    return end >= n && memcmp(text + end - n, directive, n) == 0;
}

const atrc_completion *atrc_complete(atrc_ctx *ctx, const char *file, int line, int column, size_t *count,
                                     int *start_column)
{
    *count = 0;
    if (start_column) *start_column = column;
    file_index *f = ctx ? file_named(ctx, file) : NULL;
    if (!f || !is_script(f->src)) return NULL;
    lookup_cache *c = cache_of(ctx);
    c->completions.count = 0;
    const char *text;
    int reloaded = f->src->released && source_reload(f->src) == 0;
    long n = source_line(f->src, line, &text);
    if (n < 0) {
        if (reloaded) source_release(f->src);
        return NULL;
    }
    long at = column < 1 ? 0 : column - 1 > n ? n : column - 1;
    long w = at;
    while (w > 0 && (text[w - 1] == '_' || (text[w - 1] >= '0' && text[w - 1] <= '9') ||
                     ((text[w - 1] | 0x20) >= 'a' && (text[w - 1] | 0x20) <= 'z')))
        w--;
    if (start_column) *start_column = (int)w + 1;
    if (w > 0 && text[w - 1] == '%') {
        const site *u = using_before(f, line, column);
        complete_nodes(c, u ? tree_named(ctx, u->name) : NULL);
    } else if (w > 0 && text[w - 1] == '"' && directive_before(text, (size_t)w - 1, "#using_animtree")) {
        const char **names;
        size_t k = gamefs_list(&ctx->fs, "animtrees", ".atr", &names);
        for (size_t i = 0; i < k; i++) add_completion(c, ATRC_COMPLETE_TREE, names[i], "animtrees/");
    } else if (w >= 2 && text[w - 1] == ':' && text[w - 2] == ':') {
        long p = w - 2;
        while (p > 0 && (text[p - 1] == '\\' || text[p - 1] == '/' || text[p - 1] == '_' ||
                         (text[p - 1] >= '0' && text[p - 1] <= '9') || ((text[p - 1] | 0x20) >= 'a' && (text[p - 1] | 0x20) <= 'z')))
            p--;
        if (p < w - 2) {
            file_index *s = script_named(ctx, canonical_script(&c->mem, text + p, (size_t)(w - 2 - p)));
            if (s) complete_functions(c, s);
        } else {
            complete_functions(c, f);
        }
    } else {
        complete_functions(c, f);
        for (size_t i = 0; i < f->sites.count; i++)
            if (f->sites.items[i].kind == SITE_PATH && f->sites.items[i].include) {
                file_index *inc = script_named(ctx, f->sites.items[i].name);
                if (inc && inc != f) complete_functions(c, inc);
            }
        const profile_rules *rules = ctx->rules;
        if (ctx->opts.game_mode != ATRC_GAME_SP)
            complete_builtins(c, rules->builtins_mp, arena_printf(&c->mem, "stock %s multiplayer", rules->name));
        if (ctx->opts.game_mode != ATRC_GAME_MP)
            complete_builtins(c, rules->builtins_sp, arena_printf(&c->mem, "stock %s single player", rules->name));
        for (size_t i = 0; i < ctx->builtins.count; i++) {
            const builtin_extension *e = ctx->builtins.items[i];
            complete_builtins(c, e->add, e->game ? arena_printf(&c->mem, "extension %s", e->name)
                                                 : arena_printf(&c->mem, "builtins %s", e->name));
        }
    }
    if (reloaded) source_release(f->src);
    *count = c->completions.count;
    return c->completions.items;
}

/* ---- document symbols ---- */

const atrc_symbol *atrc_symbols(atrc_ctx *ctx, const char *file, size_t *count)
{
    *count = 0;
    file_index *f = ctx ? file_named(ctx, file) : NULL;
    if (!f) return NULL;
    lookup_cache *c = cache_of(ctx);
    c->symbols.count = 0;
    if (is_script(f->src)) {
        for (size_t i = 0; i < f->sites.count; i++) {
            const site *s = &f->sites.items[i];
            if (s->kind != SITE_FUNCTION) continue;
            atrc_symbol *y = VEC_PUSH(c->symbols);
            memset(y, 0, sizeof *y);
            y->name = s->name;
            y->is_function = 1;
            set_where(ctx, f->src, s->line, s->col, s->end_col, &y->where);
            y->extent = y->where;
            if (s->body_end_line) {
                y->extent.end_line = s->body_end_line;
                y->extent.end_column = s->body_end_col;
            }
        }
    } else {
        full_atr(ctx, c, f);
        for (size_t i = 0; i < f->decl.count; i++) {
            const atr_node *n = f->decl.items[i];
            atrc_symbol *y = VEC_PUSH(c->symbols);
            memset(y, 0, sizeof *y);
            y->name = n->spelling;
            y->depth = n->index;
            y->is_leaf = !n->is_container;
            set_where(ctx, f->src, n->line, n->col, n->col + (int)strlen(n->spelling), &y->where);
            y->extent = y->where;
        }
    }
    *count = c->symbols.count;
    return c->symbols.items;
}

/* ---- files and their text ---- */

size_t atrc_file_count(const atrc_ctx *ctx)
{
    return ctx ? ctx->sources.count : 0;
}

const char *atrc_file_name(const atrc_ctx *ctx, size_t i)
{
    return ctx && i < ctx->sources.count ? ctx->sources.items[i]->path : NULL;
}

const char *atrc_source_text(atrc_ctx *ctx, const char *file, size_t *len)
{
    file_index *f = ctx ? file_named(ctx, file) : NULL;
    if (!f || (f->src->released && source_reload(f->src) != 0) || !f->src->data) return NULL;
    *len = f->src->len;
    return f->src->data;
}
