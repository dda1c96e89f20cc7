/* Lookup in the generated builtin tables (see builtins.h). */
#include "builtins.h"
#include "text.h"

#include <string.h>

const builtin_entry *builtin_find(const builtin_list *list, builtin_kind kind, const char *name)
{
    if (!list) return NULL;
    size_t mask = list->slot_count - 1;
    for (size_t s = text_hash((uint32_t)kind, name, 1) & mask;; s = (s + 1) & mask) {
        unsigned idx = list->slots[s];
        if (!idx) return NULL;
        const builtin_entry *e = &list->entries[idx - 1];
        if (e->kind == kind && text_equal_nocase(e->name, name)) return e;
    }
}
