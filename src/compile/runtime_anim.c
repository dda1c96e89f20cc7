/* The run-time animation checks' global part (see runtime_anim.h): each
** file's recorded calls kept in compile order with their %name arguments
** bound, then, after link, every call taken through its handler's steps
** (anim_builtin.order) and its first certain failure reported: the game's
** message first, as runtime-anim.md 1 gives it, then which node and why. */
#include "compile/runtime_anim.h"
#include "game/anim_builtins.h"
#include "tree/atr.h"
#include "compile/driver.h"
#include "compile/frontend.h"
#include "base/outbuf.h"
#include "game/profile.h"
#include "compile/registry.h"

#include <stdlib.h>
#include <string.h>

/* One file's calls, kept in the context's arena until runtime_check. */
struct rt_file {
    source_file *src;
    rt_calls c;
    struct rt_file *next;
};

/* ---- the replay: a file's calls kept, their %name arguments bound ---- */

typedef struct located {
    int line, col;
    size_t index;
} located;

static int by_position(const void *x, const void *y)
{
    const located *a = x, *b = y;
    if (a->line != b->line) return a->line < b->line ? -1 : 1;
    if (a->col != b->col) return a->col < b->col ? -1 : 1;
    return 0;
}

static void *arena_copy(arena *a, const void *p, size_t n)
{
    if (!n) return NULL;
    void *q = arena_alloc(a, n);
    memcpy(q, p, n);
    return q;
}

/* Each %name argument gets the reference the compile stage made at its
** position: both lists sorted by position and walked together. */
static void bind_args(rt_calls *c, anim_ref *first_ref)
{
    VEC(located) args = {0}, refs = {0};
    for (size_t i = 0; i < c->arg_count; i++)
        if (c->args[i].lit == RT_LIT_ANIM) *VEC_PUSH(args) = (located){c->args[i].line, c->args[i].col, i};
    if (args.count) {
        size_t n = 0;
        for (anim_ref *r = first_ref; r; r = r->next, n++)
            if (r->kind == REF_ANIM) *VEC_PUSH(refs) = (located){r->line, r->col, n};
        /* The references in a random-access array, in list order. */
        anim_ref **list = xmalloc(array_size(n ? n : 1, sizeof *list));
        n = 0;
        for (anim_ref *r = first_ref; r; r = r->next) list[n++] = r;
        qsort(args.items, args.count, sizeof *args.items, by_position);
        qsort(refs.items, refs.count, sizeof *refs.items, by_position);
        for (size_t i = 0, j = 0; i < args.count && j < refs.count;) {
            int d = by_position(&args.items[i], &refs.items[j]);
            if (d == 0) c->args[args.items[i].index].ref = list[refs.items[j].index];
            if (d <= 0) i++;
            else j++;
        }
        free(list);
    }
    VEC_FREE(args);
    VEC_FREE(refs);
}

void runtime_replay(atrc_ctx *ctx, fe_file *f, source_file *src, anim_ref *first_ref)
{
    const rt_calls *from = runtime_pass_calls(f->state[FE_PASS_RUNTIME]);
    if (!from || !from->call_count || ctx->opts.runtime_anim == ATRC_RUNTIME_ANIM_OFF) return;
    struct rt_file *rf = arena_alloc(&ctx->mem, sizeof *rf);
    rf->src = src;
    rf->next = NULL;
    rf->c.call_count = from->call_count;
    rf->c.calls = arena_copy(&ctx->mem, from->calls, array_size(from->call_count, sizeof *from->calls));
    rf->c.arg_count = from->arg_count;
    rf->c.args = arena_copy(&ctx->mem, from->args, array_size(from->arg_count, sizeof *from->args));
    rf->c.text_len = from->text_len;
    rf->c.text = arena_copy(&ctx->mem, from->text, from->text_len);
    bind_args(&rf->c, first_ref);
    if (ctx->runtime_tail) ctx->runtime_tail->next = rf;
    else ctx->runtime_files = rf;
    ctx->runtime_tail = rf;
}

/* ---- what a tree says about a node ---- */

/* Per built tree, made when a check first needs it: each node's place in a
** depth-first walk (ancestor tests in O(1)) and its first leaf child. */
typedef struct tree_facts {
    int *enter, *leave, *leaf_child;
} tree_facts;

