/* Position queries: what is at a position (%name, #animtree,
** #using_animtree, calls, ::f, path::f, definitions, #include paths, .atr
** nodes), definitions, references, completion candidates, document symbols;
** byte columns stay exact after non-ASCII text. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atrc.h"
#include "os/os.h"
#include "posix_only.h"
#include "gamefile_testlib.h"
#include "tmpdir_testlib.h"

static char dir[64];
static atrc_ctx *ctx;
static char a_path[256], lib_path[256], atr_path[256];

/* Line numbers of maps/a.gsc, as the tests use them. */
static const char *const a_text =
    "#include maps\\_lib;\n"                    /* 1 */
    "#using_animtree(\"t\");\n"                 /* 2 */
    "// caf\xc3\xa9 \xe2\x80\x94 not ASCII\n"   /* 3 */
    "main()\n"                                  /* 4 */
    "{\n"                                       /* 5 */
    "\t/* \xc3\xa9 */ x = %walk;\n"             /* 6: '%' at byte column 15 */
    "\ty = #animtree;\n"                        /* 7 */
    "\thelper(1, 2);\n"                         /* 8 */
    "\tmaps\\_lib::helper(1, 2);\n"             /* 9 */
    "\tf = ::main;\n"                           /* 10 */
    "\tz = getTime();\n"                        /* 11 */
    "\tw = %run;\n"                             /* 12 */
    "}\n";

static void setup(void)
{
    strcpy(dir, "/tmp/atrc-lookup-XXXXXX");
    ck_assert_ptr_nonnull(os_make_temp_dir(dir));
    put_game_file(dir, "animtrees/t.atr", "idle\ngroup : loopsync\n{\n\twalk\n\trun\n}\n");
    put_game_file(dir, "maps/_lib.gsc", "helper(a, b)\n{\n}\n");
    put_game_file(dir, "maps/a.gsc", a_text);
    snprintf(a_path, sizeof a_path, "%s/maps/a.gsc", dir);
    snprintf(lib_path, sizeof lib_path, "%s/maps/_lib.gsc", dir);
    snprintf(atr_path, sizeof atr_path, "%s/animtrees/t.atr", dir);
    atrc_options o = {0};
    o.profile = ATRC_PROFILE_COD2;
    o.no_xanim = 1;
    ctx = atrc_new(&o);
    atrc_add_game_dir(ctx, dir);
    atrc_walk_script(ctx, "maps/a");
    atrc_build_trees(ctx);
}

static void teardown(void)
{
    atrc_free(ctx);
    ck_assert_int_eq(remove_tree(dir), 0);
}

