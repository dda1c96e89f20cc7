/* Compact tree build: numbering (4.3, 4.4), checksum (4.6), binding, limits. */
#include "atr_testlib.h"

static void expect_build(const char *text, const char *refs, atrc_profile profile, const char *tree,
                         const char *diags)
{
    tt *t = tt_build(text, refs, profile);
    ck_assert_int_eq(t->built, 1);
    ck_assert_str_eq(tt_diags(t), diags);
    ck_assert_str_eq(tt_tree(t), tree);
    tt_free(t);
}

START_TEST(numbering_example)
{
    const char *expected = "0 root parent=- n=3 first=1 flags=0\n"
                           "1 e parent=0 n=0\n"
                           "2 b parent=0 n=2 first=4 flags=0\n"
                           "3 a parent=0 n=0\n"
                           "4 d parent=2 n=0\n"
                           "5 c parent=2 n=0\n";
    expect_build("a\nb\n{\nc\nd\n}\ne\n", NULL, ATRC_PROFILE_UO, expected, "");
    expect_build("a\nb\n{\nc\nd\n}\ne\n", NULL, ATRC_PROFILE_COD1, expected, "");
    expect_build("a\nb\n{\nc\nd\n}\ne\n", NULL, ATRC_PROFILE_COD2, expected, "");
    expect_build("a\nb\n{\nc\nd\n}\ne\n", NULL, ATRC_PROFILE_COD4, expected, "");
    /* the same with every name referenced */
    expect_build("a\nb\n{\nc\nd\n}\ne\n", "a b c d e", ATRC_PROFILE_UO, expected, "");
}
END_TEST

START_TEST(numbering_depth_first_blocks)
{
    expect_build("a\n{\nb\n{\nc\n}\nd\n}\ne\n{\nf\n}\n", NULL, ATRC_PROFILE_UO,
                 "0 root parent=- n=2 first=1 flags=0\n"
                 "1 e parent=0 n=1 first=3 flags=0\n"
                 "2 a parent=0 n=2 first=4 flags=0\n"
                 "3 f parent=1 n=0\n"
                 "4 d parent=2 n=0\n"
                 "5 b parent=2 n=1 first=6 flags=0\n"
                 "6 c parent=5 n=0\n",
                 "");
}
END_TEST

START_TEST(numbering_cod4_additive)
{
    const char *text = "x : additive\n{\nx1\n}\ny\nz : additive complete\n{\nz1\n}\nw\n{\nw1\n}\n";
    expect_build(text, NULL, ATRC_PROFILE_COD4,
                 "0 root parent=- n=4 first=1 flags=0\n"
                 "1 w parent=0 n=1 first=5 flags=0\n"
                 "2 y parent=0 n=0\n"
                 "3 z parent=0 n=1 first=6 flags=18\n"
                 "4 x parent=0 n=1 first=7 flags=10\n"
                 "5 w1 parent=1 n=0\n"
                 "6 z1 parent=3 n=0\n"
                 "7 x1 parent=4 n=0\n",
                 "");
    /* without additive, cod4 numbers like the others */
    expect_build("x : complete\n{\nx1\n}\ny\n", NULL, ATRC_PROFILE_COD4,
                 "0 root parent=- n=2 first=1 flags=0\n"
                 "1 y parent=0 n=0\n"
                 "2 x parent=0 n=1 first=3 flags=8\n"
                 "3 x1 parent=2 n=0\n",
                 "");
}
END_TEST

