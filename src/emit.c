/* Output: the reference listing (text), the tree listing (--trees), the JSON
** document of interface.md, and --explain's decoding of a packed value. */
#include "context.h"
#include "walk.h"
#include "atr.h"
#include "outbuf.h"

#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- JSON ---- */

/* Are the 8 bytes at p all printable ASCII other than '"' and '\\' (JSON's
** bytes to copy as they are)?  A byte test on all 8 at once: a byte below
** 0x20, from 0x80, or equal to one of the two sets its high bit. */
static inline int plain_word(const unsigned char *p)
{
    const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
    uint64_t w, q, bs;
    memcpy(&w, p, 8);
    q = w ^ (ones * '"');
    bs = w ^ (ones * '\\');
    /* (x - ones) & ~x & high: a zero byte in x (exact when x has no byte >= 0x80,
    ** and a byte >= 0x80 in w is caught by w itself). */
    uint64_t bad = w | ((w - ones * 0x20) & ~w) | ((q - ones) & ~q) | ((bs - ones) & ~bs);
    return !(bad & high);
}

/* Writes s as a JSON string.  Bytes that are not valid UTF-8 become U+FFFD so
** that the document always parses, whatever bytes a hostile file held. */
static void json_string(outbuf *b, const char *s)
{
    if (!s) {
        outbuf_put(b, "null", 4);
        return;
    }
    const unsigned char *p = (const unsigned char *)s;
    const unsigned char *end = p + strlen(s);
    outbuf_char(b, '"');
    while (*p) {
        /* The common case: a run of printable ASCII, copied in one block
        ** and scanned 8 bytes at a time. */
        const unsigned char *run = p;
        while (end - p >= 8 && plain_word(p)) p += 8;
        /* Fewer than 8 bytes left: the string's last 8 bytes, when it has
        ** as many, cover them in one more test. */
        if (end - p < 8 && end - (const unsigned char *)s >= 8 && plain_word(end - 8)) p = end;
        while (*p >= 0x20 && *p < 0x80 && *p != '"' && *p != '\\') p++;
        if (p > run) outbuf_put(b, (const char *)run, (size_t)(p - run));
        unsigned char c = *p;
        if (!c) break;
        if (c == '"' || c == '\\') {
            outbuf_char(b, '\\');
            outbuf_char(b, (char)c);
            p++;
        } else if (c < 0x20) {
            switch (c) {
            case '\n': outbuf_put(b, "\\n", 2); break;
            case '\t': outbuf_put(b, "\\t", 2); break;
            case '\r': outbuf_put(b, "\\r", 2); break;
            default: {
                char esc[8];
                snprintf(esc, sizeof esc, "\\u%04x", c);
                outbuf_str(b, esc);
                break;
            }
            }
            p++;
        } else {
            size_t n = utf8_sequence_length(p, strnlen((const char *)p, 4));
            if (n) {
                outbuf_put(b, (const char *)p, n);
                p += n;
            } else {
                outbuf_put(b, "\\ufffd", 6);
                p++;
            }
        }
    }
    outbuf_char(b, '"');
}

static void json_int_or_null(outbuf *b, int64_t v)
{
    if (v < 0) outbuf_put(b, "null", 4);
    else outbuf_int(b, v);
}

static const char *const kind_names[] = {"anim", "animtree", "engine"}; /* ORDER: ref_kind */
static const char *const severity_names[] = {"error", "warning", "note"}; /* ORDER: diag_severity */

static void json_node(outbuf *b, const atrc_node *n, int index)
{
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
    }
    outbuf_char(b, '}');
}

