/* `atrc diff`'s comparison: what changed between two runs, and why.
**
** A node is identified across the runs by its path of names from the root
** (interned as (parent identity, name), so deep trees cost nothing extra).
** The engine's index of a node is the number of nodes laid out before it
** (stock-behavior.md 4.3/4.4), so a node moved from o to n exactly because
** nodes laid out before it disappeared, appeared, or changed sides:
**     n - o = added_before - gone_before + came_before - went_after.
** The first two sets are prefixes of the gone/added lists; the side changes
** are counted with a Fenwick tree, so the whole comparison is n log n. */
#include "output/diff_internal.h"
#include "output/diff.h"

#include <inttypes.h>

/* ---- causes (diff_cause.h): what one reference, tree or option change moved ---- */

/* The cause (tag, tree, name); a new one gets kind and, from the caller,
** its text in d->ctext, which cause_done keeps. */
static uint32_t cause_begin(differ *d, const char *tag, const char *kind, dstr tree, dstr name, int *is_new)
{
    outbuf_flush(&d->key);
    dstr t = {tag, strlen(tag)};
    key_part(&d->key, t);
    key_part(&d->key, tree);
    key_part(&d->key, name);
    uint32_t i = causes_intern(&d->causes, d->key.s, d->key.len, is_new);
    if (*is_new) {
        diff_cause *c = &d->causes.list.items[i];
        c->kind = kind;
        c->tree = tree.s ? arena_strndup(&d->mem, tree.s, tree.n) : NULL;
        c->tree_len = tree.n;
        c->name = name.s ? arena_strndup(&d->mem, name.s, name.n) : NULL;
        c->name_len = name.n;
    }
    outbuf_flush(&d->ctext);
    outbuf_str(&d->ctext, "");
    return i;
}

static uint32_t cause_done(differ *d, uint32_t i, int is_new)
{
    if (is_new) d->causes.list.items[i].text = arena_strdup(&d->mem, d->ctext.s);
    return i;
}

static void sb_where(outbuf *b, const dref *r)
{
    sb_name(b, r->file);
    outbuf_printf(b, ":%ld:%ld", r->line, r->col);
}

static const char *const flag_words[5];

/* `%name` left the reference set of the tree (run 0: it had it) or joined
** it.  group: its node, a group both runs have, whose nodes below it went
** (or came) with it; else NULL. */
static uint32_t ref_cause_as(differ *d, int run, dstr tree, dstr name, const dnode *group)
{
    int is_new;
    uint32_t i = cause_begin(d, run == 0 ? "unreferenced" : "referenced", "reference", tree, name, &is_new);
    if (!is_new) return i;
    outbuf *b = &d->ctext;
    sb_name(b, tree);
    outbuf_str(b, ": %");
    sb_name(b, name);
    outbuf_str(b, run == 0 ? " is no longer referenced" : " is newly referenced");
    refset_key(d, tree, name);
    uint32_t h = hmap_find(&d->run[run].refset, 0, d->key.s, d->key.len);
    const dref *r = h != NONE ? &d->run[run].refs[d->run[run].refset.entries.items[h].a] : NULL;
    if (r && r->file.s) {
        outbuf_str(b, run == 0 ? " (was " : " (");
        sb_where(b, r);
        outbuf_str(b, ")");
    }
    /* The consequence only when the two runs show it: its node gone from the
    ** new tree (or new in it); else it stays, kept by what is still referenced. */
    int o = find_tree(&d->run[1 - run], tree);
    if (group) {
        outbuf_str(b, "; its group");
        int words = 0;
        for (int f = 0; f < 5; f++)
            if (flag_words[f] && group->flags > 0 && (group->flags & (1L << f)))
                outbuf_printf(b, "%s%s", words++ ? " " : " (", flag_words[f]);
        outbuf_str(b, words ? ")" : "");
        outbuf_str(b, run == 0 ? " stays, but no longer keeps the nodes below it that nothing else references"
                               : " now keeps nodes below it that nothing else references");
    } else if (o >= 0 && d->run[1 - run].trees[o].built) {
        if (!in_set(d, &d->run[1 - run].defined, tree, name))
            outbuf_str(b, run == 0 ? ", so it is pruned" : ", so it is kept");
        else
            outbuf_str(b, run == 0 ? "; its node stays in the tree (what is still referenced keeps it)"
                                   : "; its node was in the tree already");
    }
    return cause_done(d, i, is_new);
}

static uint32_t ref_cause(differ *d, int run, dstr tree, dstr name)
{
    return ref_cause_as(d, run, tree, name, NULL);
}

/* Tree t of run `run` is registered only in that run. */
static uint32_t tree_cause(differ *d, int run, const dtree *t)
{
    int is_new;
    dstr none = {NULL, 0};
    uint32_t i = cause_begin(d, run == 1 ? "tree-added" : "tree-removed", "tree", t->name, none, &is_new);
    if (!is_new) return i;
    outbuf *b = &d->ctext;
    outbuf_str(b, "tree '");
    sb_name(b, t->name);
    outbuf_printf(b, run == 1 ? "' is newly registered (index %d" : "' is no longer registered (was index %d", t->index);
    if (run == 1 && t->first_file.s) {
        outbuf_str(b, t->registered_by ? ", by " : ", first used in ");
        sb_name(b, t->first_file);
    }
    outbuf_str(b, ")");
    return cause_done(d, i, is_new);
}

/* Causes with no subject but their tag: "profile", "tree-order", ... */
static uint32_t plain_cause(differ *d, const char *tag, const char *kind, dstr tree, const char *text)
{
    int is_new;
    dstr none = {NULL, 0};
    uint32_t i = cause_begin(d, tag, kind, tree, none, &is_new);
    if (!is_new) return i;
    if (tree.s) {
        outbuf_str(&d->ctext, "tree '");
        sb_name(&d->ctext, tree);
        outbuf_str(&d->ctext, "': ");
    }
    outbuf_str(&d->ctext, text);
    if (strcmp(tag, "profile") == 0) {
        outbuf_str(&d->ctext, " from ");
        sb_name(&d->ctext, d->run[0].profile);
        outbuf_str(&d->ctext, " to ");
        sb_name(&d->ctext, d->run[1].profile);
    }
    return cause_done(d, i, is_new);
}

/* "tree 'x' is read from NEW (was OLD)" */
static void sb_tree_file(outbuf *b, const dtree *w, const dtree *t)
{
    outbuf_str(b, "tree '");
    sb_name(b, t->name);
    outbuf_str(b, "' is read from ");
    sb_name(b, t->file);
    outbuf_str(b, " (was ");
    sb_name(b, w->file);
    outbuf_str(b, ")");
}