START_TEST(anim_reference)
{
    ck_assert_int_eq(atrc_error_count(ctx), 0);
    atrc_at at;
    ck_assert_int_eq(atrc_lookup(ctx, a_path, 6, 17, &at), 1); /* on 'a' of %walk */
    ck_assert_int_eq(at.kind, ATRC_AT_ANIM);
    ck_assert_str_eq(at.name, "walk");
    ck_assert_int_eq(at.where.line, 6);
    ck_assert_int_eq(at.where.column, 15);
    ck_assert_int_eq(at.where.end_column, 20);
    ck_assert_str_eq(at.tree_name, "t");
    ck_assert_int_eq(at.tree, 1);
    ck_assert_int_gt(at.node, 0);
    ck_assert_int_eq(at.value, (1 << 16) | at.node);
    ck_assert_int_eq(at.is_leaf, 1);
    ck_assert_str_eq(at.node_path, "root/group/walk");
    ck_assert_uint_eq(at.parse_flags, 0);
    ck_assert_uint_eq(at.sync_flags, ATRC_FLAG_LOOPSYNC); /* in group's loopsync group */
    ck_assert_ptr_nonnull(at.reason);
    ck_assert_ptr_nonnull(strstr(at.reason, "why:"));
    ck_assert_ptr_nonnull(strstr(at.reason, "pruning: with nothing pruned it would be node"));
    /* word for word --explain's "why:" and "pruning:" lines, joined */
    FILE *ex = tmpfile();
    ck_assert_ptr_nonnull(ex);
    ck_assert_int_eq(atrc_explain(ctx, (uint32_t)at.value, ATRC_FORMAT_TEXT, ex, NULL), 0);
    rewind(ex);
    char line[1024], want[2048] = "";
    while (fgets(line, sizeof line, ex)) {
        line[strcspn(line, "\n")] = 0;
        if (strncmp(line, "  why: ", 7) == 0 || strncmp(line, "  pruning: ", 11) == 0) {
            if (want[0]) strcat(want, "\n");
            strcat(want, line + 2);
        }
    }
    fclose(ex);
    ck_assert_str_eq(at.reason, want);
    /* the column just past the name is not on it */
    atrc_at past;
    ck_assert_int_eq(atrc_lookup(ctx, a_path, 6, 20, &past), 0);
    ck_assert_int_eq(past.kind, ATRC_AT_NONE);
    /* definition: the node's line in the .atr */
    atrc_location def;
    ck_assert_int_eq(atrc_definition(ctx, &at, &def), 1);
    ck_assert_str_eq(def.path, atr_path);
    ck_assert_int_eq(def.line, 4);
    ck_assert_int_eq(def.column, 2);
    ck_assert_int_eq(def.end_column, 6);
    /* references, from the .atr node */
    atrc_at node;
    ck_assert_int_eq(atrc_lookup(ctx, atr_path, 4, 3, &node), 1);
    ck_assert_int_eq(node.kind, ATRC_AT_NODE);
    ck_assert_int_eq(node.node, at.node);
    atrc_location refs[4];
    ck_assert_uint_eq(atrc_references(ctx, &node, refs, 4), 1);
    ck_assert_int_eq(refs[0].line, 6);
    ck_assert_int_eq(refs[0].column, 15);
    ck_assert_uint_eq(atrc_references(ctx, &node, refs, 0), 1);
    /* a node pruning removed */
    ck_assert_int_eq(atrc_lookup(ctx, atr_path, 1, 2, &node), 1);
    ck_assert_int_eq(node.kind, ATRC_AT_NODE);
    ck_assert_int_eq(node.node, -1);
    ck_assert_int_eq(node.value, -1);
    ck_assert_int_eq(node.is_leaf, 1);
    ck_assert_str_eq(node.node_path, "root/idle");
    ck_assert_ptr_nonnull(strstr(node.reason, "pruned"));
    ck_assert_uint_eq(atrc_references(ctx, &node, refs, 4), 0);
    ck_assert_int_eq(atrc_definition(ctx, &node, &def), 0);
    /* a group */
    ck_assert_int_eq(atrc_lookup(ctx, atr_path, 2, 1, &node), 1);
    ck_assert_int_eq(node.is_leaf, 0);
    ck_assert_uint_eq(node.parse_flags & ATRC_FLAG_LOOPSYNC, ATRC_FLAG_LOOPSYNC);
    ck_assert_uint_eq(atrc_references(ctx, &node, refs, 4), 0);
}
END_TEST

START_TEST(tree_directives)
{
    atrc_at at;
    ck_assert_int_eq(atrc_lookup(ctx, a_path, 7, 7, &at), 1);
    ck_assert_int_eq(at.kind, ATRC_AT_ANIMTREE);
    ck_assert_int_eq(at.tree, 1);
    ck_assert_int_eq(at.value, 1);
    ck_assert_int_eq(atrc_lookup(ctx, a_path, 2, 18, &at), 1); /* inside "t" */
    ck_assert_int_eq(at.kind, ATRC_AT_USING_ANIMTREE);
    ck_assert_str_eq(at.tree_name, "t");
    ck_assert_int_gt(at.node_count, 0);
    ck_assert_int_ge(at.node_total, at.node_count);
    ck_assert_ptr_nonnull(at.tree_file);
    atrc_location def;
    ck_assert_int_eq(atrc_definition(ctx, &at, &def), 1);
    ck_assert_str_eq(def.path, atr_path);
    ck_assert_int_eq(def.line, 1);
    ck_assert_int_eq(atrc_lookup(ctx, a_path, 2, 1, &at), 1); /* the directive itself */
    ck_assert_int_eq(at.kind, ATRC_AT_USING_ANIMTREE);
}
END_TEST

