/* The animation builtins (runtime-anim.md section 1): one row per builtin
** with the games that have it, whether it is a method, whether it flags
** its anim with a notify name, the argument counts its handler accepts and
** the messages for the others, each argument's kind and role, the tree its
** anim arguments must belong to, and the order in which the handler reads
** its arguments and makes its checks.  The run-time checks (E1-E12), the
** notetrack check (E11), hover and signature help all read this one table.
** Constant data: no state, no allocation. */
#ifndef ATRC_ANIM_BUILTINS_H
#define ATRC_ANIM_BUILTINS_H
#include <stddef.h>
#include <stdint.h>
#include "atrc.h"

/* A game's bit in the masks below: ANIM_GAME(ATRC_PROFILE_COD4). */
#define ANIM_GAME(profile) (1u << (unsigned)(profile))
#define ANIM_GAMES_ALL                                                                         \
    (ANIM_GAME(ATRC_PROFILE_UO) | ANIM_GAME(ATRC_PROFILE_COD1) | ANIM_GAME(ATRC_PROFILE_COD2) |  \
     ANIM_GAME(ATRC_PROFILE_COD4))

/* What the handler takes an argument as (section 1.2's steps). */
typedef enum {
    ANIM_KIND_ANIM = 1,  /* ANIM(k, T): an anim value */
    ANIM_KIND_FLOAT,     /* FLOAT(k): an int or a float */
    ANIM_KIND_VECTOR,    /* VEC(k) */
    ANIM_KIND_STRING,    /* STR(k): a string, or an int/float/vector converted */
    ANIM_KIND_TREE       /* TREEARG(k): #animtree */
} anim_arg_kind;

/* What an argument means to the handler. */
typedef enum {
    ANIM_ROLE_ANIM = 1,  /* the anim the call acts on */
    ANIM_ROLE_ROOT,      /* knob-all's root, animscripted's optional root */
    ANIM_ROLE_NOTIFY,    /* the notify name the anim's notetracks are sent with */
    ANIM_ROLE_WEIGHT,    /* 1.3: >= 0 (non-flagged), > 0 (flagged) */
    ANIM_ROLE_GOALTIME,  /* 1.3: >= 0 */
    ANIM_ROLE_RATE,      /* 1.3: >= 0 */
    ANIM_ROLE_TIME,      /* setanimtime: 0 ... 1 */
    ANIM_ROLE_BLENDTIME, /* clearanim: any number */
    ANIM_ROLE_ORIGIN,
    ANIM_ROLE_ANGLES,
    ANIM_ROLE_MODE,      /* animscripted: "normal" or "deathplant" */
    ANIM_ROLE_TREE,      /* useanimtree's #animtree */
    ANIM_ROLE_NOTE,      /* a notetrack name */
    ANIM_ROLE_DOWN,      /* setproneanimnodes: < 0 */
    ANIM_ROLE_UP,        /* setproneanimnodes: > 0 */
    ANIM_ROLE_AI_ANIM,   /* an AI set-up anim (1.4 R) */
    ANIM_ROLE_TURRET     /* setturretanim: a group of groups (1.4 R) */
} anim_arg_role;

/* Which tree the anim arguments must belong to (3.1). */
typedef enum {
    ANIM_TREE_NONE = 0,  /* any tree (the functions) */
    ANIM_TREE_RECEIVER,  /* the receiver's own tree, T(e) */
    ANIM_TREE_AI         /* the AI's tree, always generic_human */
} anim_tree_rule;

/* The handler's checks beyond reading an argument, as they appear in
** anim_builtin.order (letters, beside the argument numbers '1'...'6'). */
#define ANIM_STEP_HAS_TIME  'T' /* the anim has no time: `blended nonsynchronized ...` (2.2) */
#define ANIM_STEP_ANCESTOR  'A' /* the root is the anim, or not its ancestor (2.3) */
#define ANIM_STEP_LEAF      'L' /* setanimtime: `not a leaf animation` */
#define ANIM_STEP_LOOPING   'P' /* setanimtime: time 1 on a looping leaf */
#define ANIM_STEP_LENGTH    'N' /* getanimlength: `non-primitive animation has no concept of length` */
#define ANIM_STEP_MODE      'M' /* animscripted: the mode is "normal" or "deathplant" */
#define ANIM_STEP_PRONE     'D' /* setproneanimnodes: the angles' signs */

