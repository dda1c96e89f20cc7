/* Output: the reference listing (text), the tree listing (--trees), the JSON
** document of interface.md, and --explain's decoding of a packed value. */
#include "context.h"
#include "walk.h"
#include "atr.h"

#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- JSON ---- */

/* Writes s as a JSON string.  Bytes that are not valid UTF-8 become U+FFFD so
** that the document always parses, whatever bytes a hostile file held. */
static void json_string(FILE *out, const char *s)
{
    if (!s) {
        fputs("null", out);
        return;
    }
    const unsigned char *p = (const unsigned char *)s;
    fputc('"', out);
    while (*p) {
        unsigned char c = *p;
        if (c == '"' || c == '\\') {
            fputc('\\', out);
            fputc(c, out);
            p++;
        } else if (c < 0x20) {
            switch (c) {
            case '\n': fputs("\\n", out); break;
            case '\t': fputs("\\t", out); break;
            case '\r': fputs("\\r", out); break;
            default: fprintf(out, "\\u%04x", c); break;
            }
            p++;
        } else if (c < 0x80) {
            fputc(c, out);
            p++;
        } else {
            size_t n = utf8_sequence_length(p, strlen((const char *)p));
            if (n) {
                fwrite(p, 1, n, out);
                p += n;
            } else {
                fputs("\\ufffd", out);
                p++;
            }
        }
    }
    fputc('"', out);
}

static void json_int_or_null(FILE *out, int64_t v)
{
    if (v < 0) fputs("null", out);
    else fprintf(out, "%" PRId64, v);
}

static const char *const kind_names[] = {"anim", "animtree", "engine"}; /* ORDER: ref_kind */
static const char *const severity_names[] = {"error", "warning"};     /* ORDER: diag_severity */

static void json_node(FILE *out, const atrc_node *n, int index)
{
    fprintf(out, "{\"index\": %d, \"name\": ", index);
    json_string(out, n->name);
    if (n->parent < 0) fputs(", \"parent\": null", out);
    else fprintf(out, ", \"parent\": %d", n->parent);
    fprintf(out, ", \"child_count\": %d", n->child_count);
    if (n->child_count > 0 || index == 0) {
        fprintf(out, ", \"first_child\": %d, \"flags\": %u", n->first_child, n->parse_flags);
    } else {
        fputs(", \"looping\": ", out);
        fputs(n->looping < 0 ? "null" : n->looping ? "true" : "false", out);
    }
    fputc('}', out);
}

/* Level and walk mode: every script in load order (interface.md). */
static void json_scripts(const walk_state *w, FILE *out)
{
    fputs(",\n  \"scripts\": [", out);
    for (size_t i = 0; i < w->count; i++) {
        const walk_script *s = w->scripts[i];
        fputs(i ? ",\n    {\"name\": " : "\n    {\"name\": ", out);
        json_string(out, s->name);
        fputs(", \"file\": ", out);
        json_string(out, s->file);
        fputs(", \"from\": ", out);
        json_string(out, s->from ? s->from->name : "engine");
        fputs(", \"trees\": [", out);
        for (size_t k = 0; k < s->tree_count; k++) {
            if (k) fputs(", ", out);
            json_string(out, s->trees[k]->name);
        }
        fputs("]}", out);
    }
    fputs(w->count ? "\n  ]" : "]", out);
}
static void json_pruned_nodes(const tree_entry *t, FILE *out); /* --show-pruned, below */

