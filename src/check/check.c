/* The compile stage's errors (grammar.md section 3), file-local and pure: see
** check_stage.h.  This file takes a file's items one at a time (functions,
** /# #/ blocks, #include) and ends the file: its diagnostics in source order
** and its summary for the load walk.  The walks are in check_stmt.c
** (statements) and check_expr.c (expressions), function resolution in
** check_resolve.c; what they share in check_internal.h. */
#include "check/check_internal.h"
#include "script/script_refs.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- name sets */

/* A new entry for key (h: its key_hash); the key is copied unless it is
** already in the set's arena (owned). */
ns_entry *check_ns_insert(nameset *s, const char *key, size_t len, uint32_t h, int owned)
{
    /* The entry and its copy of the key are one allocation. */
    ns_entry *e = arena_alloc(s->mem, sizeof *e + (owned ? 0 : len + 1));
    if (!owned) {
        char *copy = (char *)(e + 1);
        memcpy(copy, key, len);
        copy[len] = 0;
        key = copy;
    }
    *e = (ns_entry){.key = key, .len = len};
    if (!s->entries.cap) {
        /* A set that is used at all (a file's functions, the names it
        ** calls) mostly holds dozens: room for them at once, not after
        ** several doublings. */
        VEC_RESERVE(s->entries, NS_FIRST_ROOM);
        hashtab_reserve(&s->index, NS_FIRST_ROOM);
    }
    *VEC_PUSH(s->entries) = e;
    hashtab_add(&s->index, h);
    return e;
}

void check_error_at(check_state *st, int line, int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_addv(st->diags, DIAG_ERROR, st->src, line, col, fmt, ap);
    va_end(ap);
}

/* ---------------------------------------------------------------- items */

/* Registers a function (dev: defined inside a top-level /# #/). */
static void define_function(check_state *st, const ast_node *fn, int dev)
{
    if (!fn->text) return;
    size_t len = fn->len;
    char *lower = arena_lower(&st->mem, fn->text, len);
    uint32_t h = key_hash(lower, len);
    ns_entry *e = ns_find_hashed(&st->functions, lower, len, h);
    if (!e) {
        e = check_ns_insert(&st->functions, lower, len, h, 1); /* lower is in the set's arena */
        e->line = fn->line;
        e->col = fn->col;
        e->value = dev;
        /* data: the spelling, for suggestions, when it is not the key's */
        if (memcmp(lower, fn->text, len) != 0) e->data = arena_strndup(&st->mem, fn->text, len);
        return;
    }
    if (st->rules->dup_function_names_it)
        check_error_at(st, fn->line, fn->col, "function '%s' already defined", fn->text);
    else
        check_error_at(st, fn->line, fn->col, "function already defined");
}

check_state *check_begin(source_file *src, const profile_rules *rules, const atrc_options *opts,
                         diag_list *diags)
{
    check_state *st = xcalloc(1, sizeof *st);
    st->src = src;
    st->rules = rules;
    if (opts) st->opts = *opts;
    st->diags = diags;
    st->diag_first = diags->count;
    arena_init(&st->mem);
    arena_init(&st->scratch);
    arena_init(&st->fn_mem);
    ns_init(&st->functions, &st->mem);
    ns_init(&st->dev_functions, &st->mem);
    ns_init(&st->callee_names, &st->mem);
    ns_init(&st->scoped_names, &st->mem);
    check_expr_begin(st);
    return st;
}

/* cod2/cod4 free-standing top-level markers: an AST_DEVBLOCK item without
** children whose text is "/#" or "#/" (how a grammar that reads them as
** separate items hands them over). */
static int marker_kind(const ast_node *n)
{
    if (n->kind != AST_DEVBLOCK || n->child || !n->text) return 0;
    if (!strcmp(n->text, "/#")) return 1;
    if (!strcmp(n->text, "#/")) return 2;
    return 0;
}

void check_register_function(check_state *st, const ast_node *fn, int dev)
{
    /* Retail: dev functions are not registered (no clash with a normal
    ** one); with developer_script they are, marked as such. */
    if (!dev || st->opts.developer_script) define_function(st, fn, dev);
    else if (fn->text) {
        int is_new;
        ns_entry *d = ns_add(&st->dev_functions, arena_lower(&st->scratch, fn->text, fn->len),
                             fn->len, &is_new);
        d->value = 1;
        if (is_new) d->line = fn->line; /* for the message of a reference to it */
    }
}

static void top_item(check_state *st, const ast_node *item, int in_dev_block)
{
    int dev = in_dev_block || st->marker_open;
    switch (item->kind) {
    case AST_FUNCTION:
        check_register_function(st, item, dev);
        check_function_body(st, item, dev);
        break;
    case AST_DEVBLOCK: {
        int m = marker_kind(item);
        if (m == 1) {
            if (st->marker_open) check_error_at(st, item->line, item->col, "cannot recurse /#");
            else {
                st->marker_open = 1;
                st->marker_line = item->line;
                st->marker_col = item->col;
            }
            break;
        }
        if (m == 2) {
            if (!st->marker_open) check_error_at(st, item->line, item->col, "#/ has no matching /#");
            st->marker_open = 0;
            break;
        }
        if (dev) check_error_at(st, item->line, item->col, "cannot recurse /#");
        for (const ast_node *c = item->child; c; c = c->next) top_item(st, c, 1);
        break;
    }
    case AST_INCLUDE: {
        check_ref r = {NULL, arena_strndup(&st->mem, item->text ? item->text : "", item->len),
                       item->line, item->col, CHECK_REF_SCRIPT, 1, .spelling = NULL};
        ref_push(&st->includes, r);
        break;
    }
    case AST_USING_ANIMTREE:
        /* Between free-standing markers (inside a /# #/ item compile.c says it). */
        if (st->marker_open)
            check_error_at(st, item->line, item->col, "cannot put #using_animtree inside /# ... #/ comment");
        break;
    default: break; /* errors: already reported */
    }
}

