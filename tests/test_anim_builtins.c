/* The table of the animation builtins (src/anim_builtins.c): sorted, well
** formed, and naming each builtin in exactly the games whose builtin lists
** (data/builtins/) have it. */
#include <check.h>
#include <string.h>

#include "game/anim_builtins.h"
#include "game/profile.h"

START_TEST(sorted_and_found)
{
    for (unsigned i = 0; i < anim_builtin_count; i++) {
        const anim_builtin *b = &anim_builtins[i];
        if (i) ck_assert_msg(strcmp(anim_builtins[i - 1].name, b->name) < 0, "%s out of order", b->name);
        ck_assert_ptr_eq(anim_builtin_find(b->name, b->method), b);
        ck_assert_ptr_null(anim_builtin_find(b->name, !b->method));
    }
    ck_assert_ptr_eq(anim_builtin_find("SetFlaggedAnimKnobAll", 1), anim_builtin_find("setflaggedanimknoball", 1));
    ck_assert_ptr_null(anim_builtin_find("setflaggedanimknoballlimited", 1)); /* in no game (1.1) */
    ck_assert_ptr_null(anim_builtin_find("setanimx", 1));
    ck_assert_ptr_null(anim_builtin_find("x", 1));
    ck_assert_ptr_eq(anim_builtin_find("GETANIMLENGTH", 0), anim_builtin_find("getanimlength", 0));
    /* At most 64 rows: the pass keeps a bit per row (runtime_calls.c). */
    ck_assert_int_le(anim_builtin_count, 64);
    ck_assert_ptr_null(anim_builtin_find("", 1));
    ck_assert_ptr_null(anim_builtin_find("getanimlength", 1));
    ck_assert_ptr_nonnull(anim_builtin_find("getanimlength", 0));
}
END_TEST

/* Each argument is read once in `order`, every letter is a known step, and
** the counts fit the arguments described. */
START_TEST(rows_well_formed)
{
    for (unsigned i = 0; i < anim_builtin_count; i++) {
        const anim_builtin *b = &anim_builtins[i];
        int seen[ANIM_MAX_ARGS] = {0};
        for (const char *o = b->order; *o; o++) {
            if (*o >= '1' && *o <= '6') {
                ck_assert_msg(*o - '0' <= b->nargs, "%s reads argument %c", b->name, *o);
                ck_assert_int_eq(seen[*o - '1']++, 0);
            } else {
                ck_assert_msg(strchr("TALPNMD", *o), "%s: step %c", b->name, *o);
            }
        }
        for (unsigned a = 0; a < b->nargs; a++) {
            ck_assert_msg(seen[a], "%s never reads argument %u", b->name, a + 1);
            ck_assert_ptr_nonnull(b->args[a].name);
            ck_assert_int_ne(b->args[a].kind, 0);
            ck_assert_int_ne(b->args[a].role, 0);
        }
        ck_assert_int_le(b->required, b->nargs);
        if (b->count_max != ANIM_NO_COUNT_CHECK) {
            ck_assert_int_le(b->count_min, b->count_max);
            ck_assert_int_eq(b->count_max, b->nargs);
            ck_assert_ptr_nonnull(b->msg_many);
            ck_assert(b->count_min == 0 || b->msg_few);
        }
        /* Flagged calls send the notetracks of an anim to a notify name. */
        if (b->flagged) ck_assert(anim_builtin_arg_with_role(b, ANIM_ROLE_NOTIFY) == 1);
        ck_assert_int_eq((b->tree != ANIM_TREE_NONE) & !b->method, 0);
        ck_assert_int_eq(b->rules_games & ~(b->sp_games | b->mp_games), 0);
    }
    const anim_builtin *e = anim_builtin_find("setflaggedanimknoball", 1);
    ck_assert_int_eq(anim_builtin_arg_with_role(e, ANIM_ROLE_ANIM), 2);
    ck_assert_int_eq(anim_builtin_arg_with_role(e, ANIM_ROLE_ROOT), 3);
    ck_assert_int_eq(anim_builtin_arg_with_role(e, ANIM_ROLE_RATE), 6);
    ck_assert_int_eq(anim_builtin_arg_with_role(e, ANIM_ROLE_TIME), 0);
}
END_TEST

/* The games of each row are those whose lists name the builtin: single
** player is the SP table where it is complete (cod4), else the multiplayer
** list plus the names observed in the SP scripts. */
/* The filter holds exactly the bits of the table's names. */
START_TEST(filter_is_the_tables)
{
    uint64_t bits[4] = {0, 0, 0, 0};
    for (unsigned i = 0; i < anim_builtin_count; i++) {
        unsigned k = anim_builtin_key(anim_builtins[i].name, strlen(anim_builtins[i].name));
        bits[k >> 6] |= (uint64_t)1 << (k & 63);
    }
    for (int w = 0; w < 4; w++) ck_assert_msg(bits[w] == anim_builtin_filter[w], "word %d: 0x%016llx", w,
                                              (unsigned long long)bits[w]);
}
END_TEST

START_TEST(games_match_builtin_lists)
{
    static const atrc_profile games[] = {ATRC_PROFILE_UO, ATRC_PROFILE_COD1, ATRC_PROFILE_COD2,
                                         ATRC_PROFILE_COD4};
    for (unsigned i = 0; i < anim_builtin_count; i++) {
        const anim_builtin *b = &anim_builtins[i];
        builtin_kind kind = b->method ? BUILTIN_METHOD : BUILTIN_FUNCTION;
        for (unsigned g = 0; g < sizeof games / sizeof games[0]; g++) {
            const profile_rules *r = profile_get(games[g]);
            int mp = builtin_find(r->builtins_mp, kind, b->name) != NULL;
            int sp = builtin_find(r->builtins_sp, kind, b->name) != NULL ||
                     (!r->builtins_sp_complete && mp);
            ck_assert_msg(!!(b->mp_games & ANIM_GAME(games[g])) == mp, "%s in %s mp", b->name, r->name);
            ck_assert_msg(!!(b->sp_games & ANIM_GAME(games[g])) == sp, "%s in %s sp", b->name, r->name);
        }
    }
}
END_TEST

Suite *make_anim_builtins_suite(void)
{
    Suite *s = suite_create("anim_builtins");
    TCase *tc = tcase_create("table");
    tcase_add_test(tc, sorted_and_found);
    tcase_add_test(tc, rows_well_formed);
    tcase_add_test(tc, games_match_builtin_lists);
    tcase_add_test(tc, filter_is_the_tables);
    suite_add_tcase(s, tc);
    return s;
}