#define ANIM_MAX_ARGS 6
#define ANIM_NO_COUNT_CHECK 0xff /* count_max of a handler that does not check its count */

typedef struct anim_arg {
    const char *name;      /* as signature help shows it */
    unsigned char kind;    /* anim_arg_kind */
    unsigned char role;    /* anim_arg_role */
} anim_arg;

typedef struct anim_builtin {
    const char *name;       /* lower case; the table is sorted by it */
    char family;            /* the letter of its paragraph in runtime-anim.md 1.4 */
    unsigned char method;   /* called on a receiver */
    unsigned char flagged;  /* sends its anim's notetracks to the notify argument */
    unsigned char sp_games; /* ANIM_GAME bits: the single-player games that have it */
    unsigned char mp_games; /* the multiplayer games that have it */
    /* The games whose handler is known (VERIFIED or INFERRED): only there
    ** are its counts, order and messages checked. */
    unsigned char rules_games;
    unsigned char tree;     /* anim_tree_rule */
    unsigned char nargs;    /* arguments described in args */
    unsigned char required; /* arguments read whatever the count: a missing one is
                               `parameter %d does not exist` */
    /* The count check made before any argument is read: fewer than count_min
    ** gives msg_few, more than count_max msg_many (ANIM_NO_COUNT_CHECK: none). */
    unsigned char count_min, count_max;
    const char *msg_few, *msg_many;
    /* The steps in the handler's order: '1'...'6' read that argument (when
    ** it is present or required; the optional numbers of 1.3 are listed from
    ** the last back to the first, as the engine reads them), the letters
    ** ANIM_STEP_* make that check. */
    const char *order;
    anim_arg args[ANIM_MAX_ARGS];
} anim_builtin;

/* The row of the builtin named `name` (any case) that is a method (method
** 1), a function (0) or either (-1), or NULL. */
const anim_builtin *anim_builtin_find(const char *name, int method);
/* The same for name[0, len), which need not end there (the parser's tokens). */
const anim_builtin *anim_builtin_find_len(const char *name, size_t len, int method);

/* The quick test anim_builtin_find makes first: the bit of
** anim_builtin_key(name) in anim_builtin_filter is set for every row's name
** (any case).  Its key is not text_hash on purpose: no table is looked up
** with it (the search is by halves), it is a filter over a fixed table whose
** bits are a constant (a unit test recomputes them), and the parser asks it
** of every call's name, so it reads the length and three bytes rather than
** hashing the whole name. */
extern const uint64_t anim_builtin_filter[4];
static inline unsigned anim_builtin_folded(const char *s, size_t i)
{
    unsigned c = (unsigned char)s[i];
    return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}
static inline unsigned anim_builtin_key(const char *name, size_t len)
{
    if (len < 2) return 0;
    return ((unsigned)len * 31u + anim_builtin_folded(name, len - 1) * 7u + anim_builtin_folded(name, len - 2) * 3u +
            anim_builtin_folded(name, len / 2)) & 255u;
}
/* Whether name[0, len) passes the quick test (inline: the parser asks it of
** every call's name). */
static inline int anim_builtin_may_be(const char *name, size_t len)
{
    unsigned key = anim_builtin_key(name, len);
    return (int)(anim_builtin_filter[key >> 6] >> (key & 63) & 1);
}

/* Every row, sorted by name (for listings and tests). */
extern const anim_builtin anim_builtins[];
extern const unsigned anim_builtin_count;

/* The argument of row b with role r (1-based position), or 0. */
int anim_builtin_arg_with_role(const anim_builtin *b, anim_arg_role r);

#endif
