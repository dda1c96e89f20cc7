/* Check E11 (runtime-anim.md 4.3): a `waittillmatch` on a notetrack that the
** animations flagged with its notify in the same function do not have waits
** forever -- the engine reports nothing.  The scan runs in the compile pass's
** walk (compile.c), one function at a time; the check runs after the link,
** reading only the candidates' xanims (notetracks.c). */
#include "game/profile.h"
#include "compile/notewait.h"
#include "compile/notetracks.h"
#include "script/ast.h"
#include "game/builtins.h"
#include "compile/driver.h"
#include "base/hashtab.h"
#include "base/outbuf.h"
#include "compile/registry.h"
#include "base/suggest.h"
#include "game/anim_builtins.h"
#include "base/text.h"

#include <stdlib.h>
#include <string.h>

/* Receivers longer than this (as keyed below) are not compared: no check. */
#define RECEIVER_KEY_MAX 256
/* A wait with more candidates than this is not checked (bounds each wait's copy). */
#define CANDIDATES_MAX 64

/* The candidates of one (receiver, notify) in the current function. */
typedef struct flag_group {
    uint32_t key, key_len;     /* receiver key, NUL, notify: in fn_text */
    unsigned long since;       /* script calls counted when its first candidate came */
    int unusable;              /* a candidate passes no %name literal, or too many */
    VEC(uint32_t) events;      /* its candidates' anim events (UINT32_MAX: not yet seen) */
} flag_group;

/* A candidate whose %name argument the walk has not reached yet. */
typedef struct pending_anim {
    const ast_node *node;
    size_t group, slot;
} pending_anim;

/* Texts one after another, each NUL-terminated, named by their offsets. */
typedef VEC(char) text_pool;

struct notewait_scan {
    const profile_rules *rules;
    const builtin_set *set;
    /* the current function */
    VEC(flag_group) groups;
    hashtab by_key;            /* groups by key */
    text_pool fn_text;
    VEC(pending_anim) pending;
    unsigned long script_calls;
    /* the file's waits */
    VEC(notewait_found) found;
    VEC(uint32_t) cands;
    text_pool text;            /* the notes' text */
};

notewait_scan *notewait_scan_new(const profile_rules *rules, const builtin_set *set)
{
    notewait_scan *s = xcalloc(1, sizeof *s);
    s->rules = rules;
    s->set = set;
    return s;
}

void notewait_function(notewait_scan *s)
{
    for (size_t i = 0; i < s->groups.count; i++) VEC_FREE(s->groups.items[i].events);
    s->groups.count = 0;
    hashtab_clear(&s->by_key);
    s->fn_text.count = 0;
    s->pending.count = 0;
    s->script_calls = 0;
}

void notewait_blind(notewait_scan *s)
{
    s->script_calls++;
}

static uint32_t put_text(text_pool *pool, const char *p, size_t n)
{
    VEC_RESERVE(*pool, pool->count + n + 1);
    memcpy(pool->items + pool->count, p, n);
    pool->items[pool->count + n] = 0;
    uint32_t at = (uint32_t)pool->count;
    pool->count += n + 1;
    return at;
}

/* The receiver as written, as a key: each node's kind and text in
** pre-order (identifiers folded: GSC names ignore case), or 0 when it is
** too long to be compared. */
static size_t receiver_key(const ast_node *r, char *out, size_t cap)
{
    size_t len = 0;
    const ast_node *stack[64];
    size_t top = 0;
    stack[top++] = r;
    while (top) {
        const ast_node *n = stack[--top];
        size_t tl = n->text ? n->len : 0;
        if (len + 2 + tl > cap) return 0;
        out[len++] = (char)('A' + n->kind);
        for (size_t i = 0; i < tl; i++) {
            unsigned char c = (unsigned char)n->text[i];
            out[len++] = (char)(n->kind == AST_IDENT && c >= 'A' && c <= 'Z' ? c + 32 : c);
        }
        out[len++] = '\x01';
        /* children pushed last first, so they come out in order */
        size_t k = 0;
        for (const ast_node *c = n->child; c; c = c->next) k++;
        if (top + k > sizeof stack / sizeof *stack) return 0;
        size_t at = top + k;
        for (const ast_node *c = n->child; c; c = c->next) stack[--at] = c;
        top += k;
    }
    return len;
}

static const char *group_key(const void *items, size_t i, size_t *len)
{
    const notewait_scan *s = items;
    *len = s->groups.items[i].key_len;
    return s->fn_text.items + s->groups.items[i].key;
}

