/* A `waittillmatch` that never ends (runtime-anim.md 4.3, check E11): the
** file-local part finds, in each function, every `R waittillmatch("N", "M")`
** whose candidates -- the calls on the same receiver R before it that flag
** an animation with the notify N -- all pass a `%name` literal with no script
** call in between; after the trees are built, the check reads those leaves'
** notetracks and warns when M is `end` of none and a notetrack of none. */
#ifndef ATRC_NOTEWAIT_H
#define ATRC_NOTEWAIT_H
#include <stddef.h>
#include <stdint.h>
#include "atrc.h"
#include "base/source.h"
#include "base/vec.h"

struct ast_node;
struct profile_rules;
struct builtin_set;
struct anim_ref;

/* ---- file-local part (the compile pass's thread) ---- */

/* A wait found in a file: the note's argument, and its candidates' anim
** literals as indices of the compile record's events. */
typedef struct notewait_found {
    int line, col;             /* of the note (M) argument */
    uint32_t note, note_len;   /* the note's text in the scan's text buffer */
    uint32_t notify, notify_len; /* the notify's, likewise */
    uint32_t first, count;     /* its candidates' events in the scan's cands */
} notewait_found;

typedef struct notewait_scan notewait_scan;

notewait_scan *notewait_scan_new(const struct profile_rules *rules, const struct builtin_set *set);
/* A function starts: nothing before it is a candidate. */
void notewait_function(notewait_scan *s);
/* Every node of a function's statements, in pre-order (the compile walk's). */
void notewait_visit(notewait_scan *s, const struct ast_node *n);
/* The anim literal n was recorded as the compile record's event `event`. */
void notewait_anim(notewait_scan *s, const struct ast_node *n, uint32_t event);
/* Statements of the function went by unseen (no animation syntax in them):
** they may hold a script call, so no earlier candidate counts any more. */
void notewait_blind(notewait_scan *s);
/* The waits found so far, and dropping those found after a count (a
** function the parser gave up in the middle of). */
size_t notewait_count(const notewait_scan *s);
void notewait_truncate(notewait_scan *s, size_t count);
/* The end of the file: what the walk needed is freed, the waits kept. */
void notewait_scan_end(notewait_scan *s);
notewait_scan *notewait_scan_copy(const notewait_scan *s);
void notewait_scan_free(notewait_scan *s);

/* ---- global part (the context's thread) ---- */

/* The replay: the file's waits handed to the context with their
** candidates' references (by_event[e]: the reference event e made, or NULL). */
void notewait_replay(atrc_ctx *ctx, const notewait_scan *s, source_file *src, struct anim_ref *const *by_event,
                     size_t events);
/* After the trees are built and the references bound: the warnings, in the
** order the waits were compiled. */
void notewait_check(atrc_ctx *ctx);

#endif
