/* The games' builtin function and method names (data/builtins/LIST.txt, from
** spec/builtins/), turned into constant hash tables at build time by
** scripts/gen_builtins.c: lookup is O(1) and needs no mutable state.  The
** engine extensions' lists (data/builtins/extensions/GAME-NAME.txt) become
** tables the same way; a user's list (--builtins FILE) is read at run time
** with the same line reader and hashed the same way. */
#ifndef ATRC_BUILTINS_H
#define ATRC_BUILTINS_H
#include <stddef.h>
#include <stdint.h>
#include "base/vec.h"

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

/* An engine extension's names for one game, or a user's list (game NULL):
** names it adds (looked up only after the stock list fails), and the stock
** names it does not register (remove) or registers with another developer
** flag (reflag); either may be NULL. */
typedef struct builtin_extension {
    const char *game; /* profile name: "cod1", "uo", "cod2", "cod4" */
    const char *name; /* "cod2x", "cod4x", ...: the file's part after "GAME-" */
    const builtin_list *add, *reflag, *remove;
} builtin_extension;

/* Every shipped extension, sorted by game then name (generated). */
extern const builtin_extension builtin_extensions[];
extern const size_t builtin_extension_count;

/* The extensions and user lists of one compilation, in the order given. */
typedef VEC_STRUCT(builtin_set, const builtin_extension *) builtin_set;

/* The builtin `stock` (the stock list's answer, NULL: none) becomes with the
** set's lists: removed, re-flagged, or, when the stock list has no such
** name, the first added one.  set may be NULL. */
const builtin_entry *builtin_set_apply(const builtin_set *set, builtin_kind kind, const char *name,
                                       const builtin_entry *stock);

/* Whether the set holds CoD4x's shipped extension (not a user list of that
** name): its server runs a script preprocessor (`#if isSyscallDefined`)
** and reads NAME.gsx before NAME.gsc.  set may be NULL. */
int builtin_set_cod4x(const builtin_set *set);

/* ---- the list format, shared by the build-time generator and --builtins ---- */

typedef enum { BUILTIN_OP_ADD = 0, BUILTIN_OP_REFLAG, BUILTIN_OP_REMOVE } builtin_op;

/* One line of a list: blank or a '#' comment (returns 0), an entry (returns
** 1: op, kind, dev, the name at name/name_len as written), or malformed
** (returns -1: *error says what, *error_col the 1-based byte column).  Only
** with allow_ops may a line start with "remove" or "reflag" (the shipped
** extension lists). */
typedef struct builtin_line {
    builtin_op op;
    builtin_kind kind;
    int dev;
    const char *name;
    size_t name_len;
} builtin_line;
int builtin_parse_line(const char *line, size_t len, int allow_ops, builtin_line *out,
                       const char **error, int *error_col);

/* Enters entries[i] into slots (slot_count a power of two, more than the
** entries to enter, zeroed at first) hashed as builtin_find looks it up;
** returns 0, or -1 (nothing entered) when an entry of that name and kind is
** there already. */
int builtin_slot_add(const builtin_entry *entries, size_t i, uint16_t *slots, size_t slot_count);

#endif
