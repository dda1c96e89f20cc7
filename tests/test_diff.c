/* The JSON reader (every error located, every escape decoded) and
** `atrc diff` on small runs built in memory: the reason a node moved is what
** the engine's layout implies. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atrc.h"
#include "os/os.h"
#include "base/json_read.h"

/* Parses text; returns the error "OFFSET: MESSAGE" or "ok". */
static const char *parse_result(const char *text, char *buf, size_t size)
{
    arena a;
    arena_init(&a);
    json_error err;
    char *copy = strdup(text);
    json_value *v = json_parse(copy, strlen(copy), &a, &err);
    if (v) snprintf(buf, size, "ok");
    else snprintf(buf, size, "%zu: %s", err.offset, err.message);
    arena_free_all(&a);
    free(copy);
    return buf;
}

START_TEST(json_errors_are_located)
{
    static const char *const cases[][2] = {
        {"", "0: expected a value, found the end of the file"},
        {"  ", "2: expected a value, found the end of the file"},
        {"{\"a\" 1}", "5: expected ':' after an object key"},
        {"{\"a\": 1,}", "8: expected a string (an object key)"},
        {"[1, 2,]", "6: expected a value, found ']'"},
        {"[1 2]", "3: expected ',' or ']' after an array element"},
        {"01", "0: invalid number (no leading zeros)"},
        {"1.", "0: invalid number (digits expected after '.')"},
        {"1e+", "0: invalid number (digits expected in the exponent)"},
        {"-", "0: invalid number"},
        {"\"abc", "0: unterminated string"},
        {"\"a\tb\"", "2: control character 0x09 in a string (it must be escaped)"},
        {"\"\\x\"", "1: invalid escape in a string"},
        {"\"\\u12g4\"", "1: invalid \\u escape (four hex digits expected)"},
        {"\"\xc3\x28\"", "1: invalid UTF-8 byte 0xc3 in a string"},
        {"\"\xed\xa0\x80\"", "1: invalid UTF-8 byte 0xed in a string"},
        {"nul", "0: expected a value, found 'n'"},
        {"true false", "5: unexpected data after the JSON value"},
        {"NaN", "0: expected a value, found 'N'"},
        {"\x01", "0: expected a value, found byte 0x01"},
    };
    char buf[160];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        ck_assert_str_eq(parse_result(cases[i][0], buf, sizeof buf), cases[i][1]);
}
END_TEST

START_TEST(json_depth_is_bounded)
{
    char text[2 * JSON_MAX_DEPTH + 8], buf[160];
    memset(text, '[', JSON_MAX_DEPTH);
    memset(text + JSON_MAX_DEPTH, ']', JSON_MAX_DEPTH);
    text[2 * JSON_MAX_DEPTH] = 0;
    ck_assert_str_eq(parse_result(text, buf, sizeof buf), "ok");
    memmove(text + 1, text, 2 * JSON_MAX_DEPTH + 1);
    text[0] = '[';
    strcat(text, "]");
    ck_assert_str_eq(parse_result(text, buf, sizeof buf), "256: nesting too deep (max 256)");
}
END_TEST

START_TEST(json_values_decode)
{
    const char *original = "\xef\xbb\xbf {\"s\": \"a\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\\ud800x\\u0000y\", "
                       "\"n\": -42, \"f\": 1.5e3, \"big\": 99999999999999999999, \"e\": [], \"o\": {}, "
                       "\"t\": true, \"z\": null, \"s\": \"second\"}";
    char *text = strdup(original);
    arena a;
    arena_init(&a);
    json_error err;
    json_value *v = json_parse(text, strlen(text), &a, &err);
    ck_assert_ptr_nonnull(v);
    const json_value *s = json_get(v, "s");
    ck_assert_int_eq(s->type, JSON_STRING);
    static const char want[] = "a\"\\/\b\f\n\r\t\xc3\xa9\xf0\x9f\x98\x80\xef\xbf\xbdx\0y";
    ck_assert_uint_eq(s->u.string.len, sizeof want - 1);
    ck_assert(memcmp(s->u.string.s, want, sizeof want - 1) == 0);
    ck_assert_int_eq(json_get(v, "n")->u.number.is_int, 1);
    ck_assert(json_get(v, "n")->u.number.i == -42);
    ck_assert_int_eq(json_get(v, "f")->type, JSON_NUMBER);
    ck_assert_int_eq(json_get(v, "f")->u.number.is_int, 0);
    ck_assert_int_eq(json_get(v, "big")->u.number.is_int, 0);
    ck_assert_uint_eq(json_get(v, "e")->u.array.count, 0);
    ck_assert_int_eq(json_get(v, "o")->type, JSON_OBJECT);
    ck_assert_int_eq(json_get(v, "t")->type, JSON_TRUE);
    ck_assert_int_eq(json_get(v, "z")->type, JSON_NULL);
    ck_assert_ptr_null(json_get(v, "missing"));
    ck_assert_uint_eq(json_get(v, "o")->offset, (size_t)(strstr(original, "{}, \"t\"") - original));
    arena_free_all(&a);
    free(text);
}
END_TEST