static void emit_json(const atrc_ctx *ctx, FILE *out)
{
    fprintf(out, "{\n  \"atrc\": 1,\n  \"profile\": \"%s\",\n  \"trees\": [",
            atrc_profile_name(ctx->opts.profile));
    for (int i = 1; i <= ctx->tree_count; i++) {
        const tree_entry *t = ctx->trees[i];
        fprintf(out, "%s\n    {\n      \"index\": %d,\n      \"name\": ", i > 1 ? "," : "", t->index);
        json_string(out, t->name);
        fputs(",\n      \"file\": ", out);
        json_string(out, t->file);
        fputs(",\n      \"checksum\": ", out);
        if (t->built) fprintf(out, "%" PRIu32, t->tree.checksum);
        else fputs("null", out);
        fputs(",\n      \"nodes\": [", out);
        if (t->built) {
            for (int k = 0; k < t->tree.node_count; k++) {
                fputs(k ? ",\n        " : "\n        ", out);
                json_node(out, &t->tree.nodes[k], k);
            }
            json_pruned_nodes(t, out);
            if (t->tree.node_count) fputs("\n      ", out);
        }
        fputs("]\n    }", out);
    }
    fputs(ctx->tree_count ? "\n  ],\n  \"references\": [" : "],\n  \"references\": [", out);
    for (const anim_ref *r = ctx->refs; r; r = r->next) {
        fputs(r == ctx->refs ? "\n    {\"file\": " : ",\n    {\"file\": ", out);
        json_string(out, r->src ? r->src->path : NULL);
        if (r->src) fprintf(out, ", \"line\": %d, \"column\": %d", r->line, r->col);
        else fputs(", \"line\": null, \"column\": null", out);
        fprintf(out, ", \"kind\": \"%s\", \"tree\": ", kind_names[r->kind]);
        json_string(out, r->tree ? r->tree->name : NULL);
        if (r->kind != REF_ANIMTREE) {
            fputs(", \"name\": ", out);
            json_string(out, r->name);
        }
        fputs(", \"value\": ", out);
        json_int_or_null(out, r->value);
        if (r->developer) fputs(", \"developer\": true", out);
        fputc('}', out);
    }
    fputs(ctx->refs ? "\n  ]" : "]", out);
    if (ctx->walk) json_scripts(ctx->walk, out);
    fputs(",\n  \"diagnostics\": [", out);
    for (size_t i = 0; i < ctx->diags.count; i++) {
        const diag *g = &ctx->diags.items[i];
        fprintf(out, "%s\n    {\"severity\": \"%s\", \"file\": ", i ? "," : "",
                severity_names[g->severity]);
        json_string(out, g->src ? g->src->path : NULL);
        if (g->src) fprintf(out, ", \"line\": %d, \"column\": %d", g->line, g->col);
        else fputs(", \"line\": null, \"column\": null", out);
        fputs(", \"message\": ", out);
        json_string(out, g->message);
        fputc('}', out);
    }
    fputs(ctx->diags.count ? "\n  ]\n}\n" : "]\n}\n", out);
}

/* ---- text ---- */

static void text_tree_ref(FILE *out, const tree_entry *t)
{
    if (t) fprintf(out, "%s[%d]", t->name, t->index);
    else fputs("(no tree)", out);
}

