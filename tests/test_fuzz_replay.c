/* Seed replay: every committed fuzz seed (tests/fuzz/corpus/<harness>/) runs
** once through the same entry point libFuzzer calls, so `make check` (and
** `make check SANITIZE=1`, with ASan/UBSan and leak detection) keeps every
** past crash fixed without needing clang.  One loop iteration per seed; a
** failure names the iteration, and the seed is the one printed by
**   ls tests/fuzz/corpus/<harness> | LC_ALL=C sort | sed -n '<iteration+1>p' */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tmpdir_testlib.h"

#define FUZZ_ENTRY fuzz_script_entry
#include "fuzz/fuzz_script.c"
#undef FUZZ_ENTRY
#define FUZZ_ENTRY fuzz_atr_entry
#include "fuzz/fuzz_atr.c"
#undef FUZZ_ENTRY
#define FUZZ_ENTRY fuzz_xanim_entry
#include "fuzz/fuzz_xanim.c"
#undef FUZZ_ENTRY
#define FUZZ_ENTRY fuzz_pipeline_entry
#include "fuzz/fuzz_pipeline.c"
#undef FUZZ_ENTRY
#define FUZZ_ENTRY fuzz_archive_entry
#include "fuzz/fuzz_archive.c"
#undef FUZZ_ENTRY
#define FUZZ_ENTRY fuzz_json_entry
#include "fuzz/fuzz_json.c"
#undef FUZZ_ENTRY
#define FUZZ_ENTRY fuzz_searchpath_entry
#include "fuzz/fuzz_searchpath.c"
#undef FUZZ_ENTRY
#define FUZZ_ENTRY fuzz_jsonrpc_entry
#include "fuzz/fuzz_jsonrpc.c"
#undef FUZZ_ENTRY
/* The session harness makes a directory link and hands the server POSIX
** descriptors; under Windows the server's protocol tests run instead
** (make check-windows). */
#ifndef _WIN32
#define FUZZ_ENTRY fuzz_lsp_entry
#include "fuzz/fuzz_lsp.c"
#undef FUZZ_ENTRY
#endif

typedef struct seed_set {
    const char *harness;
    int (*entry)(const uint8_t *, size_t);
    test_paths paths;
} seed_set;

static seed_set seed_sets[] = {
    {"script", fuzz_script_entry, {NULL, 0, 0}},
    {"atr", fuzz_atr_entry, {NULL, 0, 0}},
    {"xanim", fuzz_xanim_entry, {NULL, 0, 0}},
    {"pipeline", fuzz_pipeline_entry, {NULL, 0, 0}},
    {"archive", fuzz_archive_entry, {NULL, 0, 0}},
    {"json", fuzz_json_entry, {NULL, 0, 0}},
    {"searchpath", fuzz_searchpath_entry, {NULL, 0, 0}},
    {"jsonrpc", fuzz_jsonrpc_entry, {NULL, 0, 0}},
#ifndef _WIN32
    {"lsp", fuzz_lsp_entry, {NULL, 0, 0}},
#endif
};

static int compare_paths(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void list_seeds(seed_set *s)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s/fuzz/corpus/%s", ATRC_TEST_DIR, s->harness);
    list_dir(dir, &s->paths);
    if (s->paths.count) qsort(s->paths.items, s->paths.count, sizeof *s->paths.items, compare_paths);
}

static unsigned char *read_seed(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    ck_assert_msg(fp != NULL, "cannot open seed %s", path);
    VEC(unsigned char) buf = {0};
    VEC_RESERVE(buf, 4096);
    size_t got;
    while ((got = fread(buf.items + buf.count, 1, buf.cap - buf.count, fp)) > 0) {
        buf.count += got;
        VEC_RESERVE(buf, buf.count + 1); /* full: doubles */
    }
    ck_assert_msg(!ferror(fp), "cannot read seed %s", path);
    fclose(fp);
    *len = buf.count;
    return buf.items;
}

static void replay(int set, int i)
{
    const seed_set *s = &seed_sets[set];
    size_t len;
    unsigned char *data = read_seed(s->paths.items[i], &len);
    /* A crash, a sanitizer report or a leak kills this forked test and
    ** names the iteration; reaching the end means the seed ran clean. */
    ck_assert_int_eq(s->entry(data, len), 0);
    free(data);
}

START_TEST(replay_script) { replay(0, _i); }
END_TEST
START_TEST(replay_atr) { replay(1, _i); }
END_TEST
START_TEST(replay_xanim) { replay(2, _i); }
END_TEST
START_TEST(replay_pipeline) { replay(3, _i); }
END_TEST
START_TEST(replay_archive) { replay(4, _i); }
START_TEST(replay_json) { replay(5, _i); }
END_TEST
START_TEST(replay_searchpath) { replay(6, _i); }
END_TEST
START_TEST(replay_jsonrpc) { replay(7, _i); }
END_TEST
#ifndef _WIN32
START_TEST(replay_lsp) { replay(8, _i); }
END_TEST
#endif

START_TEST(every_harness_has_seeds)
{
    for (size_t k = 0; k < sizeof seed_sets / sizeof *seed_sets; k++)
        ck_assert_msg(seed_sets[k].paths.count >= 3, "tests/fuzz/corpus/%s has %zu seeds",
                      seed_sets[k].harness, seed_sets[k].paths.count);
}
END_TEST

Suite *make_fuzz_replay_suite(void)
{
    Suite *s = suite_create("fuzz_replay");
    for (size_t k = 0; k < sizeof seed_sets / sizeof *seed_sets; k++)
        if (!seed_sets[k].paths.items) list_seeds(&seed_sets[k]);
    TCase *tc = tcase_create("seeds");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, every_harness_has_seeds);
    tcase_add_loop_test(tc, replay_script, 0, (int)seed_sets[0].paths.count);
    tcase_add_loop_test(tc, replay_atr, 0, (int)seed_sets[1].paths.count);
    tcase_add_loop_test(tc, replay_xanim, 0, (int)seed_sets[2].paths.count);
    tcase_add_loop_test(tc, replay_pipeline, 0, (int)seed_sets[3].paths.count);
    tcase_add_loop_test(tc, replay_archive, 0, (int)seed_sets[4].paths.count);
    tcase_add_loop_test(tc, replay_json, 0, (int)seed_sets[5].paths.count);
    tcase_add_loop_test(tc, replay_searchpath, 0, (int)seed_sets[6].paths.count);
    tcase_add_loop_test(tc, replay_jsonrpc, 0, (int)seed_sets[7].paths.count);
#ifndef _WIN32
    tcase_add_loop_test(tc, replay_lsp, 0, (int)seed_sets[8].paths.count);
#endif
    suite_add_tcase(s, tc);
    return s;
}
