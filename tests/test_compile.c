/* The compile stage and registry end to end through the library API: tree
** selection, reference collection, registry indices, binding, and every
** script-side diagnostic with its exact message and position. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atrc.h"
#include "tmpdir_testlib.h"
#include "compile/context.h"

typedef struct fixture_file {
    const char *path; /* relative to the game directory */
    const char *data;
    size_t len;       /* 0: strlen(data) */
} fixture_file;

static tmp_game game;

static void write_file(const char *rel, const char *data, size_t len)
{
    tmp_game_write(&game, rel, data, len);
}

/* A 9-byte version-14 xanim header. */
static void write_xanim(const char *name, int looping)
{
    unsigned char h[9] = {14, 0, 30, 0, 1, 0, (unsigned char)looping, 30, 0};
    char rel[256];
    snprintf(rel, sizeof rel, "xanim/%s", name);
    write_file(rel, (const char *)h, sizeof h);
}

static void setup(void)
{
    tmp_game_make(&game, "test");
}

static void teardown(void)
{
    tmp_game_remove(&game);
}

static void add_tree(const char *name, const char *atr)
{
    char rel[256];
    snprintf(rel, sizeof rel, "animtrees/%s.atr", name);
    write_file(rel, atr, strlen(atr));
}

/* Renders "LINE:COL: severity: message" per diagnostic (file name only when
** it is not the script) and one line per reference: "kind name value". */
static char result[65536];

static const char *render(atrc_ctx *ctx)
{
    size_t n = 0;
    result[0] = 0;
    for (size_t i = 0; i < ctx->diags.count; i++) {
        const diag *g = &ctx->diags.items[i];
        const char *sev = g->severity == DIAG_ERROR ? "error" : "warning";
        if (!g->src)
            n += (size_t)snprintf(result + n, sizeof result - n, "%s: %s\n", sev, g->message);
        else if (strcmp(g->src->path, "s.gsc") == 0)
            n += (size_t)snprintf(result + n, sizeof result - n, "%d:%d: %s: %s\n", g->line, g->col, sev,
                                  g->message);
        else
            n += (size_t)snprintf(result + n, sizeof result - n, "%s:%d:%d: %s: %s\n",
                                  strrchr(g->src->path, '/') + 1, g->line, g->col, sev, g->message);
    }
    for (const anim_ref *r = ctx->refs; r; r = r->next) {
        char value[32];
        if (r->value < 0) snprintf(value, sizeof value, "null");
        else snprintf(value, sizeof value, "0x%08llx", (unsigned long long)r->value);
        n += (size_t)snprintf(result + n, sizeof result - n, "%s %s %s\n",
                              r->kind == REF_ANIMTREE ? "#animtree" : r->kind == REF_ENGINE ? "engine" : "anim",
                              r->name ? r->name : "-", value);
    }
    return result;
}

static const char *compile_with(const char *script, atrc_profile profile, int no_xanim)
{
    atrc_options o = {0};
    o.profile = profile;
    o.no_xanim = no_xanim;
    atrc_ctx *ctx = atrc_new(&o);
    atrc_add_game_dir(ctx, game.dir);
    atrc_add_script_buffer(ctx, "s.gsc", script, strlen(script));
    atrc_build_trees(ctx);
    render(ctx);
    atrc_free(ctx);
    return result;
}

static const char *compile(const char *script)
{
    return compile_with(script, ATRC_PROFILE_UO, 1);
}

START_TEST(numbering_example_packs_engine_values)
{
    add_tree("t", "a\nb\n{\n\tc\n\td\n}\ne\n");
    ck_assert_str_eq(compile("#using_animtree(\"t\");\n"
                             "f() { x = %a; x = %b; x = %c; x = %d; x = %e; x = %root; }\n"),
                     "anim a 0x00010003\nanim b 0x00010002\nanim c 0x00010005\n"
                     "anim d 0x00010004\nanim e 0x00010001\nanim root 0x00010000\n");
}
END_TEST

START_TEST(selection_is_per_file_and_switches)
{
    add_tree("one", "x\n");
    add_tree("two", "x\ny\n");
    ck_assert_str_eq(compile("#using_animtree(\"one\");\n"
                             "f() { a = %x; b = #animtree; }\n"
                             "#using_animtree(\"TWO\");\n"
                             "g() { a = %x; b = #animtree; c = %Y; }\n"),
                     "anim x 0x00010001\n#animtree - 0x00000001\n"
                     "anim x 0x00020002\n#animtree - 0x00000002\nanim y 0x00020001\n");
}
END_TEST

