/* Output: the reference listing (text), the tree listing (--trees), the JSON
** document of interface.md, and --explain's decoding of a packed value. */
#include "compile/context.h"
#include "compile/walk.h"
#include "tree/atr.h"
#include "output/diag_view.h"
#include "output/explain.h"
#include "base/outbuf.h"
#include "compile/notetracks.h"

#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- JSON ---- */

/* s as a JSON string (outbuf_json_string), or null. */
static void json_string(outbuf *b, const char *s)
{
    if (!s) outbuf_put(b, "null", 4);
    else outbuf_json_string(b, s, strlen(s));
}

static void json_int_or_null(outbuf *b, int64_t v)
{
    if (v < 0) outbuf_put(b, "null", 4);
    else outbuf_int(b, v);
}

static const char *const kind_names[] = {"anim", "animtree", "engine"}; /* ORDER: ref_kind */
static const char *const severity_names[] = {"error", "warning", "note"}; /* ORDER: diag_severity */

/* A leaf's notetracks when they were read (JSON runs read them while the
** trees are built): each name and frame in file order, `end` last. */
static void json_notetracks(outbuf *b, const atrc_tree *t, int index)
{
    const xanim_notes *notes = atr_leaf_notes_kept(t, index);
    if (!notes) return;
    outbuf_str(b, ", \"notetracks\": [");
    for (size_t i = 0; i < notes->count; i++) {
        outbuf_str(b, i ? ", {\"name\": " : "{\"name\": ");
        json_string(b, notes->items[i].name);
        outbuf_str(b, ", \"frame\": ");
        outbuf_int(b, notes->items[i].frame);
        outbuf_char(b, '}');
    }
    outbuf_char(b, ']');
}

static void json_node(outbuf *b, const atrc_tree *t, int index)
{
    const atrc_node *n = &t->nodes[index];
    outbuf_str(b, "{\"index\": ");
    outbuf_int(b, index);
    outbuf_str(b, ", \"name\": ");
    json_string(b, n->name);
    if (n->parent < 0) {
        outbuf_str(b, ", \"parent\": null");
    } else {
        outbuf_str(b, ", \"parent\": ");
        outbuf_int(b, n->parent);
    }
    outbuf_str(b, ", \"child_count\": ");
    outbuf_int(b, n->child_count);
    if (n->child_count > 0 || index == 0) {
        outbuf_str(b, ", \"first_child\": ");
        outbuf_int(b, n->first_child);
        outbuf_str(b, ", \"flags\": ");
        outbuf_int(b, n->parse_flags);
    } else {
        outbuf_str(b, ", \"looping\": ");
        outbuf_str(b, n->looping < 0 ? "null" : n->looping ? "true" : "false");
        json_notetracks(b, t, index);
    }
    outbuf_char(b, '}');
}

/* Level and walk mode: every script in load order (interface.md). */
static void json_scripts(const walk_state *w, outbuf *b)
{
    outbuf_str(b, ",\n  \"scripts\": [");
    for (size_t i = 0; i < w->scripts.count; i++) {
        const walk_script *s = w->scripts.items[i];
        outbuf_str(b, i ? ",\n    {\"name\": " : "\n    {\"name\": ");
        json_string(b, s->name);
        outbuf_str(b, ", \"file\": ");
        json_string(b, s->file);
        outbuf_str(b, ", \"from\": ");
        json_string(b, s->from ? s->from->name : "engine");
        outbuf_str(b, ", \"trees\": [");
        for (size_t k = 0; k < s->trees.count; k++) {
            if (k) outbuf_str(b, ", ");
            json_string(b, s->trees.items[k]->name);
        }
        outbuf_str(b, "]}");
    }
    outbuf_str(b, w->scripts.count ? "\n  ]" : "]");
}
static void json_pruned_nodes(const tree_entry *t, outbuf *b); /* --show-pruned, below */

/* ", \"line\": L, \"column\": C" of a located item, or nulls. */
static void json_position(outbuf *b, int located, int line, int col)
{
    if (!located) {
        outbuf_str(b, ", \"line\": null, \"column\": null");
        return;
    }
    outbuf_str(b, ", \"line\": ");
    outbuf_int(b, line);
    outbuf_str(b, ", \"column\": ");
    outbuf_int(b, col);
}

/* The diagnostic form's members after the position: "end_line", "end_column", "code". */
static void json_diag_form(outbuf *b, const atrc_diagnostic *d)
{
    if (d->where.file) {
        outbuf_str(b, ", \"end_line\": ");
        outbuf_int(b, d->where.end_line);
        outbuf_str(b, ", \"end_column\": ");
        outbuf_int(b, d->where.end_column);
    } else {
        outbuf_str(b, ", \"end_line\": null, \"end_column\": null");
    }
    outbuf_str(b, ", \"code\": ");
    json_string(b, d->code);
}

/* A file's name as a JSON string, escaped once for all its references (they
** come file by file). */
typedef struct path_cache {
    const source_file *src;
    size_t len;
    char text[512];
} path_cache;

static void json_path(outbuf *b, const source_file *src, path_cache *pc)
{
    if (src && src == pc->src) {
        outbuf_put(b, pc->text, pc->len);
        return;
    }
    pc->src = NULL;
    /* A name of up to 80 bytes escapes to at most 6 * 80 + 2 < 512 bytes. */
    if (!src || strlen(src->path) > 80) {
        json_string(b, src ? src->path : NULL);
        return;
    }
    /* Written in one piece at s + start, then kept. */
    outbuf_reserve(b, sizeof pc->text);
    size_t start = b->len;
    json_string(b, src->path);
    pc->len = b->len - start;
    memcpy(pc->text, b->s + start, pc->len);
    pc->src = src;
}