static void emit_references(const atrc_ctx *ctx, FILE *out)
{
    for (const anim_ref *r = ctx->refs; r; r = r->next) {
        if (r->src) fprintf(out, "%s:%d:%d: ", r->src->path, r->line, r->col);
        else fputs("<engine>: ", out);
        if (r->kind == REF_ANIMTREE) {
            fputs("#animtree -> ", out);
            text_tree_ref(out, r->tree);
            if (r->value >= 0) fprintf(out, " = %" PRId64 "\n", r->value);
            else fputs(" unresolved\n", out);
            continue;
        }
        fprintf(out, "%%%s -> ", r->name);
        text_tree_ref(out, r->tree);
        if (r->developer)
            fputs(" not compiled (developer block)\n", out);
        else if (r->value >= 0)
            fprintf(out, " node %" PRId64 " = 0x%08" PRIx64 "\n", r->value & 0xFFFF, r->value);
        else
            fputs(" unresolved\n", out);
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
    int *stack = xmalloc(((size_t)tr->node_count + 1) * 2 * sizeof *stack);
    size_t top = 0;
    stack[top++] = 0;
    stack[top++] = 0;
    while (top) {
        int depth = stack[--top];
        int k = stack[--top];
        const atrc_node *n = &tr->nodes[k];
        char flags[96];
        describe_flags(flags, sizeof flags, n);
        fprintf(out, "  %5d 0x%08x  %*s%-*s %s\n", k, (unsigned)((t->index << 16) | k), depth * 2, "",
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
    int *head = xmalloc(total * sizeof *head), *next = xmalloc(((size_t)p + 1) * sizeof *next);
    for (size_t i = 0; i < total; i++) head[i] = -1;
    for (int i = 0; i < p; i++) { /* prepending in declaration order: lists run newest first */
        const atr_pruned *e = &t->pruned[i];
        int parent = e->parent >= 0 ? e->parent : n + e->pruned_parent;
        next[i] = head[parent];
        head[parent] = i;
    }
    o->id = xmalloc(total * sizeof *o->id);
    o->depth = xmalloc(total * sizeof *o->depth);
    o->count = 0;
    int *stack = xmalloc((total + 1) * 2 * sizeof *stack), *kids = xmalloc((total + 1) * sizeof *kids);
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
            fprintf(out, "  %5d 0x%08x  %*s%-*s %s\n", x, (unsigned)((t->index << 16) | x), depth * 2, "", width,
                    tr->nodes[x].name, flags);
        } else {
            const atr_pruned *e = &t->pruned[x - tr->node_count];
            fprintf(out, "  %5s %10s  %*s%-*s pruned %s\n", "-", "", depth * 2, "", width, e->name,
                    e->is_group ? "group" : "leaf");
        }
    }
    outline_free(&o);
}

static void json_pruned_nodes(const tree_entry *t, FILE *out)
{
    for (size_t i = 0; i < t->pruned_count; i++) {
        const atr_pruned *e = &t->pruned[i];
        fputs(",\n        {\"index\": null, \"name\": ", out);
        json_string(out, e->name);
        if (e->parent >= 0) fprintf(out, ", \"parent\": %d", e->parent);
        else fprintf(out, ", \"parent\": null, \"pruned_parent\": %d", t->tree.node_count + e->pruned_parent);
        fprintf(out, ", \"child_count\": 0, \"pruned\": true, \"group\": %s, \"line\": %d, \"column\": %d}",
                e->is_group ? "true" : "false", e->line, e->col);
    }
}

/* A Graphviz string: quotes and backslashes escaped, control bytes and
** broken UTF-8 replaced, so that any name renders. */
static void dot_string(FILE *out, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t avail = strlen(s);
    fputc('"', out);
    while (*p) {
        size_t n = *p >= 0x80 ? utf8_sequence_length(p, avail) : 1;
        if (*p == '"' || *p == '\\') fprintf(out, "\\%c", *p);
        else if (*p == '\n') fputs("\\n", out);
        else if (*p < 0x20 || *p == 0x7F || n == 0) fputc('?', out);
        else fwrite(p, 1, n, out);
        if (n == 0) n = 1;
        p += n;
        avail -= n;
    }
    fputc('"', out);
}

static void dot_tree(const tree_entry *t, FILE *out)
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
    const atrc_tree *tr = &t->tree;
    outline o;
    outline_build(t, &o);
    for (size_t i = 0; i < o.count; i++) {
        int x = o.id[i];
        fprintf(out, "    t%d_n%d [", t->index, x);
        if (x >= tr->node_count) {
            const atr_pruned *e = &t->pruned[x - tr->node_count];
            char *l = format_tmp("%s\n(pruned)", e->name);
            fputs("label=", out);
            dot_string(out, l);
            free(l);
            fprintf(out, ", shape=%s, style=\"dotted\", color=\"#aaaaaa\", fontcolor=\"#999999\"];\n",
                    e->is_group ? "box" : "ellipse");
            int parent = e->parent >= 0 ? e->parent : tr->node_count + e->pruned_parent;
            fprintf(out, "    t%d_n%d -> t%d_n%d [style=dotted, color=\"#aaaaaa\"];\n", t->index, parent, t->index, x);
            continue;
        }
        const atrc_node *n = &tr->nodes[x];
        char kind[96];
        describe_flags(kind, sizeof kind, n);
        char *l = format_tmp("%s\n#%d  0x%08x\n%s", n->name, x, (unsigned)((t->index << 16) | x), kind);
        fputs("label=", out);
        dot_string(out, l);
        free(l);
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
        if (x > 0) fprintf(out, "    t%d_n%d -> t%d_n%d;\n", t->index, n->parent, t->index, x);
    }
    outline_free(&o);
    fputs("  }\n", out);
}

