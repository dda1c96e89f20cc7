/* A statement that calls a developer-only builtin (grammar.md 3.1, 3.2):
** with developer_script 0, CoD2 and CoD4 drop such a statement whole,
** arguments and object included, as they drop /# #/ code, so nothing inside
** it is resolved, loaded or counted.  The checks (check_resolve.c), the load
** walk's reference lists (script_refs.c, walk.c) and the compile records
** (compile.c) each note which statement a reference is part of
** (dev_statement_call, script_refs.h) and ask dev_statement_dropped here,
** once the file's own functions are known. */
#ifndef ATRC_DEV_STATEMENT_H
#define ATRC_DEV_STATEMENT_H
#include "game/builtins.h"
#include "game/profile.h"

/* Whether the game drops a statement calling `name` (lower case; a method
** when `method`) that the file does not define as a function: retail
** (developer_script 0) cod2/cod4, and `name` a developer builtin of the run's
** lists for its game mode (set: the extensions and user lists, may be NULL). */
int dev_statement_dropped(const profile_rules *rules, const builtin_set *set, const atrc_options *opts,
                          const char *name, int method);

#endif