static void facts_make(tree_facts *tf, const atrc_tree *t)
{
    size_t n = (size_t)t->node_count;
    tf->enter = xmalloc(array_size(n, sizeof *tf->enter));
    tf->leave = xmalloc(array_size(n, sizeof *tf->leave));
    tf->leaf_child = xmalloc(array_size(n, sizeof *tf->leaf_child));
    /* Iterative: a tree may be 65,536 nodes deep.  stack holds a node and
    ** how many of its children have been entered. */
    VEC(int) stack = {0};
    int clock = 0;
    *VEC_PUSH(stack) = 0;
    *VEC_PUSH(stack) = 0;
    tf->enter[0] = clock++;
    while (stack.count) {
        int node = stack.items[stack.count - 2], *next = &stack.items[stack.count - 1];
        const atrc_node *nd = &t->nodes[node];
        if (*next == 0) {
            tf->leaf_child[node] = -1;
            for (int c = 0; c < nd->child_count; c++)
                if (t->nodes[nd->first_child + c].child_count == 0) {
                    tf->leaf_child[node] = nd->first_child + c;
                    break;
                }
        }
        if (*next < nd->child_count) {
            int child = nd->first_child + (*next)++;
            tf->enter[child] = clock++;
            *VEC_PUSH(stack) = child;
            *VEC_PUSH(stack) = 0;
        } else {
            tf->leave[node] = clock++;
            stack.count -= 2;
        }
    }
    VEC_FREE(stack);
}

typedef struct checker {
    atrc_ctx *ctx;
    tree_facts facts[ATRC_MAX_TREES + 1];
    const struct rt_file *file;
    const anim_builtin *b;
    const rt_call *call;
    const rt_arg *args;
    outbuf why;            /* atrc's explanation of the current warning */
} checker;

/* The built tree and node an argument names, or NULL. */
static const atrc_tree *node_of(const rt_arg *a, int *node)
{
    const anim_ref *r = a->lit == RT_LIT_ANIM ? a->ref : NULL;
    if (!r || !r->tree || !r->tree->built || r->value < 0) return NULL;
    *node = (int)(r->value & 0xFFFF);
    return *node < r->tree->tree.node_count ? &r->tree->tree : NULL;
}

static const tree_facts *facts_of(checker *k, const anim_ref *r)
{
    tree_facts *tf = &k->facts[r->tree->index];
    if (!tf->enter) facts_make(tf, &r->tree->tree);
    return tf;
}

/* "%walk" as the script writes it. */
static const char *written(const rt_arg *a)
{
    return a->ref->spelling ? a->ref->spelling : a->ref->name;
}

/* The type name the engine prints for a literal (runtime-anim.md 1.5). */
static const char *type_name(const rt_arg *a)
{
    switch ((rt_literal)a->lit) {
    case RT_LIT_ANIM: return "animation";
    case RT_LIT_ANIMTREE: return "int";
    case RT_LIT_STRING: return "string";
    case RT_LIT_ISTRING: return "localized string";
    case RT_LIT_INT: return "int";
    case RT_LIT_FLOAT: return "float";
    case RT_LIT_VECTOR: return "vector";
    case RT_LIT_UNDEFINED: return "undefined";
    case RT_LIT_NONE: break;
    }
    return NULL;
}

/* The warning: "<builtin>: <the game's message>: <why>" at (line, col);
** always returns 1 (the call's first failure ends it). */
static int report(checker *k, int line, int col, const char *message)
{
    diag_add(&k->ctx->diags, DIAG_WARNING, k->file->src, line, col, "%s: %s: %s", k->b->name, message,
             k->why.s ? k->why.s : "");
    k->why.len = 0;
    if (k->why.s) k->why.s[0] = 0;
    return 1;
}

static int report_at(checker *k, const rt_arg *a, const char *message)
{
    return report(k, a->line, a->col, message);
}

/* "argument 2 (weight)" */
static void arg_named(checker *k, unsigned i)
{
    outbuf_printf(&k->why, "argument %u (%s)", i + 1, k->b->args[i].name);
}

/* The signature, for the count messages: "(notify, anim[, weight, goaltime, rate])". */
static void signature(checker *k)
{
    const anim_builtin *b = k->b;
    unsigned optional_from = b->count_max == ANIM_NO_COUNT_CHECK ? b->required : b->count_min;
    if (optional_from < b->required) optional_from = b->required;
    outbuf_char(&k->why, '(');
    for (unsigned i = 0; i < b->nargs; i++) {
        if (i == optional_from) outbuf_char(&k->why, '[');
        if (i) outbuf_str(&k->why, ", ");
        outbuf_str(&k->why, b->args[i].name);
    }
    if (optional_from < b->nargs) outbuf_char(&k->why, ']');
    outbuf_char(&k->why, ')');
}

