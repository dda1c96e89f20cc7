/* Output: JSON stays valid whatever bytes paths and messages hold, and the
** text and --explain views say what users rely on. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atrc.h"
#include "os/os.h"

static char *emit_to_string(atrc_ctx *ctx, atrc_format format, int show_trees)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = os_memstream_open(&buf, &len);
    ck_assert_ptr_nonnull(fp);
    ck_assert_int_eq(atrc_emit(ctx, format, show_trees, fp), 0);
    os_memstream_close(fp, &buf, &len);
    return buf;
}

START_TEST(json_escapes_paths_and_invalid_utf8)
{
    atrc_options o = {0};
    atrc_ctx *ctx = atrc_new(&o);
    const char *script = "f() { a = %x; }\n";
    /* A path with a quote, a backslash, a control byte, valid UTF-8 and a lone 0xff. */
    atrc_add_script_buffer(ctx, "d\"i\\r\x01/\xc3\xa9t\xff.gsc", script, strlen(script));
    atrc_build_trees(ctx);
    char *json = emit_to_string(ctx, ATRC_FORMAT_JSON, 0);
    ck_assert_ptr_nonnull(strstr(json, "\"references\": [\n    {\"file\": \"d\\\"i\\\\r\\u0001/\xc3\xa9t\\ufffd.gsc\", "
                                       "\"line\": 1, \"column\": 11, \"script\": \"d\\\"i/r\\u0001/\xc3\xa9t\\ufffd\", "
                                       "\"kind\": \"anim\", \"tree\": null, "
                                       "\"name\": \"x\", \"value\": null}\n  ]"));
    ck_assert_ptr_nonnull(strstr(json, "\"message\": \"#using_animtree was not specified\"}"));
    ck_assert_ptr_nonnull(strstr(json, "\"trees\": [],"));
    free(json);
    atrc_free(ctx);
}
END_TEST

/* Strings are scanned for bytes to escape 8 at a time: each such byte, at
** every place in and across those words of a long name, is escaped as alone. */
START_TEST(json_escapes_at_every_offset_of_a_long_string)
{
    static const char *const cases[][2] = {
        {"\"", "\\\""}, {"\\", "\\\\"}, {"\x01", "\\u0001"}, {"\x1f", "\\u001f"},
        {"\n", "\\n"},   {"\x7f", "\x7f"},   {"\xff", "\\ufffd"},  {"\xc3\xa9", "\xc3\xa9"},
    };
    const char *script = "f() { a = %x; }\n";
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        for (int at = 0; at <= 20; at++) {
            char path[64], want[96];
            snprintf(path, sizeof path, "%.*s%s%.*s.gsc", at, "abcdefghijklmnopqrstuvwxyz", cases[k][0],
                     20 - at, "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
            snprintf(want, sizeof want, "{\"file\": \"%.*s%s%.*s.gsc\", \"line\": 1", at,
                     "abcdefghijklmnopqrstuvwxyz", cases[k][1], 20 - at, "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
            atrc_options o = {0};
            atrc_ctx *ctx = atrc_new(&o);
            atrc_add_script_buffer(ctx, path, script, strlen(script));
            atrc_build_trees(ctx);
            char *json = emit_to_string(ctx, ATRC_FORMAT_JSON, 0);
            ck_assert_msg(strstr(json, want) != NULL, "case %zu at %d: %s", k, at, json);
            free(json);
            atrc_free(ctx);
        }
    }
}
END_TEST

START_TEST(json_empty_run_is_complete_document)
{
    atrc_options o = {0};
    o.profile = ATRC_PROFILE_COD4;
    atrc_ctx *ctx = atrc_new(&o);
    atrc_add_script_buffer(ctx, "e.gsc", "", 0);
    atrc_build_trees(ctx);
    char *json = emit_to_string(ctx, ATRC_FORMAT_JSON, 0);
    ck_assert_str_eq(json, "{\n  \"atrc\": 1,\n  \"profile\": \"cod4\",\n  \"trees\": [],\n"
                           "  \"references\": [],\n  \"diagnostics\": []\n}\n");
    free(json);
    atrc_free(ctx);
}
END_TEST

START_TEST(explain_without_trees_decodes_bits)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = os_memstream_open(&buf, &len);
    ck_assert_int_eq(atrc_explain(NULL, 0x0003002Au, ATRC_FORMAT_TEXT, fp, stderr), 0);
    os_memstream_close(fp, &buf, &len);
    ck_assert_str_eq(buf, "0x0003002a = 196650 = (3 << 16) | 42\n"
                          "  tree index: 3 (value >> 16)\n"
                          "  node index: 42 (value & 0xffff)\n");
    free(buf);
}
END_TEST

