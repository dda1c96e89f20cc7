/* `atrc diff`: a run read out of atrc's JSON output, checked against the
** schema as it is read (the first error is reported at its position), or
** made from one tree for the reasoning that --explain shares (diff.h). */
#include "output/diff_internal.h"
#include "base/json_read.h"

#include <inttypes.h>
#include <stdarg.h>

static int schema_error(differ *d, int run, const json_value *at, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static int schema_error(differ *d, int run, const json_value *at, const char *fmt, ...)
{
    if (d->bad) return -1;
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    d->bad = arena_strdup(&d->mem, msg);
    d->bad_off = at ? at->offset : 0;
    d->bad_run = run;
    return -1;
}

static int get_int(differ *d, int run, const json_value *obj, const char *key, int64_t lo, int64_t hi,
                   int nullable, int64_t *out, const char *what)
{
    const json_value *v = json_get(obj, key);
    *out = 0; /* (set on every path: compilers cannot see that errors return nonzero) */
    if (!v) return schema_error(d, run, obj, "%s has no \"%s\"", what, key);
    if (v->type == JSON_NULL && nullable) {
        *out = -1;
        return 0;
    }
    if (v->type != JSON_NUMBER || !v->u.number.is_int || v->u.number.i < lo || v->u.number.i > hi)
        return schema_error(d, run, v, "%s: \"%s\" must be an integer from %" PRId64 " to %" PRId64 "%s",
                            what, key, lo, hi, nullable ? " or null" : "");
    *out = v->u.number.i;
    return 0;
}

static int get_str(differ *d, int run, const json_value *obj, const char *key, int nullable, int optional,
                   dstr *out, const char *what)
{
    const json_value *v = json_get(obj, key);
    out->s = NULL;
    out->n = 0;
    if (!v && optional) return 0;
    if (!v) return schema_error(d, run, obj, "%s has no \"%s\"", what, key);
    if (v->type == JSON_NULL && nullable) return 0;
    if (v->type != JSON_STRING) return schema_error(d, run, v, "%s: \"%s\" must be a string%s", what, key,
                                                    nullable ? " or null" : "");
    out->s = v->u.string.s;
    out->n = v->u.string.len;
    return 0;
}

static const json_value *get_array(differ *d, int run, const json_value *obj, const char *key, const char *what)
{
    const json_value *v = json_get(obj, key);
    if (!v) {
        schema_error(d, run, obj, "%s has no \"%s\" array", what, key);
        return NULL;
    }
    if (v->type != JSON_ARRAY) {
        schema_error(d, run, v, "%s: \"%s\" must be an array", what, key);
        return NULL;
    }
    return v;
}

static int note_cmp(const void *a, const void *b)
{
    return dstr_cmp(*(const dstr *)a, *(const dstr *)b);
}

/* A leaf's "notetracks" (runs with xanims read; absent in others): the
** names, sorted for the comparison.  An xanim holds at most 255 and `end`. */
static int load_notes(differ *d, int run, const json_value *nv, dnode *n, const char *what)
{
    n->note_count = -1;
    const json_value *a = json_get(nv, "notetracks");
    if (!a || a->type == JSON_NULL) return 0;
    if (a->type != JSON_ARRAY) return schema_error(d, run, a, "%s: \"notetracks\" must be an array", what);
    if (a->u.array.count > 256)
        return schema_error(d, run, a, "%s lists more than 256 notetracks (an xanim holds at most 255 and end)", what);
    n->notes = arena_zalloc(&d->mem, array_size(a->u.array.count ? a->u.array.count : 1, sizeof *n->notes));
    for (size_t i = 0; i < a->u.array.count; i++) {
        const json_value *e = a->u.array.items[i];
        if (e->type != JSON_OBJECT) return schema_error(d, run, e, "%s: each notetrack must be an object", what);
        if (get_str(d, run, e, "name", 0, 0, &n->notes[i], what)) return -1;
    }
    n->note_count = (int)a->u.array.count;
    qsort(n->notes, a->u.array.count, sizeof *n->notes, note_cmp);
    return 0;
}

static int load_tree(differ *d, int run, const json_value *tv, int pos, dtree *t)
{
    char what[64];
    snprintf(what, sizeof what, "tree %d", pos + 1);
    if (tv->type != JSON_OBJECT) return schema_error(d, run, tv, "%s must be an object", what);
    int64_t v;
    if (get_int(d, run, tv, "index", 1, ATRC_MAX_TREES, 0, &v, what)) return -1;
    if (v != pos + 1) return schema_error(d, run, json_get(tv, "index"), "%s has index %" PRId64
                                          " (trees are listed in registry order from 1)", what, v);
    t->index = (int)v;
    if (get_str(d, run, tv, "name", 0, 0, &t->name, what) || get_str(d, run, tv, "file", 1, 0, &t->file, what) ||
        get_str(d, run, tv, "game_file", 1, 1, &t->game_file, what))
        return -1;
    if (get_int(d, run, tv, "checksum", 0, UINT32_MAX, 1, &v, what)) return -1;
    t->built = v >= 0;
    t->checksum = t->built ? (uint32_t)v : 0;
    const json_value *nodes = get_array(d, run, tv, "nodes", what);
    if (!nodes) return -1;
    size_t count = 0;
    for (size_t k = 0; k < nodes->u.array.count; k++) {
        const json_value *p = json_get(nodes->u.array.items[k], "pruned");
        if (!p || p->type != JSON_TRUE) count++;
        else t->pruned_count++;
    }
    if (count > ATRC_MAX_NODES) return schema_error(d, run, nodes, "%s has more than %d nodes", what, ATRC_MAX_NODES);
    t->nodes = arena_zalloc(&d->mem, array_size(count ? count : 1, sizeof *t->nodes));
    t->pruned = arena_zalloc(&d->mem, array_size((size_t)(t->pruned_count ? t->pruned_count : 1), sizeof *t->pruned));
    int pruned = 0;
    for (size_t k = 0; k < nodes->u.array.count; k++) {
        const json_value *nv = nodes->u.array.items[k];
        snprintf(what, sizeof what, "tree %d, node %zu", pos + 1, k);
        if (nv->type != JSON_OBJECT) return schema_error(d, run, nv, "%s must be an object", what);
        const json_value *p = json_get(nv, "pruned");
        if (p && p->type == JSON_TRUE) {
            if (get_str(d, run, nv, "name", 0, 0, &t->pruned[pruned++], what)) return -1;
            continue;
        }
        int idx = t->node_count;
        if (get_int(d, run, nv, "index", idx, idx, 0, &v, what)) return -1;
        dnode *n = &t->nodes[t->node_count++];
        if (get_str(d, run, nv, "name", 0, 0, &n->name, what)) return -1;
        if (get_int(d, run, nv, "parent", 0, INT32_MAX, 1, &v, what)) return -1;
        if (idx == 0 && v != -1) return schema_error(d, run, json_get(nv, "parent"), "%s: node 0 has no parent", what);
        if (idx > 0 && (v < 0 || v >= idx))
            return schema_error(d, run, json_get(nv, "parent"), "%s: \"parent\" must be the index of an earlier node", what);
        n->parent = (int)v;
        if (get_int(d, run, nv, "child_count", 0, ATRC_MAX_NODES, 0, &v, what)) return -1;
        n->child_count = (int)v;
        n->flags = -1;
        const json_value *f = json_get(nv, "flags");
        if (f && f->type == JSON_NUMBER && f->u.number.is_int) n->flags = (long)(f->u.number.i & 0xFFFF);
        const json_value *l = json_get(nv, "looping");
        n->looping = l && l->type == JSON_TRUE ? 1 : l && l->type == JSON_FALSE ? 0 : -1;
        if (load_notes(d, run, nv, n, what)) return -1;
    }
    if (t->built && t->node_count == 0) return schema_error(d, run, nodes, "tree %d has a checksum but no nodes", pos + 1);
    t->other = -1;
    return 0;
}

static int kind_of(dstr k)
{
    return dstr_is(k, "anim") ? REF_ANIM : dstr_is(k, "animtree") ? REF_ANIMTREE
         : dstr_is(k, "engine") ? REF_ENGINE : REF_OTHER;
}

static int load_run(differ *d, int run, const json_value *root)
{
    drun *r = &d->run[run];
    const char *what = "the document";
    if (root->type != JSON_OBJECT) return schema_error(d, run, root, "expected an object with \"atrc\": 1");
    const json_value *tag = json_get(root, "atrc");
    if (!tag) {
        if (json_get(root, "atrc_diff"))
            return schema_error(d, run, root, "this is the output of 'atrc diff', not of an atrc run");
        return schema_error(d, run, root, "no \"atrc\": 1 member (is this an atrc --format json output?)");
    }
    if (tag->type != JSON_NUMBER || !tag->u.number.is_int || tag->u.number.i != 1)
        return schema_error(d, run, tag, "unsupported \"atrc\" version (expected 1)");
    if (json_get(root, "tree_filter"))
        return schema_error(d, run, json_get(root, "tree_filter"), "this run lists only some trees (--tree): compare whole runs");
    if (get_str(d, run, root, "profile", 0, 0, &r->profile, what)) return -1;
    const json_value *trees = get_array(d, run, root, "trees", what);
    const json_value *refs = trees ? get_array(d, run, root, "references", what) : NULL;
    if (!refs) return -1;
    if (trees->u.array.count > ATRC_MAX_TREES)
        return schema_error(d, run, trees, "more than %d trees", ATRC_MAX_TREES);
    r->tree_count = (int)trees->u.array.count;
    r->trees = arena_zalloc(&d->mem, array_size((size_t)(r->tree_count ? r->tree_count : 1), sizeof *r->trees));
    for (int i = 0; i < r->tree_count; i++) {
        dtree *t = &r->trees[i];
        if (load_tree(d, run, trees->u.array.items[i], i, t)) return -1;
        /* atrc registers a tree name once: at most 127 trees, so a scan. */
        for (int k = 0; k < i; k++)
            if (dstr_eq(r->trees[k].name, t->name))
                return schema_error(d, run, trees->u.array.items[i],
                                    "tree %d has the name of tree %d (atrc lists each tree once)", i + 1, k + 1);
        for (int k = 0; k < t->pruned_count; k++) add_to_set(d, &r->pruned, t->name, t->pruned[k], 0);
        for (int k = 1; k < t->node_count; k++) add_to_set(d, &r->defined, t->name, t->nodes[k].name, 0);
    }
    r->ref_count = refs->u.array.count;
    r->has_scripts = 1;
    r->refs = arena_zalloc(&d->mem, array_size(r->ref_count ? r->ref_count : 1, sizeof *r->refs));
    for (size_t i = 0; i < r->ref_count; i++) {
        const json_value *rv = refs->u.array.items[i];
        dref *f = &r->refs[i];
        char w[64];
        snprintf(w, sizeof w, "reference %zu", i + 1);
        if (rv->type != JSON_OBJECT) return schema_error(d, run, rv, "%s must be an object", w);
        int64_t v;
        if (get_str(d, run, rv, "kind", 0, 0, &f->kind_name, w) || get_str(d, run, rv, "file", 1, 0, &f->file, w) ||
            get_str(d, run, rv, "tree", 1, 0, &f->tree, w) || get_str(d, run, rv, "name", 1, 1, &f->name, w) ||
            get_str(d, run, rv, "script", 1, 1, &f->script, w))
            return -1;
        if (f->file.s && !f->script.s) r->has_scripts = 0;
        f->kind = kind_of(f->kind_name);
        if (get_int(d, run, rv, "line", 1, INT32_MAX, 1, &v, w)) return -1;
        f->line = v < 0 ? 0 : (long)v;
        if (get_int(d, run, rv, "column", 1, INT32_MAX, 1, &v, w)) return -1;
        f->col = v < 0 ? 0 : (long)v;
        if (get_int(d, run, rv, "value", 0, UINT32_MAX, 1, &f->value, w)) return -1;
        const json_value *dev = json_get(rv, "developer");
        f->developer = dev && dev->type == JSON_TRUE;
        f->other = -1;
        if (f->kind != REF_ANIMTREE && f->name.s && f->tree.s) add_to_set(d, &r->refset, f->tree, f->name, (long)i);
        for (int t = 0; t < r->tree_count; t++)
            if (!r->trees[t].first_file.s && f->file.s && dstr_eq(r->trees[t].name, f->tree))
                r->trees[t].first_file = f->file;
    }
    /* Level and walk mode: the script that registered each tree first. */
    const json_value *scripts = json_get(root, "scripts");
    if (scripts && scripts->type == JSON_ARRAY) {
        for (int t = 0; t < r->tree_count; t++) r->trees[t].first_file.s = NULL;
        for (size_t i = 0; i < scripts->u.array.count; i++) {
            const json_value *sc = scripts->u.array.items[i], *names = json_get(sc, "trees");
            const json_value *file = json_get(sc, "file");
            if (!names || names->type != JSON_ARRAY) continue;
            if (!file || file->type != JSON_STRING) file = json_get(sc, "name");
            if (!file || file->type != JSON_STRING) continue;
            for (size_t k = 0; k < names->u.array.count; k++) {
                const json_value *nv = names->u.array.items[k];
                if (nv->type != JSON_STRING) continue;
                dstr name = {nv->u.string.s, nv->u.string.len};
                int t = find_tree(r, name);
                if (t >= 0 && !r->trees[t].first_file.s) {
                    r->trees[t].registered_by = 1;
                    r->trees[t].first_file.s = file->u.string.s;
                    r->trees[t].first_file.n = file->u.string.len;
                }
            }
        }
    }
    const json_value *diags = json_get(root, "diagnostics");
    if (diags && diags->type == JSON_ARRAY) {
        for (size_t i = 0; i < diags->u.array.count; i++) {
            const json_value *s = json_get(diags->u.array.items[i], "severity");
            if (s && s->type == JSON_STRING && strcmp(s->u.string.s, "error") == 0) r->errors++;
            else if (s && s->type == JSON_STRING && strcmp(s->u.string.s, "warning") == 0) r->warnings++;
        }
    }
    return 0;
}


void diff_tree_as_run(differ *d, int run, const atrc_tree *t, const char *profile)
{
    drun *r = &d->run[run];
    r->profile.s = profile;
    r->profile.n = strlen(profile);
    r->tree_count = 1;
    r->trees = arena_zalloc(&d->mem, sizeof *r->trees);
    dtree *x = r->trees;
    x->name.s = t->name;
    x->name.n = strlen(t->name);
    x->index = 1;
    x->built = 1;
    x->checksum = t->checksum;
    x->other = 0;
    x->node_count = t->node_count;
    x->nodes = arena_zalloc(&d->mem, array_size((size_t)t->node_count + 1, sizeof *x->nodes));
    for (int k = 0; k < t->node_count; k++) {
        const atrc_node *n = &t->nodes[k];
        dnode *m = &x->nodes[k];
        m->name.s = n->name;
        m->name.n = strlen(n->name);
        m->parent = n->parent;
        m->child_count = n->child_count;
        m->flags = n->child_count || k == 0 ? (long)n->parse_flags : -1;
        m->looping = n->looping;
    }
}

int diff_load_file(differ *d, int run, const char *name, source_file *src)
{
    drun *r = &d->run[run];
    r->path = name;
    r->src = src;
    int line, col;
    source_position(r->src, 0, &line, &col); /* lines are counted before strings are decoded in place */
    /* The document's values are only needed while the run is read out of them. */
    arena dom;
    arena_init(&dom);
    json_error je;
    json_value *root = json_parse(r->src->data, r->src->len, &dom, &je);
    int rc = 0;
    if (!root) {
        source_position(r->src, je.offset, &line, &col);
        fprintf(d->err, "%s:%d:%d: error: not valid JSON: %s\n", name, line, col, je.message);
        rc = -1;
    } else if (load_run(d, run, root) != 0) {
        source_position(r->src, d->bad_off, &line, &col);
        fprintf(d->err, "%s:%d:%d: error: not an atrc JSON output: %s\n", name, line, col, d->bad);
        rc = -1;
    }
    arena_free_all(&dom);
    return rc;
}