static void node_place(checker *k, const atrc_tree *t, int node, const tree_entry *te)
{
    const atrc_node *n = &t->nodes[node];
    if (n->line) outbuf_printf(&k->why, " (tree '%s', %s:%d)", te->name, te->file ? te->file : "", n->line);
    else outbuf_printf(&k->why, " (tree '%s')", te->name);
}

/* A literal's kind against what the handler takes the argument as (1.2). */
static int kind_fails(checker *k, unsigned i)
{
    const rt_arg *a = &k->args[i];
    const profile_rules *rules = k->ctx->rules;
    const char *type = type_name(a);
    if (!type) return 0;
    char msg[96];
    switch ((anim_arg_kind)k->b->args[i].kind) {
    case ANIM_KIND_ANIM:
        if (a->lit == RT_LIT_ANIM) return 0;
        arg_named(k, i);
        if (a->lit == RT_LIT_UNDEFINED) outbuf_str(&k->why, " is undefined");
        else if (a->lit == RT_LIT_ANIMTREE) outbuf_str(&k->why, " is #animtree, the tree's index (an int)");
        else outbuf_printf(&k->why, " is a%s %s literal", a->lit == RT_LIT_INT ? "n" : "", type);
        outbuf_str(&k->why, "; an animation is written %name, under the file's #using_animtree");
        snprintf(msg, sizeof msg, rules->msg_not_an_anim, type);
        return report_at(k, a, msg);
    case ANIM_KIND_TREE:
        if (a->lit == RT_LIT_ANIMTREE) return 0;
        arg_named(k, i);
        outbuf_str(&k->why, " must be #animtree, the file's current tree");
        if (a->lit == RT_LIT_ANIM) outbuf_printf(&k->why, ", not an animation of it ('%%%s')", written(a));
        snprintf(msg, sizeof msg, rules->msg_not_an_animtree, type);
        return report_at(k, a, msg);
    case ANIM_KIND_FLOAT:
        if (a->lit == RT_LIT_INT || a->lit == RT_LIT_FLOAT) return 0;
        arg_named(k, i);
        outbuf_str(&k->why, " takes a number");
        snprintf(msg, sizeof msg, "type %s is not a float", type);
        return report_at(k, a, msg);
    case ANIM_KIND_VECTOR:
        if (a->lit == RT_LIT_VECTOR) return 0;
        arg_named(k, i);
        outbuf_str(&k->why, " takes a vector (x, y, z)");
        snprintf(msg, sizeof msg, "type %s is not a vector", type);
        return report_at(k, a, msg);
    case ANIM_KIND_STRING:
        /* A string is taken; an int, a float or a vector is converted. */
        if (a->lit != RT_LIT_UNDEFINED && a->lit != RT_LIT_ISTRING && a->lit != RT_LIT_ANIM) return 0;
        arg_named(k, i);
        outbuf_str(&k->why, " takes a string");
        snprintf(msg, sizeof msg, "cannot cast %s to string", type);
        return report_at(k, a, msg);
    }
    return 0;
}

