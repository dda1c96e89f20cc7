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
    "}\n"
    "// \\maps\\\\_lib::\n";                  /* 14: a path written with empty components */

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
    ck_assert_int_eq(at.has_time, 1);
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
    ck_assert_int_eq(node.has_time, -1); /* pruned: no built node */
    ck_assert_ptr_nonnull(strstr(node.reason, "pruned"));
    ck_assert_uint_eq(atrc_references(ctx, &node, refs, 4), 0);
    ck_assert_int_eq(atrc_definition(ctx, &node, &def), 0);
    /* a group */
    ck_assert_int_eq(atrc_lookup(ctx, atr_path, 2, 1, &node), 1);
    ck_assert_int_eq(node.is_leaf, 0);
    ck_assert_uint_eq(node.parse_flags & ATRC_FLAG_LOOPSYNC, ATRC_FLAG_LOOPSYNC);
    ck_assert_int_eq(node.has_time, 1);
    ck_assert_uint_eq(atrc_references(ctx, &node, refs, 4), 0);
}
END_TEST

/* What the run-time checks know of a %name: a blend group has no time, a
** group inside a sync group has its group's, a leaf always has time. */
START_TEST(anim_time)
{
    put_game_file(dir, "animtrees/b.atr", "body\n{\n\tidle\n}\nsync : loopsync\n{\n\tgrp\n\t{\n\t\tleaf\n\t}\n}\n");
    put_game_file(dir, "maps/b.gsc", "#using_animtree(\"b\");\nf()\n{\n\ta = %body; b = %grp; c = %idle;\n}\n");
    char b_path[256];
    snprintf(b_path, sizeof b_path, "%s/maps/b.gsc", dir);
    atrc_options o = {0};
    o.profile = ATRC_PROFILE_COD4;
    o.no_xanim = 1;
    atrc_ctx *c = atrc_new(&o);
    atrc_add_game_dir(c, dir);
    atrc_add_script(c, b_path);
    atrc_build_trees(c);
    ck_assert_int_eq(atrc_error_count(c), 0);
    static const struct { int col, leaf, has_time; } want[] = {{6, 0, 0}, {17, 0, 1}, {27, 1, 1}}; /* the %s of %body, %grp, %idle */
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        atrc_at at;
        ck_assert_msg(atrc_lookup(c, b_path, 4, want[i].col, &at) == 1, "column %d", want[i].col);
        ck_assert_int_eq(at.kind, ATRC_AT_ANIM);
        ck_assert_int_eq(at.is_leaf, want[i].leaf);
        ck_assert_int_eq(at.has_time, want[i].has_time);
    }
    atrc_free(c);
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
    ck_assert_ptr_nonnull(strstr(c[0].detail, "t[1] node 1 = 0x00010001"));
    /* then the names pruning removed (no reference keeps them), as declared */
    ck_assert_uint_eq(n, 4);
    ck_assert_str_eq(c[3].label, "idle");
    ck_assert_int_eq(c[3].kind, ATRC_COMPLETE_LEAF);
    ck_assert_str_eq(c[3].detail, "not referenced yet: adding it keeps it");
    /* the tree's names are listed once per compilation: the same details
    ** again (formatting them per request also grew the context's memory) */
    const char *first_detail = c[0].detail;
    for (int k = 0; k < 3; k++) {
        c = atrc_complete(ctx, a_path, 12, 8, &n, &start);
        ck_assert_uint_eq(n, 4);
        ck_assert_ptr_eq(c[0].detail, first_detail);
    }
    /* after path:: that file's functions */
    c = atrc_complete(ctx, a_path, 9, 13, &n, &start);
    ck_assert_uint_eq(n, 1);
    ck_assert_str_eq(c[0].label, "helper");
    ck_assert_int_eq(start, 13);
    /* the path canonical as the compiler makes it: leading and repeated
    ** separators dropped (the editor's own rule kept them and found nothing) */
    c = atrc_complete(ctx, a_path, 14, 17, &n, &start);
    ck_assert_uint_eq(n, 1);
    ck_assert_str_eq(c[0].label, "helper");
    ck_assert_int_eq(start, 17);
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