/* A script's game-relative name without ".gsc" ("maps/mp/_utility", the name
** level mode knows it by) as a JSON string, for `atrc diff` to match runs
** from other folders or machines; kept for the refs of the same file. */
static void json_script_name(outbuf *b, const atrc_ctx *ctx, const source_file *src, path_cache *pc)
{
    if (src == pc->src) {
        outbuf_put(b, pc->text, pc->len);
        return;
    }
    char name[1024];
    gamefs_relative_name(&ctx->fs, src->path, name, sizeof name);
    size_t n = strlen(name);
    name[gamefs_script_stem(name)] = 0;
    pc->src = NULL;
    if (n > 80) { /* as json_path: a short name's escape fits the cache */
        json_string(b, name);
        return;
    }
    outbuf_reserve(b, sizeof pc->text);
    size_t start = b->len;
    json_string(b, name);
    pc->len = b->len - start;
    memcpy(pc->text, b->s + start, pc->len);
    pc->src = src;
}

/* only: the trees --tree selected (by registry index), or NULL for all. */
static void emit_json(const atrc_ctx *ctx, const unsigned char *only, outbuf *b)
{
    path_cache pc = {NULL, 0, {0}}, sc = {NULL, 0, {0}};
    outbuf_str(b, "{\n  \"atrc\": 1,\n  \"profile\": \"");
    outbuf_str(b, atrc_profile_name(ctx->opts.profile));
    outbuf_str(b, "\"");
    int listed = 0;
    if (only) {
        /* A part of the run: the reader knows (atrc diff needs whole runs). */
        outbuf_str(b, ",\n  \"tree_filter\": [");
        for (int i = 1; i <= ctx->tree_count; i++)
            if (only[i]) {
                outbuf_str(b, listed++ ? ", " : "");
                json_string(b, ctx->trees[i]->name);
            }
        outbuf_str(b, "]");
        listed = 0;
    }
    outbuf_str(b, ",\n  \"trees\": [");
    for (int i = 1; i <= ctx->tree_count; i++) {
        const tree_entry *t = ctx->trees[i];
        if (only && !only[i]) continue;
        outbuf_str(b, listed++ ? ",\n    {\n      \"index\": " : "\n    {\n      \"index\": ");
        outbuf_int(b, t->index);
        outbuf_str(b, ",\n      \"name\": ");
        json_string(b, t->name);
        outbuf_str(b, ",\n      \"file\": ");
        json_string(b, t->file);
        if (t->file) {
            /* Where the game finds it, whatever folder or archive held it. */
            outbuf_str(b, ",\n      \"game_file\": \"animtrees/");
            outbuf_str(b, t->name);
            outbuf_str(b, ".atr\"");
        }
        outbuf_str(b, ",\n      \"checksum\": ");
        if (t->built) outbuf_int(b, t->tree.checksum);
        else outbuf_str(b, "null");
        outbuf_str(b, ",\n      \"nodes\": [");
        if (t->built) {
            for (int k = 0; k < t->tree.node_count; k++) {
                outbuf_str(b, k ? ",\n        " : "\n        ");
                json_node(b, &t->tree, k);
            }
            json_pruned_nodes(t, b);
            if (t->tree.node_count) outbuf_str(b, "\n      ");
        }
        outbuf_str(b, "]\n    }");
    }
    outbuf_str(b, listed ? "\n  ],\n  \"references\": [" : "],\n  \"references\": [");
    listed = 0;
    for (const anim_ref *r = ctx->refs; r; r = r->next) {
        if (only && (!r->tree || !only[r->tree->index])) continue;
        outbuf_str(b, listed++ ? ",\n    {\"file\": " : "\n    {\"file\": ");
        json_path(b, r->src, &pc);
        json_position(b, r->src != NULL, r->line, r->col);
        if (r->src) {
            outbuf_str(b, ", \"script\": ");
            json_script_name(b, ctx, r->src, &sc);
        }
        outbuf_str(b, ", \"kind\": \"");
        outbuf_str(b, kind_names[r->kind]);
        outbuf_str(b, "\", \"tree\": ");
        json_string(b, r->tree ? r->tree->name : NULL);
        if (r->kind != REF_ANIMTREE) {
            outbuf_str(b, ", \"name\": ");
            json_string(b, r->name);
        }
        outbuf_str(b, ", \"value\": ");
        json_int_or_null(b, r->value);
        if (r->developer) outbuf_str(b, ", \"developer\": true");
        outbuf_char(b, '}');
    }
    outbuf_str(b, listed ? "\n  ]" : "]");
    if (ctx->walk) json_scripts(ctx->walk, b);
    outbuf_str(b, ",\n  \"diagnostics\": [");
    size_t viewed;
    const atrc_diagnostic *view = diag_view_items(ctx, &viewed);
    for (size_t i = 0; i < ctx->diags.count; i++) {
        const diag *g = &ctx->diags.items[i];
        outbuf_str(b, i ? ",\n    {\"severity\": \"" : "\n    {\"severity\": \"");
        outbuf_str(b, severity_names[g->severity]);
        outbuf_str(b, "\", \"file\": ");
        json_string(b, g->src ? g->src->path : NULL);
        json_position(b, g->src != NULL, g->line, g->col);
        json_diag_form(b, &view[i]);
        outbuf_str(b, ", \"message\": ");
        json_string(b, g->message);
        outbuf_char(b, '}');
    }
    outbuf_str(b, ctx->diags.count ? "\n  ]\n}\n" : "]\n}\n");
}

/* ---- text ---- */