/* The sign and range rules of a numeric literal, checked as it is read
** (1.3 for the set-weight builtins A-E, setanimtime's time). */
static int number_fails(checker *k, unsigned i)
{
    const rt_arg *a = &k->args[i];
    if (a->lit != RT_LIT_INT && a->lit != RT_LIT_FLOAT) return 0;
    double v = a->number;
    int set_weight = k->b->family >= 'A' && k->b->family <= 'E';
    switch ((anim_arg_role)k->b->args[i].role) {
    case ANIM_ROLE_RATE:
        if (!set_weight || v >= 0) return 0;
        arg_named(k, i);
        outbuf_printf(&k->why, " is %g; a rate is 0 or more", v);
        return report_at(k, a, "must set nonnegative rate");
    case ANIM_ROLE_GOALTIME:
        if (!set_weight || v >= 0) return 0;
        arg_named(k, i);
        outbuf_printf(&k->why, " is %g; a goal time is 0 or more seconds", v);
        return report_at(k, a, "must set nonnegative goal time");
    case ANIM_ROLE_WEIGHT:
        if (!set_weight) return 0;
        if (k->b->flagged && v <= 0) {
            arg_named(k, i);
            outbuf_printf(&k->why, " is %g; only a weight above 0 lets a flagged anim deliver its notetracks", v);
            if (v == 0) outbuf_str(&k->why, " (to blend it out, use the non-flagged form)");
            return report_at(k, a, "must set positive weight");
        }
        if (v >= 0) return 0;
        arg_named(k, i);
        outbuf_printf(&k->why, " is %g; 0 blends the anim out, nothing goes below", v);
        return report_at(k, a, "must set nonnegative weight");
    case ANIM_ROLE_TIME:
        if (v < 0) {
            arg_named(k, i);
            outbuf_printf(&k->why, " is %g; the time is a fraction of the anim, 0 to 1", v);
            return report_at(k, a, "must be > 0");
        }
        if (v > 1) {
            arg_named(k, i);
            outbuf_printf(&k->why, " is %g; the time is a fraction of the anim, 0 to 1, not seconds", v);
            return report_at(k, a, "must be < 1");
        }
        return 0;
    default: return 0;
    }
}

/* An anim argument's tree where the handler names one (3.3.1: an AI's own
** tree is always generic_human). */
static int tree_fails(checker *k, unsigned i)
{
    const rt_arg *a = &k->args[i];
    if (k->b->tree != ANIM_TREE_AI || a->lit != RT_LIT_ANIM || !a->ref || !a->ref->tree) return 0;
    const char *tree = a->ref->tree->name;
    if (!strcmp(tree, "generic_human")) return 0;
    outbuf_printf(&k->why, "an AI looks its set-up anims up in its own tree, which is always generic_human; "
                  "'%%%s' was compiled under #using_animtree(\"%s\")", written(a), tree);
    char *msg = arena_printf(&k->ctx->mem, "anim '%s' in animtree '%s' does not belong to the entity's animtree "
                             "'generic_human'", a->ref->name, tree);
    return report_at(k, a, msg);
}

/* setturretanim: a group (one child per pitch) of groups (one per yaw
** step); a leaf where a group is needed stops the level when the turret is
** used (1.4 R). */
static int turret_fails(checker *k, unsigned i)
{
    const rt_arg *a = &k->args[i];
    int node;
    const atrc_tree *t = k->b->args[i].role == ANIM_ROLE_TURRET ? node_of(a, &node) : NULL;
    if (!t) return 0;
    int leaf = t->nodes[node].child_count == 0 ? node : facts_of(k, a->ref)->leaf_child[node];
    if (leaf < 0) return 0;
    if (leaf == node)
        outbuf_printf(&k->why, "'%%%s' is a leaf, and a turret anim is a group with one group per pitch "
                      "level", written(a));
    else
        outbuf_printf(&k->why, "'%%%s' is a group, but its child '%s' is a leaf where a group of yaw steps is "
                      "needed", written(a), t->nodes[leaf].spelling);
    outbuf_str(&k->why, "; the game stops the level with this error when the AI mans the turret, whatever "
                        "developer is");
    return report_at(k, a, arena_printf(&k->ctx->mem, "anim '%s' has no children", t->nodes[leaf].name));
}

/* An argument read by the handler: its kind, then its value's rules. */
static int arg_fails(checker *k, unsigned i)
{
    return kind_fails(k, i) || number_fails(k, i) || tree_fails(k, i) || turret_fails(k, i);
}

static int has_time_fails(checker *k)
{
    int at = anim_builtin_arg_with_role(k->b, ANIM_ROLE_ANIM), node;
    const rt_arg *a = at ? &k->args[at - 1] : NULL;
    const atrc_tree *t = a && (unsigned)at <= k->call->argc ? node_of(a, &node) : NULL;
    if (!t || atrc_has_time(t, node)) return 0;
    outbuf_printf(&k->why, "'%%%s' is a blend group", written(a));
    node_place(k, t, node, a->ref->tree);
    outbuf_str(&k->why, "; neither it nor an ancestor is loopsync/nonloopsync, so it has no time");
    if (k->b->flagged) outbuf_str(&k->why, " to send notetracks by; flag a leaf or a group inside a sync group");
    else outbuf_str(&k->why, "; ask a leaf or a group inside a sync group");
    return report_at(k, a, "blended nonsynchronized animation has no concept of time");
}