/* Graphviz: one cluster per tree, children left to right in the engine's order. */
static void emit_dot(const atrc_ctx *ctx, FILE *out)
{
    fputs("digraph atrc {\n  graph [ordering=out, fontname=\"Helvetica\", fontsize=11, nodesep=0.2];\n"
          "  node [fontname=\"Helvetica\", fontsize=10];\n  edge [arrowsize=0.6];\n", out);
    fprintf(out, "  label=\"atrc %s, profile %s: #index  packed value (tree << 16 | node)\";\n", ATRC_VERSION,
            atrc_profile_name(ctx->opts.profile));
    for (int i = 1; i <= ctx->tree_count; i++) dot_tree(ctx->trees[i], out);
    fputs("}\n", out);
}

int atrc_emit(const atrc_ctx *ctx, atrc_format format, int show_trees, FILE *out)
{
    if (format == ATRC_FORMAT_DOT) {
        emit_dot(ctx, out);
    } else if (format == ATRC_FORMAT_JSON) {
        emit_json(ctx, out);
    } else {
        if (show_trees)
            for (int i = 1; i <= ctx->tree_count; i++) {
                const tree_entry *t = ctx->trees[i];
                if (t->built && ctx->opts.show_pruned) emit_tree_listing_pruned(t, out);
                else emit_tree_listing(t, out);
            }
        emit_references(ctx, out);
    }
    fflush(out);
    return ferror(out) ? -1 : 0;
}

/* ---- load order (level and walk mode) ---- */

int atrc_emit_load_order(const atrc_ctx *ctx, FILE *out)
{
    const walk_state *w = ctx->walk;
    if (!w) return 0;
    fprintf(out, "load order (%s, profile %s): %zu script%s\n", w->title ? w->title : "walk mode",
            atrc_profile_name(ctx->opts.profile), w->count, w->count == 1 ? "" : "s");
    for (size_t i = 0; i < w->count; i++) {
        const walk_script *s = w->scripts[i];
        fprintf(out, "  %4zu %*s%s  %s", i + 1, s->depth * 2, "", s->name,
                s->file ? s->file : s->unreadable ? "(unreadable)" : "(not found)");
        if (s->from) fprintf(out, "  <- %s:%d:%d", s->from->name, s->ref_line, s->ref_col);
        else fputs("  <- engine", out);
        for (size_t k = 0; k < s->tree_count; k++) {
            const tree_entry *t = s->trees[k];
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
    int *chain = xmalloc(((size_t)depth + 1) * sizeof *chain);
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

int atrc_explain(const atrc_ctx *ctx, uint32_t value, atrc_format format, FILE *out, FILE *err)
{
    unsigned tree = value >> 16, node = value & 0xFFFF;
    char why[160] = "";
    const char *tree_name = NULL, *kind = NULL;
    char *path = NULL;
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
            }
        }
    }
    if (format == ATRC_FORMAT_JSON) {
        fprintf(out, "{\"atrc_explain\": 1, \"value\": %" PRIu32 ", \"tree_index\": %u, \"node_index\": %u, \"tree\": ",
                value, tree, node);
        json_string(out, tree_name);
        fputs(", \"path\": ", out);
        json_string(out, path);
        fputs(", \"kind\": ", out);
        json_string(out, kind);
        fputs(", \"error\": ", out);
        json_string(out, why[0] ? why : NULL);
        fputs("}\n", out);
    } else {
        fprintf(out, "0x%08" PRIx32 " = %" PRIu32 " = (%u << 16) | %u\n", value, value, tree, node);
        fprintf(out, "  tree index: %u (value >> 16)\n", tree);
        fprintf(out, "  node index: %u (value & 0xffff)\n", node);
        if (path) fprintf(out, "  %s: %s (%s)\n", tree_name, path, kind);
    }
    free(path);
    fflush(out);
    if (why[0] && err) fprintf(err, "atrc: error: 0x%08" PRIx32 " names no animation: %s\n", value, why);
    if (ferror(out)) return -2;
    return why[0] ? -1 : 0;
}