/* A run with one tree whose nodes are "name:parent" specs, in index order. */
static char *run_json(const char *profile, const char *const *nodes, int count, const char *refs)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = os_memstream_open(&buf, &len);
    ck_assert_ptr_nonnull(fp);
    fprintf(fp, "{\"atrc\": 1, \"profile\": \"%s\", \"trees\": [{\"index\": 1, \"name\": \"t\", \"file\": \"t.atr\", "
                "\"checksum\": %d, \"nodes\": [", profile, count);
    for (int i = 0; i < count; i++) {
        char name[32];
        int parent;
        ck_assert_int_eq(sscanf(nodes[i], "%31[^:]:%d", name, &parent), 2);
        fprintf(fp, "%s{\"index\": %d, \"name\": \"%s\", \"parent\": ", i ? ", " : "", i, name);
        if (parent < 0) fputs("null", fp);
        else fprintf(fp, "%d", parent);
        fputs(", \"child_count\": 0}", fp);
    }
    fprintf(fp, "]}], \"references\": [%s], \"diagnostics\": []}", refs);
    os_memstream_close(fp, &buf, &len);
    return buf;
}

static int diff_text(const char *old, const char *new_, atrc_format fmt, char **out)
{
    size_t len = 0;
    FILE *fp = os_memstream_open(out, &len);
    ck_assert_ptr_nonnull(fp);
    int rc = atrc_diff_buffers("old.json", old, strlen(old), "new.json", new_, strlen(new_), fmt, fp, fp);
    os_memstream_close(fp, out, &len);
    return rc;
}

START_TEST(diff_names_what_was_laid_out_before)
{
    /* root { e, b { d, c }, a } numbered 0 root, 1 e, 2 b, 3 a, 4 d, 5 c (README's example). */
    static const char *const before[] = {"root:-1", "e:0", "b:0", "a:0", "d:2", "c:2"};
    /* 'e' no longer referenced: b 1, a 2, d 3, c 4. */
    static const char *const after[] = {"root:-1", "b:0", "a:0", "d:1", "c:1"};
    char *o = run_json("uo", before, 6,
                       "{\"file\": \"a.gsc\", \"line\": 1, \"column\": 5, \"kind\": \"anim\", \"tree\": \"t\", "
                       "\"name\": \"e\", \"value\": 65537}, "
                       "{\"file\": \"a.gsc\", \"line\": 2, \"column\": 5, \"kind\": \"anim\", \"tree\": \"t\", "
                       "\"name\": \"c\", \"value\": 65541}");
    char *n = run_json("uo", after, 5,
                       "{\"file\": \"a.gsc\", \"line\": 2, \"column\": 5, \"kind\": \"anim\", \"tree\": \"t\", "
                       "\"name\": \"c\", \"value\": 65540}");
    char *out = NULL;
    ck_assert_int_eq(diff_text(o, n, ATRC_FORMAT_TEXT, &out), 1);
    /* One cause, leading with its reach; every change names it. */
    ck_assert_str_eq(out,
                     "1 cause:\n"
                     "  [1] t: %e is no longer referenced (was a.gsc:1:5), so it is pruned (4 nodes moved, "
                     "1 node added or removed, 2 references changed, 1 other change)\n"
                     "changes:\n"
                     "[1] tree 't' checksum changed from 0x00000006 to 0x00000005 (6 -> 5 nodes)\n"
                     "[1] t: %b moved from node 2 to node 1: sibling 'e' (node 1) is no longer referenced and was pruned\n"
                     "[1] t: %a moved from node 3 to node 2: sibling 'e' (node 1) is no longer referenced and was pruned\n"
                     "[1] t: %d moved from node 4 to node 3: 'e' (node 1) is no longer referenced and was pruned\n"
                     "[1] t: %c moved from node 5 to node 4: 'e' (node 1) is no longer referenced and was pruned\n"
                     "[1] t: %e removed (was node 1): it is no longer referenced and was pruned\n"
                     "[1] a.gsc:2:5: %c in 't': 0x00010005 -> 0x00010004: %c moved from node 5 to node 4 "
                     "('e' (node 1) is no longer referenced and was pruned)\n"
                     "[1] a.gsc:1:5: %e in 't': reference removed (was 0x00010001)\n");
    free(out);
    ck_assert_int_eq(diff_text(o, o, ATRC_FORMAT_TEXT, &out), 0);
    ck_assert_str_eq(out, "");
    free(out);
    ck_assert_int_eq(diff_text(o, o, ATRC_FORMAT_JSON, &out), 0);
    ck_assert_str_eq(out, "{\n  \"atrc_diff\": 1,\n  \"old\": \"old.json\",\n  \"new\": \"new.json\",\n  \"causes\": [],\n  \"changes\": []\n}\n");
    free(out);
    free(o);
    free(n);
}
END_TEST