/* "'%walk' is under body < root" (at most a few ancestors). */
static void ancestry(checker *k, const atrc_tree *t, int node)
{
    int shown = 0;
    for (int p = t->nodes[node].parent; p >= 0; p = t->nodes[p].parent) {
        if (shown == 6) {
            outbuf_str(&k->why, " < ...");
            break;
        }
        outbuf_printf(&k->why, "%s%s", shown++ ? " < " : "", t->nodes[p].spelling);
    }
}

static int ancestor_fails(checker *k)
{
    int ai = anim_builtin_arg_with_role(k->b, ANIM_ROLE_ANIM), ri = anim_builtin_arg_with_role(k->b, ANIM_ROLE_ROOT);
    if (!ai || !ri || (unsigned)ri > k->call->argc) return 0;
    const rt_arg *a = &k->args[ai - 1], *r = &k->args[ri - 1];
    /* Both are compiled under the file's one current tree (#using_animtree
    ** cannot appear inside a function): never two trees here (3.3.2). */
    int an, rn;
    const atrc_tree *t = node_of(a, &an);
    if (!t || !node_of(r, &rn) || a->ref->tree != r->ref->tree) return 0;
    if (an == rn) {
        outbuf_printf(&k->why, "the root and the anim are the same node '%%%s'; give a group above it as the root",
                      written(r));
        return report_at(k, r, "root anim is not an ancestor of the anim");
    }
    const tree_facts *tf = facts_of(k, a->ref);
    if (tf->enter[rn] < tf->enter[an] && tf->leave[an] < tf->leave[rn]) return 0;
    outbuf_printf(&k->why, "'%%%s' is not on the parent chain of '%%%s', which is under ", written(r), written(a));
    ancestry(k, t, an);
    outbuf_str(&k->why, " (the anim's weights are set anyway before the error)");
    return report_at(k, r, "root anim is not an ancestor of the anim");
}

/* The first argument is a group where the handler needs a leaf (setanimtime,
** getanimlength): message, then why, then what does work. */
static int group_fails(checker *k, const char *message, const char *instead)
{
    int node;
    const rt_arg *a = &k->args[0];
    const atrc_tree *t = node_of(a, &node);
    if (!t || t->nodes[node].child_count == 0) return 0;
    outbuf_printf(&k->why, "'%%%s' is a group", written(a));
    node_place(k, t, node, a->ref->tree);
    outbuf_str(&k->why, instead);
    return report_at(k, a, message);
}

static int looping_fails(checker *k)
{
    int node;
    const rt_arg *a = &k->args[0], *time = k->call->argc >= 2 ? &k->args[1] : NULL;
    const atrc_tree *t = node_of(a, &node);
    if (!t || !time || (time->lit != RT_LIT_INT && time->lit != RT_LIT_FLOAT) || time->number != 1) return 0;
    if (t->nodes[node].child_count != 0 || t->nodes[node].looping != 1) return 0;
    outbuf_printf(&k->why, "the xanim of '%%%s' loops, so its end is its start; set 0 instead", written(a));
    return report_at(k, time, "cannot set time 1 on looping animation");
}

static int mode_fails(checker *k)
{
    const rt_arg *m = k->call->argc >= 5 ? &k->args[4] : NULL;
    if (!m || m->lit != RT_LIT_STRING) return 0;
    const char *s = k->file->c.text + m->text;
    size_t n = m->text_len;
    if ((n == 6 && !memcmp(s, "normal", 6)) || (n == 10 && !memcmp(s, "deathplant", 10))) return 0;
    outbuf_str(&k->why, "argument 5 (mode) is compared exactly, case included");
    int shown = n > 64 ? 64 : (int)n;
    return report_at(k, m, arena_printf(&k->ctx->mem, "Illegal mode %.*s%s for animScripted. Valid modes are "
                                        "normal and deathplant", shown, s, n > 64 ? "..." : ""));
}

static int prone_fails(checker *k)
{
    const rt_arg *down = &k->args[0], *up = &k->args[1];
    if ((down->lit == RT_LIT_INT || down->lit == RT_LIT_FLOAT) && down->number >= 0) {
        outbuf_printf(&k->why, "the down angle is %g; it must be below 0 (stock: -45)", down->number);
        return report_at(k, down, "Down angle (parameter 1) must be set to be less than 0.");
    }
    if ((up->lit == RT_LIT_INT || up->lit == RT_LIT_FLOAT) && up->number <= 0) {
        outbuf_printf(&k->why, "the up angle is %g; it must be above 0 (stock: 45)", up->number);
        return report_at(k, up, "Up angle (parameter 2) must be set to be greater than 0.");
    }
    return 0;
}

