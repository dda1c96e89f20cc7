/* The table of the animation builtins (runtime-anim.md 1.1 and 1.4; the
** names per game also as data/builtins/ lists them) and its lookup. */
#include "game/anim_builtins.h"
#include <stdlib.h>
#include <string.h>

#define UO ANIM_GAME(ATRC_PROFILE_UO)
#define COD1 ANIM_GAME(ATRC_PROFILE_COD1)
#define COD2 ANIM_GAME(ATRC_PROFILE_COD2)
#define COD4 ANIM_GAME(ATRC_PROFILE_COD4)
#define ALL ANIM_GAMES_ALL
#define NONE 0u

/* Arguments by kind and role. */
#define ANIM_ARG {"anim", ANIM_KIND_ANIM, ANIM_ROLE_ANIM}
#define ROOT_ARG {"root", ANIM_KIND_ANIM, ANIM_ROLE_ROOT}
#define NOTIFY_ARG {"notify", ANIM_KIND_STRING, ANIM_ROLE_NOTIFY}
#define WEIGHT_ARG {"weight", ANIM_KIND_FLOAT, ANIM_ROLE_WEIGHT}
#define GOALTIME_ARG {"goaltime", ANIM_KIND_FLOAT, ANIM_ROLE_GOALTIME}
#define RATE_ARG {"rate", ANIM_KIND_FLOAT, ANIM_ROLE_RATE}
#define AI_ARG(name) {name, ANIM_KIND_ANIM, ANIM_ROLE_AI_ANIM}
/* animscripted, animrelative, startscriptedanim (1.4 K-M). */
#define SCRIPTED_ARGS                                                                              \
    {NOTIFY_ARG, {"origin", ANIM_KIND_VECTOR, ANIM_ROLE_ORIGIN},                                   \
     {"angles", ANIM_KIND_VECTOR, ANIM_ROLE_ANGLES}, ANIM_ARG,                                     \
     {"mode", ANIM_KIND_STRING, ANIM_ROLE_MODE}, ROOT_ARG}

static const char too_many[] = "too many parameters";
static const char incorrect[] = "incorrect number of parameters";

/* The rows of 1.4 A-E share their shape: the handler's family letter, its
** games, its count message, and whether it is flagged or a knob-all. */
#define SET(nm, fam, sp, msg)                                                                      \
    {nm, fam, 1, 0, sp, NONE, COD4, ANIM_TREE_RECEIVER, 4, 1, 1, 4, msg, msg, "4321",             \
     {ANIM_ARG, WEIGHT_ARG, GOALTIME_ARG, RATE_ARG}}
#define KNOBALL(nm, sp)                                                                            \
    {nm, 'B', 1, 0, sp, NONE, COD4, ANIM_TREE_RECEIVER, 5, 2, 2, 5, incorrect, incorrect,         \
     "54321A", {ANIM_ARG, ROOT_ARG, WEIGHT_ARG, GOALTIME_ARG, RATE_ARG}}
#define FLAGGED(nm, fam, sp, msg)                                                                  \
    {nm, fam, 1, 1, sp, NONE, COD4, ANIM_TREE_RECEIVER, 5, 2, 2, 5, msg, msg, "54321T",           \
     {NOTIFY_ARG, ANIM_ARG, WEIGHT_ARG, GOALTIME_ARG, RATE_ARG}}
#define FLAGGED_KNOBALL(nm, sp, msg)                                                               \
    {nm, 'E', 1, 1, sp, NONE, COD4, ANIM_TREE_RECEIVER, 6, 3, 3, 6, msg, msg, "654321TA",        \
     {NOTIFY_ARG, ANIM_ARG, ROOT_ARG, WEIGHT_ARG, GOALTIME_ARG, RATE_ARG}}
#define SCRIPTED(nm, fam, sp, few)                                                                 \
    {nm, fam, 1, 1, sp, NONE, COD4, ANIM_TREE_RECEIVER, 6, 4, 4, 6, few, too_many, "5M64321",     \
     SCRIPTED_ARGS}
/* A method that reads no argument (1.4 N, S; stopuseanimtree). */
#define NO_ARGS(nm, fam, sp, mp)                                                                   \
    {nm, fam, 1, 0, sp, mp, COD4, ANIM_TREE_NONE, 0, 0, 0, ANIM_NO_COUNT_CHECK, NULL, NULL, "", {{0}}}