START_TEST(calls_and_includes)
{
    atrc_at at;
    atrc_location def;
    ck_assert_int_eq(atrc_lookup(ctx, a_path, 8, 3, &at), 1);
    ck_assert_int_eq(at.kind, ATRC_AT_CALL);
    ck_assert_str_eq(at.name, "helper");
    ck_assert_str_eq(at.signature, "helper(a, b)");
    ck_assert_int_eq(atrc_definition(ctx, &at, &def), 1);
    ck_assert_str_eq(def.path, lib_path);
    ck_assert_int_eq(def.line, 1);
    ck_assert_int_eq(def.column, 1);
    ck_assert_int_eq(def.end_column, 7);
    /* path::f: the function, and the path */
    ck_assert_int_eq(atrc_lookup(ctx, a_path, 9, 13, &at), 1);
    ck_assert_int_eq(at.kind, ATRC_AT_CALL);
    ck_assert_str_eq(at.path, "maps/_lib");
    ck_assert_int_eq(atrc_definition(ctx, &at, &def), 1);
    ck_assert_str_eq(def.path, lib_path);
    ck_assert_int_eq(atrc_lookup(ctx, a_path, 9, 4, &at), 1);
    ck_assert_int_eq(at.kind, ATRC_AT_INCLUDE);
    ck_assert_int_eq(at.where.column, 2);
    ck_assert_int_eq(at.where.end_column, 11);
    ck_assert_int_eq(atrc_definition(ctx, &at, &def), 1);
    ck_assert_str_eq(def.path, lib_path);
    /* #include's path */
    ck_assert_int_eq(atrc_lookup(ctx, a_path, 1, 12, &at), 1);
    ck_assert_int_eq(at.kind, ATRC_AT_INCLUDE);
    ck_assert_str_eq(at.path, "maps/_lib");
    /* ::f */
    ck_assert_int_eq(atrc_lookup(ctx, a_path, 10, 9, &at), 1);
    ck_assert_int_eq(at.kind, ATRC_AT_CALL);
    ck_assert_str_eq(at.name, "main");
    ck_assert_int_eq(atrc_definition(ctx, &at, &def), 1);
    ck_assert_str_eq(def.path, a_path);
    ck_assert_int_eq(def.line, 4);
    /* a function's own name */
    ck_assert_int_eq(atrc_lookup(ctx, a_path, 4, 1, &at), 1);
    ck_assert_int_eq(at.kind, ATRC_AT_FUNCTION);
    ck_assert_str_eq(at.signature, "main()");
    /* a builtin: which list has it */
    ck_assert_int_eq(atrc_lookup(ctx, a_path, 11, 7, &at), 1);
    ck_assert_int_eq(at.kind, ATRC_AT_CALL);
    ck_assert_ptr_nonnull(at.builtin_list);
    ck_assert_str_eq(at.builtin_list, "stock cod2 multiplayer");
    ck_assert_int_eq(atrc_definition(ctx, &at, &def), 0);
    /* nothing: whitespace, a comment, a file the compilation did not read */
    ck_assert_int_eq(atrc_lookup(ctx, a_path, 5, 1, &at), 0);
    ck_assert_int_eq(atrc_lookup(ctx, a_path, 3, 5, &at), 0);
    ck_assert_int_eq(atrc_lookup(ctx, "/nonexistent/x.gsc", 1, 1, &at), 0);
}
END_TEST

static int has(const atrc_completion *c, size_t n, const char *label, atrc_completion_kind kind)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(c[i].label, label) == 0 && c[i].kind == kind) return 1;
    return 0;
}

START_TEST(completion)
{
    size_t n;
    int start;
    /* after '%': the tree in scope's nodes, in tree order */
    const atrc_completion *c = atrc_complete(ctx, a_path, 12, 8, &n, &start);
    ck_assert_uint_ge(n, 3);
    ck_assert_int_eq(start, 7);
    ck_assert_str_eq(c[0].label, "group");
    ck_assert_int_eq(c[0].kind, ATRC_COMPLETE_GROUP);
    ck_assert(has(c, n, "walk", ATRC_COMPLETE_LEAF));
    ck_assert(has(c, n, "run", ATRC_COMPLETE_LEAF));
    ck_assert_ptr_nonnull(strstr(c[0].detail, "t[1] node"));
    /* after path:: that file's functions */
    c = atrc_complete(ctx, a_path, 9, 13, &n, &start);
    ck_assert_uint_eq(n, 1);
    ck_assert_str_eq(c[0].label, "helper");
    ck_assert_int_eq(start, 13);
    /* elsewhere: the file's, its includes' functions and the builtins */
    c = atrc_complete(ctx, a_path, 11, 8, &n, &start);
    ck_assert(has(c, n, "main", ATRC_COMPLETE_FUNCTION));
    ck_assert(has(c, n, "helper", ATRC_COMPLETE_FUNCTION));
    ck_assert(has(c, n, "gettime", ATRC_COMPLETE_BUILTIN_FUNCTION));
    ck_assert_int_eq(start, 6);
    /* inside #using_animtree(" the trees on the search path */
    c = atrc_complete(ctx, a_path, 2, 18, &n, &start);
    ck_assert_uint_eq(n, 1);
    ck_assert_str_eq(c[0].label, "t");
    ck_assert_int_eq(c[0].kind, ATRC_COMPLETE_TREE);
}
END_TEST