START_TEST(checksum_by_hand)
{
    /* root: P0 F1 n2 f0, leaves 1 and 2: ((((0*31+0)*31+1)*31+2)*31+0)*31+1)*31+2 */
    tt *t = tt_build("a\nb\n", NULL, ATRC_PROFILE_UO);
    ck_assert_uint_eq(t->tree.checksum, 983136u);
    tt_free(t);
    /* root P0 F1 n1 f0; g P1 F2 n1 f1; leaf 2 -- wraps modulo 2^32 */
    t = tt_build("g : loopsync\n{\nx\n}\n", NULL, ATRC_PROFILE_UO);
    ck_assert_uint_eq(t->tree.checksum, 2631298113u);
    tt_free(t);
    /* the numbering example: 0,1,3,0 | e 1 | b 2,4,2,0 | d 4 | c 5 | a 3 */
    t = tt_build("a\nb\n{\nc\nd\n}\ne\n", NULL, ATRC_PROFILE_UO);
    ck_assert_uint_eq(t->tree.checksum, 1247693471u);
    tt_free(t);
}
END_TEST

START_TEST(node_fields)
{
    tt *t = tt_build("\n  walk\n aim : nonloopsync\n{\n}\n", NULL, ATRC_PROFILE_UO);
    ck_assert_int_eq(t->tree.node_count, 4);
    ck_assert_str_eq(t->tree.name, "x");
    const atrc_node *n = t->tree.nodes;
    ck_assert_str_eq(n[0].name, "root");
    ck_assert_int_eq(n[0].parent, -1);
    ck_assert_int_eq(n[0].line, 0);
    ck_assert_str_eq(n[1].name, "aim");
    ck_assert_int_eq(n[1].line, 3);
    ck_assert_int_eq(n[1].column, 2);
    ck_assert_uint_eq(n[1].parse_flags, 2);
    ck_assert_uint_eq(n[1].parse_flags, 2);
    ck_assert_str_eq(n[2].name, "walk");
    ck_assert_int_eq(n[2].line, 2);
    ck_assert_int_eq(n[2].column, 3);
    ck_assert_int_eq(n[2].looping, -1);
    ck_assert_int_eq(n[2].placeholder, 0);
    ck_assert_str_eq(n[3].name, "void");
    ck_assert_int_eq(n[3].placeholder, 1);
    ck_assert_int_eq(n[3].line, 0);
    ck_assert_int_eq(n[3].parent, 1);
    tt_free(t);
}
END_TEST

START_TEST(binding_duplicates)
{
    /* uo/cod1/cod2 bind before recursing: the second occurrence in index order is reported */
    expect_build("g\n{\na\n}\nh\n{\na\n}\n", "a", ATRC_PROFILE_UO,
                 "0 root parent=- n=2 first=1 flags=0\n"
                 "1 h parent=0 n=1 first=3 flags=0\n"
                 "2 g parent=0 n=1 first=4 flags=0\n"
                 "3 a parent=1 n=0\n"
                 "4 a parent=2 n=0\n",
                 "x.atr:3:1: error: duplicate animation 'a' in 'animtrees/x.atr'\n");
    /* a container and a leaf of the same name */
    const char *text = "a\n{\nb\n{\na\n}\n}\n";
    expect_build(text, "a", ATRC_PROFILE_UO,
                 "0 root parent=- n=1 first=1 flags=0\n"
                 "1 a parent=0 n=1 first=2 flags=0\n"
                 "2 b parent=1 n=1 first=3 flags=0\n"
                 "3 a parent=2 n=0\n",
                 "x.atr:5:1: error: duplicate animation 'a' in 'animtrees/x.atr'\n");
    /* cod4 binds after the subtree: the outer one is reported */
    expect_build(text, "a", ATRC_PROFILE_COD4,
                 "0 root parent=- n=1 first=1 flags=0\n"
                 "1 a parent=0 n=1 first=2 flags=0\n"
                 "2 b parent=1 n=1 first=3 flags=0\n"
                 "3 a parent=2 n=0\n",
                 "x.atr:1:1: error: duplicate animation 'a' in 'animtrees/x.atr'\n");
    /* unreferenced same-named nodes are fine */
    tt *t = tt_build("g\n{\na\n}\nh\n{\na\n}\n", "g h", ATRC_PROFILE_UO);
    ck_assert_str_eq(tt_diags(t), "");
    tt_free(t);
}
END_TEST

