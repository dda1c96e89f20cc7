/* The .atr reader: the engine's space-delimited tokenizer (stock-behavior.md
** section 1), the per-level parser state machine (2.2) and pruning against
** the reference set (3).  The engine recurses once per block; here the levels
** live on an explicit stack so that hostile nesting cannot exhaust the C
** stack.  Duplicate names per level are found through one hash table keyed by
** (level, name), so the whole parse is linear in the input. */
#include "game/profile.h"
#include "tree/atr.h"
#include "base/text.h"
#include "tree/com_token.h"
#include "base/hashtab.h"
#include "base/vec.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int tok_is_identifier(const com_tokenizer *tz)
{
    return text_is_identifier(tz->tok, tz->tok_len);
}

/* Property keywords (2.5).  Returns the bit, or 0 for an unknown keyword. */
static unsigned property_bit(const char *tok, const profile_rules *rules)
{
    if (text_equal_nocase(tok, "loopsync")) return ATRC_FLAG_LOOPSYNC;
    if (text_equal_nocase(tok, "nonloopsync")) return ATRC_FLAG_NONLOOPSYNC;
    if (text_equal_nocase(tok, "complete")) return ATRC_FLAG_COMPLETE;
    if (rules->atr_additive && text_equal_nocase(tok, "additive")) return ATRC_FLAG_ADDITIVE;
    return 0;
}

/* ---- parsed nodes and the (level, name) hash ---- */

typedef struct pnode {
    atr_node n;           /* first member: a pnode is used as an atr_node */
    struct pnode *parent;
    uint32_t id;
    int named;            /* found by table_find: added, not removed */
} pnode;

/* Every named node added, looked up by (parent, name); a removed node stays,
** no longer found. */
typedef struct name_table {
    VEC(pnode *) nodes;
    hashtab index;
} name_table;

static uint32_t name_hash(uint32_t parent_id, const char *name)
{
    return text_hash(parent_id, name, 0);
}

/* A named node sought: its parent and its name. */
typedef struct node_key {
    const pnode *parent;
    const char *name;
} node_key;

static int node_matches(const void *nodes, size_t i, const void *key)
{
    const node_key *k = key;
    const pnode *p = ((pnode *const *)nodes)[i];
    return p->named && p->parent == k->parent && strcmp(p->n.name, k->name) == 0;
}

static pnode *table_find(const name_table *t, const pnode *parent, const char *name)
{
    const node_key k = {parent, name};
    size_t i = hashtab_find(&t->index, name_hash(parent->id, name), t->nodes.items, &k, node_matches);
    return i == HASHTAB_END ? NULL : t->nodes.items[i];
}

static void table_insert(name_table *t, pnode *p)
{
    hashtab_add(&t->index, name_hash(p->parent->id, p->n.name));
    *VEC_PUSH(t->nodes) = p;
    p->named = 1;
}

/* ---- parser ---- */

/* One invocation of the engine's per-level routine (2.2). */
typedef struct level {
    pnode *container;
    int add_placeholder;
    int placeholder_loops;
    int forced;
    pnode *last_name;
    pnode *current;
    unsigned flags;
    int missing;
} level;

typedef struct parser {
    com_tokenizer tz;
    arena *a;
    name_table names;
    uint32_t next_id;
    VEC(level) levels;   /* levels.items[levels.count-1] is the current level */
    int keep_pruned;
    VEC(atr_node *) pruned; /* removed nodes when keep_pruned (malloc, copied to the arena) */
} parser;

static pnode *new_pnode(parser *p, const char *name, pnode *parent)
{
    pnode *n = arena_zalloc(p->a, sizeof *n);
    n->n.name = n->n.spelling = name;
    n->n.parent = parent ? &parent->n : NULL;
    n->parent = parent;
    n->id = p->next_id++;
    n->n.order = n->id;
    return n;
}

/* Prepends: the engine's child lists are most-recently-created first. */
static void add_child(pnode *parent, pnode *child)
{
    child->n.next = parent->n.first;
    parent->n.first = &child->n;
    parent->n.child_count++;
}

/* Unlinks a child.  The parser only ever removes the newest child of a level,
** which is the head of the list, so this is O(1) in practice. */
static void remove_child(parser *p, pnode *child)
{
    pnode *parent = child->parent;
    atr_node **pp = &parent->n.first;
    while (*pp && *pp != &child->n) pp = &(*pp)->next;
    if (!*pp) return;
    *pp = child->n.next;
    child->n.next = NULL;
    parent->n.child_count--;
    child->named = 0;
    if (p->keep_pruned) {
        child->n.pruned = 1;
        *VEC_PUSH(p->pruned) = &child->n;
    }
}

static void push_level(parser *p, pnode *container, int add_placeholder, int loops, int forced)
{
    level *l = VEC_PUSH(p->levels);
    memset(l, 0, sizeof *l);
    l->container = container;
    l->add_placeholder = add_placeholder;
    l->placeholder_loops = loops;
    l->forced = forced;
}

/* What the engine does after a level's loop: drop a trailing missing name,
** then give a kept but empty level its placeholder (3.3). */
static void finish_level(parser *p, level *l)
{
    if (l->missing && l->last_name) remove_child(p, l->last_name);
    l->missing = 0;
    if (l->add_placeholder && l->container->n.child_count == 0) {
        pnode *ph = new_pnode(p, l->placeholder_loops ? "void_loop" : "void", l->container);
        ph->n.placeholder = 1;
        add_child(l->container, ph);
    }
}

static void parse_error(parser *p, const char *msg)
{
    int line = 1, col = 1;
    source_position(p->tz.src, p->tz.last_tok, &line, &col);
    diag_add(p->tz.diags, DIAG_ERROR, p->tz.src, line, col, "%s", msg);
}