/* Names sorted (anim_builtin_find searches the table by halves; a unit test
** checks the order).  Where the spec's table 1.1 and the observed stock
** lists differ (updateprone, which every game's single-player scripts
** call), the lists win: they are what the games' scripts resolve against. */
const anim_builtin anim_builtins[] = {
    {"animhasnotetrack", 'P', 0, 0, ALL, ALL, ALL, ANIM_TREE_NONE, 2, 2, 0, ANIM_NO_COUNT_CHECK,
     NULL, NULL, "12", {ANIM_ARG, {"notetrack", ANIM_KIND_STRING, ANIM_ROLE_NOTE}}},
    SCRIPTED("animrelative", 'L', COD4, "Incorrect number of parameters for ScrCmd_animrelative command"),
    SCRIPTED("animscripted", 'K', ALL, "Incorrect number of parameters for animscripted command"),
    {"clearanim", 'F', 1, 0, ALL, NONE, COD4, ANIM_TREE_RECEIVER, 2, 2, 0, ANIM_NO_COUNT_CHECK,
     NULL, NULL, "12", {ANIM_ARG, {"blendtime", ANIM_KIND_FLOAT, ANIM_ROLE_BLENDTIME}}},
    NO_ARGS("dumpanims", 'N', COD4, NONE),
    {"getanimassettype", 'I', 1, 0, COD4, NONE, COD4, ANIM_TREE_RECEIVER, 1, 1, 0,
     ANIM_NO_COUNT_CHECK, NULL, NULL, "1", {ANIM_ARG}},
    {"getanimlength", 'O', 0, 0, ALL, ALL, ALL, ANIM_TREE_NONE, 1, 1, 0, ANIM_NO_COUNT_CHECK, NULL,
     NULL, "1N", {ANIM_ARG}},
    {"getanimtime", 'G', 1, 0, ALL, NONE, COD4, ANIM_TREE_RECEIVER, 1, 1, 0, ANIM_NO_COUNT_CHECK,
     NULL, NULL, "1T", {ANIM_ARG}},
    NO_ARGS("getcorpseanim", 'S', NONE, COD4),
    {"getnotetracktimes", 'Q', 0, 0, COD4, COD4, COD4, ANIM_TREE_NONE, 2, 2, 0,
     ANIM_NO_COUNT_CHECK, NULL, NULL, "12",
     {ANIM_ARG, {"notetrack", ANIM_KIND_STRING, ANIM_ROLE_NOTE}}},
    {"setaimanims", 'R', 1, 0, ALL, NONE, COD4, ANIM_TREE_AI, 6, 6, 0, ANIM_NO_COUNT_CHECK, NULL,
     NULL, "123456",
     {AI_ARG("aimlow"), AI_ARG("aimlevel"), AI_ARG("aimhigh"), AI_ARG("shootlow"),
      AI_ARG("shootlevel"), AI_ARG("shoothigh")}},
    SET("setanim", 'A', ALL, too_many),
    SET("setanimknob", 'A', ALL, too_many),
    KNOBALL("setanimknoball", ALL),
    KNOBALL("setanimknoballlimited", COD4),
    KNOBALL("setanimknoballlimitedrestart", COD4),
    KNOBALL("setanimknoballrestart", ALL),
    SET("setanimknoblimited", 'A', COD4, too_many),
    SET("setanimknoblimitedrestart", 'A', COD4, too_many),
    SET("setanimknobrestart", 'A', ALL, too_many),
    SET("setanimlimited", 'A', COD4, too_many),
    SET("setanimlimitedrestart", 'A', COD4, too_many),
    SET("setanimrestart", 'A', UO | COD2 | COD4, too_many),
    {"setanimtime", 'H', 1, 0, COD4, NONE, COD4, ANIM_TREE_RECEIVER, 2, 1, 1, 2, too_many,
     too_many, "21LP", {ANIM_ARG, {"time", ANIM_KIND_FLOAT, ANIM_ROLE_TIME}}},
    FLAGGED("setflaggedanim", 'C', ALL, incorrect),
    FLAGGED("setflaggedanimknob", 'D', ALL, too_many),
    FLAGGED_KNOBALL("setflaggedanimknoball", ALL, "illegal call to SetFlaggedAnimKnobAll()\n"),
    FLAGGED_KNOBALL("setflaggedanimknoballrestart", ALL,
                    "illegal call to SetFlaggedAnimKnobAllRestart()\n"),
    FLAGGED("setflaggedanimknoblimited", 'D', COD4, too_many),
    FLAGGED("setflaggedanimknoblimitedrestart", 'D', COD4, too_many),
    FLAGGED("setflaggedanimknobrestart", 'D', ALL, too_many),
    FLAGGED("setflaggedanimlimited", 'C', COD4, incorrect),
    FLAGGED("setflaggedanimlimitedrestart", 'C', COD4, incorrect),
    FLAGGED("setflaggedanimrestart", 'C', ALL, incorrect),
    {"setlookatanimnodes", 'R', 1, 0, UO | COD1 | COD4, NONE, COD4, ANIM_TREE_AI, 3, 3, 0,
     ANIM_NO_COUNT_CHECK, NULL, NULL, "123", {AI_ARG("a"), AI_ARG("b"), AI_ARG("c")}},
    {"setproneanimnodes", 'R', 1, 0, ALL, NONE, COD4, ANIM_TREE_AI, 5, 5, 0, ANIM_NO_COUNT_CHECK,
     NULL, NULL, "12D345",
     {{"down", ANIM_KIND_FLOAT, ANIM_ROLE_DOWN}, {"up", ANIM_KIND_FLOAT, ANIM_ROLE_UP},
      AI_ARG("low"), AI_ARG("level"), AI_ARG("high")}},
    {"setturretanim", 'R', 1, 0, ALL, NONE, COD4, ANIM_TREE_AI, 1, 1, 0, ANIM_NO_COUNT_CHECK, NULL,
     NULL, "1", {{"anim", ANIM_KIND_ANIM, ANIM_ROLE_TURRET}}},
    /* No minimum-count message: fewer than 4 fail at `parameter 4 does not exist`. */
    {"startscriptedanim", 'M', 1, 1, ALL, NONE, COD4, ANIM_TREE_RECEIVER, 6, 4, 0, 6, NULL,
     too_many, "5M64321", SCRIPTED_ARGS},
    NO_ARGS("stopanimscripted", 'N', ALL, NONE),
    NO_ARGS("stopuseanimtree", 'J', ALL, NONE),
    /* updateprone reads its arguments only while the AI is prone; a stock
    ** call is made only then. */
    {"updateprone", 'R', 1, 0, ALL, NONE, COD4, ANIM_TREE_AI, 5, 5, 0, ANIM_NO_COUNT_CHECK, NULL,
     NULL, "12345",
     {AI_ARG("a"), AI_ARG("b"), WEIGHT_ARG, GOALTIME_ARG, RATE_ARG}},
    {"useanimtree", 'J', 1, 0, ALL, NONE, COD4, ANIM_TREE_NONE, 1, 1, 0, ANIM_NO_COUNT_CHECK, NULL,
     NULL, "1", {{"animtree", ANIM_KIND_TREE, ANIM_ROLE_TREE}}},
};
const unsigned anim_builtin_count = sizeof anim_builtins / sizeof anim_builtins[0];