/* Functions across files: every call site (f(), path::f) of a definition,
** from a call or from the definition. */
START_TEST(function_references)
{
    atrc_at at;
    atrc_location refs[4];
    ck_assert_int_eq(atrc_lookup(ctx, a_path, 8, 3, &at), 1);
    ck_assert_uint_eq(atrc_references(ctx, &at, refs, 4), 2);
    ck_assert_str_eq(refs[0].path, a_path);
    ck_assert_int_eq(refs[0].line, 8);
    ck_assert_int_eq(refs[0].column, 2);
    ck_assert_int_eq(refs[0].end_column, 8);
    ck_assert_int_eq(refs[1].line, 9);
    ck_assert_int_eq(refs[1].column, 13);
    ck_assert_int_eq(atrc_lookup(ctx, lib_path, 1, 2, &at), 1);
    ck_assert_int_eq(at.kind, ATRC_AT_FUNCTION);
    ck_assert_uint_eq(atrc_references(ctx, &at, refs, 1), 2); /* the count beyond max */
    /* ::main is a use of main */
    ck_assert_int_eq(atrc_lookup(ctx, a_path, 4, 1, &at), 1);
    ck_assert_uint_eq(atrc_references(ctx, &at, refs, 4), 1);
    ck_assert_int_eq(refs[0].line, 10);
}
END_TEST

/* Parameters and locals: what they are, their first place, their uses. */
START_TEST(locals)
{
    atrc_at at;
    atrc_location def, refs[4];
    ck_assert_int_eq(atrc_lookup(ctx, a_path, 6, 11, &at), 1); /* x, after non-ASCII text */
    ck_assert_int_eq(at.kind, ATRC_AT_LOCAL);
    ck_assert_str_eq(at.name, "x");
    ck_assert_str_eq(at.signature, "main()");
    ck_assert_int_eq(at.local_param, 0);
    ck_assert_int_eq(atrc_definition(ctx, &at, &def), 1);
    ck_assert_int_eq(def.line, 6);
    ck_assert_int_eq(def.column, 11);
    ck_assert_uint_eq(atrc_references(ctx, &at, refs, 4), 1);
    ck_assert_int_eq(atrc_lookup(ctx, lib_path, 1, 8, &at), 1); /* helper(a, b): a */
    ck_assert_int_eq(at.kind, ATRC_AT_LOCAL);
    ck_assert_int_eq(at.local_param, 1);
    ck_assert_str_eq(at.signature, "helper(a, b)");
    /* a field (.x), a called name and a path::'s function are no locals */
    size_t n;
    int start;
    const atrc_completion *c = atrc_complete(ctx, a_path, 11, 2, &n, &start);
    ck_assert_uint_ge(n, 5);
    ck_assert_int_eq(c[0].kind, ATRC_COMPLETE_LOCAL);
    ck_assert_str_eq(c[0].label, "x");
    ck_assert_str_eq(c[0].detail, "local of main()");
    ck_assert(has(c, n, "f", ATRC_COMPLETE_LOCAL));
    ck_assert(has(c, n, "w", ATRC_COMPLETE_LOCAL));
    ck_assert(!has(c, n, "helper", ATRC_COMPLETE_LOCAL));
    ck_assert(!has(c, n, "z", ATRC_COMPLETE_LOCAL)); /* the word being typed */
}
END_TEST

