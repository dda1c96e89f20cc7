/* Public tree queries (6.2, 7.2). */
#include "atr_testlib.h"

/* 0 root, 1 plain, 2 g (loopsync), 3 x (in plain), 4 h (in g), 5 walk_loop (in g), 6 y (in h) */
static tt *query_tree(void)
{
    tt *t = tt_build("g : loopsync\n{\nwalk_loop\nh\n{\ny\n}\n}\nplain\n{\nx\n}\n", NULL, ATRC_PROFILE_UO);
    ck_assert_str_eq(tt_tree(t), "0 root parent=- n=2 first=1 flags=0\n"
                                 "1 plain parent=0 n=1 first=3 flags=0\n"
                                 "2 g parent=0 n=2 first=4 flags=1\n"
                                 "3 x parent=1 n=0\n"
                                 "4 h parent=2 n=1 first=6 flags=0\n"
                                 "5 walk_loop parent=2 n=0\n"
                                 "6 y parent=4 n=0\n");
    atrc_node *n = t->tree.nodes;
    n[5].looping = 1, n[5].has_asset = 1, n[5].frames = 30, n[5].frame_rate = 30;
    n[3].looping = 0, n[3].has_asset = 1, n[3].frames = 31, n[3].frame_rate = 20;
    n[6].looping = 1, n[6].has_asset = 1, n[6].frames = 7, n[6].frame_rate = 0;
    return t;
}

START_TEST(primitive_and_children)
{
    tt *t = query_tree();
    const atrc_tree *tr = &t->tree;
    ck_assert_int_eq(atrc_is_primitive(tr, 0), 0);
    ck_assert_int_eq(atrc_is_primitive(tr, 2), 0);
    ck_assert_int_eq(atrc_is_primitive(tr, 3), 1);
    ck_assert_int_eq(atrc_child_count(tr, 0), 2);
    ck_assert_int_eq(atrc_child_count(tr, 2), 2);
    ck_assert_int_eq(atrc_child_count(tr, 6), 0);
    ck_assert_int_eq(atrc_child_count(tr, 7), -1);
    ck_assert_int_eq(atrc_child_count(tr, -1), -1);
    ck_assert_int_eq(atrc_child_count(NULL, 0), -1);
    ck_assert_int_eq(atrc_is_primitive(tr, 99), 0);
    tt_free(t);
}
END_TEST

START_TEST(has_time_and_looped)
{
    tt *t = query_tree();
    atrc_tree *tr = &t->tree;
    ck_assert_int_eq(atrc_has_time(tr, 0), 0);
    ck_assert_int_eq(atrc_has_time(tr, 1), 0);
    ck_assert_int_eq(atrc_has_time(tr, 2), 1);
    ck_assert_int_eq(atrc_has_time(tr, 3), 1);
    /* a container inside a sync group has time once sync setup has run */
    ck_assert_int_eq(atrc_has_time(tr, 4), 0);
    atr_sync_setup(tr, t->src, profile_get(ATRC_PROFILE_UO), &t->d);
    ck_assert_str_eq(tt_diags(t), "");
    ck_assert_int_eq(atrc_has_time(tr, 4), 1);
    ck_assert_int_eq(atrc_is_looped(tr, 4), 1);
    ck_assert_int_eq(atrc_is_looped(tr, 2), 1);
    ck_assert_int_eq(atrc_is_looped(tr, 1), 0);
    ck_assert_int_eq(atrc_is_looped(tr, 5), 1);
    ck_assert_int_eq(atrc_is_looped(tr, 3), 0);
    tr->nodes[3].looping = -1;
    ck_assert_int_eq(atrc_is_looped(tr, 3), -1);
    ck_assert_int_eq(atrc_has_time(tr, 42), 0);
    tt_free(t);
}
END_TEST

START_TEST(anim_names)
{
    tt *t = query_tree();
    const atrc_tree *tr = &t->tree;
    ck_assert_str_eq(atrc_anim_name(tr, 5, ATRC_PROFILE_UO), "walk_loop");
    ck_assert_str_eq(atrc_anim_name(tr, 5, ATRC_PROFILE_COD4), "walk_loop");
    ck_assert_str_eq(atrc_anim_name(tr, 0, ATRC_PROFILE_UO), "<non-leaf anim>");
    ck_assert_str_eq(atrc_anim_name(tr, 2, ATRC_PROFILE_COD1), "<non-leaf anim>");
    ck_assert_str_eq(atrc_anim_name(tr, 2, ATRC_PROFILE_COD2), "");
    ck_assert_str_eq(atrc_anim_name(tr, 1, ATRC_PROFILE_COD4), "");
    ck_assert_ptr_null(atrc_anim_name(tr, 7, ATRC_PROFILE_UO));
    tt_free(t);
}
END_TEST

START_TEST(lengths)
{
    tt *t = query_tree();
    atrc_tree *tr = &t->tree;
    double s = -5;
    /* looping: T = 31, N = 30, 30/30 */
    ck_assert_int_eq(atrc_anim_length(tr, 5, &s), 0);
    ck_assert_double_eq_tol(s, 1.0, 1e-12);
    /* non-looping: T = 31, N = 30, 30/20 */
    ck_assert_int_eq(atrc_anim_length(tr, 3, &s), 0);
    ck_assert_double_eq_tol(s, 1.5, 1e-12);
    /* parent, frame rate 0, no asset, out of range */
    ck_assert_int_eq(atrc_anim_length(tr, 2, &s), -1);
    ck_assert_int_eq(atrc_anim_length(tr, 6, &s), -1);
    tr->nodes[5].has_asset = 0;
    ck_assert_int_eq(atrc_anim_length(tr, 5, &s), -1);
    ck_assert_int_eq(atrc_anim_length(tr, 9, &s), -1);
    /* a one-frame non-looping asset lasts 0 s; a stored 0-frame one has no length */
    tr->nodes[3].frames = 1;
    ck_assert_int_eq(atrc_anim_length(tr, 3, &s), 0);
    ck_assert_double_eq_tol(s, 0.0, 1e-12);
    tr->nodes[3].frames = 0;
    ck_assert_int_eq(atrc_anim_length(tr, 3, &s), -1);
    tt_free(t);
}
END_TEST

Suite *make_query_suite(void)
{
    Suite *s = suite_create("query");
    TCase *tc = tcase_create("query");
    tcase_add_test(tc, primitive_and_children);
    tcase_add_test(tc, has_time_and_looped);
    tcase_add_test(tc, anim_names);
    tcase_add_test(tc, lengths);
    suite_add_tcase(s, tc);
    return s;
}
