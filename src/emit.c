/* Output: the reference listing (text), the tree listing (--trees), the JSON
** document of interface.md, and --explain's decoding of a packed value. */
#include "context.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- block writes: output is assembled in a buffer and written in blocks,
** never a library call per character ---- */

typedef struct obuf {
    FILE *out;
    size_t n;
    char buf[1 << 16];
} obuf;

static void ob_flush(obuf *b)
{
    if (b->n) fwrite(b->buf, 1, b->n, b->out);
    b->n = 0;
}

static void ob_put(obuf *b, const char *s, size_t n)
{
    if (sizeof b->buf - b->n < n) {
        ob_flush(b);
        if (n >= sizeof b->buf) {
            fwrite(s, 1, n, b->out);
            return;
        }
    }
    memcpy(b->buf + b->n, s, n);
    b->n += n;
}

static void ob_str(obuf *b, const char *s)
{
    ob_put(b, s, strlen(s));
}

static void ob_char(obuf *b, char c)
{
    if (b->n == sizeof b->buf) ob_flush(b);
    b->buf[b->n++] = c;
}

/* Decimal, as printf's %d / %u / PRId64 spell it. */
static void ob_int(obuf *b, int64_t v)
{
    char tmp[24];
    int i = (int)sizeof tmp;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do {
        tmp[--i] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0) tmp[--i] = '-';
    ob_put(b, tmp + i, sizeof tmp - (size_t)i);
}

/* ---- JSON ---- */

/* Writes s as a JSON string.  Bytes that are not valid UTF-8 become U+FFFD so
** that the document always parses, whatever bytes a hostile file held. */
static void json_string(obuf *b, const char *s)
{
    if (!s) {
        ob_put(b, "null", 4);
        return;
    }
    const unsigned char *p = (const unsigned char *)s;
    ob_char(b, '"');
    while (*p) {
        /* The common case: a run of printable ASCII, copied in one block. */
        const unsigned char *run = p;
        while (*p >= 0x20 && *p < 0x80 && *p != '"' && *p != '\\') p++;
        if (p > run) ob_put(b, (const char *)run, (size_t)(p - run));
        unsigned char c = *p;
        if (!c) break;
        if (c == '"' || c == '\\') {
            ob_char(b, '\\');
            ob_char(b, (char)c);
            p++;
        } else if (c < 0x20) {
            switch (c) {
            case '\n': ob_put(b, "\\n", 2); break;
            case '\t': ob_put(b, "\\t", 2); break;
            case '\r': ob_put(b, "\\r", 2); break;
            default: {
                char esc[8];
                snprintf(esc, sizeof esc, "\\u%04x", c);
                ob_str(b, esc);
                break;
            }
            }
            p++;
        } else {
            size_t n = utf8_sequence_length(p, strnlen((const char *)p, 4));
            if (n) {
                ob_put(b, (const char *)p, n);
                p += n;
            } else {
                ob_put(b, "\\ufffd", 6);
                p++;
            }
        }
    }
    ob_char(b, '"');
}

static void json_int_or_null(obuf *b, int64_t v)
{
    if (v < 0) ob_put(b, "null", 4);
    else ob_int(b, v);
}

static const char *const kind_names[] = {"anim", "animtree", "engine"}; /* ORDER: ref_kind */
static const char *const severity_names[] = {"error", "warning"};     /* ORDER: diag_severity */

static void json_node(obuf *b, const atrc_node *n, int index)
{
    ob_str(b, "{\"index\": ");
    ob_int(b, index);
    ob_str(b, ", \"name\": ");
    json_string(b, n->name);
    if (n->parent < 0) {
        ob_str(b, ", \"parent\": null");
    } else {
        ob_str(b, ", \"parent\": ");
        ob_int(b, n->parent);
    }
    ob_str(b, ", \"child_count\": ");
    ob_int(b, n->child_count);
    if (n->child_count > 0 || index == 0) {
        ob_str(b, ", \"first_child\": ");
        ob_int(b, n->first_child);
        ob_str(b, ", \"flags\": ");
        ob_int(b, n->parse_flags);
    } else {
        ob_str(b, ", \"looping\": ");
        ob_str(b, n->looping < 0 ? "null" : n->looping ? "true" : "false");
    }
    ob_char(b, '}');
}