static int count_fails(checker *k)
{
    const anim_builtin *b = k->b;
    uint32_t n = k->call->argc;
    if (b->count_max == ANIM_NO_COUNT_CHECK || (n >= b->count_min && n <= b->count_max)) return 0;
    outbuf_printf(&k->why, "%s takes ", b->name);
    signature(k);
    outbuf_printf(&k->why, "; this call has %u argument%s", n, n == 1 ? "" : "s");
    const char *msg = n < b->count_min && b->msg_few ? b->msg_few : b->msg_many;
    /* The knob-all messages end in a newline the console prints. */
    size_t len = strlen(msg);
    if (len && msg[len - 1] == '\n') len--;
    return report(k, k->call->line, k->call->col, arena_strndup(&k->ctx->mem, msg, len));
}

/* The call's steps in the handler's order; the first certain failure is
** reported, steps that depend on the running game pass (section 5). */
static void decide(checker *k)
{
    const anim_builtin *b = k->b;
    if (count_fails(k)) return;
    for (const char *o = b->order; *o; o++) {
        if (*o >= '1' && *o <= '6') {
            unsigned i = (unsigned)(*o - '1');
            if (i >= k->call->argc) {
                if (i >= b->required) continue; /* optional and absent: not read */
                outbuf_printf(&k->why, "%s takes ", b->name);
                signature(k);
                outbuf_printf(&k->why, "; this call has %u argument%s", k->call->argc, k->call->argc == 1 ? "" : "s");
                report(k, k->call->line, k->call->col,
                       arena_printf(&k->ctx->mem, "parameter %u does not exist", i + 1));
                return;
            }
            if (arg_fails(k, i)) return;
            continue;
        }
        int failed = 0;
        switch (*o) {
        case ANIM_STEP_HAS_TIME: failed = has_time_fails(k); break;
        case ANIM_STEP_ANCESTOR: failed = ancestor_fails(k); break;
        case ANIM_STEP_LEAF: failed = group_fails(k, "not a leaf animation", "; only a leaf's time can be set"); break;
        case ANIM_STEP_LOOPING: failed = looping_fails(k); break;
        case ANIM_STEP_LENGTH:
            failed = group_fails(k, "non-primitive animation has no concept of length",
                                 "; only a leaf has a length: ask one of its leaves");
            break;
        case ANIM_STEP_MODE: failed = mode_fails(k); break;
        case ANIM_STEP_PRONE: failed = prone_fails(k); break;
        default: break;
        }
        if (failed) return;
    }
}

void runtime_check(atrc_ctx *ctx)
{
    if (!ctx->runtime_files) return;
    checker *k = xcalloc(1, sizeof *k);
    k->ctx = ctx;
    /* -Werror=runtime-anim: these warnings only are made errors. */
    int as_errors = ctx->diags.warnings_as_errors;
    if (ctx->opts.runtime_anim == ATRC_RUNTIME_ANIM_ERROR) ctx->diags.warnings_as_errors = 1;
    unsigned game = ANIM_GAME(ctx->opts.profile);
    for (const struct rt_file *rf = ctx->runtime_files; rf; rf = rf->next) {
        k->file = rf;
        for (size_t i = 0; i < rf->c.call_count; i++) {
            const rt_call *c = &rf->c.calls[i];
            k->b = &anim_builtins[c->row];
            /* Only where the game's handler is known (VERIFIED or INFERRED);
            ** code in /# #/ only where the game compiles it. */
            if (!(k->b->rules_games & game) || (c->in_dev && !ctx->opts.developer_script)) continue;
            k->call = c;
            k->args = rf->c.args + c->first;
            decide(k);
        }
    }
    ctx->diags.warnings_as_errors = as_errors;
    for (int i = 0; i <= ATRC_MAX_TREES; i++) {
        free(k->facts[i].enter);
        free(k->facts[i].leave);
        free(k->facts[i].leaf_child);
    }
    outbuf_free(&k->why);
    free(k);
    ctx->runtime_files = ctx->runtime_tail = NULL;
}