/* The name searched for: not NUL-terminated where the parser asks. */
typedef struct name_key {
    const char *text;
    size_t len;
} name_key;

static int compare_name(const void *key, const void *row)
{
    const name_key *k = key;
    const char *b = ((const anim_builtin *)row)->name;
    for (size_t i = 0;; i++, b++) {
        int ca = i < k->len ? (unsigned char)k->text[i] : 0, cb = (unsigned char)*b;
        if (ca >= 'A' && ca <= 'Z') ca += 'a' - 'A';
        if (ca != cb || !ca) return ca - cb;
    }
}

/* Most calls a script makes are not of animation builtins: a bit per key
** of the table's names (ORDER: the table; a unit test recomputes it) turns
** six in seven of them away before the search. */
const uint64_t anim_builtin_filter[4] = {0x0a10401080000220u, 0x0061c0000826c000u, 0x8201404000002100u,
                                         0x0004001801a20190u};

const anim_builtin *anim_builtin_find_len(const char *name, size_t len, int method)
{
    if (!anim_builtin_may_be(name, len)) return NULL;
    name_key k = {name, len};
    const anim_builtin *b = bsearch(&k, anim_builtins, anim_builtin_count, sizeof anim_builtins[0], compare_name);
    return b && (method < 0 || b->method == (method != 0)) ? b : NULL;
}

const anim_builtin *anim_builtin_find(const char *name, int method)
{
    return anim_builtin_find_len(name, strlen(name), method);
}

int anim_builtin_arg_with_role(const anim_builtin *b, anim_arg_role r)
{
    for (unsigned i = 0; i < b->nargs; i++)
        if (b->args[i].role == r) return (int)i + 1;
    return 0;
}