/* The tree and name of a reference set entry (refset_key's parts). */
static void set_entry(const hent *e, dstr *tree, dstr *name)
{
    dstr *part[2] = {tree, name};
    const char *p = e->key;
    for (int k = 0; k < 2; k++) {
        uint32_t n;
        memcpy(&n, p, sizeof n);
        p += sizeof n;
        *part[k] = n == NONE ? (dstr){NULL, 0} : (dstr){p, n};
        if (n != NONE) p += n;
    }
}

/* Appends the names of tree `tree` in run's reference set and not in the
** other's ("%a, %b"), at most SET_NAMES_SHOWN of them; returns how many. */
#define SET_NAMES_SHOWN 4
static size_t set_difference(differ *d, outbuf *b, int run, dstr tree)
{
    size_t count = 0;
    const hmap *set = &d->run[run].refset;
    for (size_t i = 0; i < set->entries.count; i++) {
        dstr t, name;
        set_entry(&set->entries.items[i], &t, &name);
        if (!dstr_eq(t, tree) || in_set(d, &d->run[1 - run].refset, t, name)) continue;
        if (count < SET_NAMES_SHOWN) {
            outbuf_str(b, count ? ", %" : "%");
            sb_name(b, name);
        }
        count++;
    }
    if (count > SET_NAMES_SHOWN) outbuf_printf(b, " and %zu more", count - SET_NAMES_SHOWN);
    return count;
}

/* The names that left or joined tree `tree`'s reference set, or CAUSE_NONE
** when the two runs reference the same names in it (once per tree). */
static uint32_t refset_cause(differ *d, dstr tree)
{
    uint32_t h = hmap_find(&d->set_causes, 0, tree.s, tree.n);
    if (h != NONE) return (uint32_t)d->set_causes.entries.items[h].a;
    outbuf text = {0};
    outbuf_str(&text, "tree '");
    sb_name(&text, tree);
    outbuf_str(&text, "': the names its scripts reference changed (no longer: ");
    size_t left = set_difference(d, &text, 0, tree);
    if (!left) outbuf_str(&text, "none");
    outbuf_str(&text, "; newly: ");
    size_t joined = set_difference(d, &text, 1, tree);
    if (!joined) outbuf_str(&text, "none");
    outbuf_str(&text, "), so the nodes they keep changed");
    uint32_t i = CAUSE_NONE;
    if (left || joined) {
        int is_new;
        dstr none = {NULL, 0};
        i = cause_begin(d, "reference-set", "reference", tree, none, &is_new);
        outbuf_str(&d->ctext, text.s);
        i = cause_done(d, i, is_new);
    }
    outbuf_free(&text);
    h = hmap_add(&d->set_causes, &d->mem, 0, tree.s, tree.n, 1);
    d->set_causes.entries.items[h].a = i;
    return i;
}

/* What a change inside tree `tree` owes to no single reference: the profile,
** the names referenced in it, or (the same names giving other nodes) its
** content: the .atr or an option. */
static uint32_t content_cause(differ *d, dstr tree)
{
    if (!dstr_eq(d->run[0].profile, d->run[1].profile))
        return plain_cause(d, "profile", "profile", (dstr){NULL, 0}, "the profile changed");
    uint32_t set = refset_cause(d, tree);
    if (set != CAUSE_NONE) return set;
    int is_new;
    dstr none = {NULL, 0};
    uint32_t i = cause_begin(d, "tree-content", "tree-content", tree, none, &is_new);
    if (!is_new) return i;
    outbuf *b = &d->ctext;
    outbuf_str(b, "tree '");
    sb_name(b, tree);
    outbuf_str(b, "': its nodes changed (the .atr, or an option such as --anim-check)");
    int o = find_tree(&d->run[0], tree), n = find_tree(&d->run[1], tree);
    if (o >= 0 && n >= 0 && !dstr_eq(d->run[0].trees[o].file, d->run[1].trees[n].file)) {
        outbuf_str(b, "; ");
        sb_tree_file(b, &d->run[0].trees[o], &d->run[1].trees[n]);
    }
    return cause_done(d, i, is_new);
}

/* A leaf's xanim changed its notetracks: the change's cause is the asset. */
static uint32_t xanim_cause(differ *d, dstr tree, dstr name)
{
    int is_new;
    uint32_t i = cause_begin(d, "xanim", "xanim", tree, name, &is_new);
    if (!is_new) return i;
    outbuf_str(&d->ctext, "tree '");
    sb_name(&d->ctext, tree);
    outbuf_str(&d->ctext, "': the xanim of '");
    sb_name(&d->ctext, name);
    outbuf_str(&d->ctext, "' changed its notetracks");
    return cause_done(d, i, is_new);
}

/* The notetracks that appeared in or vanished from a leaf whose notetracks
** both runs list (merged over the sorted names; a name listed twice counts
** as often as it is listed). */
static void note_changes(differ *d, dstr tree, const dnode *on, const dnode *nn)
{
    if (on->note_count < 0 || nn->note_count < 0) return;
    int i = 0, k = 0;
    while (i < on->note_count || k < nn->note_count) {
        int c = i == on->note_count ? 1 : k == nn->note_count ? -1 : dstr_cmp(on->notes[i], nn->notes[k]);
        if (!c) {
            i++, k++;
            continue;
        }
        dstr note = c < 0 ? on->notes[i++] : nn->notes[k++];
        diff_begin_change(d);
        sb_name(&d->line, tree);
        outbuf_str(&d->line, ": ");
        sb_name(&d->line, nn->name);
        outbuf_str(&d->line, c < 0 ? " lost its notetrack \"" : " gained a notetrack \"");
        sb_name(&d->line, note);
        outbuf_str(&d->line, "\" (its xanim changed)");
        d->cause = xanim_cause(d, tree, nn->name);
        dstr none = {NULL, 0};
        diff_emit_change(d, c < 0 ? "notetrack-removed" : "notetrack-added", tree, nn->name,
                         v_str(c < 0 ? note : none), v_str(c < 0 ? none : note), NULL, NULL);
    }
}

/* The script a reference is in, as the runs are matched. */
static dstr ref_script(const differ *d, const dref *r)
{
    return d->by_script ? r->script : r->file;
}

