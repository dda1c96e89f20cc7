/* What the files of `atrc diff` share (diff.c, diff_load.c, diff_compare.c):
** the two runs as read from their JSON, the differ that compares them, and
** the small tools both sides use.  Private to them; the API is atrc.h's
** atrc_diff_* and diff.h. */
#ifndef ATRC_DIFF_INTERNAL_H
#define ATRC_DIFF_INTERNAL_H
#include "atrc.h"
#include "base/arena.h"
#include "output/diff_cause.h"
#include "base/hashtab.h"
#include "base/outbuf.h"
#include "base/source.h"
#include "base/vec.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- small tools: length-counted strings, a growable text buffer, a hash map ---- */

typedef struct dstr {
    const char *s; /* NULL: JSON null */
    size_t n;
} dstr;

static inline int dstr_eq(dstr a, dstr b)
{
    if (!a.s || !b.s) return !a.s && !b.s;
    return a.n == b.n && memcmp(a.s, b.s, a.n) == 0;
}

/* Byte order of two non-null strings (a shorter prefix first). */
static inline int dstr_cmp(dstr a, dstr b)
{
    size_t n = a.n < b.n ? a.n : b.n;
    int c = n ? memcmp(a.s, b.s, n) : 0;
    return c ? c : a.n < b.n ? -1 : a.n > b.n;
}

static inline int dstr_is(dstr a, const char *s)
{
    return a.s && a.n == strlen(s) && memcmp(a.s, s, a.n) == 0;
}

/* A name for people: control bytes (a hostile file's newlines) as \xNN, so
** that one change stays one line. */
static inline void sb_name(outbuf *b, dstr s)
{
    if (!s.s) {
        outbuf_str(b, "(null)");
        return;
    }
    for (size_t i = 0; i < s.n; i++) {
        unsigned char c = (unsigned char)s.s[i];
        if (c < 0x20 || c == 0x7F || c == '\\') outbuf_printf(b, "\\x%02x", c);
        else outbuf_put(b, s.s + i, 1);
    }
}

/* The hash of a (tag, bytes) key: the bytes' text_hash_bytes, the tag's
** bits mixed in. */
static inline uint32_t hash_bytes(uint64_t tag, const char *s, size_t n)
{
    return text_hash_bytes(s, n) ^ (uint32_t)(tag * 0x9E3779B97F4A7C15ull >> 32);
}

#define NONE UINT32_MAX

typedef struct hent {
    uint64_t tag;
    const char *key;
    size_t klen;
    uint32_t dup_next;   /* node interner: the next node with the same key */
    uint32_t last[2];    /* node interner: the dup used last by each run */
    long a, b;           /* payload */
} hent;

typedef struct hmap {
    VEC(hent) entries;
    hashtab index;       /* entries by (tag, key) */
} hmap;

static inline void hmap_free(hmap *m)
{
    VEC_FREE(m->entries);
    hashtab_free(&m->index);
    memset(m, 0, sizeof *m);
}

static inline void hmap_clear(hmap *m)
{
    m->entries.count = 0;
    hashtab_clear(&m->index);
}

/* What hmap_find seeks. */
typedef struct hkey {
    uint64_t tag;
    const char *key;
    size_t klen;
} hkey;

static inline int hent_matches(const void *entries, size_t i, const void *key)
{
    const hkey *k = key;
    const hent *e = &((const hent *)entries)[i];
    return e->tag == k->tag && e->klen == k->klen && memcmp(e->key, k->key, k->klen) == 0;
}

static inline uint32_t hmap_find(const hmap *m, uint64_t tag, const char *key, size_t klen)
{
    const hkey k = {tag, key, klen};
    size_t i = hashtab_find(&m->index, hash_bytes(tag, key, klen), m->entries.items, &k, hent_matches);
    return i == HASHTAB_END ? NONE : (uint32_t)i;
}

/* A new entry; hmap_find finds it only when `found`: the interner's
** duplicates, reached through dup_next, are linked into no chain. */
static inline uint32_t hmap_add(hmap *m, arena *a, uint64_t tag, const char *key, size_t klen, int found)
{
    uint32_t i = (uint32_t)(found ? hashtab_add(&m->index, hash_bytes(tag, key, klen))
                                  : hashtab_add_unlinked(&m->index));
    hent *e = VEC_PUSH(m->entries);
    memset(e, 0, sizeof *e);
    e->tag = tag;
    e->key = klen ? arena_strndup(a, key, klen) : "";
    e->klen = klen;
    e->dup_next = NONE;
    e->last[0] = e->last[1] = NONE;
    return i;
}

/* A composite key of strings (each may be null or hold NUL bytes). */
static inline void key_part(outbuf *k, dstr s)
{
    uint32_t n = s.s ? (uint32_t)s.n : NONE;
    outbuf_put(k, (const char *)&n, sizeof n);
    if (s.s) outbuf_put(k, s.s, s.n);
}

/* ---- a run, as read from its JSON ---- */

typedef struct dnode {
    dstr name;
    int parent;          /* -1 for node 0 */
    int child_count;
    long flags;          /* -1 for a leaf */
    int looping;         /* -1 null or absent */
    uint32_t id;         /* identity across the two runs */
    dstr *notes;         /* a leaf's notetrack names, sorted bytewise (JSON "notetracks") */
    int note_count;      /* -1: absent (xanims not read, or not readable) */
} dnode;

typedef struct dtree {
    dstr name, file;
    dstr game_file;      /* where the game finds it ("animtrees/x.atr"); NULL in older documents */
    int index;
    int built;           /* checksum not null */
    uint32_t checksum;
    dnode *nodes;
    int node_count;
    dstr *pruned;        /* --show-pruned entries */
    int pruned_count;
    int other;           /* position of the same tree in the other run, or -1 */
    dstr first_file;     /* the script that registered it (level mode), or first referenced it */
    int registered_by;   /* first_file comes from "scripts" */
} dtree;