/* The group of (receiver, notify); created when `create`. */
static flag_group *find_group(notewait_scan *s, const ast_node *receiver, const ast_node *notify, int create,
                              size_t *index)
{
    char key[RECEIVER_KEY_MAX + 1];
    size_t len = receiver_key(receiver, key, RECEIVER_KEY_MAX - 1);
    if (!len || len + 1 + notify->len > RECEIVER_KEY_MAX) return NULL;
    key[len++] = 0;
    char buf[RECEIVER_KEY_MAX * 2];
    memcpy(buf, key, len);
    memcpy(buf + len, notify->text, notify->len);
    len += notify->len;
    uint32_t h = text_hash_bytes(buf, len);
    size_t i = hashtab_find_bytes(&s->by_key, h, buf, len, s, group_key);
    if (i == HASHTAB_END) {
        if (!create) return NULL;
        i = hashtab_add(&s->by_key, h);
        flag_group *g = VEC_PUSH(s->groups);
        memset(g, 0, sizeof *g);
        g->key = put_text(&s->fn_text, buf, len);
        g->key_len = (uint32_t)len;
        g->since = s->script_calls;
    }
    *index = i;
    return &s->groups.items[i];
}

/* The k-th argument (from 1) of an AST_ARGS, or NULL. */
static const ast_node *arg(const ast_node *args, int k)
{
    const ast_node *a = args ? args->child : NULL;
    while (a && --k > 0) a = a->next;
    return a;
}

static int arg_count(const ast_node *args)
{
    int n = 0;
    for (const ast_node *a = args ? args->child : NULL; a; a = a->next) n++;
    return n;
}

/* A call of a builtin of that kind (any game list, or the run's extensions). */
static int is_builtin(const notewait_scan *s, builtin_kind kind, const ast_node *callee)
{
    if (!callee || callee->kind != AST_IDENT || !callee->text) return 0;
    const builtin_entry *e = builtin_find(s->rules->builtins_mp, kind, callee->text);
    if (!e) e = builtin_find(s->rules->builtins_sp, kind, callee->text);
    return builtin_set_apply(s->set, kind, callee->text, e) != NULL;
}

/* A builtin that attaches a notify to an animation (1.4 C, D, E, K, L, M;
** the table's flagged rows, the notify first): the position of its anim
** argument, else 0. */
static int flagger_anim(const ast_node *callee)
{
    if (!callee || callee->kind != AST_IDENT || !callee->text) return 0;
    const anim_builtin *b = anim_builtin_find(callee->text, 1);
    if (!b || !b->flagged || anim_builtin_arg_with_role(b, ANIM_ROLE_NOTIFY) != 1) return 0;
    return anim_builtin_arg_with_role(b, ANIM_ROLE_ANIM);
}

static void candidate(notewait_scan *s, const ast_node *receiver, const ast_node *args, int anim_pos)
{
    const ast_node *notify = arg(args, 1);
    if (!notify || notify->kind != AST_STRING) return; /* not a candidate of any literal wait (4.3 2) */
    size_t gi;
    flag_group *g = find_group(s, receiver, notify, 1, &gi);
    if (!g) return;
    const ast_node *anim = arg(args, anim_pos);
    if (!anim || anim->kind != AST_ANIM || g->events.count >= CANDIDATES_MAX) {
        g->unusable = 1;
        return;
    }
    *VEC_PUSH(g->events) = UINT32_MAX;
    *VEC_PUSH(s->pending) = (pending_anim){anim, gi, g->events.count - 1};
}

static void wait_match(notewait_scan *s, const ast_node *receiver, const ast_node *args)
{
    const ast_node *notify = arg(args, 1), *note = arg(args, 2);
    if (arg_count(args) != 2 || notify->kind != AST_STRING || note->kind != AST_STRING) return;
    size_t gi;
    flag_group *g = find_group(s, receiver, notify, 0, &gi);
    /* no candidate; one without a literal; a script call since the first */
    if (!g || g->unusable || g->since != s->script_calls || !g->events.count) return;
    for (size_t i = 0; i < g->events.count; i++)
        if (g->events.items[i] == UINT32_MAX) return;
    notewait_found *w = VEC_PUSH(s->found);
    w->line = note->line;
    w->col = note->col;
    w->note = put_text(&s->text, note->text, note->len);
    w->note_len = (uint32_t)note->len;
    w->notify = put_text(&s->text, notify->text, notify->len);
    w->notify_len = (uint32_t)notify->len;
    w->first = (uint32_t)s->cands.count;
    w->count = (uint32_t)g->events.count;
    for (size_t i = 0; i < g->events.count; i++) *VEC_PUSH(s->cands) = g->events.items[i];
}