static uint32_t script_cause(differ *d, const dref *r)
{
    int is_new;
    dstr none = {NULL, 0};
    uint32_t i = cause_begin(d, "script", "script", none, ref_script(d, r), &is_new);
    if (!is_new) return i;
    if (r->file.s) {
        outbuf_str(&d->ctext, "the references of ");
        sb_name(&d->ctext, ref_script(d, r));
        outbuf_str(&d->ctext, " changed");
    } else {
        outbuf_str(&d->ctext, "the engine's references (--engine-anim) changed");
    }
    return cause_done(d, i, is_new);
}

static const char *const flag_words[5] = {"loopsync", "nonloopsync", NULL, "complete", "additive"};

static void sb_flags(outbuf *b, long f)
{
    outbuf_printf(b, "%ld", f);
    int any = 0;
    for (int i = 0; i < 5; i++)
        if (flag_words[i] && (f & (1L << i))) {
            outbuf_printf(b, "%s%s", any ? " " : " (", flag_words[i]);
            any = 1;
        }
    outbuf_str(b, any ? ")" : " (none)");
}

/* ---- trees ---- */


/* Why tree t (old position i, new position j) has another registry index:
** the trees registered before it in each run. */
static void tree_reason(differ *d, outbuf *b, int i, int j)
{
    const drun *o = &d->run[0], *n = &d->run[1];
    int named = 0, more = 0;
    for (int k = 0; k < j; k++) {
        const dtree *u = &n->trees[k];
        if (u->other >= 0 && u->other < i) continue;
        if (named == 3) {
            more++;
            continue;
        }
        outbuf_str(b, named ? "; " : "");
        outbuf_str(b, "'");
        sb_name(b, u->name);
        if (u->other < 0) outbuf_printf(b, "' (index %d) is newly registered before it", u->index);
        else outbuf_printf(b, "' (index %d, was %d) is now registered before it", u->index, u->other + 1);
        if (u->first_file.s) {
            outbuf_str(b, u->registered_by ? ", by " : ", first used in ");
            sb_name(b, u->first_file);
        }
        named++;
    }
    for (int k = 0; k < i; k++) {
        const dtree *u = &o->trees[k];
        if (u->other >= 0 && u->other < j) continue;
        if (named == 3) {
            more++;
            continue;
        }
        outbuf_str(b, named ? "; " : "");
        outbuf_str(b, "'");
        sb_name(b, u->name);
        if (u->other < 0) outbuf_printf(b, "' (index %d) is no longer registered", u->index);
        else outbuf_printf(b, "' (index %d, now %d) is now registered after it", u->index, u->other + 1);
        named++;
    }
    if (more) outbuf_printf(b, "; and %d more tree%s", more, more == 1 ? "" : "s");
}

/* ---- nodes ---- */

static uint32_t intern_node(differ *d, int run, uint32_t parent_id, dstr name)
{
    uint32_t h = hmap_find(&d->ids, parent_id, name.s, name.n);
    if (h == NONE) h = hmap_add(&d->ids, &d->mem, parent_id, name.s, name.n, 1);
    uint32_t last = d->ids.entries.items[h].last[run];
    uint32_t e = last == NONE ? h : d->ids.entries.items[last].dup_next;
    if (e == NONE) {
        e = hmap_add(&d->ids, &d->mem, parent_id, name.s, name.n, 0);
        d->ids.entries.items[last].dup_next = e;
    }
    d->ids.entries.items[h].last[run] = e;
    return e;
}

static int is_placeholder(const dtree *t, int k)
{
    const dnode *n = &t->nodes[k];
    return k > 0 && n->child_count == 0 && (dstr_is(n->name, "void") || dstr_is(n->name, "void_loop")) &&
           t->nodes[n->parent].child_count == 1;
}


/* "'run' (node 9) is no longer referenced and was pruned", for a node of run
** `run` that the other run lacks. */
/* bare: the node is the subject of the line already ("it is ..."). */
/* relation: 1 sibling, 2 cousin of the node whose move is explained, else 0. */
void node_clause(differ *d, outbuf *b, const tree_pair *p, int run, int k, int relation, int bare)
{
    const dtree *t = p->t[run];
    const dtree *other = p->t[1 - run];
    const dnode *n = &t->nodes[k];
    if (is_placeholder(t, k)) {
        if (bare) {
            outbuf_str(b, "it is a placeholder: ");
        } else {
            outbuf_str(b, "the placeholder '");
            sb_name(b, n->name);
            outbuf_printf(b, "' (node %d) ", k);
        }
        if (!bare) outbuf_str(b, run == 0 ? "is gone: " : "was added: ");
        outbuf_str(b, run == 0 ? "'" : "every child of '");
        sb_name(b, t->nodes[n->parent].name);
        outbuf_str(b, run == 0 ? "' keeps a child again" : "' was pruned");
        return;
    }
    if (bare) {
        outbuf_str(b, "it ");
    } else {
        if (relation) outbuf_str(b, relation == 1 ? "sibling " : "cousin ");
        outbuf_str(b, "'");
        sb_name(b, n->name);
        outbuf_printf(b, "' (node %d) ", k);
    }
    int ref_here = in_set(d, &d->run[run].refset, t->name, n->name);
    int ref_there = in_set(d, &d->run[1 - run].refset, other->name, n->name);
    int pruned_there = in_set(d, &d->run[1 - run].pruned, other->name, n->name);
    if (run == 0) {
        if (ref_here && !ref_there) outbuf_str(b, "is no longer referenced and was pruned");
        else if (pruned_there) outbuf_str(b, "was pruned");
        else outbuf_str(b, "is no longer in the tree");
    } else {
        if (ref_here && !ref_there) outbuf_str(b, "is newly referenced and kept");
        else if (pruned_there) outbuf_str(b, "is no longer pruned");
        else outbuf_str(b, "is new in the tree");
    }
}

