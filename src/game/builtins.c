/* Lookup in the builtin tables (see builtins.h), the extension rules, and
** the list format's line reader and table filling, which the build-time
** generator (scripts/gen_builtins.c) shares. */
#include "game/builtins.h"
#include "base/text.h"

#include <string.h>

const builtin_entry *builtin_find(const builtin_list *list, builtin_kind kind, const char *name)
{
    if (!list || !list->count) return NULL;
    size_t mask = list->slot_count - 1;
    for (size_t s = text_hash((uint32_t)kind, name, 1) & mask;; s = (s + 1) & mask) {
        unsigned idx = list->slots[s];
        if (!idx) return NULL;
        const builtin_entry *e = &list->entries[idx - 1];
        if (e->kind == kind && text_equal_nocase(e->name, name)) return e;
    }
}

const builtin_entry *builtin_set_apply(const builtin_set *set, builtin_kind kind, const char *name,
                                       const builtin_entry *stock)
{
    if (!set) return stock;
    if (stock) {
        /* Every extension looks its own names up after the stock tables
        ** (CoD4x: one merged list), so none shadows a stock name. */
        for (size_t i = 0; i < set->count; i++) {
            if (builtin_find(set->items[i]->remove, kind, name)) return NULL;
            const builtin_entry *r = builtin_find(set->items[i]->reflag, kind, name);
            if (r) stock = r;
        }
        return stock;
    }
    for (size_t i = 0; i < set->count; i++) {
        const builtin_entry *e = builtin_find(set->items[i]->add, kind, name);
        if (e) return e;
    }
    return NULL;
}

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* The next word of line[*at..len): its start and length (0 at the end). */
static size_t next_word(const char *line, size_t len, size_t *at, size_t *start)
{
    size_t i = *at;
    while (i < len && is_blank(line[i])) i++;
    *start = i;
    while (i < len && !is_blank(line[i])) i++;
    *at = i;
    return i - *start;
}

/* Keywords in any case, as names are. */
static int word_is(const char *line, size_t start, size_t n, const char *w)
{
    if (n != strlen(w)) return 0;
    for (size_t i = 0; i < n; i++)
        if ((line[start + i] | 0x20) != w[i]) return 0;
    return 1;
}

int builtin_parse_line(const char *line, size_t len, int allow_ops, builtin_line *out,
                       const char **error, int *error_col)
{
    size_t at = 0, start, n = next_word(line, len, &at, &start);
    if (n == 0 || line[start] == '#') return 0;
    memset(out, 0, sizeof *out);
    out->op = BUILTIN_OP_ADD;
    if (allow_ops && (word_is(line, start, n, "remove") || word_is(line, start, n, "reflag"))) {
        out->op = word_is(line, start, n, "remove") ? BUILTIN_OP_REMOVE : BUILTIN_OP_REFLAG;
        n = next_word(line, len, &at, &start);
    }
    if (word_is(line, start, n, "function")) out->kind = BUILTIN_FUNCTION;
    else if (word_is(line, start, n, "method")) out->kind = BUILTIN_METHOD;
    else {
        *error = n ? "expected 'function' or 'method'" : "expected 'function' or 'method' and a name";
        *error_col = (int)start + 1;
        return -1;
    }
    n = next_word(line, len, &at, &start);
    if (n == 0 || !text_is_identifier(line + start, n)) {
        *error = n ? "a builtin name is made of letters, digits and '_'"
                   : "expected a name after the kind";
        *error_col = (int)start + 1;
        return -1;
    }
    out->name = line + start;
    out->name_len = n;
    n = next_word(line, len, &at, &start);
    if (n && word_is(line, start, n, "dev") && out->op != BUILTIN_OP_REMOVE) {
        out->dev = 1;
        n = next_word(line, len, &at, &start);
    }
    if (n) {
        *error = out->op == BUILTIN_OP_REMOVE || out->dev ? "unexpected text after the entry"
                                                          : "expected 'dev' or the end of the line";
        *error_col = (int)start + 1;
        return -1;
    }
    return 1;
}

int builtin_slot_add(const builtin_entry *entries, size_t i, uint16_t *slots, size_t slot_count)
{
    size_t mask = slot_count - 1;
    size_t s = text_hash((uint32_t)entries[i].kind, entries[i].name, 1) & mask;
    while (slots[s]) {
        const builtin_entry *o = &entries[slots[s] - 1];
        if (o->kind == entries[i].kind && text_equal_nocase(o->name, entries[i].name)) return -1;
        s = (s + 1) & mask;
    }
    slots[s] = (uint16_t)(i + 1);
    return 0;
}

int builtin_set_cod4x(const builtin_set *set)
{
    if (!set) return 0;
    for (size_t i = 0; i < set->count; i++)
        if (set->items[i]->game && strcmp(set->items[i]->name, "cod4x") == 0) return 1;
    return 0;
}
