/* Shared helpers of the tree-module tests: parse/build from a string with a
** reference list, and render trees and diagnostics as text to compare with
** ck_assert_str_eq. */
#ifndef ATR_TESTLIB_H
#define ATR_TESTLIB_H
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tree/atr.h"
#include "game/profile.h"
#include "base/outbuf.h"

/* The text written to b so far ("" before anything). */
static inline const char *tb_str(outbuf *b)
{
    if (!b->s) return "";
    b->s[b->len] = 0;
    return b->s;
}

/* References: names separated by spaces; NULL means "nothing referenced". */
typedef struct tt_refs {
    const char *list;
    /* bound names for the binder, separated by spaces */
    outbuf bound;
} tt_refs;

static inline int tt_in_list(const char *list, const char *name)
{
    if (!list) return 0;
    size_t n = strlen(name);
    const char *p = list;
    while (*p) {
        while (*p == ' ') p++;
        const char *e = p;
        while (*e && *e != ' ') e++;
        if ((size_t)(e - p) == n && memcmp(p, name, n) == 0 && e > p) return 1;
        p = e;
    }
    return 0;
}

static inline int tt_contains(void *ud, const char *name)
{
    return tt_in_list(((tt_refs *)ud)->list, name);
}

/* The registry's rule (5.2): a referenced name bound twice is a duplicate. */
static inline int tt_bind(void *ud, const char *name, int index)
{
    tt_refs *r = ud;
    (void)index;
    if (!tt_in_list(r->list, name)) return 0;
    if (r->bound.s && tt_in_list(r->bound.s, name)) return 1;
    outbuf_printf(&r->bound, " %s", name);
    return 0;
}

typedef struct tt {
    arena a;
    diag_list d;
    source_file *src;
    tt_refs refs;
    atr_file *f;
    atrc_tree tree;
    int built;
    outbuf out;
} tt;

/* Parses text (len bytes; -1: strlen) as x.atr. */
static inline tt *tt_parse_n(const char *text, long len, const char *refs, int anim_check,
                             atrc_profile profile)
{
    tt *t = xcalloc(1, sizeof *t);
    arena_init(&t->a);
    diag_init(&t->d);
    t->src = source_from_buffer("x.atr", text, len < 0 ? strlen(text) : (size_t)len);
    t->refs.list = refs;
    atr_refs r = {&t->refs, tt_contains, 0};
    t->f = atr_parse(t->src, &r, anim_check, profile_get(profile), &t->a, &t->d);
    return t;
}

static inline tt *tt_parse(const char *text, const char *refs, atrc_profile profile)
{
    return tt_parse_n(text, -1, refs, refs == NULL, profile);
}

/* Parses and builds; refs NULL = anim_check (keep everything, bind nothing). */
static inline tt *tt_build(const char *text, const char *refs, atrc_profile profile)
{
    tt *t = tt_parse(text, refs, profile);
    if (t->f) {
        atr_binder b = {&t->refs, tt_bind};
        t->built = atr_build(t->f, "x", t->src, &b, profile_get(profile), &t->a, &t->d, &t->tree) == 0;
    }
    return t;
}

static inline void tt_free(tt *t)
{
    arena_free_all(&t->a);
    diag_free(&t->d);
    source_free(t->src);
    outbuf_free(&t->refs.bound);
    outbuf_free(&t->out);
    free(t);
}

/* "x.atr:3:5: error: bad token" lines, each ending in '\n'. */
static inline const char *tt_diags(tt *t)
{
    t->out.len = 0;
    for (size_t i = 0; i < t->d.count; i++) {
        const diag *g = &t->d.items[i];
        const char *sev = g->severity == DIAG_ERROR ? "error" : "warning";
        if (g->src) outbuf_printf(&t->out, "%s:%d:%d: %s: %s\n", g->src->path, g->line, g->col, sev, g->message);
        else outbuf_printf(&t->out, "atrc: %s: %s\n", sev, g->message);
    }
    return tb_str(&t->out);
}

static inline void tt_render_node(outbuf *b, const atr_node *n)
{
    /* Recursion is fine here: test trees are small. */
    outbuf_printf(b, "%s", n->name);
    if (n->is_container) {
        if (n->flags) outbuf_printf(b, ":%x", n->flags);
        outbuf_printf(b, "(");
        for (const atr_node *c = n->first; c; c = c->next) {
            if (c != n->first) outbuf_printf(b, " ");
            tt_render_node(b, c);
        }
        outbuf_printf(b, ")");
    }
}

/* The parsed tree in engine order: "root(e b(d c) a)"; ":9" after a name = flags. */
static inline const char *tt_parsed(tt *t)
{
    t->out.len = 0;
    if (!t->f) return "(null)";
    tt_render_node(&t->out, t->f->root);
    return tb_str(&t->out);
}

/* One line per node: "0 root parent=- n=2 first=1 flags=0" (leaves: "1 e parent=0 n=0"). */
static inline const char *tt_tree(tt *t)
{
    t->out.len = 0;
    for (int i = 0; i < t->tree.node_count; i++) {
        const atrc_node *n = &t->tree.nodes[i];
        if (n->parent < 0) outbuf_printf(&t->out, "%d %s parent=-", i, n->name);
        else outbuf_printf(&t->out, "%d %s parent=%d", i, n->name, n->parent);
        if (n->child_count) outbuf_printf(&t->out, " n=%d first=%d flags=%x", n->child_count, n->first_child,
                                 atr_runtime_flags(&t->tree, i));
        else outbuf_printf(&t->out, " n=0");
        if (n->looping >= 0) outbuf_printf(&t->out, " loop=%d", n->looping);
        outbuf_printf(&t->out, "\n");
    }
    return tb_str(&t->out);
}

#endif