void notewait_visit(notewait_scan *s, const ast_node *n)
{
    switch (n->kind) {
    case AST_FUNCTION:
        notewait_function(s);
        break;
    case AST_CALL: {
        const ast_node *callee = n->child;
        int threaded = n->text && strcmp(n->text, "thread") == 0;
        if (threaded || !is_builtin(s, BUILTIN_FUNCTION, callee)) s->script_calls++;
        break;
    }
    case AST_METHOD_CALL: {
        const ast_node *receiver = n->child, *callee = receiver ? receiver->next : NULL;
        const ast_node *args = callee ? callee->next : NULL;
        int threaded = n->text && strcmp(n->text, "thread") == 0;
        if (threaded || !is_builtin(s, BUILTIN_METHOD, callee)) {
            s->script_calls++;
            break;
        }
        int anim = flagger_anim(callee);
        if (anim) candidate(s, receiver, args, anim);
        break;
    }
    case AST_POINTER_CALL:
        s->script_calls++;
        break;
    case AST_WAITTILLMATCH:
        if (n->child) wait_match(s, n->child, n->child->next);
        break;
    default:
        break;
    }
}

void notewait_anim(notewait_scan *s, const ast_node *n, uint32_t event)
{
    for (size_t i = s->pending.count; i-- > 0;) {
        pending_anim *p = &s->pending.items[i];
        if (p->node != n) continue;
        s->groups.items[p->group].events.items[p->slot] = event;
        s->pending.items[i] = s->pending.items[--s->pending.count];
        return;
    }
}

size_t notewait_count(const notewait_scan *s)
{
    return s->found.count;
}

void notewait_truncate(notewait_scan *s, size_t count)
{
    if (count < s->found.count) {
        s->cands.count = s->found.items[count].first;
        s->found.count = count;
    }
}

void notewait_scan_end(notewait_scan *s)
{
    notewait_function(s);
    VEC_FREE(s->groups);
    VEC_FREE(s->pending);
    hashtab_free(&s->by_key);
    VEC_FREE(s->fn_text);
}

notewait_scan *notewait_scan_copy(const notewait_scan *from)
{
    /* a copy is only replayed, never scans: it keeps no pointer into the
    ** context that made the original (its builtin set) */
    notewait_scan *s = notewait_scan_new(NULL, NULL);
    VEC_APPEND_ALL(s->found, from->found);
    VEC_APPEND_ALL(s->cands, from->cands);
    VEC_COPY(s->text, from->text);
    return s;
}

void notewait_scan_free(notewait_scan *s)
{
    if (!s) return;
    notewait_scan_end(s);
    VEC_FREE(s->found);
    VEC_FREE(s->cands);
    VEC_FREE(s->text);
    free(s);
}

/* ---- global part ---- */

/* A wait as the context keeps it until the trees are built. */
struct note_wait {
    source_file *src;
    int line, col;
    const char *note, *notify;
    anim_ref **cands;
    size_t count;
};

void notewait_replay(atrc_ctx *ctx, const notewait_scan *s, source_file *src, anim_ref *const *by_event,
                     size_t events)
{
    for (size_t i = 0; s && i < s->found.count; i++) {
        const notewait_found *f = &s->found.items[i];
        note_wait *w = arena_zalloc(&ctx->mem, sizeof *w);
        w->src = src;
        w->line = f->line;
        w->col = f->col;
        w->note = arena_strndup(&ctx->mem, s->text.items + f->note, f->note_len);
        w->notify = arena_strndup(&ctx->mem, s->text.items + f->notify, f->notify_len);
        w->cands = arena_alloc(&ctx->mem, array_size(f->count, sizeof *w->cands));
        w->count = f->count;
        for (uint32_t k = 0; k < f->count; k++) {
            uint32_t e = s->cands.items[f->first + k];
            w->cands[k] = e < events ? by_event[e] : NULL;
        }
        *VEC_PUSH(ctx->note_waits) = w;
    }
}

/* A notetrack name and its distance to the note, for the listing. */
typedef struct near_note {
    const char *name;
    int dist;
} near_note;

static int near_cmp(const void *a, const void *b)
{
    const near_note *x = a, *y = b;
    if (x->dist != y->dist) return x->dist < y->dist ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* A name in a message, quoted, its control bytes as \\xNN (a notetrack
** name is whatever the file holds; a script string may hold a newline). */
static void put_quoted(outbuf *b, const char *name)
{
    outbuf_char(b, '"');
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        if (*p < 0x20 || *p == 0x7f) outbuf_printf(b, "\\x%02x", *p);
        else outbuf_char(b, (char)*p);
    }
    outbuf_char(b, '"');
}

