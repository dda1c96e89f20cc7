/* Output: JSON stays valid whatever bytes paths and messages hold, and the
** text and --explain views say what users rely on. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atrc.h"

static char *emit_to_string(atrc_ctx *ctx, atrc_format format, int show_trees)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(fp);
    ck_assert_int_eq(atrc_emit(ctx, format, show_trees, fp), 0);
    fclose(fp);
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
                                       "\"line\": 1, \"column\": 11, \"kind\": \"anim\", \"tree\": null, "
                                       "\"name\": \"x\", \"value\": null}\n  ]"));
    ck_assert_ptr_nonnull(strstr(json, "\"message\": \"#using_animtree was not specified\"}"));
    ck_assert_ptr_nonnull(strstr(json, "\"trees\": [],"));
    free(json);
    atrc_free(ctx);
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
    FILE *fp = open_memstream(&buf, &len);
    ck_assert_int_eq(atrc_explain(NULL, 0x0003002Au, fp), 0);
    fclose(fp);
    ck_assert_str_eq(buf, "0x0003002a = 196650 = (3 << 16) | 42\n"
                          "  tree index: 3 (value >> 16)\n"
                          "  node index: 42 (value & 0xffff)\n");
    free(buf);
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
    tcase_add_test(tc, json_empty_run_is_complete_document);
    tcase_add_test(tc, explain_without_trees_decodes_bits);
    tcase_add_test(tc, text_marks_unresolved_and_treeless_references);
    suite_add_tcase(s, tc);
    return s;
}