START_TEST(reference_before_directive)
{
    add_tree("t", "x\n");
    ck_assert_str_eq(compile("f() {\n  a = %x;\n  b = #animtree;\n}\n"),
                         "2:7: error: #using_animtree was not specified\n"
                         "3:7: error: #using_animtree was not specified\n"
                         "anim x null\n#animtree - null\n");
}
END_TEST

START_TEST(bad_tree_names)
{
    ck_assert_str_eq(compile("#using_animtree(\"a/b\");\nf() { x = %y; }\n"),
                     "1:1: error: bad anim tree name\nanim y null\n");
    ck_assert_str_eq(compile("#using_animtree(\"my-tree\");\n"), "1:1: error: bad anim tree name\n");
    ck_assert_str_eq(compile("#using_animtree(\"x.atr\");\n"), "1:1: error: bad anim tree name\n");
}
END_TEST

START_TEST(tree_name_length_limit)
{
    /* 49 bytes is the longest name that fits the engine's path buffer. */
    char script[512], name50[51];
    memset(name50, 'a', 50);
    name50[50] = 0;
    add_tree("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "x\n");
    snprintf(script, sizeof script, "#using_animtree(\"%.*s\");\nf() { a = %%x; }\n", 49, name50);
    ck_assert_str_eq(compile(script), "anim x 0x00010001\n");
    snprintf(script, sizeof script,
             "#using_animtree(\"%s\");\nf() { a = %%x; b = #animtree; }\n", name50);
    ck_assert_str_eq(compile(script),
                     "1:1: error: animation tree path is too long\nanim x null\n#animtree - 0x00000001\n");
}
END_TEST

START_TEST(developer_block_rules_by_profile)
{
    add_tree("t", "x\ny\n");
    /* `#using_animtree` is a top-level item; only G2 lets a top-level /# #/
    ** hold one (then the compile stage rejects it). */
    const char *script = "#using_animtree(\"t\");\n"
                         "f() {\n"
                         "  /# a = %x; #/\n"
                         "  b = %y;\n"
                         "}\n";
    ck_assert_str_eq(compile_with(script, ATRC_PROFILE_UO, 1),
                     "3:10: error: cannot reference animation from /# ... #/ comment\n"
                     "anim x null\nanim y 0x00010001\n");
    const char *g2 = "#using_animtree(\"t\");\n"
                     "/# #using_animtree(\"t\"); #/\n"
                     "f() {\n"
                     "  /# a = %x; #/\n"
                     "  b = %y;\n"
                     "}\n";
    ck_assert_str_eq(compile_with(g2, ATRC_PROFILE_COD2, 1),
                     "2:4: error: cannot put #using_animtree inside /# ... #/ comment\n"
                     "anim x 0x00010002\nanim y 0x00010001\n");
    /* A /# #/ block that ends its list: what follows its parents is normal code again. */
    const char *nested = "#using_animtree(\"t\");\n"
                         "f() {\n"
                         "  if (c) { d = %y; /# if (e) { a = %x; } #/ }\n"
                         "  b = %y;\n"
                         "}\n";
    ck_assert_str_eq(compile_with(nested, ATRC_PROFILE_UO, 1),
                     "3:36: error: cannot reference animation from /# ... #/ comment\n"
                     "anim y 0x00010001\nanim x null\nanim y 0x00010001\n");
}
END_TEST

START_TEST(unknown_tree_is_warning_in_uo_error_in_cod2)
{
    const char *script = "#using_animtree(\"nothere\");\nf() { a = %x; b = #animtree; }\n";
    char want[1024];
    snprintf(want, sizeof want,
             "1:1: warning: unknown anim tree 'nothere': no animtrees/nothere.atr in the game directories searched "
             "(%s, with their archives)\nanim x null\n#animtree - 0x00000001\n", game.dir);
    ck_assert_str_eq(compile_with(script, ATRC_PROFILE_UO, 1), want);
    snprintf(want, sizeof want,
             "1:1: error: unknown anim tree 'nothere': no animtrees/nothere.atr in the game directories searched "
             "(%s, with their archives)\nanim x null\n#animtree - 0x00000001\n", game.dir);
    ck_assert_str_eq(compile_with(script, ATRC_PROFILE_COD2, 1), want);
}
END_TEST

/* An unknown tree names the nearest tree of the search path; an undefined
** name the nearest names its tree declares (pruned ones too), as written. */
START_TEST(unknown_names_suggest_the_nearest)
{
    add_tree("soldier", "Stand_Idle\nwalk_last\nwalk_fast\nwalk_slow\n");
    char want[2048];
    snprintf(want, sizeof want,
             "1:1: error: unknown anim tree 'soldeir': no animtrees/soldeir.atr in the game directories searched "
             "(%s, with their archives); did you mean 'soldier'?\nanim x null\n", game.dir);
    ck_assert_str_eq(compile_with("#using_animtree(\"soldeir\");\nf() { a = %x; }\n", ATRC_PROFILE_COD2, 1), want);
    /* the names are in the .atr, not the script: its path is named */
    snprintf(want, sizeof want,
             "2:28: error: animation 'stand_idel' not defined in anim tree 'soldier'; did you mean "
             "'Stand_Idle' (%s/animtrees/soldier.atr:1)?\n"
             "2:45: error: animation 'walk_xast' not defined in anim tree 'soldier'; did you mean "
             "'walk_fast' (%s/animtrees/soldier.atr:3) or 'walk_last' (%s/animtrees/soldier.atr:2)?\n"
             "2:61: error: animation 'qqqq' not defined in anim tree 'soldier'\n"
             "anim stand_idle 0x00010001\nanim stand_idel null\nanim walk_xast null\nanim qqqq null\n",
             game.dir, game.dir, game.dir);
    ck_assert_str_eq(compile("#using_animtree(\"soldier\");\n"
                             "f() { a = %Stand_Idle; b = %stand_idel; c = %walk_xast; d = %qqqq; }\n"),
                     want);
    /* Once per name: its 100th reference says what the first says. */
    char script[4096];
    size_t n = (size_t)snprintf(script, sizeof script, "#using_animtree(\"soldier\");\nf() {\n");
    for (int i = 0; i < 100; i++) n += (size_t)snprintf(script + n, sizeof script - n, "x = %%wlak_fast;\n");
    snprintf(script + n, sizeof script - n, "}\n");
    const char *got = compile(script);
    snprintf(want, sizeof want,
             "102:5: error: animation 'wlak_fast' not defined in anim tree 'soldier'; did "
             "you mean 'walk_fast' (%s/animtrees/soldier.atr:3) or 'walk_last' (%s/animtrees/soldier.atr:2)?\n",
             game.dir, game.dir);
    ck_assert_ptr_nonnull(strstr(got, want));
}
END_TEST

START_TEST(every_undefined_reference_reported_at_its_position)
{
    add_tree("t", "walk\n");
    char want[2048];
    snprintf(want, sizeof want,
             "3:7: error: animation 'wlak' not defined in anim tree 't'; did you mean 'walk' (%s/animtrees/t.atr:1)?\n"
             "5:7: error: animation 'wlak' not defined in anim tree 't'; did you mean 'walk' (%s/animtrees/t.atr:1)?\n"
             "anim wlak null\nanim walk 0x00010001\nanim wlak null\n",
             game.dir, game.dir);
    ck_assert_str_eq(compile("#using_animtree(\"t\");\n"
                             "f() {\n  a = %wlak;\n  b = %walk;\n  c = %wlak;\n}\n"),
                     want);
}
END_TEST

START_TEST(binding_time_duplicate)
{
    /* Same name under two parents: the first node laid out binds it. */
    add_tree("t", "g1\n{\n\tidle\n}\ng2\n{\n\tidle\n}\n");
    ck_assert_str_eq(compile("#using_animtree(\"t\");\nf() { a = %idle; }\n"),
                     "t.atr:3:2: error: duplicate animation 'idle' in 'animtrees/t.atr'\n"
                     "anim idle 0x00010003\n");
}
END_TEST

START_TEST(root_bound_to_node_zero_and_file_root_duplicates)
{
    add_tree("t", "root\nx\n");
    ck_assert_str_eq(compile("#using_animtree(\"t\");\nf() { a = %root; }\n"),
                     "t.atr:1:1: error: duplicate animation 'root' in 'animtrees/t.atr'\n"
                     "anim root 0x00010000\n");
}
END_TEST

START_TEST(registry_indices_first_registration_order)
{
    add_tree("b", "x\n");
    add_tree("a", "x\n");
    ck_assert_str_eq(compile("#using_animtree(\"b\");\n#using_animtree(\"a\");\n"
                             "#using_animtree(\"b\");\nf() { t = #animtree; }\n"),
                     "#animtree - 0x00000001\n");
}
END_TEST

START_TEST(registry_full_at_128th_tree)
{
    static char script[128 * 40];
    size_t n = 0;
    for (int i = 1; i <= 128; i++)
        n += (size_t)snprintf(script + n, sizeof script - n, "#using_animtree(\"t%d\");\n", i);
    snprintf(script + n, sizeof script - n, "f() { a = %%x; }\n");
    atrc_options o = {0};
    o.no_xanim = 1;
    atrc_ctx *ctx = atrc_new(&o);
    atrc_add_game_dir(ctx, game.dir);
    atrc_add_script_buffer(ctx, "s.gsc", script, strlen(script));
    ck_assert_int_eq(atrc_tree_count(ctx), 127);
    ck_assert_int_eq(ctx->diags.errors, 1);
    ck_assert_str_eq(ctx->diags.items[0].message, "maximum animation tree count exceeded (127)");
    ck_assert_int_eq(ctx->diags.items[0].line, 128);
    atrc_free(ctx);
}
END_TEST

START_TEST(engine_references_register_first)
{
    add_tree("multiplayer", "torso\nlegs\n");
    add_tree("t", "x\n");
    atrc_options o = {0};
    o.no_xanim = 1;
    atrc_ctx *ctx = atrc_new(&o);
    atrc_add_game_dir(ctx, game.dir);
    ck_assert_int_eq(atrc_add_engine_anim(ctx, "multiplayer", "TORSO"), 0);
    ck_assert_int_eq(atrc_add_engine_anim(ctx, "bad-tree", "x"), -1);
    const char *script = "#using_animtree(\"t\");\nf(){a=%x;}\n";
    atrc_add_script_buffer(ctx, "s.gsc", script, strlen(script));
    atrc_build_trees(ctx);
    ck_assert_str_eq(render(ctx), "engine torso 0x00010001\nanim x 0x00020001\n");
    atrc_free(ctx);
}
END_TEST

START_TEST(case_insensitive_tree_files_and_names)
{
    char rel[64];
    snprintf(rel, sizeof rel, "AnimTrees/Human.ATR");
    write_file(rel, "Stand_Idle\n", 11);
    ck_assert_str_eq(compile("#using_animtree(\"HUMAN\");\nf() { a = %STAND_idle; }\n"),
                     "anim stand_idle 0x00010001\n");
}
END_TEST

START_TEST(assets_resolved_and_checked)
{
    add_tree("t", "walk\nrun\n");
    write_xanim("walk", 1);
    ck_assert_str_eq(compile_with("#using_animtree(\"t\");\nf() { a = %walk; b = %run; }\n",
                                  ATRC_PROFILE_UO, 0),
                     "t.atr:2:1: error: Cannot find 'xanim/run'\n"
                     "anim walk 0x00010002\nanim run 0x00010001\n");
}
END_TEST

START_TEST(pruning_changes_numbers)
{
    add_tree("t", "a\nb\nc\n");
    ck_assert_str_eq(compile("#using_animtree(\"t\");\nf() { x = %a; }\n"), "anim a 0x00010001\n");
}
END_TEST

START_TEST(later_game_dir_overrides)
{
    add_tree("t", "a\nb\n");
    char second[300];
    snprintf(second, sizeof second, "%s/mod", game.dir);
    write_file("mod/animtrees/t.atr", "a\n", 2);
    atrc_options o = {0};
    o.no_xanim = 1;
    o.anim_check = 1;
    atrc_ctx *ctx = atrc_new(&o);
    atrc_add_game_dir(ctx, game.dir);
    atrc_add_game_dir(ctx, second);
    const char *script = "#using_animtree(\"t\");\nf(){x=%a;}\n";
    atrc_add_script_buffer(ctx, "s.gsc", script, strlen(script));
    atrc_build_trees(ctx);
    ck_assert_str_eq(render(ctx), "anim a 0x00010001\n");
    ck_assert_int_eq(atrc_get_tree(ctx, 1)->node_count, 2);
    atrc_free(ctx);
}
END_TEST

Suite *make_compile_suite(void)
{
    Suite *s = suite_create("compile");
    TCase *tc = tcase_create("references");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, numbering_example_packs_engine_values);
    tcase_add_test(tc, selection_is_per_file_and_switches);
    tcase_add_test(tc, reference_before_directive);
    tcase_add_test(tc, bad_tree_names);
    tcase_add_test(tc, tree_name_length_limit);
    tcase_add_test(tc, developer_block_rules_by_profile);
    tcase_add_test(tc, unknown_tree_is_warning_in_uo_error_in_cod2);
    tcase_add_test(tc, every_undefined_reference_reported_at_its_position);
    tcase_add_test(tc, unknown_names_suggest_the_nearest);
    tcase_add_test(tc, binding_time_duplicate);
    tcase_add_test(tc, root_bound_to_node_zero_and_file_root_duplicates);
    tcase_add_test(tc, registry_indices_first_registration_order);
    tcase_add_test(tc, registry_full_at_128th_tree);
    tcase_add_test(tc, engine_references_register_first);
    tcase_add_test(tc, case_insensitive_tree_files_and_names);
    tcase_add_test(tc, assets_resolved_and_checked);
    tcase_add_test(tc, pruning_changes_numbers);
    tcase_add_test(tc, later_game_dir_overrides);
    suite_add_tcase(s, tc);
    return s;
}