/* Runs the state machine; returns 0 on success, -1 after reporting the error. */
static int run_parser(parser *p, const atr_refs *refs, int anim_check, const profile_rules *rules)
{
    com_tokenizer *tz = &p->tz;
    for (;;) {
        level *l = &p->levels.items[p->levels.count - 1];
        if (!com_next_token(tz, 1)) { /* Com_Parse is empty only at the end of the text */
            finish_level(p, l);
            if (p->levels.count > 1) {
                parse_error(p, "unexpected end of file");
                return -1;
            }
            return 0;
        }
        if (tok_is_identifier(tz)) {
            if (l->missing) remove_child(p, l->last_name);
            char *name = arena_lower(p->a, tz->tok, tz->tok_len);
            int twice = table_find(&p->names, l->container, name) != NULL;
            if (twice && anim_check != ATR_DECLARED_ALL) {
                parse_error(p, "duplicate animation");
                return -1;
            }
            pnode *n = new_pnode(p, name, l->container);
            if (memcmp(name, tz->tok, tz->tok_len) != 0) n->n.spelling = arena_strndup(p->a, tz->tok, tz->tok_len);
            source_position(tz->src, tz->last_tok, &n->n.line, &n->n.col);
            add_child(l->container, n);
            if (twice) { /* listed as declared, linked into no chain (no chain grows with repeats) */
                hashtab_add_unlinked(&p->names.index);
                *VEC_PUSH(p->names.nodes) = n;
            } else {
                table_insert(&p->names, n);
            }
            l->last_name = l->current = n;
            l->missing = !l->forced && !anim_check &&
                         !(refs && refs->contains && refs->contains(refs->ud, name));
            l->flags = 0;
            if (!com_next_token(tz, 0)) continue; /* a leaf line */
            if (tok_is_identifier(tz)) {
                parse_error(p, "FIXME: aliases not yet implemented");
                return -1;
            }
            if (!com_tok_is(tz, ":")) {
                parse_error(p, "bad token");
                return -1;
            }
            while (com_next_token(tz, 0)) {
                unsigned bit = property_bit(tz->tok, rules);
                if (!bit) {
                    parse_error(p, "unknown anim property");
                    return -1;
                }
                l->flags |= bit;
            }
            if (!com_next_token(tz, 1) || !com_tok_is(tz, "{")) {
                parse_error(p, "properties cannot be applied to primitive animations");
                return -1;
            }
            /* falls through to the '{' with this level's flags */
        }
        if (tz->tok[0] == '{') {
            if (tz->tok_len > 1) {
                parse_error(p, "bad token");
                return -1;
            }
            if (com_next_token(tz, 0)) {
                parse_error(p, "token not allowed after '{'");
                return -1;
            }
            if (!l->current) {
                parse_error(p, "no animation specified for this block");
                return -1;
            }
            l->current->n.is_container = 1;
            int forced = l->forced || ((l->flags & ATRC_FLAG_COMPLETE) && !l->missing);
            push_level(p, l->current, !l->missing, (l->flags & ATRC_FLAG_LOOPSYNC) != 0, forced);
            continue;
        }
        if (tz->tok[0] == '}') {
            if (tz->tok_len > 1) {
                parse_error(p, "bad token");
                return -1;
            }
            if (com_next_token(tz, 0)) {
                parse_error(p, "token not allowed after '}'");
                return -1;
            }
            if (p->levels.count == 1) { /* a '}' with no open block */
                parse_error(p, "bad token");
                return -1;
            }
            finish_level(p, l);
            p->levels.count--;
            level *up = &p->levels.items[p->levels.count - 1];
            pnode *c = up->current;
            if (c->n.child_count == 0) remove_child(p, c);
            else c->n.flags = up->flags;
            up->current = NULL;
            up->missing = 0;
            continue;
        }
        parse_error(p, "bad token");
        return -1;
    }
}

atr_file *atr_parse(source_file *src, const atr_refs *refs, int anim_check,
                    const profile_rules *rules, arena *a, diag_list *diags)
{
    parser p;
    memset(&p, 0, sizeof p);
    p.a = a;
    p.tz.data = src->data;
    p.tz.src = src;
    p.tz.diags = diags;
    p.tz.escape_backslash = rules->atr_escape_backslash;
    p.keep_pruned = refs && refs->keep_pruned;

    size_t text_len = strlen(src->data);
    if (text_len < src->len) {
        int line, col;
        source_position(src, text_len, &line, &col);
        diag_add(diags, DIAG_WARNING, src, line, col,
                 "NUL byte ends the animation tree (the engine ignores the rest of the file)");
    }

    hashtab_reserve(&p.names.index, 128);
    VEC_RESERVE(p.names.nodes, 128);
    pnode *root = new_pnode(&p, "root", NULL);
    root->n.is_container = 1;
    push_level(&p, root, 1, 0, 0);
    int rc = run_parser(&p, refs, anim_check, rules);
    VEC_FREE(p.levels);
    VEC_FREE(p.names.nodes);
    hashtab_free(&p.names.index);
    atr_file *f = rc == 0 ? arena_zalloc(a, sizeof *f) : NULL;
    if (f) {
        f->root = &root->n;
        f->pruned_count = p.pruned.count;
        if (p.pruned.count) {
            f->pruned = arena_alloc(a, array_size(p.pruned.count, sizeof *f->pruned));
            memcpy(f->pruned, p.pruned.items, array_size(p.pruned.count, sizeof *f->pruned));
        }
    }
    VEC_FREE(p.pruned);
    return f;
}