/* ", \"line\": L, \"column\": C" of a located item, or nulls. */
static void json_position(obuf *b, int located, int line, int col)
{
    if (!located) {
        ob_str(b, ", \"line\": null, \"column\": null");
        return;
    }
    ob_str(b, ", \"line\": ");
    ob_int(b, line);
    ob_str(b, ", \"column\": ");
    ob_int(b, col);
}

/* A file's name as a JSON string, escaped once for all its references (they
** come file by file). */
typedef struct path_cache {
    const source_file *src;
    size_t len;
    char text[512];
} path_cache;

static void json_path(obuf *b, const source_file *src, path_cache *pc)
{
    if (src && src == pc->src) {
        ob_put(b, pc->text, pc->len);
        return;
    }
    pc->src = NULL;
    /* A name of up to 80 bytes escapes to at most 6 * 80 + 2 < 512 bytes. */
    if (!src || strlen(src->path) > 80) {
        json_string(b, src ? src->path : NULL);
        return;
    }
    ob_flush(b); /* the escaped text is then the buffer's whole content */
    json_string(b, src->path);
    if (b->n <= sizeof pc->text) {
        memcpy(pc->text, b->buf, b->n);
        pc->len = b->n;
        pc->src = src;
    }
}

static void emit_json(const atrc_ctx *ctx, obuf *b)
{
    path_cache pc = {NULL, 0, {0}};
    ob_str(b, "{\n  \"atrc\": 1,\n  \"profile\": \"");
    ob_str(b, atrc_profile_name(ctx->opts.profile));
    ob_str(b, "\",\n  \"trees\": [");
    for (int i = 1; i <= ctx->tree_count; i++) {
        const tree_entry *t = ctx->trees[i];
        ob_str(b, i > 1 ? ",\n    {\n      \"index\": " : "\n    {\n      \"index\": ");
        ob_int(b, t->index);
        ob_str(b, ",\n      \"name\": ");
        json_string(b, t->name);
        ob_str(b, ",\n      \"file\": ");
        json_string(b, t->file);
        ob_str(b, ",\n      \"checksum\": ");
        if (t->built) ob_int(b, t->tree.checksum);
        else ob_str(b, "null");
        ob_str(b, ",\n      \"nodes\": [");
        if (t->built) {
            for (int k = 0; k < t->tree.node_count; k++) {
                ob_str(b, k ? ",\n        " : "\n        ");
                json_node(b, &t->tree.nodes[k], k);
            }
            if (t->tree.node_count) ob_str(b, "\n      ");
        }
        ob_str(b, "]\n    }");
    }
    ob_str(b, ctx->tree_count ? "\n  ],\n  \"references\": [" : "],\n  \"references\": [");
    for (const anim_ref *r = ctx->refs; r; r = r->next) {
        ob_str(b, r == ctx->refs ? "\n    {\"file\": " : ",\n    {\"file\": ");
        json_path(b, r->src, &pc);
        json_position(b, r->src != NULL, r->line, r->col);
        ob_str(b, ", \"kind\": \"");
        ob_str(b, kind_names[r->kind]);
        ob_str(b, "\", \"tree\": ");
        json_string(b, r->tree ? r->tree->name : NULL);
        if (r->kind != REF_ANIMTREE) {
            ob_str(b, ", \"name\": ");
            json_string(b, r->name);
        }
        ob_str(b, ", \"value\": ");
        json_int_or_null(b, r->value);
        ob_char(b, '}');
    }
    ob_str(b, ctx->refs ? "\n  ],\n  \"diagnostics\": [" : "],\n  \"diagnostics\": [");
    for (size_t i = 0; i < ctx->diags.count; i++) {
        const diag *g = &ctx->diags.items[i];
        ob_str(b, i ? ",\n    {\"severity\": \"" : "\n    {\"severity\": \"");
        ob_str(b, severity_names[g->severity]);
        ob_str(b, "\", \"file\": ");
        json_string(b, g->src ? g->src->path : NULL);
        json_position(b, g->src != NULL, g->line, g->col);
        ob_str(b, ", \"message\": ");
        json_string(b, g->message);
        ob_char(b, '}');
    }
    ob_str(b, ctx->diags.count ? "\n  ]\n}\n" : "]\n}\n");
}

/* ---- text ---- */