START_TEST(symbols)
{
    size_t n;
    const atrc_symbol *s = atrc_symbols(ctx, a_path, &n);
    ck_assert_uint_eq(n, 1);
    ck_assert_str_eq(s[0].name, "main");
    ck_assert_int_eq(s[0].is_function, 1);
    ck_assert_int_eq(s[0].where.line, 4);
    ck_assert_int_eq(s[0].extent.end_line, 13);
    ck_assert_int_eq(s[0].extent.end_column, 2);
    /* the .atr's outline: every node as declared, the pruned one too */
    s = atrc_symbols(ctx, atr_path, &n);
    ck_assert_uint_eq(n, 4);
    ck_assert_str_eq(s[0].name, "idle");
    ck_assert_int_eq(s[0].depth, 0);
    ck_assert_int_eq(s[0].is_leaf, 1);
    ck_assert_str_eq(s[1].name, "group");
    ck_assert_int_eq(s[1].depth, 0);
    ck_assert_int_eq(s[1].is_leaf, 0);
    ck_assert_str_eq(s[2].name, "walk");
    ck_assert_int_eq(s[2].depth, 1);
    ck_assert_int_eq(s[2].is_leaf, 1);
    ck_assert_int_eq(s[2].where.line, 4);
    ck_assert_int_eq(s[2].where.column, 2);
    ck_assert_str_eq(s[3].name, "run");
    /* the files read, and their text */
    ck_assert_uint_ge(atrc_file_count(ctx), 3);
    size_t len;
    const char *text = atrc_source_text(ctx, a_path, &len);
    ck_assert_ptr_nonnull(text);
    ck_assert_uint_eq(len, strlen(a_text));
    ck_assert_ptr_null(atrc_source_text(ctx, "/nonexistent/x.gsc", &len));
}
END_TEST

/* Positions anywhere, files unknown, NULLs: empty answers, never a crash. */
START_TEST(odd_positions)
{
    static const int lines[] = {-1, 0, 1, 6, 13, 14, 1000000};
    static const int cols[] = {-7, 0, 1, 2, 15, 200, 2000000000};
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++)
        for (size_t k = 0; k < sizeof cols / sizeof *cols; k++) {
            atrc_at at;
            size_t n;
            int start;
            const char *files[] = {a_path, atr_path, lib_path};
            for (size_t f = 0; f < 3; f++) {
                atrc_lookup(ctx, files[f], lines[i], cols[k], &at);
                atrc_complete(ctx, files[f], lines[i], cols[k], &n, &start);
            }
        }
    atrc_at at;
    size_t n;
    ck_assert_int_eq(atrc_lookup(ctx, NULL, 1, 1, &at), 0);
    ck_assert_int_eq(atrc_lookup(NULL, a_path, 1, 1, &at), 0);
    ck_assert_ptr_null(atrc_complete(ctx, "nowhere.gsc", 1, 1, &n, NULL));
    ck_assert_uint_eq(n, 0);
    ck_assert_ptr_null(atrc_symbols(ctx, "nowhere.gsc", &n));
    atrc_location def;
    ck_assert_int_eq(atrc_definition(ctx, &at, &def), 0); /* at is ATRC_AT_NONE */
    ck_assert_uint_eq(atrc_references(ctx, &at, &def, 1), 0);
}
END_TEST

Suite *make_lookup_suite(void)
{
    Suite *s = suite_create("lookup");
    TCase *tc = tcase_create("lookup");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_posix_test(tc, anim_reference, "paths and temporary directories are POSIX here");
    tcase_add_posix_test(tc, tree_directives, "paths and temporary directories are POSIX here");
    tcase_add_posix_test(tc, calls_and_includes, "paths and temporary directories are POSIX here");
    tcase_add_posix_test(tc, completion, "paths and temporary directories are POSIX here");
    tcase_add_posix_test(tc, symbols, "paths and temporary directories are POSIX here");
    tcase_add_posix_test(tc, odd_positions, "paths and temporary directories are POSIX here");
    suite_add_tcase(s, tc);
    return s;
}
