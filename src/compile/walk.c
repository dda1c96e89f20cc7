/* The load walk (load-order.md sections 2-5).  load(F) = compile F entirely
** (its #using_animtree directives register in place), then for each child of
** F in order — its #includes in directive order, then its `path::func`
** targets in emission order — load(child) unless a file of that canonical
** name was already started.  A depth-first pre-order walk, kept on an
** explicit stack so that a long chain of files cannot exhaust the C stack.
** After a file's children, its references are linked (grammar.md 3.5). */
#include "compile/walk.h"
#include "compile/driver.h"
#include "check/dev_statement.h"
#include "compile/registry.h"
#include "compile/frontend.h"
#include "base/outbuf.h"
#include "tree/playeranim.h"
#include "game/profile.h"
#include "base/suggest.h"
#include "base/text.h"
#include "base/vec.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void walk_free(walk_state *w)
{
    for (size_t i = 0; i < w->scripts.count; i++) {
        walk_script *s = w->scripts.items[i];
        script_refs_free(&s->refs);
        if (s->has_checked) check_result_free(&s->checked);
        hashtab_free(&s->func_index);
        VEC_FREE(s->trees);
        VEC_FREE(s->includes);
        free(s);
    }
    VEC_FREE(w->scripts);
    hashtab_free(&w->by_name);
    free(w->ahead); /* the records not taken are the frontend's */
    for (size_t i = 0; i < w->defs.count; i++) VEC_FREE(w->defs.items[i].scripts);
    VEC_FREE(w->defs);
    hashtab_free(&w->def_index);
    free(w);
}

static walk_state *walk_get(atrc_ctx *ctx)
{
    if (!ctx->walk) ctx->walk = xcalloc(1, sizeof *ctx->walk);
    return ctx->walk;
}

static const char *script_name_at(const void *scripts, size_t i)
{
    return ((walk_script *const *)scripts)[i]->name;
}

static walk_script *find_script(const walk_state *w, const char *name)
{
    size_t i = hashtab_find_string(&w->by_name, text_hash(0, name, 0), name, 0, w->scripts.items, script_name_at);
    return i == HASHTAB_END ? NULL : w->scripts.items[i];
}

static void add_script(walk_state *w, walk_script *s)
{
    hashtab_add(&w->by_name, text_hash(0, s->name, 0));
    *VEC_PUSH(w->scripts) = s;
}

/* ---- functions a file defines ---- */

static const script_func *find_def(const walk_script *s, const char *name);

/* Only a name's first definition is ever looked up (find_def): a later one
** (an error the checks report) is linked into no chain. */
static void index_functions(walk_script *s)
{
    hashtab_reserve(&s->func_index, s->refs.funcs.count);
    for (size_t i = 0; i < s->refs.funcs.count; i++) {
        if (find_def(s, s->refs.funcs.items[i].name)) hashtab_add_unlinked(&s->func_index);
        else hashtab_add(&s->func_index, text_hash(0, s->refs.funcs.items[i].name, 0));
    }
}

/* Which loaded scripts define each function name: most failed lookups are
** builtin calls, answered here at once. */
static const char *definers_name_at(const void *defs, size_t i)
{
    return ((const definers *)defs)[i].name;
}

static definers *find_definers(const walk_state *w, const char *name, uint32_t h)
{
    size_t i = hashtab_find_string(&w->def_index, h, name, 0, w->defs.items, definers_name_at);
    return i == HASHTAB_END ? NULL : &w->defs.items[i];
}

static void add_definer(walk_state *w, const char *name, walk_script *s)
{
    uint32_t h = text_hash(0, name, 0);
    definers *d = find_definers(w, name, h);
    if (!d) {
        hashtab_add(&w->def_index, h);
        d = VEC_PUSH(w->defs);
        *d = (definers){name, {NULL, 0, 0}};
    }
    if (d->scripts.count && d->scripts.items[d->scripts.count - 1] == s) return;
    *VEC_PUSH(d->scripts) = s;
}

typedef enum { FUNC_NONE = 0, FUNC_NORMAL, FUNC_DEVELOPER } func_kind;

/* The first definition of `name` in s (the only one indexed), or NULL. */
static const char *func_name_at(const void *funcs, size_t i)
{
    return ((const script_func *)funcs)[i].name;
}

/* find_def with name's hash (text_hash(0, name, 0)) given: a name looked up
** in several files is hashed once. */
static const script_func *find_def_hashed(const walk_script *s, const char *name, uint32_t h)
{
    size_t i = hashtab_find_string(&s->func_index, h, name, 0, s->refs.funcs.items, func_name_at);
    return i == HASHTAB_END ? NULL : &s->refs.funcs.items[i];
}

static const script_func *find_def(const walk_script *s, const char *name)
{
    return find_def_hashed(s, name, text_hash(0, name, 0));
}

static func_kind kind_of(const script_func *f)
{
    return !f ? FUNC_NONE : f->developer ? FUNC_DEVELOPER : FUNC_NORMAL;
}

