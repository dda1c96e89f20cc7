/* The threaded front end through the library API: atrc_add_scripts with
** worker threads gives the same references, trees, diagnostics (and their
** order) as atrc_add_script file by file; two contexts compile at once in
** two threads; prefetched files are taken by name, in any order; a file's
** excerpt is read again at print time, and omitted if the file changed. */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atrc.h"
#include "tmpdir_testlib.h"
#include "os/os.h"
#include "compile/driver.h"
#include "compile/frontend.h"
#include "check/check_stage.h"
#include "script/script_refs.h"

#define N_FILES 60

static tmp_game game;
static char paths[N_FILES + 2][400];
static const char *path_list[N_FILES + 2];

static void put(const char *rel, const char *text)
{
    tmp_game_put(&game, rel, text);
}

static void setup(void)
{
    tmp_game_make(&game, "fe");
    put("animtrees/a.atr", "x\ny\nz\n");
    put("animtrees/b.atr", "p\nq\n");
    for (int i = 0; i < N_FILES; i++) {
        char rel[64], text[512];
        snprintf(rel, sizeof rel, "s%02d.gsc", i);
        switch (i % 4) {
        case 0: snprintf(text, sizeof text, "#using_animtree(\"a\");\nf() { v = %%x; w = %%nope%d; }\n", i); break;
        case 1: snprintf(text, sizeof text, "#using_animtree(\"b\");\nf() { v = %%p }\ng() { t = #animtree; }\n"); break;
        case 2: snprintf(text, sizeof text, "f() { v = %%early; }\n#using_animtree(\"c%d\");\n", i); break;
        default: snprintf(text, sizeof text, "#using_animtree(\"bad name\");\nf() { v = %%z;\n"); break;
        }
        put(rel, text);
        snprintf(paths[i], sizeof paths[i], "%s/%s", game.dir, rel);
        path_list[i] = paths[i];
    }
    snprintf(paths[N_FILES], sizeof paths[N_FILES], "%s/missing.gsc", game.dir);
    path_list[N_FILES] = paths[N_FILES];
}

static void teardown(void)
{
    tmp_game_remove(&game);
}

/* The whole result of a run: JSON, then the printed diagnostics.
** one_by_one: 1 atrc_add_script each; 2 every readable file read and handed
** to the workers in reverse order, then compiled in order as the load walk
** does (ctx_prefetch_source, ctx_compile_prefetched); 0 atrc_add_scripts. */
static char *run(int jobs, int one_by_one)
{
    atrc_options o = {0};
    o.jobs = jobs;
    o.no_xanim = 1;
    atrc_ctx *ctx = atrc_new(&o);
    atrc_add_game_dir(ctx, game.dir);
    if (one_by_one == 2) {
        struct fe_request *req[N_FILES + 1];
        source_file *src[N_FILES + 1];
        for (int i = N_FILES; i >= 0; i--) {
            const char *err = NULL;
            src[i] = source_read(path_list[i], &err);
            req[i] = src[i] ? ctx_prefetch_source(ctx, src[i]) : NULL;
        }
        for (int i = 0; i <= N_FILES; i++) {
            script_refs refs;
            script_refs_init(&refs);
            check_file_result checked;
            memset(&checked, 0, sizeof checked);
            if (req[i]) ctx_compile_prefetched(ctx, req[i], &refs, &checked);
            else if (src[i]) ctx_compile_source(ctx, src[i], &refs, &checked); /* -j 1 */
            else atrc_add_script(ctx, path_list[i]);
            script_refs_free(&refs);
            check_result_free(&checked);
        }
    } else if (one_by_one) {
        for (int i = 0; i <= N_FILES; i++) atrc_add_script(ctx, path_list[i]);
    }
    else
        ck_assert_int_eq(atrc_add_scripts(ctx, path_list, N_FILES + 1), -1);
    atrc_build_trees(ctx);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = os_memstream_open(&buf, &len);
    ck_assert_int_eq(atrc_emit(ctx, ATRC_FORMAT_JSON, 0, out), 0);
    atrc_print_diagnostics(ctx, out);
    os_memstream_close(out, &buf, &len);
    ck_assert_int_eq(atrc_unreadable_count(ctx), 1);
    atrc_free(ctx);
    return buf;
}