static void text_tree_ref(outbuf *b, const tree_entry *t)
{
    if (t) {
        outbuf_str(b, t->name);
        outbuf_char(b, '[');
        outbuf_int(b, t->index);
        outbuf_char(b, ']');
    } else {
        outbuf_str(b, "(no tree)");
    }
}

static void emit_references(const atrc_ctx *ctx, outbuf *b)
{
    for (const anim_ref *r = ctx->refs; r; r = r->next) {
        if (r->src) {
            outbuf_str(b, r->src->path);
            outbuf_char(b, ':');
            outbuf_int(b, r->line);
            outbuf_char(b, ':');
            outbuf_int(b, r->col);
            outbuf_put(b, ": ", 2);
        } else {
            outbuf_str(b, "<engine>: ");
        }
        if (r->kind == REF_ANIMTREE) {
            outbuf_str(b, "#animtree -> ");
            text_tree_ref(b, r->tree);
            if (r->developer) {
                outbuf_str(b, " not compiled (developer block)\n");
            } else if (r->value >= 0) {
                outbuf_put(b, " = ", 3);
                outbuf_int(b, r->value);
                outbuf_char(b, '\n');
            } else {
                outbuf_str(b, " unresolved\n");
            }
            continue;
        }
        outbuf_char(b, '%');
        outbuf_str(b, r->name);
        outbuf_str(b, " -> ");
        text_tree_ref(b, r->tree);
        if (r->developer) {
            outbuf_str(b, " not compiled (developer block)\n");
        } else if (r->value >= 0) {
            char tmp[64];
            snprintf(tmp, sizeof tmp, " node %" PRId64 " = 0x%08" PRIx64 "\n", r->value & 0xFFFF, r->value);
            outbuf_str(b, tmp);
        } else {
            outbuf_str(b, " unresolved\n");
        }
    }
}

static void describe_flags(char *buf, size_t size, const atrc_node *n)
{
    buf[0] = 0;
    if (n->child_count == 0) {
        snprintf(buf, size, "%s%s", n->looping < 0 ? "leaf" : n->looping ? "leaf looping" : "leaf nonlooping",
                 n->placeholder ? " (placeholder)" : "");
        return;
    }
    snprintf(buf, size, "group%s%s%s%s", (n->parse_flags & ATRC_FLAG_COMPLETE) ? " complete" : "",
             (n->parse_flags & ATRC_FLAG_LOOPSYNC) ? " loopsync" : "",
             (n->parse_flags & ATRC_FLAG_NONLOOPSYNC) ? " nonloopsync" : "",
             (n->parse_flags & ATRC_FLAG_ADDITIVE) ? " additive" : "");
}

/* Pre-order outline in engine child order: indices ascend within each group. */
static void emit_tree_listing(const tree_entry *t, FILE *out)
{
    if (!t->built) {
        fprintf(out, "tree %d %s: not built (%s)\n", t->index, t->name,
                t->too_long ? "name too long" : t->file ? "errors in tree" : "no .atr file found");
        return;
    }
    const atrc_tree *tr = &t->tree;
    fprintf(out, "tree %d %s: %s, %d nodes, checksum 0x%08" PRIx32 "\n", t->index, t->name, t->file,
            tr->node_count, tr->checksum);
    int *stack = xmalloc(array_size(((size_t)tr->node_count + 1) * 2, sizeof *stack));
    size_t top = 0;
    stack[top++] = 0;
    stack[top++] = 0;
    while (top) {
        int depth = stack[--top];
        int k = stack[--top];
        const atrc_node *n = &tr->nodes[k];
        char flags[96];
        describe_flags(flags, sizeof flags, n);
        fprintf(out, "  %5d 0x%08x  %*s%-*s %s\n", k, (unsigned)registry_pack(t->index, k), depth * 2, "",
                depth * 2 < 32 ? 32 - depth * 2 : 0, n->name, flags);
        for (int c = n->child_count; c-- > 0;) {
            stack[top++] = n->first_child + c;
            stack[top++] = depth + 1;
        }
    }
    free(stack);
}

/* ---- --show-pruned and --format dot ---- */