static func_kind own_function(const walk_script *s, const char *name)
{
    return kind_of(find_def(s, name));
}

static int is_direct_include(const walk_script *s, const walk_script *t)
{
    size_t lo = 0, hi = s->includes.count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->includes.items[mid] == t) return 1;
        if ((uintptr_t)s->includes.items[mid] < (uintptr_t)t) lo = mid + 1;
        else hi = mid;
    }
    return 0;
}

/* The file's namespace: its own functions, then those its #includes define,
** which the compiler copies into it (load-order.md 3.4d).  Not transitive: an
** include's own includes are not copied (two includes sharing an include
** would otherwise clash on every function of it). */
static func_kind namespace_function(walk_state *w, walk_script *s, const char *name)
{
    func_kind k = own_function(s, name);
    if (k != FUNC_NONE) return k;
    const definers *d = find_definers(w, name, text_hash(0, name, 0));
    if (!d) return FUNC_NONE;
    /* Whichever list is shorter: the scripts defining the name, or the includes. */
    size_t n = d->scripts.count < s->includes.count ? d->scripts.count : s->includes.count;
    for (size_t i = 0; i < n; i++) {
        walk_script *t = d->scripts.count < s->includes.count ? d->scripts.items[i] : s->includes.items[i];
        if (d->scripts.count < s->includes.count && !is_direct_include(s, t)) continue;
        func_kind tk = own_function(t, name);
        if (tk == FUNC_NORMAL) return tk;
        if (tk == FUNC_DEVELOPER) k = tk;
    }
    return k;
}

/* ---- loading ---- */

static void note_trees(atrc_ctx *ctx, walk_script *s, int first_new)
{
    for (size_t i = 0; i < s->refs.trees.count; i++) {
        const char *name = s->refs.trees.items[i].name;
        for (int k = 1; k <= ctx->tree_count; k++) {
            tree_entry *t = ctx->trees[k];
            if (strcmp(t->name, name) != 0) continue;
            size_t j = 0;
            while (j < s->trees.count && s->trees.items[j] != t) j++;
            if (j == s->trees.count) {
                *VEC_PUSH(s->trees) = t;
                if (t->index > first_new) s->new_trees++;
            }
            break;
        }
    }
}

static int followed(const atrc_ctx *ctx, const script_ref *r)
{
    return (!r->developer && !r->dropped) || ctx->opts.developer_script;
}

/* The references of s inside a developer builtin statement the game drops
** (dev_statement.h): a name s defines is its function, not the builtin. */
static void mark_dropped(atrc_ctx *ctx, walk_script *s)
{
    for (size_t i = 0; i < s->refs.refs.count; i++) {
        script_ref *r = &s->refs.refs.items[i];
        r->dropped = r->stmt_call && own_function(s, r->stmt_call) != FUNC_NORMAL &&
                     dev_statement_dropped(ctx->rules, &ctx->builtins, &ctx->opts, r->stmt_call, r->stmt_method);
    }
}

/* Parsing ahead: when a script has compiled, the files it loads next (its
** #includes, then its path::func targets, the walk's own order) are read
** and handed to the worker threads, a bounded few at a time, while the walk
** goes on.  A file that cannot be read is left for start_script to report. */
static size_t ahead_limit(const atrc_ctx *ctx)
{
    return ctx->opts.jobs > 1 ? 16 * (size_t)ctx->opts.jobs : 0;
}

static walk_ahead *find_ahead(walk_state *w, const char *name)
{
    for (size_t i = 0; i < w->ahead_count; i++)
        if (strcmp(w->ahead[i].name, name) == 0) return &w->ahead[i];
    return NULL;
}

static void parse_ahead(atrc_ctx *ctx, const walk_script *s)
{
    walk_state *w = ctx->walk;
    size_t limit = ahead_limit(ctx);
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < s->refs.refs.count && w->ahead_count < limit; i++) {
            const script_ref *r = &s->refs.refs.items[i];
            if (r->kind == SCRIPT_REF_LOCAL || !followed(ctx, r)) continue;
            if ((pass == 0) != (r->kind == SCRIPT_REF_INCLUDE)) continue;
            if (find_script(w, r->file) || find_ahead(w, r->file)) continue;
            const char *err = NULL;
            source_file *src = gamefs_open(&ctx->fs, gamefs_script_file(&ctx->fs, r->file), &err);
            if (!src) continue;
            if (!w->ahead) w->ahead = xmalloc(array_size(limit, sizeof *w->ahead));
            w->ahead[w->ahead_count++] = (walk_ahead){arena_strdup(&ctx->mem, r->file), src,
                                                      ctx_prefetch_source(ctx, src)};
        }
    }
}