START_TEST(explain_json_and_reason_for_nothing)
{
    char *buf = NULL, *ebuf = NULL;
    size_t len = 0, elen = 0;
    FILE *fp = os_memstream_open(&buf, &len), *err = os_memstream_open(&ebuf, &elen);
    ck_assert_int_eq(atrc_explain(NULL, 0x0003002Au, ATRC_FORMAT_JSON, fp, err), 0);
    ck_assert_int_eq(atrc_explain(NULL, 7, ATRC_FORMAT_JSON, fp, err), -1);
    os_memstream_close(fp, &buf, &len);
    os_memstream_close(err, &ebuf, &elen);
    ck_assert_str_eq(buf, "{\"atrc_explain\": 1, \"value\": 196650, \"tree_index\": 3, \"node_index\": 42, "
                          "\"tree\": null, \"path\": null, \"kind\": null, \"error\": null}\n"
                          "{\"atrc_explain\": 1, \"value\": 7, \"tree_index\": 0, \"node_index\": 7, "
                          "\"tree\": null, \"path\": null, \"kind\": null, \"error\": "
                          "\"registry index 0 is never used: no reference packs to it\"}\n");
    ck_assert_str_eq(ebuf, "atrc: error: 0x00000007 names no animation: registry index 0 is never used: "
                           "no reference packs to it\n");
    free(buf);
    free(ebuf);
}
END_TEST

static char *diagnostics_to_string(atrc_ctx *ctx, const atrc_diag_style *style)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = os_memstream_open(&buf, &len);
    ck_assert_ptr_nonnull(fp);
    ck_assert_int_eq(atrc_write_diagnostics(ctx, style, fp), 0);
    os_memstream_close(fp, &buf, &len);
    return buf;
}

/* One error and one warning (cod2: a missing .atr is an error, uo a warning). */
static atrc_ctx *error_and_warning(const atrc_options *o)
{
    atrc_ctx *ctx = atrc_new(o);
    atrc_add_game_dir(ctx, "/nonexistent-atrc-dir");
    const char *script = "#using_animtree(\"gone\");\nf() { a = 1 @; }\n";
    atrc_add_script_buffer(ctx, "w.gsc", script, strlen(script));
    atrc_build_trees(ctx);
    return ctx;
}

START_TEST(diagnostics_summary_is_plain_english)
{
    atrc_options o = {0};
    atrc_ctx *ctx = error_and_warning(&o);
    char *text = diagnostics_to_string(ctx, NULL);
    ck_assert_str_eq(text, "w.gsc:2:13: error: stray '@'\n  f() { a = 1 @; }\n              ^\n"
                           "w.gsc:1:1: warning: unknown anim tree 'gone': no animtrees/gone.atr in the game "
                           "directories searched (/nonexistent-atrc-dir, with their archives)\n"
                           "  #using_animtree(\"gone\");\n  ^\n"
                           "1 error, 1 warning\n");
    free(text);
    atrc_diag_style quiet = {0, NULL, 1};
    text = diagnostics_to_string(ctx, &quiet);
    ck_assert_ptr_null(strstr(text, "1 error"));
    free(text);
    atrc_free(ctx);
}
END_TEST

START_TEST(diagnostics_in_gcc_colours)
{
    atrc_options o = {0};
    atrc_ctx *ctx = error_and_warning(&o);
    atrc_diag_style style = {1, NULL, 0};
    char *text = diagnostics_to_string(ctx, &style);
    ck_assert_str_eq(text, "\033[01m\033[Kw.gsc:2:13:\033[m\033[K \033[01;31m\033[Kerror:\033[m\033[K stray '@'\n"
                           "  f() { a = 1 @; }\n              \033[01;32m\033[K^\033[m\033[K\n"
                           "\033[01m\033[Kw.gsc:1:1:\033[m\033[K \033[01;35m\033[Kwarning:\033[m\033[K "
                           "unknown anim tree 'gone': no animtrees/gone.atr in the game directories searched "
                           "(/nonexistent-atrc-dir, with their archives)\n"
                           "  #using_animtree(\"gone\");\n  \033[01;32m\033[K^\033[m\033[K\n"
                           "1 error, 1 warning\n");
    free(text);
    /* GCC_COLORS overrides some colours; "" turns colour off. */
    atrc_diag_style custom = {1, "error=04;33:locus=:bogus=1:warning=x", 0};
    text = diagnostics_to_string(ctx, &custom);
    ck_assert_ptr_nonnull(strstr(text, "w.gsc:2:13: \033[04;33m\033[Kerror:"));
    ck_assert_ptr_nonnull(strstr(text, "\033[01;35m\033[Kwarning:"));
    free(text);
    atrc_diag_style off = {1, "", 0};
    text = diagnostics_to_string(ctx, &off);
    ck_assert_ptr_null(strchr(text, '\033'));
    free(text);
    atrc_free(ctx);
}
END_TEST