/* A formatted string in malloc'd memory (free it). */
static char *format_tmp(const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static char *format_tmp(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = xmalloc(n > 0 ? (size_t)n + 1 : 1);
    s[0] = 0;
    va_start(ap, fmt);
    if (n > 0) vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

/* Outline order of a tree with the nodes pruning removed: ids 0..N-1 are
** the compact nodes, N.. the pruned ones.  A parent's children are its
** compact children in index order with its pruned children slotted in by
** declaration order (newest first, as the engine's child lists run). */
typedef struct outline {
    int *id, *depth;
    size_t count;
} outline;

/* Declaration position; a placeholder (no line) was added last, so first. */
static long long decl_key(int line, int col)
{
    return line ? (long long)line << 32 | (unsigned)col : LLONG_MAX;
}

static void outline_build(const tree_entry *t, outline *o)
{
    int n = t->tree.node_count, p = (int)t->pruned_count;
    size_t total = (size_t)n + (size_t)p;
    int *head = xmalloc(array_size(total, sizeof *head));
    int *next = xmalloc(array_size((size_t)p + 1, sizeof *next));
    for (size_t i = 0; i < total; i++) head[i] = -1;
    for (int i = 0; i < p; i++) { /* prepending in declaration order: lists run newest first */
        const atr_pruned *e = &t->pruned[i];
        int parent = e->parent >= 0 ? e->parent : n + e->pruned_parent;
        next[i] = head[parent];
        head[parent] = i;
    }
    o->id = xmalloc(array_size(total, sizeof *o->id));
    o->depth = xmalloc(array_size(total, sizeof *o->depth));
    o->count = 0;
    int *stack = xmalloc(array_size((total + 1) * 2, sizeof *stack));
    int *kids = xmalloc(array_size(total + 1, sizeof *kids));
    size_t top = 0;
    stack[top++] = 0;
    stack[top++] = 0;
    while (top) {
        int depth = stack[--top], x = stack[--top];
        o->id[o->count] = x;
        o->depth[o->count++] = depth;
        size_t k = 0;
        int q = head[x];
        if (x < n) {
            const atrc_node *e = &t->tree.nodes[x];
            for (int c = e->first_child; c < e->first_child + e->child_count; c++) {
                long long key = decl_key(t->tree.nodes[c].line, t->tree.nodes[c].column);
                for (; q >= 0 && decl_key(t->pruned[q].line, t->pruned[q].col) > key; q = next[q]) kids[k++] = n + q;
                kids[k++] = c;
            }
        }
        for (; q >= 0; q = next[q]) kids[k++] = n + q;
        while (k > 0) {
            stack[top++] = kids[--k];
            stack[top++] = depth + 1;
        }
    }
    free(stack);
    free(kids);
    free(head);
    free(next);
}

static void outline_free(outline *o)
{
    free(o->id);
    free(o->depth);
}

/* --trees --show-pruned: the outline with the removed nodes, which have no index. */
static void emit_tree_listing_pruned(const tree_entry *t, FILE *out)
{
    const atrc_tree *tr = &t->tree;
    fprintf(out, "tree %d %s: %s, %d nodes (%zu pruned), checksum 0x%08" PRIx32 "\n", t->index, t->name,
            t->file, tr->node_count, t->pruned_count, tr->checksum);
    outline o;
    outline_build(t, &o);
    for (size_t i = 0; i < o.count; i++) {
        int x = o.id[i], depth = o.depth[i], width = depth * 2 < 32 ? 32 - depth * 2 : 0;
        if (x < tr->node_count) {
            char flags[96];
            describe_flags(flags, sizeof flags, &tr->nodes[x]);
            fprintf(out, "  %5d 0x%08x  %*s%-*s %s\n", x, (unsigned)registry_pack(t->index, x), depth * 2, "", width,
                    tr->nodes[x].name, flags);
        } else {
            const atr_pruned *e = &t->pruned[x - tr->node_count];
            fprintf(out, "  %5s %10s  %*s%-*s pruned %s\n", "-", "", depth * 2, "", width, e->name,
                    e->is_group ? "group" : "leaf");
        }
    }
    outline_free(&o);
}

static void json_pruned_nodes(const tree_entry *t, outbuf *b)
{
    for (size_t i = 0; i < t->pruned_count; i++) {
        const atr_pruned *e = &t->pruned[i];
        outbuf_str(b, ",\n        {\"index\": null, \"name\": ");
        json_string(b, e->name);
        if (e->parent >= 0) {
            outbuf_str(b, ", \"parent\": ");
            outbuf_int(b, e->parent);
        } else {
            outbuf_str(b, ", \"parent\": null, \"pruned_parent\": ");
            outbuf_int(b, t->tree.node_count + e->pruned_parent);
        }
        outbuf_str(b, ", \"child_count\": 0, \"pruned\": true, \"group\": ");
        outbuf_str(b, e->is_group ? "true" : "false");
        outbuf_str(b, ", \"line\": ");
        outbuf_int(b, e->line);
        outbuf_str(b, ", \"column\": ");
        outbuf_int(b, e->col);
        outbuf_char(b, '}');
    }
}

/* Text for Graphviz: in a quoted string (html 0) quotes and backslashes
** escaped, in an HTML-like label (html 1) & < > " as entities; control bytes
** and broken UTF-8 replaced, so that any name renders. */
static void dot_text(FILE *out, const char *s, int html)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t avail = strlen(s);
    while (*p) {
        size_t n = *p >= 0x80 ? utf8_sequence_length(p, avail) : 1;
        if (!html && (*p == '"' || *p == '\\')) fprintf(out, "\\%c", *p);
        else if (!html && *p == '\n') fputs("\\n", out);
        else if (html && *p == '&') fputs("&amp;", out);
        else if (html && *p == '<') fputs("&lt;", out);
        else if (html && *p == '>') fputs("&gt;", out);
        else if (html && *p == '"') fputs("&quot;", out);
        else if (*p < 0x20 || *p == 0x7F || n == 0) fputc('?', out);
        else fwrite(p, 1, n, out);
        if (n == 0) n = 1;
        p += n;
        avail -= n;
    }
}

static void dot_string(FILE *out, const char *s)
{
    fputc('"', out);
    dot_text(out, s, 0);
    fputc('"', out);
}

/* The node's name as written in the .atr, and (when that differs) the
** folded name the scripts use as its tooltip. */
static void dot_tooltip(FILE *out, const char *name, const char *spelling)
{
    if (!spelling || strcmp(spelling, name) == 0) return;
    fputs(", tooltip=", out);
    char *tip = format_tmp("%%%s", name);
    dot_string(out, tip);
    free(tip);
}

static const char *spelled(const char *name, const char *spelling)
{
    return spelling ? spelling : name;
}

/* Outline entry x of t (a compact node below node_count, else a pruned one). */
static int dot_parent(const tree_entry *t, int x)
{
    int n = t->tree.node_count;
    if (x < n) return t->tree.nodes[x].parent;
    const atr_pruned *e = &t->pruned[x - n];
    return e->parent >= 0 ? e->parent : n + e->pruned_parent;
}

static int dot_is_leaf(const tree_entry *t, int x)
{
    int n = t->tree.node_count;
    return x < n ? x > 0 && t->tree.nodes[x].child_count == 0 : !t->pruned[x - n].is_group;
}

/* How many nodes the widest level of t's picture has. */
static size_t dot_width(const tree_entry *t, int show_pruned)
{
    if (!t->built) return 1;
    size_t *at_depth = xcalloc((size_t)t->tree.node_count + t->pruned_count + 1, sizeof *at_depth), widest = 1;
    outline o;
    outline_build(t, &o);
    for (size_t i = 0; i < o.count; i++)
        if (o.id[i] < t->tree.node_count || show_pruned)
            if (++at_depth[o.depth[i]] > widest) widest = at_depth[o.depth[i]];
    outline_free(&o);
    free(at_depth);
    return widest;
}

/* A node of the picture; lr: one line "name  #k  0x..." (left to right
** stacks a level's nodes: the kind shows in the style, see the legend). */
static void dot_group(const tree_entry *t, int x, int lr, FILE *out)
{
    const atrc_tree *tr = &t->tree;
    fprintf(out, "    t%d_n%d [", t->index, x);
    if (x >= tr->node_count) {
        const atr_pruned *e = &t->pruned[x - tr->node_count];
        char *l = format_tmp(lr ? "%s (pruned)" : "%s\n(pruned)", spelled(e->name, e->spelling));
        fputs("label=", out);
        dot_string(out, l);
        free(l);
        dot_tooltip(out, e->name, e->spelling);
        fprintf(out, ", shape=%s, style=\"dotted\", color=\"#aaaaaa\", fontcolor=\"#999999\"];\n",
                e->is_group ? "box" : "ellipse");
        if (!lr)
            fprintf(out, "    t%d_n%d -> t%d_n%d [style=dotted, color=\"#aaaaaa\"];\n", t->index, dot_parent(t, x),
                    t->index, x);
        return;
    }
    const atrc_node *n = &tr->nodes[x];
    char kind[96];
    describe_flags(kind, sizeof kind, n);
    char *l = lr ? format_tmp("%s  #%d  0x%08x", spelled(n->name, n->spelling), x, (unsigned)registry_pack(t->index, x))
                 : format_tmp("%s\n#%d  0x%08x\n%s", spelled(n->name, n->spelling), x,
                              (unsigned)registry_pack(t->index, x), kind);
    fputs("label=", out);
    dot_string(out, l);
    free(l);
    dot_tooltip(out, n->name, n->spelling);
    unsigned f = n->parse_flags;
    if (n->child_count == 0 && x != 0) {
        fputs(n->placeholder ? ", shape=ellipse, style=\"dashed\", fontcolor=\"#666666\""
                             : ", shape=ellipse, style=\"filled\", fillcolor=\"white\"", out);
    } else {
        const char *fill = (f & ATRC_FLAG_LOOPSYNC) ? "#cfe8ff" : (f & ATRC_FLAG_NONLOOPSYNC) ? "#ffe4b8"
                         : (f & ATRC_FLAG_ADDITIVE) ? "#d6f5cf" : x == 0 ? "#dddddd" : "#f2f2f2";
        fprintf(out, ", shape=box, style=\"rounded,filled\", fillcolor=\"%s\"", fill);
        if (f & ATRC_FLAG_COMPLETE) fputs(", penwidth=2.5", out);
        if (f & ATRC_FLAG_ADDITIVE) fputs(", peripheries=2", out);
    }
    fputs("];\n", out);
    if (x > 0 && !lr) fprintf(out, "    t%d_n%d -> t%d_n%d;\n", t->index, n->parent, t->index, x);
}

/* Left to right: the leaves of group g (outline ids, engine order) in one
** box, a row each (name as written, index, packed value), in columns of at
** most ATRC_DOT_ROWS rows. */
static void dot_leaf_box(const tree_entry *t, int g, const int *leaves, size_t count, FILE *out)
{
    const atrc_tree *tr = &t->tree;
    size_t cols = (count + ATRC_DOT_ROWS - 1) / ATRC_DOT_ROWS, rows = (count + cols - 1) / cols;
    fprintf(out, "    t%d_l%d [shape=plaintext, tooltip=", t->index, g);
    fputc('"', out);
    for (size_t i = 0; i < count; i++) {
        int x = leaves[i];
        fputs(i ? "\\n%" : "%", out);
        dot_text(out, x < tr->node_count ? tr->nodes[x].name : t->pruned[x - tr->node_count].name, 0);
    }
    fputs("\", label=<<table border=\"1\" cellborder=\"0\" cellspacing=\"0\" cellpadding=\"1\" color=\"#999999\">", out);
    for (size_t r = 0; r < rows; r++) {
        fputs("<tr>", out);
        for (size_t c = 0; c < cols; c++) {
            size_t i = c * rows + r;
            if (i >= count) {
                fputs("<td></td><td></td><td></td>", out);
                continue;
            }
            int x = leaves[i];
            if (x >= tr->node_count) {
                const atr_pruned *e = &t->pruned[x - tr->node_count];
                fputs("<td align=\"left\"><font color=\"#999999\">", out);
                dot_text(out, spelled(e->name, e->spelling), 1);
                fputs("</font></td><td><font color=\"#999999\">pruned</font></td><td></td>", out);
                continue;
            }
            const atrc_node *n = &tr->nodes[x];
            fputs(n->placeholder ? "<td align=\"left\"><font color=\"#666666\"><i>" : "<td align=\"left\">", out);
            dot_text(out, spelled(n->name, n->spelling), 1);
            fputs(n->placeholder ? "</i></font>" : "", out);
            fprintf(out, "%s</td><td align=\"right\">#%d</td><td align=\"left\">0x%08x%s</td>",
                    n->looping == 1 ? " (loop)" : n->placeholder ? " (placeholder)" : "", x,
                    (unsigned)registry_pack(t->index, x), c + 1 < cols ? "&nbsp;&nbsp;" : "");
        }
        fputs("</tr>", out);
    }
    fputs("</table>>];\n", out);
}

/* Left to right, Graphviz stacks a node's children from the bottom in the
** order their edges come: the edges are written last, in reverse, so that
** engine order reads from the top.  Each is (parent, target): a group's
** node, or (leaf < 0) the leaf box of group -leaf - 1. */
typedef struct dot_edge {
    int from, to;
} dot_edge;

static void dot_edges_reversed(const tree_entry *t, const dot_edge *e, size_t count, FILE *out)
{
    int n = t->tree.node_count;
    for (size_t i = count; i-- > 0;) {
        int box = e[i].to < 0, to = box ? -e[i].to - 1 : e[i].to;
        int dotted = to >= n; /* to a pruned node, or the leaves of a pruned group */
        fprintf(out, "    t%d_n%d -> t%d_%c%d%s;\n", t->index, e[i].from, t->index, box ? 'l' : 'n', to,
                dotted ? " [style=dotted, color=\"#aaaaaa\"]" : "");
    }
}

static void dot_tree(const tree_entry *t, int lr, FILE *out)
{
    fprintf(out, "  subgraph cluster_%d {\n    label=", t->index);
    char *label = t->built ? format_tmp("tree %d %s\n%s\nchecksum 0x%08" PRIx32, t->index, t->name, t->file,
                                              t->tree.checksum)
                           : format_tmp("tree %d %s\nnot built (%s)", t->index, t->name,
                                              t->too_long ? "name too long" : t->file ? "errors in tree"
                                                                                   : "no .atr file found");
    dot_string(out, label);
    free(label);
    fputs(";\n", out);
    if (!t->built) {
        fprintf(out, "    t%d_none [shape=plaintext, label=\"(no nodes)\"];\n  }\n", t->index);
        return;
    }
    outline o;
    outline_build(t, &o);
    if (!lr) {
        for (size_t i = 0; i < o.count; i++) dot_group(t, o.id[i], 0, out);
    } else {
        /* Each group's leaves, in outline (engine) order; the box's edge goes
        ** where its first leaf comes among the group's children. */
        size_t total = o.count;
        int *start = xmalloc(array_size(total + 1, sizeof *start)), *len = xcalloc(total + 1, sizeof *len);
        int *list = xmalloc(array_size(total + 1, sizeof *list));
        int *slot = xmalloc(array_size(total + 1, sizeof *slot));
        dot_edge *edges = xmalloc(array_size(total + 1, sizeof *edges));
        size_t edge_count = 0;
        for (size_t i = 0; i < total; i++)
            if (dot_is_leaf(t, o.id[i])) len[dot_parent(t, o.id[i])]++;
        int at = 0;
        for (size_t x = 0; x < total; x++) {
            start[x] = at;
            slot[x] = at;
            at += len[x];
        }
        for (size_t i = 0; i < total; i++)
            if (dot_is_leaf(t, o.id[i])) list[slot[dot_parent(t, o.id[i])]++] = o.id[i];
        for (size_t i = 0; i < total; i++) {
            int x = o.id[i];
            if (!dot_is_leaf(t, x)) {
                dot_group(t, x, 1, out);
                if (x > 0) edges[edge_count++] = (dot_edge){dot_parent(t, x), x};
                continue;
            }
            int g = dot_parent(t, x);
            if (list[start[g]] != x) continue;
            dot_leaf_box(t, g, list + start[g], (size_t)len[g], out);
            edges[edge_count++] = (dot_edge){g, -g - 1};
        }
        dot_edges_reversed(t, edges, edge_count, out);
        free(edges);
        free(start);
        free(len);
        free(list);
        free(slot);
    }
    outline_free(&o);
    fputs("  }\n", out);
}

/* What the colours and styles mean: one small cluster of sample nodes. */
static void dot_legend(const atrc_ctx *ctx, int lr, FILE *out)
{
    static const char *const items[][2] = {
        {"group", "shape=box, style=\"rounded,filled\", fillcolor=\"#f2f2f2\""},
        {"loopsync group", "shape=box, style=\"rounded,filled\", fillcolor=\"#cfe8ff\""},
        {"nonloopsync group", "shape=box, style=\"rounded,filled\", fillcolor=\"#ffe4b8\""},
        {"complete group", "shape=box, style=\"rounded,filled\", fillcolor=\"#f2f2f2\", penwidth=2.5"},
        {"additive group (cod4)", "shape=box, style=\"rounded,filled\", fillcolor=\"#d6f5cf\", peripheries=2"},
        {"leaf", "shape=ellipse, style=\"filled\", fillcolor=\"white\""},
        {"placeholder (void / void_loop)", "shape=ellipse, style=\"dashed\", fontcolor=\"#666666\""},
        {"pruned: no index", "shape=box, style=\"dotted\", color=\"#aaaaaa\", fontcolor=\"#999999\""},
    };
    size_t count = sizeof items / sizeof *items - (ctx->opts.show_pruned ? 0 : 1);
    fputs("  subgraph cluster_legend {\n    label=\"legend\";\n", out);
    for (size_t i = 0; i < count; i++) {
        /* left to right, leaves are rows of their group's box: no leaf sample */
        if (lr && strncmp(items[i][0], "leaf", 4) == 0) continue;
        fprintf(out, "    legend_%zu [label=\"%s\", %s];\n", i, items[i][0], items[i][1]);
    }
    if (lr)
        fputs("    legend_box [shape=plaintext, label=<<table border=\"1\" cellborder=\"0\" cellspacing=\"0\" "
              "color=\"#999999\"><tr><td align=\"left\">a group's leaves, in engine order:</td></tr>"
              "<tr><td align=\"left\">name as written  #index  packed value</td></tr></table>>];\n",
              out);
    fputs("  }\n", out);
}

static void emit_dot(const atrc_ctx *ctx, const unsigned char *selected, atrc_rankdir rankdir, FILE *out)
{
    int lr = rankdir == ATRC_RANKDIR_LR;
    if (rankdir == ATRC_RANKDIR_AUTO)
        for (int i = 1; i <= ctx->tree_count && !lr; i++)
            if (selected[i] && dot_width(ctx->trees[i], ctx->opts.show_pruned) > ATRC_DOT_WIDE) lr = 1;
    fprintf(out, "digraph atrc {\n  graph [ordering=out, fontname=\"Helvetica\", fontsize=11, nodesep=%s%s];\n"
                 "  node [fontname=\"Helvetica\", fontsize=10];\n  edge [arrowsize=0.6];\n",
            lr ? "0.08, ranksep=0.4" : "0.2", lr ? ", rankdir=LR" : "");
    fprintf(out, "  label=\"atrc %s, profile %s: #index  packed value (tree << 16 | node)\";\n", ATRC_VERSION,
            atrc_profile_name(ctx->opts.profile));
    for (int i = 1; i <= ctx->tree_count; i++)
        if (selected[i]) dot_tree(ctx->trees[i], lr, out);
    dot_legend(ctx, lr, out);
    fputs("}\n", out);
}

int atrc_emit_with(const atrc_ctx *ctx, atrc_format format, const atrc_emit_options *eo, FILE *out)
{
    static const atrc_emit_options defaults;
    if (!eo) eo = &defaults;
    /* The trees --tree names (all without it). */
    unsigned char selected[ATRC_MAX_TREES + 1];
    memset(selected, eo->tree_count ? 0 : 1, sizeof selected);
    for (size_t k = 0; k < eo->tree_count; k++)
        for (int i = 1; i <= ctx->tree_count; i++)
            if (strcasecmp(ctx->trees[i]->name, eo->trees[k]) == 0) selected[i] = 1;
    outbuf ob, *b = &ob;
    outbuf_stream(b, out);
    if (format == ATRC_FORMAT_DOT) {
        emit_dot(ctx, selected, eo->rankdir, out);
    } else if (format == ATRC_FORMAT_JSON) {
        emit_json(ctx, eo->tree_count ? selected : NULL, b);
    } else {
        /* The listings write to out directly, before anything is buffered. */
        if (eo->show_trees)
            for (int i = 1; i <= ctx->tree_count; i++) {
                const tree_entry *t = ctx->trees[i];
                if (!selected[i]) continue;
                if (t->built && ctx->opts.show_pruned) emit_tree_listing_pruned(t, out);
                else emit_tree_listing(t, out);
            }
        emit_references(ctx, b);
    }
    outbuf_free(b);
    fflush(out);
    return ferror(out) ? -1 : 0;
}

int atrc_emit(const atrc_ctx *ctx, atrc_format format, int show_trees, FILE *out)
{
    atrc_emit_options eo = {0};
    eo.show_trees = show_trees;
    return atrc_emit_with(ctx, format, &eo, out);
}

/* ---- load order (level and walk mode) ---- */

int atrc_emit_load_order(const atrc_ctx *ctx, FILE *out)
{
    const walk_state *w = ctx->walk;
    if (!w) return 0;
    fprintf(out, "load order (%s, profile %s): %zu script%s\n", w->title ? w->title : "walk mode",
            atrc_profile_name(ctx->opts.profile), w->scripts.count, w->scripts.count == 1 ? "" : "s");
    for (size_t i = 0; i < w->scripts.count; i++) {
        const walk_script *s = w->scripts.items[i];
        fprintf(out, "  %4zu %*s%s  %s", i + 1, s->depth * 2, "", s->name,
                s->file ? s->file : s->unreadable ? "(unreadable)" : "(not found)");
        if (s->from) fprintf(out, "  <- %s:%d:%d", s->from->name, s->ref_line, s->ref_col);
        else fputs("  <- engine", out);
        for (size_t k = 0; k < s->trees.count; k++) {
            const tree_entry *t = s->trees.items[k];
            fprintf(out, "%s%s[%d]", k ? ", " : "  trees ", t->name, t->index);
        }
        fputc('\n', out);
    }
    if (w->engine_tree) {
        const tree_entry *t = w->engine_tree;
        fprintf(out, "  engine: %s[%d] %d fixed names", t->name, t->index, w->engine_names);
        if (w->playeranim_file)
            fprintf(out, " + %d from %s", w->playeranim_names, w->playeranim_file);
        fputc('\n', out);
    }
    fflush(out);
    return ferror(out) ? -1 : 0;
}

/* ---- --explain ---- */

/* The path of node k from the root: "root/body/stand/stand_idle" (malloc'd). */
static char *node_path(const atrc_tree *t, int k)
{
    int depth = 0;
    size_t len = 5;
    for (int p = k; p > 0 && depth <= t->node_count; p = t->nodes[p].parent) {
        depth++;
        len += strlen(t->nodes[p].name) + 1;
    }
    int *chain = xmalloc(array_size((size_t)depth + 1, sizeof *chain));
    int i = depth;
    for (int p = k; i > 0; p = t->nodes[p].parent) chain[--i] = p;
    char *path = xmalloc(len), *w = path;
    memcpy(w, "root", 5);
    w += 4;
    for (i = 0; i < depth; i++) {
        size_t n = strlen(t->nodes[chain[i]].name);
        *w++ = '/';
        memcpy(w, t->nodes[chain[i]].name, n + 1);
        w += n;
    }
    free(chain);
    return path;
}

static int explain_one(const atrc_ctx *ctx, uint32_t value, atrc_format format, FILE *out, FILE *err)
{
    unsigned tree = value >> 16, node = value & 0xFFFF;
    char why[160] = "";
    const char *tree_name = NULL, *kind = NULL;
    char *path = NULL;
    const tree_entry *explained = NULL;
    if (tree == 0) {
        snprintf(why, sizeof why, "registry index 0 is never used: no reference packs to it");
    } else if (ctx && ctx->tree_count > 0) {
        if ((int)tree > ctx->tree_count) {
            snprintf(why, sizeof why, "no tree has registry index %u (%d registered)", tree, ctx->tree_count);
        } else {
            const tree_entry *t = ctx->trees[tree];
            tree_name = t->name;
            if (!t->built) {
                snprintf(why, sizeof why, "tree %u is '%.60s', which was not built", tree, t->name);
            } else if ((int)node >= t->tree.node_count) {
                snprintf(why, sizeof why, "tree '%.60s' has no node %u (it has %d nodes)", t->name, node,
                         t->tree.node_count);
            } else {
                path = node_path(&t->tree, (int)node);
                kind = node == 0 ? "root" : t->tree.nodes[node].child_count ? "group" : "leaf";
                explained = t;
            }
        }
    }
    explain_reason reason = {{0}, {0}, -1};
    if (explained) explain_reason_of(ctx, explained, (int)node, &reason);
    if (format == ATRC_FORMAT_JSON) {
        fprintf(out, "{\"atrc_explain\": 1, \"value\": %" PRIu32 ", \"tree_index\": %u, \"node_index\": %u, \"tree\": ",
                value, tree, node);
        outbuf ob, *b = &ob;
        outbuf_stream(b, out);
        json_string(b, tree_name);
        outbuf_str(b, ", \"path\": ");
        json_string(b, path);
        outbuf_str(b, ", \"kind\": ");
        json_string(b, kind);
        outbuf_str(b, ", \"error\": ");
        json_string(b, why[0] ? why : NULL);
        if (explained) {
            outbuf_str(b, ", \"block\": ");
            json_string(b, reason.block.s);
            outbuf_str(b, ", \"unpruned_index\": ");
            json_int_or_null(b, reason.unpruned);
            outbuf_str(b, ", \"pruning\": ");
            json_string(b, reason.pruning.len ? reason.pruning.s : NULL);
            outbuf_str(b, ", \"references\": [");
            int listed = 0;
            for (const anim_ref *r = ctx->refs; r; r = r->next) {
                if (r->value != (int64_t)value || r->kind == REF_ANIMTREE) continue;
                outbuf_str(b, listed++ ? ", {\"file\": " : "{\"file\": ");
                json_string(b, r->src ? r->src->path : NULL);
                json_position(b, r->src != NULL, r->line, r->col);
                outbuf_str(b, ", \"kind\": \"");
                outbuf_str(b, kind_names[r->kind]);
                outbuf_str(b, "\"}");
            }
            outbuf_str(b, "]");
        }
        outbuf_str(b, "}\n");
        outbuf_free(b);
    } else {
        fprintf(out, "0x%08" PRIx32 " = %" PRIu32 " = (%u << 16) | %u\n", value, value, tree, node);
        fprintf(out, "  tree index: %u (value >> 16)\n", tree);
        fprintf(out, "  node index: %u (value & 0xffff)\n", node);
        if (path) fprintf(out, "  %s: %s (%s)\n", tree_name, path, kind);
        if (explained) {
            fprintf(out, "  why: %s\n", reason.block.s);
            if (reason.pruning.len) fprintf(out, "  pruning: %s\n", reason.pruning.s);
            int listed = 0;
            for (const anim_ref *r = ctx->refs; r; r = r->next) {
                if (r->value != (int64_t)value || r->kind == REF_ANIMTREE) continue;
                if (!listed++) fputs("  referenced at:\n", out);
                if (r->src) fprintf(out, "    %s:%d:%d: %%%s\n", r->src->path, r->line, r->col, r->name);
                else fprintf(out, "    <engine>: %%%s\n", r->name);
            }
            if (!listed) fputs("  referenced at: nowhere (no reference has this value)\n", out);
        }
    }
    explain_reason_free(&reason);
    free(path);
    fflush(out);
    if (why[0] && err) fprintf(err, "atrc: error: 0x%08" PRIx32 " names no animation: %s\n", value, why);
    if (ferror(out)) return -2;
    return why[0] ? -1 : 0;
}

int atrc_explain(const atrc_ctx *ctx, uint32_t value, atrc_format format, FILE *out, FILE *err)
{
    return explain_one(ctx, value, format, out, err);
}

int atrc_explain_values(const atrc_ctx *ctx, const uint32_t *values, size_t count, atrc_format format, FILE *out,
                        FILE *err)
{
    int rc = 0;
    for (size_t i = 0; i < count; i++) {
        if (i && format != ATRC_FORMAT_JSON) fputc('\n', out);
        int r = explain_one(ctx, values[i], format, out, err);
        if (r == -2) return -2;
        if (r == -1) rc = -1;
    }
    return rc;
}
