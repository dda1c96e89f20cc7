/* Sync setup (6.1). Leaves get their looping bit from their names here:
** "...loop..." loops, "u_..." is unknown (as under --no-xanim), others do not. */
#include "atr_testlib.h"

static void fake_assets(atrc_tree *tree)
{
    for (int i = 0; i < tree->node_count; i++) {
        atrc_node *n = &tree->nodes[i];
        if (n->child_count) continue;
        if (strncmp(n->name, "u_", 2) == 0) continue;
        n->looping = strstr(n->name, "loop") != NULL;
        n->has_asset = 1;
        n->frames = 10;
        n->frame_rate = 30;
    }
}

static tt *sync_tree(const char *text, atrc_profile profile)
{
    tt *t = tt_build(text, NULL, profile);
    ck_assert_int_eq(t->built, 1);
    fake_assets(&t->tree);
    atr_sync_setup(&t->tree, t->src, profile_get(profile), &t->d);
    return t;
}

static void expect_sync(const char *text, atrc_profile profile, const char *diags)
{
    tt *t = sync_tree(text, profile);
    ck_assert_str_eq(tt_diags(t), diags);
    tt_free(t);
}

START_TEST(sync_ok_marks_groups)
{
    tt *t = sync_tree("g : loopsync complete\n{\na_loop\nh\n{\nb_loop\n}\n}\nk : nonloopsync\n{\nstill\n}\nplain\n{\nx\n}\n",
                      ATRC_PROFILE_UO);
    ck_assert_str_eq(tt_diags(t), "");
    ck_assert_str_eq(tt_tree(t), "0 root parent=- n=3 first=1 flags=0\n"
                                 "1 plain parent=0 n=1 first=4 flags=0\n"
                                 "2 k parent=0 n=1 first=5 flags=6\n"
                                 "3 g parent=0 n=2 first=6 flags=d\n"
                                 "4 x parent=1 n=0 loop=0\n"
                                 "5 still parent=2 n=0 loop=0\n"
                                 "6 h parent=3 n=1 first=8 flags=1\n"
                                 "7 a_loop parent=3 n=0 loop=1\n"
                                 "8 b_loop parent=6 n=0 loop=1\n");
    /* parse flags are kept as parsed */
    ck_assert_uint_eq(t->tree.nodes[3].parse_flags, 9);
    ck_assert_uint_eq(t->tree.nodes[6].parse_flags, 0);
    tt_free(t);
}
END_TEST

START_TEST(sync_both_kinds)
{
    expect_sync("a\n g : loopsync nonloopsync\n{\nx_loop\n}\n", ATRC_PROFILE_UO,
                "x.atr:2:2: error: animation cannot be sync looping and sync nonlooping\n");
}
END_TEST

START_TEST(sync_nested)
{
    const char *text = "g : loopsync\n{\nh : nonloopsync\n{\ni\n{\nleaf_loop\n}\n}\n}\n";
    expect_sync(text, ATRC_PROFILE_UO,
                "x.atr:3:1: error: duplicate specification of animation sync in 'x', 2 nodes above 'leaf_loop'\n");
    expect_sync(text, ATRC_PROFILE_COD1,
                "x.atr:3:1: error: duplicate specification of animation sync in 'x', 2 nodes above 'leaf_loop'\n");
    expect_sync(text, ATRC_PROFILE_COD2,
                "x.atr:3:1: error: duplicate specification of animation sync in 'x', 2 nodes above 'h'\n");
    expect_sync(text, ATRC_PROFILE_COD4,
                "x.atr:3:1: error: duplicate specification of animation sync in 'x', 2 nodes above 'h'\n");
    /* same kind nested is a duplicate too; the descent takes the first child (index order) */
    expect_sync("g : loopsync\n{\nh : loopsync\n{\nz_loop\ny_loop\n}\n}\n", ATRC_PROFILE_UO,
                "x.atr:3:1: error: duplicate specification of animation sync in 'x', 1 nodes above 'y_loop'\n");
}
END_TEST