/* Starts script `name` (canonical): records it, then reads and compiles it
** when a game directory holds it.  NULL when it was started before. */
static walk_script *start_script(atrc_ctx *ctx, const char *name, walk_script *from, int line,
                                 int col)
{
    walk_state *w = walk_get(ctx);
    if (find_script(w, name)) return NULL;
    walk_script *s = xcalloc(1, sizeof *s);
    s->name = arena_strdup(&ctx->mem, name);
    s->from = from;
    s->ref_line = line;
    s->ref_col = col;
    s->depth = from ? from->depth + 1 : 0;
    script_refs_init(&s->refs);
    add_script(w, s);

    const char *err = NULL;
    struct fe_request *ahead = NULL;
    source_file *src;
    walk_ahead *a = find_ahead(w, name);
    if (a) {
        src = a->src;
        ahead = a->req;
        *a = w->ahead[--w->ahead_count];
    } else {
        src = gamefs_open(&ctx->fs, gamefs_script_file(&ctx->fs, name), &err);
    }
    if (!src) {
        if (err) {
            s->unreadable = 1;
            diag_add(&ctx->diags, DIAG_ERROR, from ? from->src : NULL, line, col,
                     "cannot read script '%s': %s", name, err);
        }
        return s;
    }
    s->src = src;
    s->file = src->path;
    int before = ctx->tree_count;
    memset(&s->checked, 0, sizeof s->checked);
    if (ahead) ctx_compile_prefetched(ctx, ahead, &s->refs, &s->checked);
    else ctx_compile_source(ctx, src, &s->refs, &s->checked);
    s->has_checked = !ctx->opts.syntax_only;
    index_functions(s);
    mark_dropped(ctx, s);
    for (size_t i = 0; i < s->refs.funcs.count; i++) add_definer(w, s->refs.funcs.items[i].name, s);
    note_trees(ctx, s, before);
    parse_ahead(ctx, s);
    return s;
}

/* ---- what messages suggest ---- */

/* The nearest script name to a missing one (canonical "maps/mp/_utilty"):
** the scripts of its directory on the search path; looked for once per
** missing script, for at most SUGGEST_MAX_QUERIES of them. */
static const char *missing_suggestion(atrc_ctx *ctx, walk_script *target)
{
    walk_state *w = ctx->walk;
    if (target->suggested) return target->suggestion;
    target->suggested = 1;
    if (w->missing_suggestions >= SUGGEST_MAX_QUERIES) return NULL;
    w->missing_suggestions++;
    const char *slash = strrchr(target->name, '/');
    size_t dir_len = slash ? (size_t)(slash - target->name) : 0;
    const char *base = slash ? slash + 1 : target->name;
    suggest q;
    suggest_init(&q, base, strlen(base), 1);
    gamefs_list_dir(&ctx->fs, arena_strndup(&ctx->mem, target->name, dir_len), ".gsc", suggest_add_listed, &q);
    if (q.count)
        target->suggestion = arena_printf(&ctx->mem, "%.*s%s%.*s", (int)dir_len, target->name, slash ? "/" : "",
                                          (int)q.best[0].len, q.best[0].name);
    return target->suggestion;
}

/* Offers the normal functions script t defines (first definitions), each
** with t as its data. */
static void suggest_functions_of(suggest *q, const walk_script *t)
{
    for (size_t i = 0; i < t->refs.funcs.count; i++) {
        const script_func *f = &t->refs.funcs.items[i];
        if (!f->developer && find_def(t, f->name) == f) suggest_add(q, f->spelling, strlen(f->spelling), t);
    }
}

/* The loaded #include of t after reference *at (directive order), or NULL. */
static walk_script *next_include(atrc_ctx *ctx, const walk_script *t, size_t *at)
{
    while (*at < t->refs.refs.count) {
        const script_ref *r = &t->refs.refs.items[(*at)++];
        if (r->kind != SCRIPT_REF_INCLUDE || !followed(ctx, r)) continue;
        walk_script *inc = find_script(ctx->walk, r->file);
        if (inc && inc->src && inc != t) return inc;
    }
    return NULL;
}

/* A suggestion already made while linking one file: for `name` in the
** namespace of `in`. */
typedef struct hint {
    const walk_script *in;
    check_ref_kind kind;
    const char *name, *text;
} hint;

typedef struct hint_cache {
    VEC(hint) hints;
    hashtab index;
} hint_cache;

/* Hint i is for the namespace, kind and name (any case) of hint `want`. */
static int hint_matches(const void *hints, size_t i, const void *want)
{
    const hint *c = &((const hint *)hints)[i], *w = want;
    return c->in == w->in && c->kind == w->kind && text_equal_nocase(c->name, w->name);
}

static void hint_cache_free(hint_cache *c)
{
    VEC_FREE(c->hints);
    hashtab_free(&c->index);
}