START_TEST(threads_change_nothing)
{
    char *ref = run(1, 1);
    ck_assert_ptr_nonnull(strstr(ref, "s03.gsc:1:1: error: bad anim tree name\n  #using_animtree(\"bad name\");\n  ^\n"));
    ck_assert_ptr_nonnull(strstr(ref, "cannot read '"));
    for (int jobs = 1; jobs <= 16; jobs *= 2) {
        char *got = run(jobs, 0);
        ck_assert_str_eq(got, ref);
        free(got);
        got = run(jobs, 2);
        ck_assert_str_eq(got, ref);
        free(got);
    }
    free(ref);
}
END_TEST

static void *run_thread(void *arg)
{
    return run(*(int *)arg, 0);
}

START_TEST(two_contexts_in_two_threads)
{
    char *ref = run(1, 1);
    int jobs[2] = {3, 1};
    pthread_t t[2];
    for (int i = 0; i < 2; i++) ck_assert_int_eq(pthread_create(&t[i], NULL, run_thread, &jobs[i]), 0);
    for (int i = 0; i < 2; i++) {
        void *got;
        pthread_join(t[i], &got);
        ck_assert_str_eq(got, ref);
        free(got);
    }
    free(ref);
}
END_TEST

START_TEST(prefetch_then_take_in_any_order)
{
    atrc_options o = {0};
    frontend *fe = frontend_new(&o, profile_get(o.profile), ctx_passes, 4);
    fe_request *req[10];
    for (int i = 0; i < 10; i++) req[i] = frontend_prefetch(fe, path_list[i]);
    fe_request *twice = frontend_prefetch(fe, path_list[3]); /* twice: parsed twice */
    for (int i = 9; i >= 0; i--) {
        fe_file *f = frontend_take(fe, req[i]);
        ck_assert_str_eq(f->path, path_list[i]);
        ck_assert_ptr_nonnull(f->src);
        ck_assert_ptr_null(f->src->data); /* released after parsing */
        ck_assert_int_eq((int)f->diags.count, i % 4 == 1 || i % 4 == 3 ? 1 : 0);
        fe_file_free(f);
    }
    fe_file *again = frontend_take(fe, twice);
    ck_assert_ptr_nonnull(again->src);
    fe_file_free(again);
    /* Not prefetched: parsed at once on this thread. */
    fe_file *now = frontend_parse_path(fe, path_list[12]);
    ck_assert_ptr_nonnull(now->src);
    fe_file_free(now);
    /* Prefetched and never taken (a path, a walk's source): freed with the frontend. */
    frontend_prefetch(fe, path_list[20]);
    frontend_prefetch(fe, path_list[N_FILES]);
    const char *err = NULL;
    frontend_prefetch_walk(fe, source_read(path_list[21], &err));
    frontend_free(fe);
}
END_TEST

START_TEST(changed_file_loses_its_excerpt)
{
    atrc_options o = {0};
    o.syntax_only = 1;
    atrc_ctx *ctx = atrc_new(&o);
    atrc_add_script(ctx, path_list[1]); /* f() { v = %p } : an error on line 2 */
    char *buf = NULL;
    size_t len = 0;
    FILE *out = os_memstream_open(&buf, &len);
    atrc_print_diagnostics(ctx, out);
    os_memstream_close(out, &buf, &len);
    ck_assert_ptr_nonnull(strstr(buf, "  f() { v = %p }\n"));
    free(buf);
    sleep(1); /* a new modification time, whatever the file system's granularity */
    put("s01.gsc", "#using_animtree(\"b\");\nchanged\n");
    out = os_memstream_open(&buf, &len);
    atrc_print_diagnostics(ctx, out);
    os_memstream_close(out, &buf, &len);
    ck_assert_ptr_null(strstr(buf, "  f() {"));
    ck_assert_ptr_nonnull(strstr(buf, "s01.gsc:2:13: error: "));
    free(buf);
    atrc_free(ctx);
}
END_TEST

Suite *make_frontend_suite(void)
{
    Suite *s = suite_create("frontend");
    TCase *tc = tcase_create("frontend");
    tcase_set_timeout(tc, 60);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, threads_change_nothing);
    tcase_add_test(tc, two_contexts_in_two_threads);
    tcase_add_test(tc, prefetch_then_take_in_any_order);
    tcase_add_test(tc, changed_file_loses_its_excerpt);
    suite_add_tcase(s, tc);
    return s;
}
