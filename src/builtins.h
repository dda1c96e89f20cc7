/* The games' builtin function and method names (data/builtins/LIST.txt, from
** spec/builtins/), turned into constant hash tables at build time by
** scripts/gen_builtins.c: lookup is O(1) and needs no mutable state. */
#ifndef ATRC_BUILTINS_H
#define ATRC_BUILTINS_H
#include <stddef.h>
#include <stdint.h>

/* ORDER: the seeds scripts/gen_builtins.c hashes with (kind is the seed). */
typedef enum { BUILTIN_FUNCTION = 1, BUILTIN_METHOD = 2 } builtin_kind;

typedef struct builtin_entry {
    const char *name;   /* lower case */
    unsigned char kind; /* builtin_kind */
    unsigned char dev;  /* developer builtin: its value may only be used inside /# #/ */
} builtin_entry;

typedef struct builtin_list {
    const char *name;             /* file name without .txt: "cod1", "cod4-sp", ... */
    const builtin_entry *entries;
    size_t count;
    const uint16_t *slots;        /* open addressing: entry index + 1, 0 = empty */
    size_t slot_count;            /* power of two */
} builtin_list;

extern const builtin_list builtins_cod1, builtins_cod1_sp_observed, builtins_uo,
    builtins_uo_sp_observed, builtins_cod2, builtins_cod2_sp_observed, builtins_cod4,
    builtins_cod4_sp;

/* The entry named `name` (any case) of that kind, or NULL; list may be NULL. */
const builtin_entry *builtin_find(const builtin_list *list, builtin_kind kind, const char *name);

#endif