/* Level and walk mode: every script in load order (interface.md). */
static void json_scripts(const walk_state *w, outbuf *b)
{
    outbuf_str(b, ",\n  \"scripts\": [");
    for (size_t i = 0; i < w->count; i++) {
        const walk_script *s = w->scripts[i];
        outbuf_str(b, i ? ",\n    {\"name\": " : "\n    {\"name\": ");
        json_string(b, s->name);
        outbuf_str(b, ", \"file\": ");
        json_string(b, s->file);
        outbuf_str(b, ", \"from\": ");
        json_string(b, s->from ? s->from->name : "engine");
        outbuf_str(b, ", \"trees\": [");
        for (size_t k = 0; k < s->tree_count; k++) {
            if (k) outbuf_str(b, ", ");
            json_string(b, s->trees[k]->name);
        }
        outbuf_str(b, "]}");
    }
    outbuf_str(b, w->count ? "\n  ]" : "]");
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

static void emit_json(const atrc_ctx *ctx, outbuf *b)
{
    path_cache pc = {NULL, 0, {0}};
    outbuf_str(b, "{\n  \"atrc\": 1,\n  \"profile\": \"");
    outbuf_str(b, atrc_profile_name(ctx->opts.profile));
    outbuf_str(b, "\",\n  \"trees\": [");
    for (int i = 1; i <= ctx->tree_count; i++) {
        const tree_entry *t = ctx->trees[i];
        outbuf_str(b, i > 1 ? ",\n    {\n      \"index\": " : "\n    {\n      \"index\": ");
        outbuf_int(b, t->index);
        outbuf_str(b, ",\n      \"name\": ");
        json_string(b, t->name);
        outbuf_str(b, ",\n      \"file\": ");
        json_string(b, t->file);
        outbuf_str(b, ",\n      \"checksum\": ");
        if (t->built) outbuf_int(b, t->tree.checksum);
        else outbuf_str(b, "null");
        outbuf_str(b, ",\n      \"nodes\": [");
        if (t->built) {
            for (int k = 0; k < t->tree.node_count; k++) {
                outbuf_str(b, k ? ",\n        " : "\n        ");
                json_node(b, &t->tree.nodes[k], k);
            }
            json_pruned_nodes(t, b);
            if (t->tree.node_count) outbuf_str(b, "\n      ");
        }
        outbuf_str(b, "]\n    }");
    }
    outbuf_str(b, ctx->tree_count ? "\n  ],\n  \"references\": [" : "],\n  \"references\": [");
    for (const anim_ref *r = ctx->refs; r; r = r->next) {
        outbuf_str(b, r == ctx->refs ? "\n    {\"file\": " : ",\n    {\"file\": ");
        json_path(b, r->src, &pc);
        json_position(b, r->src != NULL, r->line, r->col);
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
    outbuf_str(b, ctx->refs ? "\n  ]" : "]");
    if (ctx->walk) json_scripts(ctx->walk, b);
    outbuf_str(b, ",\n  \"diagnostics\": [");
    for (size_t i = 0; i < ctx->diags.count; i++) {
        const diag *g = &ctx->diags.items[i];
        outbuf_str(b, i ? ",\n    {\"severity\": \"" : "\n    {\"severity\": \"");
        outbuf_str(b, severity_names[g->severity]);
        outbuf_str(b, "\", \"file\": ");
        json_string(b, g->src ? g->src->path : NULL);
        json_position(b, g->src != NULL, g->line, g->col);
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
            if (r->value >= 0) {
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
    outbuf ob, *b = &ob;
    outbuf_stream(b, out);
    if (format == ATRC_FORMAT_DOT) {
        emit_dot(ctx, out);
    } else if (format == ATRC_FORMAT_JSON) {
        emit_json(ctx, b);
    } else {
        /* The listings write to out directly, before anything is buffered. */
        if (show_trees)
            for (int i = 1; i <= ctx->tree_count; i++) {
                const tree_entry *t = ctx->trees[i];
                if (t->built && ctx->opts.show_pruned) emit_tree_listing_pruned(t, out);
                else emit_tree_listing(t, out);
            }
        emit_references(ctx, b);
    }
    outbuf_free(b);
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
        outbuf ob, *b = &ob;
        outbuf_stream(b, out);
        json_string(b, tree_name);
        outbuf_str(b, ", \"path\": ");
        json_string(b, path);
        outbuf_str(b, ", \"kind\": ");
        json_string(b, kind);
        outbuf_str(b, ", \"error\": ");
        json_string(b, why[0] ? why : NULL);
        outbuf_str(b, "}\n");
        outbuf_free(b);
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