void check_use_builtins(check_state *st, const builtin_set *set)
{
    if (st) st->builtins = set;
}

void check_item(check_state *st, const ast_node *item)
{
    if (!st || !item) return;
    top_item(st, item, 0);
    arena_reset(&st->scratch);
}

void check_function_begin(check_state *st, const ast_node *fn)
{
    if (st) check_stream_begin(st, fn, st->marker_open);
}

void check_function_stmts(check_state *st, const ast_node *first)
{
    if (!st) return;
    for (const ast_node *s = first; s; s = s->next) check_stream_stmt(st, s);
}

void check_function_end(check_state *st, const ast_node *fn, int complete)
{
    if (!st) return;
    check_stream_end(st, fn, complete);
    arena_reset(&st->scratch);
}

/* ---------------------------------------------------------------- end */

static check_ref *copy_refs(arena *a, const ref_vec *v)
{
    if (!v->count) return NULL;
    check_ref *r = arena_alloc(a, array_size(v->count, sizeof *r));
    for (size_t i = 0; i < v->count; i++) {
        r[i] = v->items[i];
        if (r[i].name) r[i].name = arena_strdup(a, r[i].name);
        if (r[i].path) r[i].path = arena_strdup(a, r[i].path);
    }
    return r;
}

/* `Duplicate #include` at the later one, for a file compiled on its own
** (it needs no other file); the load walk (out set) reports it where it
** loads the includes. */
static void duplicate_includes(check_state *st)
{
    if (st->includes.count < 2) return;
    nameset seen;
    ns_init(&seen, &st->scratch);
    for (size_t i = 0; i < st->includes.count; i++) {
        const check_ref *r = &st->includes.items[i];
        char *name = script_canonical_name(&st->scratch, r->path, strlen(r->path));
        int is_new;
        ns_add(&seen, name, strlen(name), &is_new);
        if (!is_new) check_error_at(st, r->line, r->col, "Duplicate #include");
    }
    ns_free(&seen);
}

static void finish(check_state *st, check_file_result *out, int sort)
{
    if (!st) return;
    if (out) {
        memset(out, 0, sizeof *out);
        arena_init(&out->mem);
    }
    if (st->marker_open) check_error_at(st, st->marker_line, st->marker_col, "/# has no matching #/");
    if (!out) duplicate_includes(st);
    check_resolve(st, out);
    if (out) {
        out->defined = arena_alloc(&out->mem, array_size(st->functions.entries.count + 1, sizeof *out->defined));
        for (size_t i = 0; i < st->functions.entries.count; i++)
            if (!st->functions.entries.items[i]->value)
                out->defined[out->defined_count++] = arena_strdup(&out->mem, st->functions.entries.items[i]->key);
        out->scoped = copy_refs(&out->mem, &st->scoped);
        out->scoped_count = st->scoped.count;
        out->includes = copy_refs(&out->mem, &st->includes);
        out->include_count = st->includes.count;
    }
    if (sort) diag_sort_range(st->diags, st->diag_first, st->src);
    ns_free(&st->functions);
    ns_free(&st->dev_functions);
    ns_free(&st->callee_names);
    ns_free(&st->scoped_names);
    VEC_FREE(st->scoped);
    VEC_FREE(st->includes);
    VEC_FREE(st->frames);
    VEC_FREE(st->values);
    free(st->unread);
    ast_walk_stack_free(&st->dev_walk);
    arena_free_all(&st->mem);
    arena_free_all(&st->scratch);
    arena_free_all(&st->fn_mem);
    check_stream_free(st);
    free(st);
}

void check_end(check_state *st, check_file_result *out)
{
    finish(st, out, 1);
}

void check_finish(check_state *st, check_file_result *out)
{
    finish(st, out, 0);
}

static const char *dup_or_null(arena *a, const char *s)
{
    return s ? arena_strdup(a, s) : NULL;
}

static check_ref *copy_ref_array(arena *a, const check_ref *from, size_t n)
{
    if (!n) return NULL;
    check_ref *r = arena_alloc(a, array_size(n, sizeof *r));
    for (size_t i = 0; i < n; i++) {
        r[i] = from[i];
        r[i].name = dup_or_null(a, from[i].name);
        r[i].path = dup_or_null(a, from[i].path);
        r[i].spelling = dup_or_null(a, from[i].spelling);
        r[i].suggestion = dup_or_null(a, from[i].suggestion);
        r[i].elsewhere = dup_or_null(a, from[i].elsewhere);
        r[i].dev_where = dup_or_null(a, from[i].dev_where);
    }
    return r;
}

void check_result_copy(check_file_result *to, const check_file_result *from)
{
    memset(to, 0, sizeof *to);
    arena_init(&to->mem);
    to->defined = arena_alloc(&to->mem, array_size(from->defined_count + 1, sizeof *to->defined));
    for (size_t i = 0; i < from->defined_count; i++) to->defined[i] = arena_strdup(&to->mem, from->defined[i]);
    to->defined_count = from->defined_count;
    to->unresolved = copy_ref_array(&to->mem, from->unresolved, from->unresolved_count);
    to->unresolved_count = from->unresolved_count;
    to->scoped = copy_ref_array(&to->mem, from->scoped, from->scoped_count);
    to->scoped_count = from->scoped_count;
    to->includes = copy_ref_array(&to->mem, from->includes, from->include_count);
    to->include_count = from->include_count;
}

void check_result_free(check_file_result *r)
{
    if (!r) return;
    arena_free_all(&r->mem);
    memset(r, 0, sizeof *r);
}