/* The functions of t's namespace (its own, then its #includes in directive
** order) nearest to `name`, as check_ref.suggestion text, or NULL; with
** `kind`, the builtins too.  Once per name and namespace in a file's link
** (cache), for at most SUGGEST_MAX_QUERIES of them. */
static const char *namespace_suggestion(atrc_ctx *ctx, hint_cache *cache, walk_script *here,
                                        walk_script *t, const char *name, check_ref_kind kind)
{
    uint32_t h = text_hash(0, name, 1);
    const hint want = {t, kind, name, NULL};
    size_t known = hashtab_find(&cache->index, h, cache->hints.items, &want, hint_matches);
    if (known != HASHTAB_END) return cache->hints.items[known].text;
    hint *x = VEC_PUSH(cache->hints);
    hashtab_add(&cache->index, h);
    *x = want;
    if (here->suggest_queries >= SUGGEST_MAX_QUERIES) return NULL;
    here->suggest_queries++;
    suggest q, b;
    suggest_init(&q, name, strlen(name), 1);
    suggest_functions_of(&q, t);
    size_t at = 0;
    for (const walk_script *inc; (inc = next_include(ctx, t, &at)) != NULL;) suggest_functions_of(&q, inc);
    suggest_init(&b, name, strlen(name), 1);
    check_suggest_builtins(&b, ctx->rules, &ctx->builtins, ctx->opts.game_mode, kind);
    if (q.count && (!b.count || q.best[0].dist <= b.best[0].dist)) {
        const walk_script *in = q.best[0].data;
        const script_func *f = NULL;
        for (size_t i = 0; i < in->refs.funcs.count && !f; i++)
            if (in->refs.funcs.items[i].spelling == q.best[0].name) f = &in->refs.funcs.items[i];
        if (in == here) x->text = arena_printf(&ctx->mem, "'%s' (line %d)", q.best[0].name, f ? f->line : 0);
        else x->text = arena_printf(&ctx->mem, "'%s' (%s:%d)", q.best[0].name, in->file, f ? f->line : 0);
    } else if (b.count) {
        x->text = check_builtin_suggestion(&ctx->mem, b.best[0].name, kind);
    }
    return x->text;
}

/* Where a developer function `name` of t's namespace is defined ("line N"
** in `here`, else "FILE:N"), or NULL. */
static const char *developer_where(atrc_ctx *ctx, const walk_script *here, walk_script *t, const char *name)
{
    const walk_script *in = t;
    const script_func *f = find_def(t, name);
    size_t at = 0;
    while ((!f || !f->developer) && (in = next_include(ctx, t, &at)) != NULL) f = find_def(in, name);
    if (!f || !f->developer) return NULL;
    if (in == here) return arena_printf(&ctx->mem, "line %d", f->line);
    return arena_printf(&ctx->mem, "%s:%d", in->file, f->line);
}