static void text_tree_ref(obuf *b, const tree_entry *t)
{
    if (t) {
        ob_str(b, t->name);
        ob_char(b, '[');
        ob_int(b, t->index);
        ob_char(b, ']');
    } else {
        ob_str(b, "(no tree)");
    }
}

static void emit_references(const atrc_ctx *ctx, obuf *b)
{
    for (const anim_ref *r = ctx->refs; r; r = r->next) {
        if (r->src) {
            ob_str(b, r->src->path);
            ob_char(b, ':');
            ob_int(b, r->line);
            ob_char(b, ':');
            ob_int(b, r->col);
            ob_put(b, ": ", 2);
        } else {
            ob_str(b, "<engine>: ");
        }
        if (r->kind == REF_ANIMTREE) {
            ob_str(b, "#animtree -> ");
            text_tree_ref(b, r->tree);
            if (r->value >= 0) {
                ob_put(b, " = ", 3);
                ob_int(b, r->value);
                ob_char(b, '\n');
            } else {
                ob_str(b, " unresolved\n");
            }
            continue;
        }
        ob_char(b, '%');
        ob_str(b, r->name);
        ob_str(b, " -> ");
        text_tree_ref(b, r->tree);
        if (r->value >= 0) {
            char tmp[64];
            snprintf(tmp, sizeof tmp, " node %" PRId64 " = 0x%08" PRIx64 "\n", r->value & 0xFFFF, r->value);
            ob_str(b, tmp);
        } else {
            ob_str(b, " unresolved\n");
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

int atrc_emit(const atrc_ctx *ctx, atrc_format format, int show_trees, FILE *out)
{
    obuf *b = xmalloc(sizeof *b);
    b->out = out;
    b->n = 0;
    if (format == ATRC_FORMAT_JSON) {
        emit_json(ctx, b);
    } else {
        if (show_trees)
            for (int i = 1; i <= ctx->tree_count; i++) emit_tree_listing(ctx->trees[i], out);
        emit_references(ctx, b);
    }
    ob_flush(b);
    free(b);
    fflush(out);
    return ferror(out) ? -1 : 0;
}

/* ---- --explain ---- */

/* The path of node k from the root: "root/body/stand/stand_idle". */
static void node_path(const atrc_tree *t, int k, FILE *out)
{
    int depth = 0;
    for (int p = k; p > 0 && depth <= t->node_count; p = t->nodes[p].parent) depth++;
    int *chain = xmalloc(((size_t)depth + 1) * sizeof *chain);
    int i = depth;
    for (int p = k; i > 0; p = t->nodes[p].parent) chain[--i] = p;
    fputs("root", out);
    for (i = 0; i < depth; i++) fprintf(out, "/%s", t->nodes[chain[i]].name);
    free(chain);
}

int atrc_explain(const atrc_ctx *ctx, uint32_t value, FILE *out)
{
    unsigned tree = value >> 16, node = value & 0xFFFF;
    fprintf(out, "0x%08" PRIx32 " = %" PRIu32 " = (%u << 16) | %u\n", value, value, tree, node);
    fprintf(out, "  tree index: %u (value >> 16)\n", tree);
    fprintf(out, "  node index: %u (value & 0xffff)\n", node);
    int rc = 0;
    if (tree == 0) {
        fputs("  registry index 0 is never used: no reference packs to it\n", out);
        rc = -1;
    } else if (ctx && ctx->tree_count > 0) {
        if ((int)tree > ctx->tree_count) {
            fprintf(out, "  no tree has registry index %u (%d registered)\n", tree, ctx->tree_count);
            rc = -1;
        } else {
            const tree_entry *t = ctx->trees[tree];
            if (!t->built) {
                fprintf(out, "  tree %u is '%s', which was not built\n", tree, t->name);
                rc = -1;
            } else if ((int)node >= t->tree.node_count) {
                fprintf(out, "  tree '%s' has no node %u (it has %d nodes)\n", t->name, node,
                        t->tree.node_count);
                rc = -1;
            } else {
                const atrc_node *n = &t->tree.nodes[node];
                fprintf(out, "  %s: ", t->name);
                node_path(&t->tree, (int)node, out);
                fprintf(out, " (%s)\n", node == 0 ? "root" : n->child_count ? "group" : "leaf");
            }
        }
    }
    fflush(out);
    if (ferror(out)) return -2;
    return rc;
}