START_TEST(diff_counts_nodes_that_changed_sides)
{
    /* cod4 lays additive groups out last: the same survivors, another order. */
    static const char *const uo[] = {"root:-1", "add:0", "x:0", "y:0", "leaf:1"};
    static const char *const cod4[] = {"root:-1", "x:0", "y:0", "add:0", "leaf:3"};
    char *o = run_json("uo", uo, 5, "");
    char *n = run_json("cod4", cod4, 5, "");
    char *out = NULL;
    ck_assert_int_eq(diff_text(o, n, ATRC_FORMAT_TEXT, &out), 1);
    ck_assert_ptr_nonnull(strstr(out, "profile changed from uo to cod4\n"));
    ck_assert_ptr_nonnull(strstr(out, "t: %x moved from node 2 to node 1: 1 node laid out before it now comes after it "
                                      "(profile uo -> cod4: cod4 lays out additive groups after their siblings)\n"));
    ck_assert_ptr_nonnull(strstr(out, "t: %add moved from node 1 to node 3: 2 nodes laid out after it now come before it"));
    free(out);
    free(o);
    free(n);
}
END_TEST

START_TEST(diff_rejects_what_is_not_an_atrc_run)
{
    static const char *const cases[][2] = {
        {"[]", "new.json:1:1: error: not an atrc JSON output: expected an object with \"atrc\": 1\n"},
        {"{\"atrc\": 2}", "new.json:1:10: error: not an atrc JSON output: unsupported \"atrc\" version (expected 1)\n"},
        {"{\"atrc\": 1, \"profile\": \"uo\", \"trees\": {}, \"references\": []}",
         "new.json:1:39: error: not an atrc JSON output: the document: \"trees\" must be an array\n"},
        {"{\"atrc\": 1, \"profile\": \"uo\", \"trees\": [{\"index\": 2}], \"references\": []}",
         "new.json:1:50: error: not an atrc JSON output: tree 1 has index 2 (trees are listed in registry order from 1)\n"},
        {"{\"atrc\": 1, \"profile\": \"uo\", \"trees\": [], \"references\": [{\"kind\": \"anim\", \"file\": null, "
         "\"tree\": null, \"line\": 0, \"column\": null, \"value\": null}]}",
         "new.json:1:111: error: not an atrc JSON output: reference 1: \"line\" must be an integer from 1 to 2147483647 or null\n"},
        {"{\"atrc\": 1, \"profile\": \"uo\", \"trees\": [], \"references\": [], \"x\": [1,]}",
         "new.json:1:69: error: not valid JSON: expected a value, found ']'\n"},
    };
    const char *ok = "{\"atrc\": 1, \"profile\": \"uo\", \"trees\": [], \"references\": []}";
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *out = NULL;
        ck_assert_int_eq(diff_text(ok, cases[i][0], ATRC_FORMAT_TEXT, &out), 2);
        ck_assert_str_eq(out, cases[i][1]);
        free(out);
    }
}
END_TEST

Suite *make_diff_suite(void)
{
    Suite *s = suite_create("diff");
    TCase *tc = tcase_create("json");
    tcase_add_test(tc, json_errors_are_located);
    tcase_add_test(tc, json_depth_is_bounded);
    tcase_add_test(tc, json_values_decode);
    suite_add_tcase(s, tc);
    tc = tcase_create("diff");
    tcase_add_test(tc, diff_names_what_was_laid_out_before);
    tcase_add_test(tc, diff_counts_nodes_that_changed_sides);
    tcase_add_test(tc, diff_rejects_what_is_not_an_atrc_run);
    suite_add_tcase(s, tc);
    return s;
}