static void report_missing(atrc_ctx *ctx, walk_script *s, walk_script *target, const script_ref *r,
                           unsigned gen)
{
    if (target->unreadable || target->missing_mark == gen) return;
    target->missing_mark = gen;
    const char *near = missing_suggestion(ctx, target);
    diag_add(&ctx->diags, DIAG_ERROR, s->src, r->line, r->col, "Could not find script '%s'%s%s%s",
             target->name, near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
}

/* A reference that the load walk links (a `path::func`, or a name only a
** developer function defines): in t's namespace, func kind k. */
static void report_function(atrc_ctx *ctx, hint_cache *cache, walk_script *s, const script_ref *r, walk_script *t,
                            func_kind k)
{
    if (k == FUNC_NORMAL) return;
    if (k == FUNC_DEVELOPER && ctx->opts.developer_script) {
        if (!r->developer)
            diag_add(&ctx->diags, DIAG_ERROR, s->src, r->line, r->col, "%s",
                     ctx->rules->dev_function_ref);
        return;
    }
    check_ref ref = {r->func, NULL, r->line, r->col, CHECK_REF_SCRIPT, 1, .spelling = r->func_spelling};
    if (k == FUNC_DEVELOPER) ref.dev_where = developer_where(ctx, s, t, r->func);
    if (t == s) {
        check_report_unknown(&ctx->diags, s->src, ctx->rules, &ctx->opts, &ref);
        return;
    }
    /* path::func: the file exists and lacks the function. */
    if (ref.dev_where) {
        check_report_unknown(&ctx->diags, s->src, ctx->rules, &ctx->opts, &ref);
        return;
    }
    const char *near = namespace_suggestion(ctx, cache, s, t, r->func_spelling, CHECK_REF_SCRIPT);
    diag_add(&ctx->diags, DIAG_ERROR, s->src, r->line, r->col,
             "unknown function '%s': '%s' (%s) does not define it%s%s%s%s", r->func_spelling, t->name, t->file,
             t->includes.count ? " nor do its #includes" : "", near ? "; did you mean " : "", near ? near : "",
             near ? "?" : "");
}

static int visible(func_kind k, int dev_script)
{
    return k == FUNC_NORMAL || (k == FUNC_DEVELOPER && dev_script);
}

/* An included file's functions are copied into the includer's namespace: one
** the includer defines itself clashes (grammar.md 3.2), at the #include. */
static int compare_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* Walks the shorter of the two function lists (a file included by thousands
** costs each includer only its own functions), reporting in the included
** file's order either way. */
static void include_clashes(atrc_ctx *ctx, walk_script *s, walk_script *inc, const script_ref *r)
{
    int dev_script = ctx->opts.developer_script;
    VEC(size_t) clash = {0};
    if (inc->refs.funcs.count <= s->refs.funcs.count) {
        for (size_t i = 0; i < inc->refs.funcs.count; i++) {
            const script_func *f = &inc->refs.funcs.items[i];
            if (f->developer && !dev_script) continue;
            uint32_t h = text_hash(0, f->name, 0); /* each name hashed once for both files */
            if (find_def_hashed(inc, f->name, h) != f) continue; /* a second definition there: its own error */
            if (visible(kind_of(find_def_hashed(s, f->name, h)), dev_script)) *VEC_PUSH(clash) = i;
        }
    } else {
        for (size_t i = 0; i < s->refs.funcs.count; i++) {
            const script_func *g = &s->refs.funcs.items[i];
            uint32_t h = text_hash(0, g->name, 0);
            const script_func *own = find_def_hashed(s, g->name, h);
            if (own != g || !visible(kind_of(own), dev_script)) continue;
            const script_func *f = find_def_hashed(inc, g->name, h);
            if (f && !(f->developer && !dev_script)) *VEC_PUSH(clash) = (size_t)(f - inc->refs.funcs.items);
        }
        if (clash.count > 1) qsort(clash.items, clash.count, sizeof *clash.items, compare_size);
    }
    for (size_t k = 0; k < clash.count; k++)
        diag_add(&ctx->diags, DIAG_ERROR, s->src, r->line, r->col, "function '%s' already defined in '%s.gsc'",
                 inc->refs.funcs.items[clash.items[k]].spelling, s->name);
    VEC_FREE(clash);
}

/* LinkFile (grammar.md 3.5): every reference of s, once all it loads is loaded. */
static void link_script(atrc_ctx *ctx, walk_script *s)
{
    walk_state *w = ctx->walk;
    unsigned gen = ++w->gen;
    hint_cache cache = {0};
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < s->refs.refs.count; i++) {
            const script_ref *r = &s->refs.refs.items[i];
            if (!followed(ctx, r)) continue;
            if ((pass == 0) != (r->kind == SCRIPT_REF_INCLUDE)) continue;
            if (r->kind == SCRIPT_REF_LOCAL) {
                func_kind k = own_function(s, r->func);
                if (k == FUNC_NONE) k = namespace_function(w, s, r->func);
                /* A name no file defines: the compile-stage checks judged it
                ** (builtin or not) when the file has no #include, and left it
                ** in `checked` otherwise (linked below). */
                if (k == FUNC_NONE) continue;
                report_function(ctx, &cache, s, r, s, k);
                continue;
            }
            walk_script *t = find_script(w, r->file);
            if (!t) continue;
            if (r->kind == SCRIPT_REF_INCLUDE) {
                if (t->include_mark == gen)
                    diag_add(&ctx->diags, DIAG_ERROR, s->src, r->line, r->col, "Duplicate #include");
                else if (t->src)
                    include_clashes(ctx, s, t, r);
                t->include_mark = gen;
            }
            if (!t->src) {
                report_missing(ctx, s, t, r, gen);
                continue;
            }
            if (r->kind == SCRIPT_REF_FAR)
                report_function(ctx, &cache, s, r, t, namespace_function(w, t, r->func));
        }
    }
    hint_cache_free(&cache);
}

/* An unknown name of s that a loaded file s does not #include defines (the
** first in load order): where, and how to reach it; or NULL. */
static const char *defined_elsewhere(atrc_ctx *ctx, const walk_script *s, const check_ref *ref)
{
    const definers *d = find_definers(ctx->walk, ref->name, text_hash(0, ref->name, 0));
    for (size_t i = 0; d && i < d->scripts.count; i++) {
        const walk_script *t = d->scripts.items[i];
        const script_func *f = find_def(t, ref->name);
        if (t == s || !f || f->developer) continue;
        char *path = arena_strdup(&ctx->mem, t->name);
        for (char *p = path; *p; p++)
            if (*p == '/') *p = '\\';
        return arena_printf(&ctx->mem, "'%s' defines it (%s:%d), which this file does not #include: add "
                            "#include %s; or call %s::%s", t->name, t->file, f->line, path, path, f->spelling);
    }
    return NULL;
}

/* The names s's compile-stage checks left for its #includes (cod2/cod4):
** those no included file defines are unknown after all. */
static void link_unresolved(atrc_ctx *ctx, walk_script *s)
{
    if (!s->has_checked) return;
    hint_cache cache = {0};
    for (size_t i = 0; i < s->checked.unresolved_count; i++) {
        const check_ref *ref = &s->checked.unresolved[i];
        if (namespace_function(ctx->walk, s, ref->name) != FUNC_NONE) continue;
        check_ref with = *ref;
        with.includes_searched = 1;
        with.elsewhere = defined_elsewhere(ctx, s, ref);
        if (!with.elsewhere && (ref->certain || !ctx->diags.no_warnings))
            with.suggestion = namespace_suggestion(ctx, &cache, s, s, ref->spelling ? ref->spelling : ref->name,
                                                   ref->kind);
        check_report_unknown(&ctx->diags, s->src, ctx->rules, &ctx->opts, &with);
    }
    hint_cache_free(&cache);
}