START_TEST(sync_leaf_mismatch)
{
    expect_sync("g : loopsync\n{\nrun_loop\n  still\n}\n", ATRC_PROFILE_UO,
                "x.atr:4:3: error: animation 'still' in 'x' cannot be sync looping and nonlooping\n");
    expect_sync("g : nonloopsync\n{\nh\n{\nrun_loop\n}\n}\n", ATRC_PROFILE_COD2,
                "x.atr:5:1: error: animation 'run_loop' in 'x' cannot be sync nonlooping and looping\n");
    /* unknown looping is not checked */
    expect_sync("g : loopsync\n{\nu_still\n}\n", ATRC_PROFILE_UO, "");
}
END_TEST

START_TEST(sync_placeholder_void)
{
    /* a plain empty block in a loopsync group gets void, which does not loop */
    tt *t = tt_build("g : loopsync\n{\n h\n{\n}\n}\n", NULL, ATRC_PROFILE_UO);
    atr_sync_setup(&t->tree, t->src, profile_get(ATRC_PROFILE_UO), &t->d);
    ck_assert_str_eq(tt_diags(t), ""); /* no asset data: not checked */
    tt_free(t);
    expect_sync("g : loopsync\n{\n h\n{\n}\n}\n", ATRC_PROFILE_UO,
                "x.atr:3:2: error: animation 'void' in 'x' cannot be sync looping and nonlooping\n");
}
END_TEST

START_TEST(sync_default_swapped)
{
    const char *text = "g : loopsync\n{\nmissing\n}\n";
    for (int p = ATRC_PROFILE_UO; p <= ATRC_PROFILE_COD4; p++) {
        tt *t = sync_tree(text, (atrc_profile)p);
        t->tree.state->default_asset[2] = 1;
        t->tree.state->flags[1] = t->tree.nodes[1].parse_flags;
        diag_free(&t->d);
        atr_sync_setup(&t->tree, t->src, profile_get((atrc_profile)p), &t->d);
        if (p == ATRC_PROFILE_COD2 || p == ATRC_PROFILE_COD4) {
            ck_assert_str_eq(tt_diags(t), "");
            ck_assert_int_eq(t->tree.nodes[2].looping, 1);
            ck_assert_int_eq(t->tree.nodes[2].frame_rate, 30);
        } else {
            ck_assert_str_eq(tt_diags(t),
                             "x.atr:3:1: error: animation 'missing' in 'x' cannot be sync looping and nonlooping\n");
        }
        tt_free(t);
    }
}
END_TEST

START_TEST(sync_reports_each_error)
{
    expect_sync("a : loopsync\n{\nx\n}\nb : nonloopsync loopsync\n{\ny\n}\nc : nonloopsync\n{\nz_loop\nw_loop\n}\n",
                ATRC_PROFILE_UO,
                "x.atr:12:1: error: animation 'w_loop' in 'x' cannot be sync nonlooping and looping\n"
                "x.atr:11:1: error: animation 'z_loop' in 'x' cannot be sync nonlooping and looping\n"
                "x.atr:5:1: error: animation cannot be sync looping and sync nonlooping\n"
                "x.atr:3:1: error: animation 'x' in 'x' cannot be sync looping and nonlooping\n");
}
END_TEST

START_TEST(sync_deep)
{
    int depth = 60000;
    char *s = xmalloc((size_t)depth * 8 + 32), *p = s;
    p += sprintf(p, "top : loopsync\n{\n");
    for (int i = 0; i < depth; i++) p += sprintf(p, "a\n{\n");
    p += sprintf(p, "z\n");
    for (int i = 0; i < depth + 1; i++) p += sprintf(p, "}\n");
    tt *t = sync_tree(s, ATRC_PROFILE_UO);
    ck_assert_int_eq(t->d.errors, 1);
    ck_assert_uint_eq(atr_runtime_flags(&t->tree, depth), 1);
    tt_free(t);
    free(s);
}
END_TEST

Suite *make_sync_suite(void)
{
    Suite *s = suite_create("sync");
    TCase *tc = tcase_create("setup");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, sync_ok_marks_groups);
    tcase_add_test(tc, sync_both_kinds);
    tcase_add_test(tc, sync_nested);
    tcase_add_test(tc, sync_leaf_mismatch);
    tcase_add_test(tc, sync_placeholder_void);
    tcase_add_test(tc, sync_default_swapped);
    tcase_add_test(tc, sync_reports_each_error);
    tcase_add_test(tc, sync_deep);
    suite_add_tcase(s, tc);
    return s;
}