enum { REF_ANIM, REF_ANIMTREE, REF_ENGINE, REF_OTHER };

typedef struct dref {
    dstr file, tree, name, kind_name;
    dstr script;         /* game-relative script name; NULL in older documents */
    int kind;
    long line, col;      /* 0 when null */
    int64_t value;       /* -1: null */
    int developer;
    long other;          /* matched reference of the other run, or -1 */
} dref;

typedef struct drun {
    const char *path;
    source_file *src;
    dstr profile;
    dtree *trees;
    int tree_count;
    dref *refs;
    size_t ref_count;
    long errors, warnings;
    int has_scripts;     /* every reference with a file has its "script" name */
    hmap refset;         /* (tree, name) of every anim/engine reference; payload a: the first one */
    hmap pruned;         /* (tree, name) of every node listed as pruned (--show-pruned) */
    hmap defined;        /* (tree, name) of every node of a built tree */
} drun;

typedef struct differ {
    arena mem;
    drun run[2];
    atrc_format format;
    FILE *out, *err;
    long changes;
    outbuf line, reason, key; /* strings */
    hmap ids;            /* node identities */
    int by_script;       /* both runs name scripts: references match by game-relative name */
    diff_causes causes;  /* what caused the changes */
    uint32_t cause;      /* the cause of the change being written */
    int counting;        /* first pass: count the causes, write nothing */
    outbuf ctext;        /* a cause's text */
    hmap set_causes;     /* tree name -> the cause refset_cause found for it (a: index, or NONE) */
    char *bad;           /* message of the first schema error */
    size_t bad_off;
    int bad_run;
} differ;

static inline void refset_key(differ *d, dstr tree, dstr name)
{
    outbuf_flush(&d->key);
    key_part(&d->key, tree);
    key_part(&d->key, name);
}

static inline int in_set(differ *d, hmap *set, dstr tree, dstr name)
{
    refset_key(d, tree, name);
    return hmap_find(set, 0, d->key.s, d->key.len) != NONE;
}

static inline void add_to_set(differ *d, hmap *set, dstr tree, dstr name, long first)
{
    refset_key(d, tree, name);
    if (hmap_find(set, 0, d->key.s, d->key.len) != NONE) return;
    uint32_t h = hmap_add(set, &d->mem, 0, d->key.s, d->key.len, 1);
    set->entries.items[h].a = first;
}

static inline int find_tree(const drun *r, dstr name)
{
    for (int i = 0; i < r->tree_count; i++)
        if (dstr_eq(r->trees[i].name, name)) return i;
    return -1;
}

/* A change's old or new value. */
typedef struct dval {
    int type;            /* 0 null, 1 integer, 2 string */
    int64_t i;
    dstr s;
} dval;

static inline dval v_int(int64_t i)
{
    dval v = {i < 0 ? 0 : 1, i, {NULL, 0}};
    return v;
}

static inline dval v_str(dstr s)
{
    dval v = {s.s ? 2 : 0, 0, s};
    return v;
}

/* ---- between the files ---- */

/* diff_load.c: reads one run out of src (which the differ owns from now
** on): 0, or -1 with the error written to d->err; a tree as a run of its
** own (the reasoning of diff.h). */
int diff_load_file(differ *d, int run, const char *name, source_file *src);
void diff_tree_as_run(differ *d, int run, const atrc_tree *t, const char *profile);

/* diff_compare.c: one pass of the comparison (d->counting: count what each
** cause moved and write nothing). */
void diff_compare_runs(differ *d);

/* diff_compare.c's comparison of one tree in both runs, which diff_node.c
** runs on a tree against another: a pair's nodes matched and numbered
** (pair_prepare), the cause of each gone and added node (pair_causes), every
** move explained (compare_nodes, the reasons in p->reason); node_clause
** says what node k of `run` is to the other run (relation: 1 sibling, 2
** cousin of the node explained; bare: the node is the line's subject). */
typedef struct tree_pair {
    const dtree *t[2];
    int *pos[2];         /* node identity -> index in each run, -1 */
    int *gone, *added;   /* old indices gone, new indices added, ascending */
    int gone_count, added_count;
    char **reason;       /* by new index: why the node moved, NULL if it did not */
    uint32_t *cause[2];  /* by index in each run: the cause of a node gone (0), added or moved (1) */
    uint32_t *kid_cause[2]; /* by index: the cause of a surviving parent's gone (0) or added (1) children */
    uint32_t content;    /* the cause of changes in the tree's content (the file it is read from), or CAUSE_NONE */
    uint32_t tree_move;  /* the cause of the tree's new registry index, or CAUSE_NONE */
    int *name_count;     /* by identity: how many nodes of both runs share its name (for paths) */
} tree_pair;
void pair_prepare(differ *d, tree_pair *p);
void pair_causes(differ *d, tree_pair *p);
void compare_nodes(differ *d, tree_pair *p);
void node_clause(differ *d, outbuf *b, const tree_pair *p, int run, int k, int relation, int bare);
void free_pair(tree_pair *p);
/* diff.c: a change begun (d->line and d->reason empty, no cause yet) and
** written (text is d->line, and ": " d->reason when there is one), counted
** under d->cause when d->counting; the differ freed. */
void diff_begin_change(differ *d);
void diff_emit_change(differ *d, const char *kind, dstr tree, dstr name, dval old, dval new_, const dref *pos,
                      const dref *old_pos);
void diff_free(differ *d);

#endif
