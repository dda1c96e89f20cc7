/* The causes of `atrc diff`'s changes: interned by key, counted, numbered by
** reach, written as the summary that leads the output (diff_cause.h). */
#include "output/diff_cause.h"
#include "base/text.h"
#include "base/vec.h"

#include <stdlib.h>
#include <string.h>

static const char *key_at(const void *causes, size_t i, size_t *len)
{
    const diff_cause *x = &((const diff_cause *)causes)[i];
    *len = x->key_len;
    return x->key;
}

uint32_t causes_intern(diff_causes *c, const char *key, size_t key_len, int *is_new)
{
    uint32_t h = text_hash_bytes(key, key_len);
    size_t i = hashtab_find_bytes(&c->index, h, key, key_len, c->list.items, key_at);
    if (i != HASHTAB_END) {
        *is_new = 0;
        return (uint32_t)i;
    }
    i = hashtab_add(&c->index, h);
    diff_cause *x = VEC_PUSH(c->list);
    memset(x, 0, sizeof *x);
    x->key = key_len ? arena_strndup(c->mem, key, key_len) : "";
    x->key_len = key_len;
    x->kind = "script";
    x->text = "";
    x->first = (uint32_t)i;
    *is_new = 1;
    return (uint32_t)i;
}

void causes_count(diff_causes *c, uint32_t i, const char *change_kind)
{
    if (i == CAUSE_NONE || i >= c->list.count) return;
    diff_cause *x = &c->list.items[i];
    x->changes++;
    if (strcmp(change_kind, "node-index") == 0) x->moved_nodes++;
    else if (strcmp(change_kind, "node-added") == 0 || strcmp(change_kind, "node-removed") == 0) x->nodes++;
    else if (strncmp(change_kind, "reference-", 10) == 0) x->refs++;
    else if (strcmp(change_kind, "tree-index") == 0) x->trees++;
}

static int by_reach(const void *a, const void *b)
{
    const diff_cause *x = *(const diff_cause *const *)a, *y = *(const diff_cause *const *)b;
    if (x->changes != y->changes) return x->changes > y->changes ? -1 : 1;
    return x->first < y->first ? -1 : x->first > y->first;
}

void causes_number(diff_causes *c)
{
    diff_cause **order = xmalloc(array_size(c->list.count + 1, sizeof *order));
    for (size_t i = 0; i < c->list.count; i++) order[i] = &c->list.items[i];
    qsort(order, c->list.count, sizeof *order, by_reach);
    free(c->by_id);
    c->by_id = xmalloc(array_size(c->list.count + 1, sizeof *c->by_id));
    c->listed = 0;
    for (size_t k = 0; k < c->list.count; k++) {
        order[k]->id = order[k]->changes ? (int)k + 1 : 0; /* a cause named on the way but never used: none */
        if (order[k]->changes) c->by_id[c->listed++] = (uint32_t)(order[k] - c->list.items);
    }
    free(order);
}

static void reach_part(FILE *out, int *parts, long n, const char *one, const char *many)
{
    if (!n) return;
    fprintf(out, "%s%ld %s", (*parts)++ ? ", " : "", n, n == 1 ? one : many);
}

void causes_write_text(const diff_causes *c, FILE *out)
{
    if (!c->listed) return;
    fprintf(out, "%zu cause%s:\n", c->listed, c->listed == 1 ? "" : "s");
    for (size_t k = 0; k < c->listed; k++) {
        const diff_cause *x = &c->list.items[c->by_id[k]];
        int parts = 0;
        fprintf(out, "  [%d] %s (", x->id, x->text);
        reach_part(out, &parts, x->moved_nodes, "node moved", "nodes moved");
        reach_part(out, &parts, x->nodes, "node added or removed", "nodes added or removed");
        reach_part(out, &parts, x->refs, "reference changed", "references changed");
        reach_part(out, &parts, x->trees, "tree moved", "trees moved");
        long rest = x->changes - x->moved_nodes - x->nodes - x->refs - x->trees;
        reach_part(out, &parts, rest, parts ? "other change" : "change", parts ? "other changes" : "changes");
        fputs(")\n", out);
    }
    fputs("changes:\n", out);
}

void causes_write_json(const diff_causes *c, FILE *out, void (*str)(FILE *, const char *, size_t))
{
    for (size_t k = 0; k < c->listed; k++) {
        const diff_cause *x = &c->list.items[c->by_id[k]];
        fprintf(out, "%s\n    {\"id\": %d, \"kind\": ", k ? "," : "", x->id);
        str(out, x->kind, strlen(x->kind));
        fputs(", \"tree\": ", out);
        str(out, x->tree, x->tree_len);
        fputs(", \"name\": ", out);
        str(out, x->name, x->name_len);
        fputs(", \"text\": ", out);
        str(out, x->text, strlen(x->text));
        fprintf(out, ", \"changes\": %ld, \"moved_nodes\": %ld, \"nodes\": %ld, \"references\": %ld, \"trees\": %ld}",
                x->changes, x->moved_nodes, x->nodes, x->refs, x->trees);
    }
}

void causes_free(diff_causes *c)
{
    VEC_FREE(c->list);
    free(c->by_id);
    hashtab_free(&c->index);
    memset(c, 0, sizeof *c);
}