static int compare_scripts(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)*(walk_script *const *)a, y = (uintptr_t)*(walk_script *const *)b;
    return x < y ? -1 : x > y;
}

/* Once s's #includes are loaded, their functions join its namespace
** (load-order.md 3.4d), before any file its `path::func` references load. */
static void collect_includes(atrc_ctx *ctx, walk_script *s)
{
    unsigned gen = ++ctx->walk->gen;
    for (size_t i = 0; i < s->refs.refs.count; i++) {
        const script_ref *r = &s->refs.refs.items[i];
        if (r->kind != SCRIPT_REF_INCLUDE || !followed(ctx, r)) continue;
        walk_script *t = find_script(ctx->walk, r->file);
        if (!t || !t->src || t->mark == gen) continue;
        t->mark = gen;
        *VEC_PUSH(s->includes) = t;
    }
    if (s->includes.count > 1)
        qsort(s->includes.items, s->includes.count, sizeof *s->includes.items, compare_scripts);
}

typedef struct frame {
    walk_script *s;
    int pass;      /* 0: includes, 1: path::func targets */
    size_t next;   /* next reference to look at */
    size_t pending; /* its entries in the engine's pending list */
} frame;

/* A file starts compiling with `*pending` entries held by the files above it:
** it adds one per followed #include and path::func reference.  CoD4 keeps
** them all in one array (load-order.md 3.9). */
static size_t enter(atrc_ctx *ctx, walk_script *s, size_t *pending)
{
    size_t limit = ctx->rules->max_pending_scripts;
    size_t count = 0;
    for (size_t i = 0; i < s->refs.refs.count; i++) {
        const script_ref *r = &s->refs.refs.items[i];
        if (r->kind == SCRIPT_REF_LOCAL || !followed(ctx, r)) continue;
        if (limit && *pending + count == limit && !ctx->walk->pending_overflow) {
            ctx->walk->pending_overflow = 1;
            diag_add(&ctx->diags, DIAG_ERROR, s->src, r->line, r->col, "MAX_PRECACHE_ENTRIES exceeded");
        }
        count++;
    }
    *pending += count;
    return count;
}

/* load(name) of load-order.md 3.5.  Returns the script, or NULL when a file
** of that name was started before (nothing happens then). */
static walk_script *load(atrc_ctx *ctx, const char *name)
{
    walk_script *first = start_script(ctx, name, NULL, 0, 0);
    if (!first) return NULL;
    VEC(frame) stack = {0};
    size_t pending = 0;
    *VEC_PUSH(stack) = (frame){first, 0, 0, enter(ctx, first, &pending)};
    while (stack.count) {
        frame *f = &stack.items[stack.count - 1];
        walk_script *s = f->s;
        if (!s->src) {
            pending -= f->pending;
            stack.count--;
            continue;
        }
        walk_script *child = NULL;
        while (f->pass < 2 && !child) {
            if (f->next == s->refs.refs.count) {
                if (f->pass == 0) collect_includes(ctx, s);
                f->pass++;
                f->next = 0;
                continue;
            }
            const script_ref *r = &s->refs.refs.items[f->next++];
            if (r->kind == SCRIPT_REF_LOCAL || !followed(ctx, r)) continue;
            if ((f->pass == 0) != (r->kind == SCRIPT_REF_INCLUDE)) continue;
            child = start_script(ctx, r->file, s, r->line, r->col);
        }
        if (!child) {
            link_script(ctx, s);
            link_unresolved(ctx, s);
            pending -= f->pending;
            stack.count--;
            continue;
        }
        *VEC_PUSH(stack) = (frame){child, 0, 0, enter(ctx, child, &pending)};
    }
    VEC_FREE(stack);
    return first;
}

/* ---- entry points ---- */

/* `%g` -> gametype, `%m` -> map. */
static char *entry_name(atrc_ctx *ctx, const char *pattern, const char *map, const char *gametype)
{
    size_t n = strlen(pattern) + (map ? strlen(map) : 0) + (gametype ? strlen(gametype) : 0) + 1;
    char *buf = xmalloc(n);
    size_t k = 0;
    for (const char *p = pattern; *p; p++) {
        const char *sub = NULL;
        if (p[0] == '%' && p[1] == 'g') sub = gametype;
        else if (p[0] == '%' && p[1] == 'm') sub = map;
        if (sub) {
            memcpy(buf + k, sub, strlen(sub));
            k += strlen(sub);
            p++;
        } else {
            buf[k++] = *p;
        }
    }
    buf[k] = 0;
    char *canonical = script_canonical_name(&ctx->mem, buf, k);
    free(buf);
    return canonical;
}