START_TEST(warnings_as_errors_and_no_warnings)
{
    atrc_options o = {0};
    o.warnings_as_errors = 1;
    atrc_ctx *ctx = error_and_warning(&o);
    ck_assert_int_eq(atrc_error_count(ctx), 2);
    ck_assert_int_eq(atrc_warning_count(ctx), 0);
    char *text = diagnostics_to_string(ctx, NULL);
    ck_assert_ptr_nonnull(strstr(text, "w.gsc:1:1: error: unknown anim tree 'gone': no animtrees/gone.atr in the game "
                                       "directories searched (/nonexistent-atrc-dir, with their archives) [-Werror]\n"));
    ck_assert_ptr_nonnull(strstr(text, "2 errors, 0 warnings\n"));
    free(text);
    char *json = emit_to_string(ctx, ATRC_FORMAT_JSON, 0);
    ck_assert_ptr_nonnull(strstr(json, "{\"severity\": \"error\", \"file\": \"w.gsc\", \"line\": 1, \"column\": 1, "
                                       "\"end_line\": 1, \"end_column\": 16, \"code\": \"unknown-anim-tree\", "
                                       "\"message\": \"unknown anim tree 'gone': no animtrees/gone.atr in the game "
                                       "directories searched (/nonexistent-atrc-dir, with their archives)\"}"));
    free(json);
    atrc_free(ctx);

    atrc_options w = {0};
    w.no_warnings = 1;
    ctx = error_and_warning(&w);
    ck_assert_int_eq(atrc_error_count(ctx), 1);
    ck_assert_int_eq(atrc_warning_count(ctx), 0);
    text = diagnostics_to_string(ctx, NULL);
    ck_assert_ptr_null(strstr(text, "warning:"));
    ck_assert_ptr_nonnull(strstr(text, "1 error, 0 warnings\n"));
    free(text);
    atrc_free(ctx);
}
END_TEST

/* --max-errors: the cap is per file; negative means none. */
START_TEST(max_errors_per_file)
{
    const char *junk = "f() { @ @ @ @ @ }\n";
    for (int cap = -1; cap <= 3; cap++) {
        atrc_options o = {0};
        o.max_errors = cap;
        atrc_ctx *ctx = atrc_new(&o);
        atrc_add_script_buffer(ctx, "a.gsc", junk, strlen(junk));
        atrc_add_script_buffer(ctx, "b.gsc", junk, strlen(junk));
        int per_file = cap == 0 ? 5 : cap < 0 ? 5 : cap + 1; /* 0: the default 50 */
        ck_assert_int_eq(atrc_error_count(ctx), 2 * per_file);
        char *text = diagnostics_to_string(ctx, NULL);
        if (cap > 0) {
            char want[64];
            snprintf(want, sizeof want, "b.gsc:1:%d: error: too many errors in this file; stopping", 7 + 2 * cap);
            ck_assert_ptr_nonnull(strstr(text, want));
        } else {
            ck_assert_ptr_null(strstr(text, "too many"));
        }
        free(text);
        atrc_free(ctx);
    }
}
END_TEST

START_TEST(text_marks_unresolved_and_treeless_references)
{
    atrc_options o = {0};
    o.no_xanim = 1;
    atrc_ctx *ctx = atrc_new(&o);
    atrc_add_game_dir(ctx, "/nonexistent-atrc-dir");
    const char *script = "f() { a = %early; }\n#using_animtree(\"gone\");\ng() { b = %x; c = #animtree; }\n";
    atrc_add_script_buffer(ctx, "t.gsc", script, strlen(script));
    atrc_build_trees(ctx);
    char *text = emit_to_string(ctx, ATRC_FORMAT_TEXT, 1);
    ck_assert_str_eq(text, "tree 1 gone: not built (no .atr file found)\n"
                           "t.gsc:1:11: %early -> (no tree) unresolved\n"
                           "t.gsc:3:11: %x -> gone[1] unresolved\n"
                           "t.gsc:3:19: #animtree -> gone[1] = 1\n");
    free(text);
    atrc_free(ctx);
}
END_TEST

Suite *make_emit_suite(void)
{
    Suite *s = suite_create("emit");
    TCase *tc = tcase_create("output");
    tcase_add_test(tc, json_escapes_paths_and_invalid_utf8);
    tcase_add_test(tc, json_escapes_at_every_offset_of_a_long_string);
    tcase_add_test(tc, json_empty_run_is_complete_document);
    tcase_add_test(tc, explain_without_trees_decodes_bits);
    tcase_add_test(tc, explain_json_and_reason_for_nothing);
    tcase_add_test(tc, diagnostics_summary_is_plain_english);
    tcase_add_test(tc, diagnostics_in_gcc_colours);
    tcase_add_test(tc, warnings_as_errors_and_no_warnings);
    tcase_add_test(tc, max_errors_per_file);
    tcase_add_test(tc, text_marks_unresolved_and_treeless_references);
    suite_add_tcase(s, tc);
    return s;
}