/* Largest i with list[i] < v, plus one: how many of the ascending list are below v. */
static int count_below(const int *list, int count, int v)
{
    int lo = 0, hi = count;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (list[mid] < v) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static void separate(outbuf *b, int *named)
{
    if ((*named)++) outbuf_str(b, "; ");
}

/* 1 when nodes a and b of t share their parent, 2 when their parents share theirs. */
static int relation(const dtree *t, int a, int b)
{
    int pa = t->nodes[a].parent, pb = t->nodes[b].parent;
    if (pa < 0 || pb < 0) return 0;
    if (pa == pb) return 1;
    int ga = t->nodes[pa].parent, gb = t->nodes[pb].parent;
    return ga >= 0 && ga == gb ? 2 : 0;
}

static void moved_reason(differ *d, outbuf *b, const tree_pair *p, int o, int n, int gone_before, int added_before,
                         long went_after, long came_before)
{
    const dtree *to = p->t[0], *tn = p->t[1];
    int named = 0;
    /* The nearest ones: the last gone and added nodes laid out before it. */
    int g0 = gone_before > 3 ? gone_before - 3 : 0;
    int a0 = added_before > 3 - (gone_before - g0) ? added_before - (3 - (gone_before - g0)) : 0;
    for (int i = g0; i < gone_before; i++) {
        int k = p->gone[i];
        separate(b, &named);
        node_clause(d, b, p, 0, k, relation(to, k, o), 0);
    }
    for (int i = a0; i < added_before; i++) {
        int k = p->added[i];
        separate(b, &named);
        node_clause(d, b, p, 1, k, relation(tn, k, n), 0);
    }
    if (g0) {
        separate(b, &named);
        outbuf_printf(b, "%d more node%s laid out before it %s gone", g0, g0 == 1 ? "" : "s", g0 == 1 ? "is" : "are");
    }
    if (a0) {
        separate(b, &named);
        outbuf_printf(b, "%d more node%s laid out before it %s new", a0, a0 == 1 ? "" : "s", a0 == 1 ? "is" : "are");
    }
    if (went_after) {
        separate(b, &named);
        outbuf_printf(b, "%ld node%s laid out before it now come%s after it", went_after, went_after == 1 ? "" : "s",
                  went_after == 1 ? "s" : "");
    }
    if (came_before) {
        separate(b, &named);
        outbuf_printf(b, "%ld node%s laid out after it now come%s before it", came_before, came_before == 1 ? "" : "s",
                  came_before == 1 ? "s" : "");
    }
    if ((went_after || came_before) && !dstr_eq(d->run[0].profile, d->run[1].profile)) {
        outbuf_str(b, " (profile ");
        sb_name(b, d->run[0].profile);
        outbuf_str(b, " -> ");
        sb_name(b, d->run[1].profile);
        outbuf_str(b, ": cod4 lays out additive groups after their siblings)");
    }
}

/* "%walk", or "%walk (root/body/walk)" when the name is not unique. */
static void sb_node(differ *d, outbuf *b, const tree_pair *p, int run, int k)
{
    const dtree *t = p->t[run];
    outbuf_str(b, "%");
    sb_name(b, t->nodes[k].name);
    (void)d;
    if (p->name_count[t->nodes[k].id] <= 1) return;
    int chain[8], depth = 0, cut = 0;
    for (int x = k; x > 0; x = t->nodes[x].parent) {
        if (depth == 8) {
            cut = 1;
            break;
        }
        chain[depth++] = x;
    }
    outbuf_str(b, cut ? " (.../" : " (root/");
    for (int i = depth; i-- > 0;) {
        sb_name(b, t->nodes[chain[i]].name);
        outbuf_str(b, i ? "/" : ")");
    }
}

static void fenwick_add(long *f, int n, int i)
{
    for (i++; i <= n; i += i & -i) f[i]++;
}

static long fenwick_sum(const long *f, int i) /* count of entries below i */
{
    long s = 0;
    for (; i > 0; i -= i & -i) s += f[i];
    return s;
}

/* Identities, shared names and the gone and added nodes of a tree pair. */
void pair_prepare(differ *d, tree_pair *p)
{
    const dtree *to = p->t[0], *tn = p->t[1];
    hmap_clear(&d->ids); /* identities are per tree pair */
    for (int run = 0; run < 2; run++) {
        dtree *t = (dtree *)p->t[run];
        for (int k = 0; k < t->node_count; k++) {
            dnode *n = &t->nodes[k];
            if (k == 0) {
                dstr none = {"", 0};
                n->id = intern_node(d, run, NONE, none); /* roots match whatever their name */
            } else {
                n->id = intern_node(d, run, t->nodes[n->parent].id, n->name);
            }
        }
    }
    size_t ids = d->ids.entries.count;
    for (int run = 0; run < 2; run++) {
        p->pos[run] = xmalloc(array_size(ids, sizeof(int)));
        for (size_t i = 0; i < ids; i++) p->pos[run][i] = -1;
        for (int k = 0; k < p->t[run]->node_count; k++) p->pos[run][p->t[run]->nodes[k].id] = k;
    }
    /* Names shared by several nodes get a path in the text. */
    p->name_count = xcalloc(ids, sizeof(int));
    hmap names = {0};
    for (int run = 0; run < 2; run++)
        for (int k = 0; k < p->t[run]->node_count; k++) {
            const dnode *n = &p->t[run]->nodes[k];
            if (run == 1 && p->pos[0][n->id] >= 0) continue;
            uint32_t h = hmap_find(&names, 0, n->name.s, n->name.n);
            if (h == NONE) h = hmap_add(&names, &d->mem, 0, n->name.s, n->name.n, 1);
            names.entries.items[h].a++;
        }
    for (int run = 0; run < 2; run++)
        for (int k = 0; k < p->t[run]->node_count; k++) {
            const dnode *n = &p->t[run]->nodes[k];
            uint32_t h = hmap_find(&names, 0, n->name.s, n->name.n);
            /* A survivor's name is counted under its old spelling (roots match whatever their name). */
            if (h != NONE && names.entries.items[h].a > p->name_count[n->id]) p->name_count[n->id] = (int)names.entries.items[h].a;
        }
    hmap_free(&names);

    p->gone = xmalloc(array_size((size_t)to->node_count + 1, sizeof(int)));
    p->added = xmalloc(array_size((size_t)tn->node_count + 1, sizeof(int)));
    for (int k = 0; k < to->node_count; k++)
        if (p->pos[1][to->nodes[k].id] < 0) p->gone[p->gone_count++] = k;
    for (int k = 0; k < tn->node_count; k++)
        if (p->pos[0][tn->nodes[k].id] < 0) p->added[p->added_count++] = k;
    p->reason = xcalloc((size_t)tn->node_count + 1, sizeof(char *));
}

/* The cause of every gone and added node: a name that left or joined the
** reference set; a group pruned or kept with its children, their cause; a
** placeholder, its siblings'; else the tree's content. */
void pair_causes(differ *d, tree_pair *p)
{
    for (int run = 0; run < 2; run++) {
        const dtree *t = p->t[run], *other = p->t[1 - run];
        const int *list = run == 0 ? p->gone : p->added;
        int count = run == 0 ? p->gone_count : p->added_count;
        size_t n = (size_t)t->node_count + 1;
        uint32_t *c = p->cause[run] = xmalloc(array_size(n, sizeof(uint32_t)));
        uint32_t *kid = p->kid_cause[run] = xmalloc(array_size(n, sizeof(uint32_t)));
        for (size_t k = 0; k < n; k++) c[k] = kid[k] = CAUSE_NONE;
        for (int i = count; i-- > 0;) { /* children before their parents */
            int k = list[i];
            const dnode *nd = &t->nodes[k];
            if (in_set(d, &d->run[run].refset, t->name, nd->name) &&
                !in_set(d, &d->run[1 - run].refset, other->name, nd->name))
                c[k] = ref_cause(d, run, t->name, nd->name);
            if (c[k] == CAUSE_NONE || nd->parent < 0) continue;
            uint32_t *up = p->pos[1 - run][t->nodes[nd->parent].id] < 0 ? &c[nd->parent] : &kid[nd->parent];
            if (*up == CAUSE_NONE) *up = c[k];
        }
        for (int i = 0; i < count; i++) { /* children of a group gone or added with it */
            int k = list[i];
            int up = t->nodes[k].parent;
            if (c[k] == CAUSE_NONE && up > 0 && p->pos[1 - run][t->nodes[up].id] < 0) c[k] = c[up];
        }
        /* Else a group both runs have that left (or joined) the reference
        ** set held them: a `complete` group keeps every node below it, a
        ** group its placeholder.  The nearest such ancestor of every node,
        ** parents first (a parent's index is below its children's). */
        int *held = xmalloc(array_size(n, sizeof(int)));
        for (int k = 0; k < t->node_count; k++) {
            int up = t->nodes[k].parent;
            held[k] = up < 0 ? -1
                    : p->pos[1 - run][t->nodes[up].id] >= 0 && in_set(d, &d->run[run].refset, t->name, t->nodes[up].name) &&
                              !in_set(d, &d->run[1 - run].refset, other->name, t->nodes[up].name)
                        ? up
                        : held[up];
        }
        for (int i = 0; i < count; i++) {
            int k = list[i], g = held[k];
            if (c[k] == CAUSE_NONE && g >= 0) c[k] = ref_cause_as(d, run, t->name, t->nodes[g].name, &t->nodes[g]);
        }
        free(held);
    }
    for (int run = 0; run < 2; run++) {
        const dtree *t = p->t[run];
        const int *list = run == 0 ? p->gone : p->added;
        int count = run == 0 ? p->gone_count : p->added_count;
        for (int i = 0; i < count; i++) {
            int k = list[i];
            uint32_t *c = &p->cause[run][k];
            if (*c != CAUSE_NONE) continue;
            if (is_placeholder(t, k)) {
                /* 'void' stands in for the children the other run kept (or this one lost) */
                int po = p->pos[1 - run][t->nodes[t->nodes[k].parent].id];
                if (po >= 0) *c = p->kid_cause[1 - run][po];
            }
            if (*c == CAUSE_NONE) *c = p->content != CAUSE_NONE ? p->content : content_cause(d, t->name);
        }
    }
}

void compare_nodes(differ *d, tree_pair *p)
{
    const dtree *to = p->t[0], *tn = p->t[1];
    long *fen = xcalloc((size_t)tn->node_count + 1, sizeof(long));
    long survivors_done = 0;
    int gone_before = 0;
    dstr tree = tn->name;
    for (int o = 0; o < to->node_count; o++) {
        const dnode *on = &to->nodes[o];
        int n = p->pos[1][on->id];
        if (n < 0) {
            gone_before++;
            continue;
        }
        const dnode *nn = &tn->nodes[n];
        long less = fenwick_sum(fen, n);
        int added_before = count_below(p->added, p->added_count, n);
        long went_after = survivors_done - less;
        long came_before = (long)(n - added_before) - less;
        fenwick_add(fen, tn->node_count, n);
        survivors_done++;
        if (o != n) {
            diff_begin_change(d);
            sb_name(&d->line, tree);
            outbuf_str(&d->line, ": ");
            sb_node(d, &d->line, p, 1, n);
            outbuf_printf(&d->line, " moved from node %d to node %d", o, n);
            moved_reason(d, &d->reason, p, o, n, gone_before, added_before, went_after, came_before);
            p->reason[n] = xstrdup(d->reason.s);
            /* its cause: the nearest node gone or added before it, else the layout's */
            d->cause = gone_before && gone_before >= added_before ? p->cause[0][p->gone[gone_before - 1]]
                     : added_before ? p->cause[1][p->added[added_before - 1]]
                     : p->content != CAUSE_NONE ? p->content : content_cause(d, tree);
            p->cause[1][n] = d->cause;
            diff_emit_change(d, "node-index", tree, nn->name, v_int(o), v_int(n), NULL, NULL);
        }
        if (on->flags != nn->flags && on->flags >= 0 && nn->flags >= 0) {
            diff_begin_change(d);
            sb_name(&d->line, tree);
            outbuf_str(&d->line, ": ");
            sb_node(d, &d->line, p, 1, n);
            d->cause = p->content != CAUSE_NONE ? p->content : content_cause(d, tree);
            outbuf_str(&d->line, " flags changed from ");
            sb_flags(&d->line, on->flags);
            outbuf_str(&d->line, " to ");
            sb_flags(&d->line, nn->flags);
            diff_emit_change(d, "node-flags", tree, nn->name, v_int(on->flags), v_int(nn->flags), NULL, NULL);
        } else if ((on->flags < 0) != (nn->flags < 0)) {
            diff_begin_change(d);
            sb_name(&d->line, tree);
            outbuf_str(&d->line, ": ");
            sb_node(d, &d->line, p, 1, n);
            d->cause = p->content != CAUSE_NONE ? p->content : content_cause(d, tree);
            outbuf_str(&d->line, nn->flags < 0 ? " is now a leaf (was a group)" : " is now a group (was a leaf)");
            dstr leaf = {"leaf", 4}, group = {"group", 5};
            diff_emit_change(d, "node-kind", tree, nn->name, v_str(on->flags < 0 ? leaf : group),
                             v_str(nn->flags < 0 ? leaf : group), NULL, NULL);
        } else if (on->looping >= 0 && nn->looping >= 0 && on->looping != nn->looping) {
            diff_begin_change(d);
            sb_name(&d->line, tree);
            outbuf_str(&d->line, ": ");
            sb_node(d, &d->line, p, 1, n);
            d->cause = p->content != CAUSE_NONE ? p->content : content_cause(d, tree);
            outbuf_str(&d->line, nn->looping ? " is now looping (its xanim changed)"
                                         : " is no longer looping (its xanim changed)");
            dstr t_ = {"true", 4}, f_ = {"false", 5};
            diff_emit_change(d, "node-looping", tree, nn->name, v_str(on->looping ? t_ : f_),
                             v_str(nn->looping ? t_ : f_), NULL, NULL);
        }
        if (on->flags < 0 && nn->flags < 0) note_changes(d, tree, on, nn);
    }
    free(fen);
    for (int i = 0; i < p->gone_count; i++) {
        int k = p->gone[i];
        diff_begin_change(d);
        sb_name(&d->line, tree);
        outbuf_str(&d->line, ": ");
        sb_node(d, &d->line, p, 0, k);
        outbuf_printf(&d->line, " removed (was node %d)", k);
        d->cause = p->cause[0][k];
        node_clause(d, &d->reason, p, 0, k, 0, 1);
        diff_emit_change(d, "node-removed", tree, to->nodes[k].name, v_int(k), v_int(-1), NULL, NULL);
    }
    for (int i = 0; i < p->added_count; i++) {
        int k = p->added[i];
        diff_begin_change(d);
        sb_name(&d->line, tree);
        outbuf_str(&d->line, ": ");
        sb_node(d, &d->line, p, 1, k);
        outbuf_printf(&d->line, " added as node %d", k);
        d->cause = p->cause[1][k];
        node_clause(d, &d->reason, p, 1, k, 0, 1);
        diff_emit_change(d, "node-added", tree, tn->nodes[k].name, v_int(-1), v_int(k), NULL, NULL);
    }
}

void free_pair(tree_pair *p)
{
    if (p->reason)
        for (int k = 0; k < p->t[1]->node_count; k++) free(p->reason[k]);
    free(p->reason);
    for (int run = 0; run < 2; run++) {
        free(p->cause[run]);
        free(p->kid_cause[run]);
    }
    free(p->pos[0]);
    free(p->pos[1]);
    free(p->gone);
    free(p->added);
    free(p->name_count);
}

/* ---- references ---- */

static void sb_value(outbuf *b, const dref *r, int64_t v)
{
    if (v < 0) outbuf_str(b, "unresolved");
    else if (r->kind == REF_ANIMTREE) outbuf_printf(b, "%" PRId64, v);
    else outbuf_printf(b, "0x%08" PRIx64, v);
}

static void sb_ref_subject(outbuf *b, const dref *r, const dref *old)
{
    if (r->file.s) {
        sb_name(b, r->file);
        outbuf_printf(b, ":%ld:%ld", r->line, r->col);
        if (old && (old->line != r->line || old->col != r->col))
            outbuf_printf(b, " (was %ld:%ld)", old->line, old->col);
        outbuf_str(b, ": ");
    } else {
        outbuf_str(b, "<engine>: ");
    }
    if (r->kind == REF_ANIMTREE) {
        outbuf_str(b, "#animtree ");
    } else {
        outbuf_str(b, "%");
        sb_name(b, r->name);
        outbuf_str(b, " ");
    }
    if (r->tree.s) {
        outbuf_str(b, "in '");
        sb_name(b, r->tree);
        outbuf_str(b, "'");
    } else {
        outbuf_str(b, "in no tree");
    }
}

/* Why reference value changed from the old to the new run. */
static void value_reason(differ *d, outbuf *b, const dref *o, const dref *n, tree_pair *pairs)
{
    drun *rn = &d->run[1];
    d->cause = script_cause(d, n);
    if (!dstr_eq(o->tree, n->tree)) {
        outbuf_str(b, "now resolved in tree '");
        sb_name(b, n->tree);
        outbuf_str(b, "' (was '");
        sb_name(b, o->tree);
        outbuf_str(b, "')");
        return;
    }
    int tn = find_tree(rn, n->tree);
    int to = tn >= 0 ? rn->trees[tn].other : -1;
    int parts = 0;
    if (n->kind == REF_ANIMTREE && tn >= 0 && to >= 0 && pairs[tn].tree_move != CAUSE_NONE)
        d->cause = pairs[tn].tree_move; /* its value is the tree's index */
    if ((o->value >> 16) != (n->value >> 16) && tn >= 0 && to >= 0) {
        outbuf_str(b, "tree '");
        sb_name(b, n->tree);
        outbuf_printf(b, "' moved from index %" PRId64 " to index %" PRId64 " (", o->value >> 16, n->value >> 16);
        tree_reason(d, b, to, tn);
        outbuf_str(b, ")");
        parts++;
        d->cause = pairs[tn].tree_move;
    }
    if (n->kind != REF_ANIMTREE && (o->value & 0xFFFF) != (n->value & 0xFFFF)) {
        int k = (int)(n->value & 0xFFFF);
        outbuf_str(b, parts ? "; " : "");
        outbuf_str(b, "%");
        sb_name(b, n->name);
        outbuf_printf(b, " moved from node %" PRId64 " to node %d", o->value & 0xFFFF, k);
        const tree_pair *p = tn >= 0 && to >= 0 ? &pairs[tn] : NULL;
        if (!parts && p && p->cause[1] && k < p->t[1]->node_count && p->cause[1][k] != CAUSE_NONE)
            d->cause = p->cause[1][k];
        if (p && p->reason && k < p->t[1]->node_count && p->reason[k]) {
            outbuf_str(b, " (");
            outbuf_str(b, p->reason[k]);
            outbuf_str(b, ")");
        }
    }
}

static void unresolved_reason(differ *d, outbuf *b, int run, const dref *r)
{
    drun *x = &d->run[run];
    if (r->developer) {
        outbuf_str(b, "it is in a /# #/ block the game does not compile");
        return;
    }
    if (!r->tree.s) {
        outbuf_str(b, "no anim tree is selected (#using_animtree)");
        return;
    }
    int t = find_tree(x, r->tree);
    if (t < 0 || !x->trees[t].built) {
        outbuf_str(b, "tree '");
        sb_name(b, r->tree);
        outbuf_str(b, "' is not built");
        return;
    }
    if (r->kind == REF_ANIMTREE) return;
    if (in_set(d, &x->defined, r->tree, r->name)) return; /* defined: see the diagnostics */
    outbuf_str(b, "'");
    sb_name(b, r->name);
    outbuf_str(b, "' is not in tree '");
    sb_name(b, r->tree);
    outbuf_str(b, "'");
}

/* A game-relative name's byte as the game's file system compares it. */
static char game_char(char c)
{
    return c == '\\' ? '/' : c >= 'A' && c <= 'Z' ? (char)(c + 32) : c;
}

static int game_name_eq(dstr a, dstr b)
{
    if (!a.s || !b.s || a.n != b.n) return 0;
    for (size_t i = 0; i < a.n; i++)
        if (game_char(a.s[i]) != game_char(b.s[i])) return 0;
    return 1;
}

/* The script of r as a matching key: a game-relative name in lower case with
** '/' separators (so a run on Windows names it alike), or the file as named. */
static void key_script(differ *d, const dref *r)
{
    if (!d->by_script || !r->script.s) { /* (an engine reference has neither) */
        key_part(&d->key, d->by_script ? r->script : r->file);
        return;
    }
    uint32_t n = (uint32_t)r->script.n;
    outbuf_put(&d->key, (const char *)&n, sizeof n);
    for (size_t i = 0; i < r->script.n; i++) {
        char c = game_char(r->script.s[i]);
        outbuf_put(&d->key, &c, 1);
    }
}

/* Old references matched to new ones: first by script, line, column, kind
** and name; the rest by script, kind and name, in order (lines moved).  The
** script is its game-relative name when both documents have it, else the
** file as named. */
static void match_references(differ *d)
{
    drun *o = &d->run[0], *n = &d->run[1];
    long *next = xmalloc(array_size(o->ref_count + 1, sizeof(long)));
    for (int pass = 0; pass < 2; pass++) {
        hmap m = {0};
        for (size_t i = 0; i < o->ref_count; i++) {
            dref *r = &o->refs[i];
            if (r->other >= 0) continue;
            outbuf_flush(&d->key);
            key_script(d, r);
            key_part(&d->key, r->kind_name);
            key_part(&d->key, r->name);
            uint64_t tag = pass == 0 ? ((uint64_t)r->line << 32 | (uint64_t)r->col) : 0;
            uint32_t h = hmap_find(&m, tag, d->key.s, d->key.len);
            next[i] = -1;
            if (h == NONE) {
                h = hmap_add(&m, &d->mem, tag, d->key.s, d->key.len, 1);
                m.entries.items[h].a = m.entries.items[h].b = (long)i;
            } else {
                next[m.entries.items[h].b] = (long)i;
                m.entries.items[h].b = (long)i;
            }
        }
        for (size_t i = 0; i < n->ref_count; i++) {
            dref *r = &n->refs[i];
            if (r->other >= 0) continue;
            outbuf_flush(&d->key);
            key_script(d, r);
            key_part(&d->key, r->kind_name);
            key_part(&d->key, r->name);
            uint64_t tag = pass == 0 ? ((uint64_t)r->line << 32 | (uint64_t)r->col) : 0;
            uint32_t h = hmap_find(&m, tag, d->key.s, d->key.len);
            if (h == NONE || m.entries.items[h].a < 0) continue;
            long k = m.entries.items[h].a;
            m.entries.items[h].a = next[k];
            r->other = k;
            o->refs[k].other = (long)i;
        }
        hmap_free(&m);
    }
    free(next);
}

/* A reference only run `run` has: its name joined (1) or left (0) the tree's
** reference set, or it is one edit of its script. */
static uint32_t set_change_cause(differ *d, int run, const dref *r)
{
    int t = r->tree.s ? find_tree(&d->run[run], r->tree) : -1;
    if (t >= 0 && d->run[run].trees[t].other < 0) return tree_cause(d, run, &d->run[run].trees[t]);
    if (r->kind != REF_ANIMTREE && r->tree.s && r->name.s && in_set(d, &d->run[run].refset, r->tree, r->name) &&
        !in_set(d, &d->run[1 - run].refset, r->tree, r->name))
        return ref_cause(d, run, r->tree, r->name);
    return script_cause(d, r);
}

/* A reference of both runs resolved in one only: its tree's content, or its script. */
static uint32_t resolve_cause(differ *d, const dref *r, const tree_pair *pairs)
{
    int tn = r->tree.s && !r->developer ? find_tree(&d->run[1], r->tree) : -1;
    if (tn < 0 || d->run[1].trees[tn].other < 0) return script_cause(d, r);
    if (pairs[tn].content != CAUSE_NONE) return pairs[tn].content;
    return content_cause(d, r->tree);
}

static void compare_references(differ *d, tree_pair *pairs)
{
    drun *o = &d->run[0], *n = &d->run[1];
    match_references(d);
    for (size_t i = 0; i < n->ref_count; i++) {
        const dref *r = &n->refs[i];
        const dref *w = r->other >= 0 ? &o->refs[r->other] : NULL;
        if (w && w->value == r->value) continue;
        diff_begin_change(d);
        sb_ref_subject(&d->line, r, w);
        const char *kind;
        if (!w) {
            kind = "reference-added";
            d->cause = set_change_cause(d, 1, r);
            outbuf_str(&d->line, ": new reference, ");
            sb_value(&d->line, r, r->value);
            if (r->value < 0) unresolved_reason(d, &d->reason, 1, r);
        } else if (r->value < 0) {
            kind = "reference-unresolved";
            d->cause = resolve_cause(d, r, pairs);
            outbuf_str(&d->line, ": now unresolved (was ");
            sb_value(&d->line, w, w->value);
            outbuf_str(&d->line, ")");
            unresolved_reason(d, &d->reason, 1, r);
        } else if (w->value < 0) {
            kind = "reference-resolved";
            d->cause = resolve_cause(d, r, pairs);
            outbuf_str(&d->line, ": now ");
            sb_value(&d->line, r, r->value);
            outbuf_str(&d->line, " (was unresolved)");
        } else {
            kind = "reference-value";
            outbuf_str(&d->line, ": ");
            sb_value(&d->line, w, w->value);
            outbuf_str(&d->line, " -> ");
            sb_value(&d->line, r, r->value);
            value_reason(d, &d->reason, w, r, pairs);
        }
        diff_emit_change(d, kind, r->tree, r->name, v_int(w ? w->value : -1), v_int(r->value), r, w);
    }
    for (size_t i = 0; i < o->ref_count; i++) {
        const dref *r = &o->refs[i];
        if (r->other >= 0) continue;
        diff_begin_change(d);
        sb_ref_subject(&d->line, r, NULL);
        d->cause = set_change_cause(d, 0, r);
        outbuf_str(&d->line, ": reference removed (was ");
        sb_value(&d->line, r, r->value);
        outbuf_str(&d->line, ")");
        diff_emit_change(d, "reference-removed", r->tree, r->name, v_int(r->value), v_int(-1), r, NULL);
    }
}

/* ---- the comparison ---- */

/* The cause of tree j's new index (old i): the first tree registered or
** dropped before it, else the order of registration. */
static uint32_t tree_index_cause(differ *d, int i, int j)
{
    for (int k = 0; k < j; k++)
        if (d->run[1].trees[k].other < 0) return tree_cause(d, 1, &d->run[1].trees[k]);
    for (int k = 0; k < i; k++)
        if (d->run[0].trees[k].other < 0) return tree_cause(d, 0, &d->run[0].trees[k]);
    dstr none = {NULL, 0};
    return plain_cause(d, "tree-order", "tree", none, "the scripts register the trees in another order");
}

static uint32_t file_cause(differ *d, const dtree *w, const dtree *t)
{
    int is_new;
    dstr none = {NULL, 0};
    uint32_t i = cause_begin(d, "tree-file", "tree-content", t->name, none, &is_new);
    if (!is_new) return i;
    sb_tree_file(&d->ctext, w, t);
    return cause_done(d, i, is_new);
}

void diff_compare_runs(differ *d)
{
    drun *o = &d->run[0], *n = &d->run[1];
    dstr none = {NULL, 0};
    if (!dstr_eq(o->profile, n->profile)) {
        diff_begin_change(d);
        d->cause = plain_cause(d, "profile", "profile", none, "the profile changed");
        outbuf_str(&d->line, "profile changed from ");
        sb_name(&d->line, o->profile);
        outbuf_str(&d->line, " to ");
        sb_name(&d->line, n->profile);
        diff_emit_change(d, "profile", none, none, v_str(o->profile), v_str(n->profile), NULL, NULL);
    }
    static const char *const what[2] = {"errors", "warnings"};
    long counts[2][2] = {{o->errors, n->errors}, {o->warnings, n->warnings}};
    for (int k = 0; k < 2; k++) {
        if (counts[k][0] == counts[k][1]) continue;
        diff_begin_change(d);
        outbuf_printf(&d->line, "%s: %ld -> %ld", what[k], counts[k][0], counts[k][1]);
        d->cause = plain_cause(d, what[k], "diagnostics", none, k ? "the number of warnings changed"
                                                                   : "the number of errors changed");
        diff_emit_change(d, what[k], none, none, v_int(counts[k][0]), v_int(counts[k][1]), NULL, NULL);
    }
    for (int i = 0; i < o->tree_count; i++) {
        o->trees[i].other = find_tree(n, o->trees[i].name);
        if (o->trees[i].other >= 0) n->trees[o->trees[i].other].other = i;
    }
    tree_pair *pairs = xcalloc((size_t)n->tree_count + 1, sizeof *pairs);
    for (int j = 0; j < n->tree_count; j++) {
        dtree *t = &n->trees[j];
        pairs[j].content = pairs[j].tree_move = CAUSE_NONE;
        diff_begin_change(d);
        outbuf_str(&d->line, "tree '");
        sb_name(&d->line, t->name);
        outbuf_str(&d->line, "'");
        if (t->other < 0) {
            outbuf_printf(&d->line, " added as index %d", t->index);
            d->cause = tree_cause(d, 1, t);
            if (t->first_file.s) {
                outbuf_str(&d->reason, t->registered_by ? "registered by " : "first used in ");
                sb_name(&d->reason, t->first_file);
            }
            diff_emit_change(d, "tree-added", t->name, none, v_int(-1), v_int(t->index), NULL, NULL);
            continue;
        }
        dtree *w = &o->trees[t->other];
        if (w->index != t->index) {
            outbuf_printf(&d->line, " moved from index %d to index %d", w->index, t->index);
            tree_reason(d, &d->reason, t->other, j);
            d->cause = pairs[j].tree_move = tree_index_cause(d, t->other, j);
            diff_emit_change(d, "tree-index", t->name, none, v_int(w->index), v_int(t->index), NULL, NULL);
        }
        /* Read from another path: a change only in what it holds (which the
        ** changes below say), unless older documents do not tell where the
        ** game finds it. */
        int same_place = w->game_file.s && game_name_eq(w->game_file, t->game_file);
        if (!dstr_eq(w->file, t->file) && !same_place) {
            diff_begin_change(d);
            d->cause = pairs[j].content = file_cause(d, w, t);
            sb_tree_file(&d->line, w, t);
            diff_emit_change(d, "tree-file", t->name, none, v_str(w->file), v_str(t->file), NULL, NULL);
        }
        if (w->built != t->built) {
            diff_begin_change(d);
            outbuf_str(&d->line, "tree '");
            sb_name(&d->line, t->name);
            d->cause = pairs[j].content != CAUSE_NONE ? pairs[j].content : content_cause(d, t->name);
            if (t->built) outbuf_printf(&d->line, "' is now built (%d nodes)", t->node_count);
            else outbuf_printf(&d->line, "' is no longer built (it had %d nodes)", w->node_count);
            dstr yes = {"built", 5}, no = {"not built", 9};
            diff_emit_change(d, t->built ? "tree-built" : "tree-not-built", t->name, none,
                             v_str(w->built ? yes : no), v_str(t->built ? yes : no), NULL, NULL);
            continue;
        }
        if (!t->built) continue;
        pairs[j].t[0] = w;
        pairs[j].t[1] = t;
        pair_prepare(d, &pairs[j]);
        pair_causes(d, &pairs[j]);
        if (w->checksum != t->checksum) {
            diff_begin_change(d);
            d->cause = pairs[j].content != CAUSE_NONE ? pairs[j].content
                     : pairs[j].gone_count ? pairs[j].cause[0][pairs[j].gone[0]]
                     : pairs[j].added_count ? pairs[j].cause[1][pairs[j].added[0]] : content_cause(d, t->name);
            outbuf_str(&d->line, "tree '");
            sb_name(&d->line, t->name);
            outbuf_printf(&d->line, "' checksum changed from 0x%08" PRIx32 " to 0x%08" PRIx32 " (%d -> %d nodes)",
                      w->checksum, t->checksum, w->node_count, t->node_count);
            diff_emit_change(d, "tree-checksum", t->name, none, v_int(w->checksum), v_int(t->checksum), NULL, NULL);
        }
        compare_nodes(d, &pairs[j]);
    }
    for (int i = 0; i < o->tree_count; i++) {
        dtree *w = &o->trees[i];
        if (w->other >= 0) continue;
        diff_begin_change(d);
        outbuf_str(&d->line, "tree '");
        sb_name(&d->line, w->name);
        outbuf_printf(&d->line, "' removed (was index %d)", w->index);
        outbuf_str(&d->reason, "no script uses it any more");
        d->cause = tree_cause(d, 0, w);
        diff_emit_change(d, "tree-removed", w->name, none, v_int(w->index), v_int(-1), NULL, NULL);
    }
    compare_references(d, pairs);
    for (int j = 0; j < n->tree_count; j++) free_pair(&pairs[j]);
    free(pairs);
}
