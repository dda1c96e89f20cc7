/* Limits and hostile input through the library API: a hostile file is
** reported once and does not poison the files compiled after it, and two
** contexts in one process do not share state.  (The command-line side of
** the same limits is tests/hostile/run.sh.) */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atrc.h"
#include "os/os.h"

/* The diagnostics of ctx as text, without the excerpt lines. */
static char *messages(const atrc_ctx *ctx)
{
    char *buf = NULL, *out;
    size_t len = 0;
    FILE *fp = os_memstream_open(&buf, &len);
    ck_assert_ptr_nonnull(fp);
    atrc_print_diagnostics(ctx, fp);
    os_memstream_close(fp, &buf, &len);
    out = malloc(len + 1);
    ck_assert_ptr_nonnull(out);
    size_t n = 0;
    for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == ' ') continue;
        size_t k = strlen(line);
        memcpy(out + n, line, k);
        out[n + k] = '\n';
        n += k + 1;
    }
    out[n] = 0;
    free(buf);
    return out;
}

static char *repeat(const char *head, char c, size_t count, const char *tail)
{
    size_t h = strlen(head), t = strlen(tail);
    char *s = malloc(h + count + t + 1);
    ck_assert_ptr_nonnull(s);
    memcpy(s, head, h);
    memset(s + h, c, count);
    memcpy(s + h + count, tail, t + 1);
    return s;
}

static atrc_ctx *syntax_ctx(void)
{
    atrc_options o;
    memset(&o, 0, sizeof o);
    o.syntax_only = 1;
    return atrc_new(&o);
}

START_TEST(deep_nesting_is_one_error_and_the_next_file_is_clean)
{
    atrc_ctx *ctx = syntax_ctx();
    char *deep = repeat("f() { x = ", '(', 100000, "1; }\n");
    atrc_add_script_buffer(ctx, "deep.gsc", deep, strlen(deep));
    const char *ok = "g() { y = ((1)); }\n";
    atrc_add_script_buffer(ctx, "ok.gsc", ok, strlen(ok));
    char *m = messages(ctx);
    ck_assert_str_eq(m, "deep.gsc:1:1010: error: nesting too deep (max 1000)\n1 error, 0 warnings\n");
    free(m);
    free(deep);
    atrc_free(ctx);
}
END_TEST

START_TEST(error_cap_is_per_file)
{
    atrc_ctx *ctx = syntax_ctx();
    char *junk = repeat("", '@', 200, "\n");
    atrc_add_script_buffer(ctx, "junk.gsc", junk, strlen(junk));
    int after_junk = atrc_error_count(ctx);
    ck_assert_int_ge(after_junk, 2);
    ck_assert_int_le(after_junk, 60); /* capped, not one per byte */
    const char *bad = "f() { @ }\n";
    atrc_add_script_buffer(ctx, "bad.gsc", bad, strlen(bad));
    ck_assert_int_eq(atrc_error_count(ctx), after_junk + 1);
    char *m = messages(ctx);
    ck_assert_ptr_nonnull(strstr(m, "junk.gsc:1:1: error: stray '@'\n"));
    ck_assert_ptr_nonnull(strstr(m, "error: too many errors in this file; stopping\n"));
    ck_assert_ptr_nonnull(strstr(m, "bad.gsc:1:7: error: stray '@'\n"));
    free(m);
    free(junk);
    atrc_free(ctx);
}
END_TEST

START_TEST(nul_bytes_in_a_buffer)
{
    atrc_ctx *ctx = syntax_ctx();
    static const char src[] = "f() { a = 1;\0 b = 2; }\n";
    atrc_add_script_buffer(ctx, "nul.gsc", src, sizeof src - 1);
    char *m = messages(ctx);
    /* The game stops reading at the NUL (grammar.md 1.1). */
    ck_assert_str_eq(m, "nul.gsc:1:13: warning: NUL byte ends the script (the game reads no further)\n"
                        "nul.gsc:1:13: error: '{' opened at line 1 is never closed\n"
                        "1 error, 1 warning\n");
    free(m);
    atrc_free(ctx);
}
END_TEST

START_TEST(megabyte_tokens)
{
    atrc_ctx *ctx = syntax_ctx();
    char *id = repeat("f() { ", 'a', 1 << 20, " = 1; }\n");
    char *str = repeat("g() { s = \"", 's', 1 << 20, "\"; }\n");
    atrc_add_script_buffer(ctx, "id.gsc", id, strlen(id));
    atrc_add_script_buffer(ctx, "str.gsc", str, strlen(str));
    ck_assert_int_eq(atrc_error_count(ctx), 0);
    free(id);
    free(str);
    atrc_free(ctx);
}
END_TEST

START_TEST(engine_anims_past_the_tree_limit)
{
    atrc_ctx *ctx = atrc_new(NULL);
    char tree[16];
    for (int i = 1; i <= ATRC_MAX_TREES + 1; i++) {
        snprintf(tree, sizeof tree, "t%d", i);
        ck_assert_int_eq(atrc_add_engine_anim(ctx, tree, "root"), 0);
    }
    ck_assert_int_eq(atrc_tree_count(ctx), ATRC_MAX_TREES);
    ck_assert_int_eq(atrc_error_count(ctx), 1);
    char *m = messages(ctx);
    ck_assert_str_eq(m, "atrc: error: maximum animation tree count exceeded (127)\n1 error, 0 warnings\n");
    free(m);
    atrc_free(ctx);
}
END_TEST

/* No global state: compiling in one context leaves another untouched. */
START_TEST(two_contexts_are_independent)
{
    atrc_ctx *a = syntax_ctx(), *b = syntax_ctx();
    const char *bad = "f() { @ }\n";
    const char *deep_head = "g() { x = ";
    char *deep = repeat(deep_head, '(', 2000, "1; }\n");
    atrc_add_script_buffer(a, "a.gsc", deep, strlen(deep));
    atrc_add_script_buffer(b, "b.gsc", bad, strlen(bad));
    ck_assert_int_eq(atrc_error_count(a), 1);
    ck_assert_int_eq(atrc_error_count(b), 1);
    char *ma = messages(a), *mb = messages(b);
    ck_assert_ptr_nonnull(strstr(ma, "a.gsc:1:1010: error: nesting too deep (max 1000)\n"));
    ck_assert_str_eq(mb, "b.gsc:1:7: error: stray '@'\n1 error, 0 warnings\n");
    free(ma);
    free(mb);
    free(deep);
    atrc_free(a);
    atrc_free(b);
}
END_TEST

Suite *make_limits_suite(void)
{
    Suite *s = suite_create("limits");
    TCase *tc = tcase_create("hostile");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, deep_nesting_is_one_error_and_the_next_file_is_clean);
    tcase_add_test(tc, error_cap_is_per_file);
    tcase_add_test(tc, nul_bytes_in_a_buffer);
    tcase_add_test(tc, megabyte_tokens);
    tcase_add_test(tc, engine_anims_past_the_tree_limit);
    tcase_add_test(tc, two_contexts_are_independent);
    suite_add_tcase(s, tc);
    return s;
}