START_TEST(binding_placeholder_position)
{
    /* a placeholder has no position of its own: it is located at its parent */
    expect_build("g\n{\n}\nvoid\n", "g void", ATRC_PROFILE_UO,
                 "0 root parent=- n=2 first=1 flags=0\n"
                 "1 void parent=0 n=0\n"
                 "2 g parent=0 n=1 first=3 flags=0\n"
                 "3 void parent=2 n=0\n",
                 "x.atr:1:1: error: duplicate animation 'void' in 'animtrees/x.atr'\n");
}
END_TEST

START_TEST(cod4_nested_additive)
{
    const char *text = "a : additive\n{\nb\n{\n  c : additive\n{\nx\n}\n}\n}\nd : additive\n{\ny\n}\n";
    tt *t = tt_build(text, NULL, ATRC_PROFILE_COD4);
    ck_assert_int_eq(t->built, 1);
    ck_assert_str_eq(tt_diags(t), "x.atr:5:3: error: Do not nest additives\n");
    tt_free(t);
    /* sibling additives are fine */
    t = tt_build("a : additive\n{\nx\n}\nb : additive\n{\ny\n}\n", NULL, ATRC_PROFILE_COD4);
    ck_assert_str_eq(tt_diags(t), "");
    tt_free(t);
}
END_TEST

static char *leaves_text(int n)
{
    char *s = xmalloc((size_t)n * 10 + 1), *p = s;
    for (int i = 0; i < n; i++) p += sprintf(p, "n%d\n", i);
    *p = 0;
    return s;
}

START_TEST(node_limit)
{
    char *s = leaves_text(65535); /* + root = 65536: the maximum */
    tt *t = tt_build(s, NULL, ATRC_PROFILE_UO);
    ck_assert_int_eq(t->built, 1);
    ck_assert_int_eq(t->tree.node_count, 65536);
    ck_assert_str_eq(t->tree.nodes[65535].name, "n0");
    tt_free(t);
    free(s);
    s = leaves_text(70000);
    t = tt_build(s, NULL, ATRC_PROFILE_UO);
    ck_assert_int_eq(t->built, 0);
    ck_assert_str_eq(tt_diags(t), "x.atr:1:1: error: anim tree 'x' has too many nodes (70001, max 65536)\n");
    tt_free(t);
    free(s);
}
END_TEST

START_TEST(deep_tree)
{
    int depth = 65000;
    char *s = xmalloc((size_t)depth * 8 + 16), *p = s;
    for (int i = 0; i < depth; i++) p += sprintf(p, "a\n{\n");
    p += sprintf(p, "z\n");
    for (int i = 0; i < depth; i++) p += sprintf(p, "}\n");
    tt *t = tt_build(s, NULL, ATRC_PROFILE_COD4);
    ck_assert_int_eq(t->built, 1);
    ck_assert_int_eq(t->tree.node_count, depth + 2);
    ck_assert_str_eq(t->tree.nodes[depth + 1].name, "z");
    ck_assert_int_eq(t->tree.nodes[depth + 1].parent, depth);
    tt_free(t);
    t = tt_build(s, NULL, ATRC_PROFILE_UO);
    ck_assert_int_eq(t->built, 1);
    tt_free(t);
    free(s);
}
END_TEST

Suite *make_atr_build_suite(void)
{
    Suite *s = suite_create("atr_build");
    TCase *tc = tcase_create("build");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, numbering_example);
    tcase_add_test(tc, numbering_depth_first_blocks);
    tcase_add_test(tc, numbering_cod4_additive);
    tcase_add_test(tc, cod4_nested_additive);
    tcase_add_test(tc, checksum_by_hand);
    tcase_add_test(tc, node_fields);
    tcase_add_test(tc, binding_duplicates);
    tcase_add_test(tc, binding_placeholder_position);
    tcase_add_test(tc, node_limit);
    tcase_add_test(tc, deep_tree);
    suite_add_tcase(s, tc);
    return s;
}
