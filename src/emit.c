/* Output: the reference listing (text), the tree listing (--trees), the JSON
** document of interface.md, and --explain's decoding of a packed value. */
#include "context.h"

#include <inttypes.h>
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
        fputc('}', out);
    }
    fputs(ctx->refs ? "\n  ],\n  \"diagnostics\": [" : "],\n  \"diagnostics\": [", out);
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
        if (r->value >= 0)
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

int atrc_emit(const atrc_ctx *ctx, atrc_format format, int show_trees, FILE *out)
{
    if (format == ATRC_FORMAT_JSON) {
        emit_json(ctx, out);
    } else {
        if (show_trees)
            for (int i = 1; i <= ctx->tree_count; i++) emit_tree_listing(ctx->trees[i], out);
        emit_references(ctx, out);
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