START_TEST(signatures_symbols_folds)
{
    atrc_signature sig;
    ck_assert_int_eq(atrc_signature_help(ctx, a_path, 8, 9, &sig), 1); /* helper(|1, 2) */
    ck_assert_str_eq(sig.label, "helper(a, b)");
    ck_assert_uint_eq(sig.param_count, 2);
    ck_assert_str_eq(sig.params[0], "a");
    ck_assert_str_eq(sig.params[1], "b");
    ck_assert_int_eq(sig.active, 0);
    ck_assert_int_eq(atrc_signature_help(ctx, a_path, 9, 24, &sig), 1); /* maps\_lib::helper(1, |2) */
    ck_assert_int_eq(sig.active, 1);
    ck_assert_int_eq(atrc_signature_help(ctx, a_path, 7, 3, &sig), 0);
    size_t n;
    const atrc_symbol *y = atrc_workspace_symbols(ctx, "", &n);
    ck_assert_uint_eq(n, 2);
    y = atrc_workspace_symbols(ctx, "HELP", &n);
    ck_assert_uint_eq(n, 1);
    ck_assert_str_eq(y[0].name, "helper");
    ck_assert_str_eq(y[0].where.path, lib_path);
    const atrc_fold *d = atrc_folds(ctx, a_path, &n);
    ck_assert_uint_eq(n, 1);
    ck_assert_int_eq(d[0].start_line, 5);
    ck_assert_int_eq(d[0].end_line, 13);
    const atrc_anim_site *a = atrc_anim_sites(ctx, a_path, &n);
    ck_assert_uint_eq(n, 2);
    ck_assert_int_eq(a[0].where.line, 6);
    ck_assert_int_eq(a[0].is_leaf, 1);
    ck_assert_int_eq(a[1].where.line, 12);
    ck_assert_int_eq(a[1].value >> 16, 1);
}
END_TEST

/* A cod4 file list of one script, name, written with text into the game
** directory (its path into path), compiled. */
static atrc_ctx *compile_one(const char *name, const char *text, char *path, size_t size)
{
    snprintf(path, size, "%s/%s", dir, name);
    put_game_file(dir, name, text);
    atrc_options o = {0};
    o.profile = ATRC_PROFILE_COD4;
    o.no_xanim = 1;
    atrc_ctx *b = atrc_new(&o);
    atrc_add_game_dir(b, dir);
    atrc_add_script(b, path);
    atrc_build_trees(b);
    return b;
}

/* A name declared twice in one group, which the engine accepts while
** pruning drops one of them (the stock cod4 generic_human.atr): completion
** still offers every declared name, the outline lists every node. */
START_TEST(completion_with_a_pruned_duplicate)
{
    char path[300];
    put_game_file(dir, "animtrees/d.atr", "kept\ngroup\n{\n\ttwice\n\ttwice\n}\nlast\n");
    atrc_ctx *b = compile_one("d.gsc", "#using_animtree(\"d\");\nf()\n{\n\tx = %kept;\n}\n", path, sizeof path);
    ck_assert_uint_eq(atrc_diagnostic_count(b), 0);
    size_t n;
    int start;
    const atrc_completion *c = atrc_complete(b, path, 4, 7, &n, &start);
    ck_assert_uint_eq(n, 5);
    ck_assert_str_eq(c[0].label, "kept");
    ck_assert_str_eq(c[1].label, "group");
    ck_assert_str_eq(c[2].label, "twice");
    ck_assert_str_eq(c[3].label, "twice");
    ck_assert_str_eq(c[4].label, "last");
    ck_assert_str_eq(c[4].detail, "not referenced yet: adding it keeps it");
    char atr[300];
    snprintf(atr, sizeof atr, "%s/animtrees/d.atr", dir);
    atrc_symbols(b, atr, &n);
    ck_assert_uint_eq(n, 5);
    atrc_free(b);
}
END_TEST

/* The animation builtins' arguments (runtime-anim.md 1), in a call left
** unclosed as while typing; a %name that does not resolve. */
START_TEST(builtin_signature)
{
    char path[300];
    atrc_ctx *b = compile_one("b.gsc", "#using_animtree(\"t\");\nf()\n{\n\ty = %nowhere;\n\tself setanimknob(%walk, 1, \n\tx = 2;\n}\n",
                              path, sizeof path);
    atrc_signature sig;
    ck_assert_int_eq(atrc_signature_help(b, path, 5, 29, &sig), 1);
    ck_assert_str_eq(sig.label, "setanimknob(anim, weight, goaltime, rate)");
    ck_assert_uint_eq(sig.param_count, 4);
    ck_assert_str_eq(sig.param_docs[0], "an anim (%name) of the receiver's tree");
    ck_assert_str_eq(sig.param_docs[1], "a number");
    ck_assert_int_eq(sig.active, 2);
    ck_assert_str_eq(sig.doc, "builtin method: 1 to 4 arguments");
    size_t n;
    const atrc_anim_site *a = atrc_anim_sites(b, path, &n);
    ck_assert_uint_eq(n, 1);
    ck_assert_int_eq(a[0].value, -1);
    ck_assert_int_eq(a[0].is_leaf, -1);
    atrc_free(b);
}
END_TEST