/* One entry: Scr_LoadScript, then the labels the engine looks up. */
static void load_entry(atrc_ctx *ctx, const char *name, const char *const *labels, int optional)
{
    load(ctx, name);
    walk_script *s = find_script(ctx->walk, name);
    if (!s->src) {
        const char *near = !optional && !s->unreadable ? missing_suggestion(ctx, s) : NULL;
        if (!optional && !s->unreadable)
            diag_add(&ctx->diags, DIAG_ERROR, NULL, 0, 0, "Could not find script '%s'%s%s%s", name,
                     near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
        return;
    }
    for (size_t i = 0; labels && labels[i]; i++) {
        char *label = arena_lower(&ctx->mem, labels[i], strlen(labels[i]));
        func_kind k = namespace_function(ctx->walk, s, label);
        if (k == FUNC_NORMAL || (k == FUNC_DEVELOPER && ctx->opts.developer_script)) continue;
        diag_add(&ctx->diags, DIAG_ERROR, NULL, 0, 0, "Could not find label '%s' in script '%s'",
                 labels[i], name);
    }
}

void atrc_walk_script(atrc_ctx *ctx, const char *name)
{
    size_t n = gamefs_script_stem(name); /* a convenience: maps/x.gsc */
    walk_state *w = walk_get(ctx);
    if (!w->title) w->title = "walk mode";
    load_entry(ctx, script_canonical_name(&ctx->mem, name, n), NULL, 0);
}

/* Multiplayer, after the scripts (load-order.md 5.1): the `multiplayer`
** tree, the profile's fixed names, then mp/playeranim.script's names. */
static void engine_registrations(atrc_ctx *ctx, const profile_rules *rules)
{
    walk_state *w = ctx->walk;
    for (size_t i = 0; rules->mp_engine_anims[i]; i++) {
        registry_engine_anim(ctx, "multiplayer", rules->mp_engine_anims[i]);
        w->engine_names++;
    }
    w->engine_tree = registry_use_tree(ctx, "multiplayer", NULL, 0, 0);
    const char *err = NULL;
    source_file *src = gamefs_open(&ctx->fs, "mp/playeranim.script", &err);
    if (!src) {
        diag_add(&ctx->diags, DIAG_ERROR, NULL, 0, 0, "Couldn't load player animation script %s%s%s",
                 "mp/playeranim.script", err ? ": " : "", err ? err : "");
        return;
    }
    ctx_keep_source(ctx, src);
    w->playeranim_file = src->path;
    playeranim_names names;
    playeranim_read(src, rules->atr_escape_backslash, &ctx->diags, &names);
    for (size_t i = 0; i < names.names.count; i++) registry_engine_anim(ctx, "multiplayer", names.names.items[i]);
    w->playeranim_names = (int)names.names.count;
    playeranim_names_free(&names);
}

/* --entities FILE: one entity per line, in entity order (load-order.md 2.5
** step 4): `actor_<X>`, `node_negotiation_begin <animscript>`, `turret <script>`. */
static int load_entities(atrc_ctx *ctx, const char *path)
{
    const char *err = NULL;
    source_file *src = ctx_read_list(path, &err);
    if (!src) {
        diag_add(&ctx->diags, DIAG_ERROR, NULL, 0, 0, "cannot read '%s': %s", path, err);
        ctx->unreadable_inputs++;
        return -1;
    }
    ctx_keep_source(ctx, src);
    static const char *const dogs[] = {"dog_combat", "dog_death", "dog_init", "dog_pain",
                                       "dog_move", "dog_scripted", "dog_stop", "dog_flashed"};
    static const char *const actor_labels[] = {"main", "precache", "spawner", NULL};
    static const char *const main_label[] = {"main", NULL};
    int dog_seen = 0, errors = 0;
    arena scratch;
    arena_init(&scratch);
    for (int line = 1;; line++) {
        const char *text;
        long len = source_line(src, line, &text);
        if (len < 0) break;
        size_t a = 0, n = (size_t)len;
        while (a < n && (text[a] == ' ' || text[a] == '\t')) a++;
        while (n > a && (text[n - 1] == ' ' || text[n - 1] == '\t')) n--;
        if (a == n || text[a] == '#') continue;
        size_t w1 = a;
        while (w1 < n && text[w1] != ' ' && text[w1] != '\t') w1++;
        size_t b = w1;
        while (b < n && (text[b] == ' ' || text[b] == '\t')) b++;
        char *kind = arena_lower(&scratch, text + a, w1 - a);
        char *arg = arena_strndup(&scratch, text + b, n - b);
        int one_word = *arg && !strpbrk(arg, " \t");
        if (strncmp(kind, "actor_", 6) == 0 && kind[6] && b == n) {
            /* The first time a type is seen: dogs first load the dog animscripts. */
            const char *script = entry_name(ctx, "aitype/%m", kind + 6, NULL);
            if (find_script(ctx->walk, script)) continue;
            if (strstr(kind + 6, "dog") && !dog_seen) {
                dog_seen = 1;
                for (size_t d = 0; d < sizeof dogs / sizeof *dogs; d++)
                    load_entry(ctx, arena_printf(&ctx->mem, "animscripts/%s", dogs[d]), main_label, 0);
            }
            load_entry(ctx, script, actor_labels, 0);
        } else if (strcmp(kind, "node_negotiation_begin") == 0 && one_word) {
            const char *script = entry_name(ctx, "animscripts/traverse/%m", arg, NULL);
            if (!find_script(ctx->walk, script)) load_entry(ctx, script, main_label, 0);
        } else if (strcmp(kind, "turret") == 0 && one_word) {
            load_entry(ctx, entry_name(ctx, "animscripts/%m", arg, NULL), main_label, 0);
        } else if (ctx_list_error_capped(ctx, src, line, &errors)) {
            break;
        } else {
            diag_add(&ctx->diags, DIAG_ERROR, src, line, (int)a + 1,
                     "expected 'actor_<type>', 'node_negotiation_begin <animscript>' or 'turret <script>'");
        }
    }
    arena_free_all(&scratch);
    return 0;
}

/* Multiplayer: a gametype no script on the search path provides is named
** with those that exist (the load still reports the missing script in the
** game's words); a map without a map script (the game allows it) is a note,
** and one of which no trace is found (no script, no .bsp/.d3dbsp) a warning. */
static void check_level_names(atrc_ctx *ctx, const profile_rules *rules, const char *map, const char *gametype)
{
    const char *gt_script = gamefs_script_file(&ctx->fs, entry_name(ctx, "maps/mp/gametypes/%g", map, gametype));
    if (!gamefs_locate(&ctx->fs, gt_script)) {
        const char **names;
        size_t n = gamefs_list(&ctx->fs, "maps/mp/gametypes", ".gsc", &names);
        outbuf b = {0}; /* a string */
        size_t listed = 0;
        for (size_t i = 0; i < n; i++) {
            if (names[i][0] == '_') continue; /* the gametypes' shared scripts */
            outbuf_str(&b, listed++ ? ", " : "");
            outbuf_str(&b, names[i]);
        }
        diag_add(&ctx->diags, DIAG_ERROR, NULL, 0, 0, "unknown gametype '%s': %s%s%s", gametype,
                 listed ? "the gametypes on the search path are " : "no gametype script is on the search path",
                 listed ? b.s : "", rules->unknown_gametype_note ? rules->unknown_gametype_note : "");
        outbuf_free(&b);
    }
    const char *script = entry_name(ctx, "maps/mp/%m", map, gametype);
    if (gamefs_locate(&ctx->fs, gamefs_script_file(&ctx->fs, script))) return;
    int map_found = gamefs_locate(&ctx->fs, arena_printf(&ctx->mem, "%s.bsp", script)) ||
                    gamefs_locate(&ctx->fs, arena_printf(&ctx->mem, "%s.d3dbsp", script));
    if (map_found)
        diag_add(&ctx->diags, DIAG_NOTE, NULL, 0, 0,
                 "map '%s' has no map script %s.gsc: the game runs it without one", map, script);
    else
        diag_add(&ctx->diags, DIAG_WARNING, NULL, 0, 0,
                 "no map script %s.gsc and no map '%s' (%s.bsp or .d3dbsp) on the search path: is the map "
                 "name right? (a map without a script is allowed, so nothing of it is compiled)",
                 script, map, script);
}

int atrc_load_level(atrc_ctx *ctx, const char *map, const char *gametype, const char *entities)
{
    const profile_rules *rules = ctx->rules;
    walk_state *w = walk_get(ctx);
    /* The game mode decides which builtin list the checks use (grammar.md 3.5). */
    ctx->opts.game_mode = gametype ? ATRC_GAME_MP : ATRC_GAME_SP;
    /* The front end keeps its own copy of the options, taken when the first
    ** script (or an empty list of them) was asked for. */
    if (ctx->fe) frontend_set_game_mode(ctx->fe, ctx->opts.game_mode);
    w->title = gametype ? arena_printf(&ctx->mem, "map %s, gametype %s", map, gametype)
                        : arena_printf(&ctx->mem, "map %s, single player", map);
    const script_entry *entries = gametype ? rules->mp_entries : rules->sp_entries;
    if (gametype) check_level_names(ctx, rules, map, gametype);
    if (!gametype && !rules->sp_order_known)
        diag_add(&ctx->diags, DIAG_WARNING, NULL, 0, 0,
                 "the %s single-player load order is not known: only maps/%s and what it reaches are "
                 "loaded, so tree indices and node numbers may differ from the game's",
                 rules->name, map);
    for (const script_entry *e = entries; e->name; e++)
        load_entry(ctx, entry_name(ctx, e->name, map, gametype), e->labels, e->optional);
    if (gametype) {
        engine_registrations(ctx, rules);
        return 0;
    }
    if (entities && load_entities(ctx, entities) != 0) return -1;
    if (rules->sp_required_tree) {
        int found = 0;
        for (int k = 1; k <= ctx->tree_count; k++) found |= strcmp(ctx->trees[k]->name, rules->sp_required_tree) == 0;
        if (!found)
            diag_add(&ctx->diags, DIAG_ERROR, NULL, 0, 0, "Could not find animation tree '%s'",
                     rules->sp_required_tree);
    }
    return 0;
}
