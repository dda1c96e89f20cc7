/* Output: the reference listing (text), the tree listing (--trees), the JSON
** document of interface.md, and --explain's decoding of a packed value. */
#include "context.h"
#include "walk.h"

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