/* A script of a file list has its text dropped once parsed: a %name is
** still found from any column of it, not only from its '%', with its whole
** token as the range (the text is read again for the query). */
START_TEST(released_script_anywhere_on_a_name)
{
    char path[300];
    atrc_ctx *b = compile_one("r.gsc", "#using_animtree(\"t\");\nf()\n{\n\tx = %walk;\n}\n", path, sizeof path);
    ck_assert_uint_eq(atrc_diagnostic_count(b), 0);
    for (int col = 6; col <= 10; col++) { /* '%' to 'k' */
        atrc_at at;
        ck_assert_int_eq(atrc_lookup(b, path, 4, col, &at), 1);
        ck_assert_int_eq(at.kind, ATRC_AT_ANIM);
        ck_assert_str_eq(at.name, "walk");
        ck_assert_int_eq(at.where.column, 6);
        ck_assert_int_eq(at.where.end_column, 11);
    }
    atrc_at at;
    ck_assert_int_eq(atrc_lookup(b, path, 4, 11, &at), 0); /* the ';' after it */
    atrc_free(b);
}
END_TEST

/* The name of a %name is no local variable: not offered as one, and on a
** statement that did not parse (no reference) hover finds nothing there. */
START_TEST(anim_names_are_no_locals)
{
    char path[300];
    atrc_ctx *b = compile_one("n.gsc", "#using_animtree(\"t\");\nf()\n{\n\tx = %walk;\n\tself setanim(%run\n\t\n}\n",
                              path, sizeof path);
    size_t n;
    int start;
    const atrc_completion *c = atrc_complete(b, path, 6, 2, &n, &start);
    int x = 0;
    for (size_t i = 0; i < n; i++) {
        if (c[i].kind != ATRC_COMPLETE_LOCAL) continue;
        ck_assert_msg(strcmp(c[i].label, "walk") != 0 && strcmp(c[i].label, "run") != 0, "%s offered as a local",
                      c[i].label);
        x += strcmp(c[i].label, "x") == 0;
    }
    ck_assert_int_eq(x, 1);
    atrc_at at;
    ck_assert_int_eq(atrc_lookup(b, path, 5, 17, &at), 0); /* 'r' of %run, in the statement in error */
    atrc_free(b);
}
END_TEST

Suite *make_lookup_suite(void)
{
    Suite *s = suite_create("lookup");
    TCase *tc = tcase_create("lookup");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_posix_test(tc, anim_reference, "paths and temporary directories are POSIX here");
    tcase_add_posix_test(tc, anim_time, "paths and temporary directories are POSIX here");
    tcase_add_posix_test(tc, tree_directives, "paths and temporary directories are POSIX here");
    tcase_add_posix_test(tc, calls_and_includes, "paths and temporary directories are POSIX here");
    tcase_add_posix_test(tc, completion, "paths and temporary directories are POSIX here");
    tcase_add_posix_test(tc, symbols, "paths and temporary directories are POSIX here");
    tcase_add_posix_test(tc, odd_positions, "paths and temporary directories are POSIX here");
    tcase_add_posix_test(tc, function_references, "paths and temporary directories are POSIX here");
    tcase_add_posix_test(tc, locals, "paths and temporary directories are POSIX here");
    tcase_add_posix_test(tc, signatures_symbols_folds, "paths and temporary directories are POSIX here");
    tcase_add_posix_test(tc, builtin_signature, "paths and temporary directories are POSIX here");
    tcase_add_posix_test(tc, completion_with_a_pruned_duplicate, "paths and temporary directories are POSIX here");
    tcase_add_posix_test(tc, released_script_anywhere_on_a_name, "paths and temporary directories are POSIX here");
    tcase_add_posix_test(tc, anim_names_are_no_locals, "paths and temporary directories are POSIX here");
    suite_add_tcase(s, tc);
    return s;
}