/* The notetracks the waits' leaves have, nearest the note first (each
** name once), at most LISTED of them. */
#define LISTED 12
/* Names longer than this are not compared by edit distance. */
#define NAME_COMPARED 256

static void check_wait(atrc_ctx *ctx, const note_wait *w)
{
    const xanim_notes *notes[CANDIDATES_MAX];
    const atrc_tree *trees[CANDIDATES_MAX];
    int nodes[CANDIDATES_MAX];
    for (size_t k = 0; k < w->count; k++) {
        const anim_ref *r = w->cands[k];
        /* every candidate a bound %name of a built tree, a leaf with a readable xanim (4.3 2) */
        if (!r || !r->tree || !r->tree->built || !r->set_name || r->set_name->bound_node < 0) return;
        atrc_tree *t = &r->tree->tree;
        int node = r->set_name->bound_node;
        if (t->nodes[node].child_count != 0) return;
        notes[k] = ctx_leaf_notes(ctx, t, node, NULL);
        if (!notes[k]) return;
        trees[k] = t;
        nodes[k] = node;
    }
    for (size_t k = 0; k < w->count; k++)
        if (xanim_notes_find(notes[k], w->note)) return; /* `end` is in every list */
    /* every name once (sorted by name, then by distance): n log n */
    VEC(near_note) all = {0};
    for (size_t k = 0; k < w->count; k++)
        for (size_t i = 0; i < notes[k]->count; i++) *VEC_PUSH(all) = (near_note){notes[k]->items[i].name, 0};
    qsort(all.items, all.count, sizeof *all.items, near_cmp);
    size_t unique = 0, lm = strlen(w->note);
    for (size_t i = 0; i < all.count; i++) {
        if (unique && strcmp(all.items[unique - 1].name, all.items[i].name) == 0) continue;
        size_t ln = strlen(all.items[i].name);
        all.items[unique] = all.items[i];
        /* (a long name is far: its distance is not computed, which would cost its length squared) */
        int far = (int)(ln > lm ? ln : lm);
        all.items[unique++].dist = ln > NAME_COMPARED || lm > NAME_COMPARED ? far
                                 : suggest_distance(w->note, lm, all.items[i].name, ln, far);
    }
    all.count = unique;
    qsort(all.items, all.count, sizeof *all.items, near_cmp);
    outbuf msg = {0};
    const atrc_node *leaf = &trees[0]->nodes[nodes[0]];
    const char *spelling = leaf->spelling ? leaf->spelling : leaf->name;
    if (w->count == 1)
        outbuf_printf(&msg, "waittillmatch waits forever: %%%s, flagged with ", spelling);
    else
        outbuf_printf(&msg, "waittillmatch waits forever: none of the %zu animations flagged with ", w->count);
    put_quoted(&msg, w->notify);
    if (w->count == 1) outbuf_str(&msg, " above, has no notetrack ");
    else outbuf_printf(&msg, " above (%%%s, ...) has a notetrack ", spelling);
    put_quoted(&msg, w->note);
    outbuf_str(&msg, w->count == 1 ? " (the game reports nothing); its notetracks, nearest first: "
                                   : " (the game reports nothing); their notetracks, nearest first: ");
    for (size_t i = 0; i < all.count && i < LISTED; i++) {
        if (i) outbuf_str(&msg, ", ");
        put_quoted(&msg, all.items[i].name);
    }
    if (all.count > LISTED) outbuf_printf(&msg, " and %zu more", all.count - LISTED);
    diag_add(&ctx->diags, DIAG_WARNING, w->src, w->line, w->col, "%s", msg.s);
    outbuf_free(&msg);
    VEC_FREE(all);
}

void notewait_check(atrc_ctx *ctx)
{
    /* notetracks are in the xanims; one -W family with the other run-time checks */
    if (ctx->opts.no_xanim || ctx->opts.runtime_anim == ATRC_RUNTIME_ANIM_OFF) return;
    int as_errors = ctx->diags.warnings_as_errors;
    if (ctx->opts.runtime_anim == ATRC_RUNTIME_ANIM_ERROR) ctx->diags.warnings_as_errors = 1;
    for (size_t i = 0; i < ctx->note_waits.count; i++) check_wait(ctx, ctx->note_waits.items[i]);
    ctx->diags.warnings_as_errors = as_errors;
}
