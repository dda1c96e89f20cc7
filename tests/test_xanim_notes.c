/* xanim notetracks (runtime-anim.md 4.1, 4.2): generated files of both
** layouts read back name by name and frame by frame, every truncation and a
** trailing byte refused, and every stock CoD4 xanim of the shared corpus
** walked to its end. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "game/profile.h"
#include "tree/xanim_notes.h"
#include "xanim_gen_testlib.h"

static const xgen_note stock_like[] = {
    {"fire", 3}, {"bodyfall large", 40}, {"anim_pose = \"crouch\"", 41}, {"fire", 77}, {"", 0}, {"sound_x", 89},
};

static const profile_rules *rules_for(int version)
{
    return profile_get(version == 17 ? ATRC_PROFILE_COD4 : ATRC_PROFILE_COD2);
}

/* Reads back the file of s and compares every notetrack and the `end`. */
static void check_round_trip(const xgen_spec *s)
{
    xgen_buf b = xgen_build(s);
    arena a;
    arena_init(&a);
    xanim_notes notes;
    ck_assert_int_eq(xanim_read_notes(b.data, b.len, rules_for(s->version), &a, &notes), XANIM_NOTES_OK);
    ck_assert_uint_eq(notes.count, (size_t)s->note_count + 1);
    unsigned n = xgen_total(s) ? xgen_total(s) - 1 : 0;
    ck_assert_uint_eq(notes.last_frame, n);
    for (int i = 0; i < s->note_count; i++) {
        ck_assert_str_eq(notes.items[i].name, s->notes[i].name);
        ck_assert_uint_eq(notes.items[i].frame, s->notes[i].frame);
        ck_assert(notes.items[i].time == (n ? (double)s->notes[i].frame / n : 0.0));
        ck_assert(!notes.items[i].implicit);
    }
    const xanim_note *end = &notes.items[s->note_count];
    ck_assert_str_eq(end->name, "end");
    ck_assert(end->time == 1.0 && end->implicit);
    ck_assert_ptr_eq(xanim_notes_find(&notes, "end"), end);

    /* every shorter file is truncated, one more byte is trailing */
    size_t step = b.len > 2048 ? b.len / 1024 : 1; /* a long file: about a thousand cuts */
    for (size_t len = 0; len < b.len; len += step) {
        xanim_notes cut;
        xanim_notes_status st = xanim_read_notes(b.data, len, rules_for(s->version), &a, &cut);
        ck_assert_msg(st == XANIM_NOTES_TRUNCATED, "length %zu of %zu: status %d", len, b.len, (int)st);
        ck_assert_uint_eq(cut.count, 0);
        ck_assert_uint_le(cut.stopped_at, len);
    }
    xanim_notes cut;
    ck_assert_int_eq(xanim_read_notes(b.data, b.len - 1, rules_for(s->version), &a, &cut), XANIM_NOTES_TRUNCATED);
    unsigned char *longer = malloc(b.len + 1);
    memcpy(longer, b.data, b.len);
    longer[b.len] = 0;
    xanim_notes extra;
    ck_assert_int_eq(xanim_read_notes(longer, b.len + 1, rules_for(s->version), &a, &extra), XANIM_NOTES_TRAILING);
    ck_assert_uint_eq(extra.stopped_at, b.len);
    free(longer);
    /* the other layout's version is refused, not walked */
    ck_assert_int_eq(xanim_read_notes(b.data, b.len, rules_for(s->version == 17 ? 14 : 17), &a, &extra),
                     XANIM_NOTES_BAD_VERSION);
    arena_free_all(&a);
    free(b.data);
}

START_TEST(notes_v17_shapes)
{
    /* frames around the 1- and 2-byte index boundary, looping or not, with
    ** or without the delta part, small or large translations */
    static const unsigned frames[] = {1, 2, 60, 255, 256, 257, 900};
    for (size_t f = 0; f < sizeof frames / sizeof *frames; f++)
        for (int flags = 0; flags < 8; flags++) {
            xgen_spec s = {17, frames[f], flags & 1, (flags >> 1) & 1, 0, 30, 5, 0, 0, (flags >> 2) & 1,
                           stock_like, 6};
            s.rot_keys = frames[f] < 3 ? frames[f] : frames[f] / 3;
            s.trans_keys = frames[f] + (unsigned)(flags & 1); /* a full list: no index list */
            check_round_trip(&s);
        }
}
END_TEST

START_TEST(notes_v14_shapes)
{
    static const unsigned frames[] = {1, 30, 256, 300};
    for (size_t f = 0; f < sizeof frames / sizeof *frames; f++)
        for (int flags = 0; flags < 4; flags++) {
            xgen_spec s = {14, frames[f], flags & 1, (flags >> 1) & 1, 0, 20, 3, 4, 2, 0, stock_like, 6};
            check_round_trip(&s);
        }
}
END_TEST

START_TEST(notes_none_and_empty_parts)
{
    /* no parts, no notetracks: only `end` (at frame 0 of a one-frame anim, time 1) */
    xgen_spec s = {17, 1, 0, 0, 7, 30, 0, 0, 0, 0, NULL, 0};
    check_round_trip(&s);
    s.version = 14;
    check_round_trip(&s);
    /* zero frames: every stored notetrack is at time 0 */
    xgen_spec z = {17, 0, 0, 0, 0, 30, 0, 0, 0, 0, stock_like, 2};
    check_round_trip(&z);
}
END_TEST

START_TEST(notes_255)
{
    /* the largest count the uint8 holds, names of every length up to 254 */
    static xgen_note many[255];
    static char names[255][256];
    for (int i = 0; i < 255; i++) {
        memset(names[i], 'a' + i % 26, (size_t)i);
        names[i][i] = 0;
        many[i].name = names[i];
        many[i].frame = (unsigned)i * 257u;
    }
    xgen_spec s = {17, 65535, 0, 0, 0, 30, 1, 1, 1, 0, many, 255};
    check_round_trip(&s);
}
END_TEST

START_TEST(notes_hostile)
{
    arena a;
    arena_init(&a);
    xanim_notes notes;
    const profile_rules *cod4 = profile_get(ATRC_PROFILE_COD4);
    /* a negative part count */
    const unsigned char neg[] = {17, 0, 1, 0, 0xff, 0xff, 0, 0, 30, 0, 0};
    ck_assert_int_eq(xanim_read_notes(neg, sizeof neg, cod4, &a, &notes), XANIM_NOTES_TRUNCATED);
    /* a key count far past the file */
    const unsigned char big[] = {17, 0, 10, 0, 0, 0, 2, 0, 30, 0, 0xff, 0xff, 0, 0, 0};
    ck_assert_int_eq(xanim_read_notes(big, sizeof big, cod4, &a, &notes), XANIM_NOTES_TRUNCATED);
    ck_assert_uint_eq(notes.stopped_at, 12);
    /* a notetrack name without its NUL */
    const unsigned char open[] = {17, 0, 10, 0, 0, 0, 0, 0, 30, 0, 1, 'f', 'i', 'r', 'e'};
    ck_assert_int_eq(xanim_read_notes(open, sizeof open, cod4, &a, &notes), XANIM_NOTES_TRUNCATED);
    /* the 10-byte header-only files: unknown, not an empty list */
    ck_assert_int_eq(xanim_read_notes(open, 10, cod4, &a, &notes), XANIM_NOTES_TRUNCATED);
    ck_assert_uint_eq(notes.count, 0);
    ck_assert_int_eq(xanim_read_notes(NULL, 0, cod4, &a, &notes), XANIM_NOTES_TRUNCATED);
    arena_free_all(&a);
}
END_TEST

/* Every stock CoD4 xanim of the shared corpus (whole files) walks to its
** end; skipped when the corpus is absent. */
START_TEST(notes_cod4_corpus)
{
    const char *dir = getenv("ATRC_COD4_GAME") ? getenv("ATRC_COD4_GAME") : "../shared/corpus/cod4-game";
    char path[4096];
    snprintf(path, sizeof path, "%s/xanim", dir);
    DIR *d = opendir(path);
    if (!d) return;
    const profile_rules *cod4 = profile_get(ATRC_PROFILE_COD4);
    size_t files = 0, whole = 0, with_notes = 0, notes_total = 0, max_in_one = 0;
    struct dirent *e;
    unsigned char *buf = NULL;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/xanim/%s", dir, e->d_name);
        FILE *fp = fopen(path, "rb");
        ck_assert_ptr_nonnull(fp);
        struct stat st;
        ck_assert_int_eq(fstat(fileno(fp), &st), 0);
        buf = realloc(buf, (size_t)st.st_size + 1);
        ck_assert_uint_eq(fread(buf, 1, (size_t)st.st_size, fp), (size_t)st.st_size);
        fclose(fp);
        files++;
        arena a;
        arena_init(&a);
        xanim_notes notes;
        xanim_notes_status s = xanim_read_notes(buf, (size_t)st.st_size, cod4, &a, &notes);
        ck_assert_msg(s == XANIM_NOTES_OK, "%s (%lld bytes): status %d, stopped at %zu", e->d_name,
                      (long long)st.st_size, (int)s, notes.stopped_at);
        whole++;
        with_notes += notes.count > 1;
        notes_total += notes.count - 1;
        if (notes.count - 1 > max_in_one) max_in_one = notes.count - 1;
        for (size_t i = 0; i + 1 < notes.count; i++) {
            ck_assert_str_ne(notes.items[i].name, "end");
            ck_assert(notes.items[i].time >= 0 && notes.items[i].time <= 1);
        }
        arena_free_all(&a);
    }
    closedir(d);
    free(buf);
    ck_assert_uint_gt(files, 2000);
    ck_assert_uint_eq(whole, files);
    ck_assert_uint_gt(with_notes, 0);
    if (getenv("ATRC_NOTES_STATS"))
        printf("%zu xanims, %zu whole, %zu with notetracks, %zu notetracks, at most %zu in one\n", files, whole,
               with_notes, notes_total, max_in_one);
}
END_TEST

Suite *make_xanim_notes_suite(void)
{
    Suite *s = suite_create("xanim_notes");
    TCase *tc = tcase_create("read");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, notes_v17_shapes);
    tcase_add_test(tc, notes_v14_shapes);
    tcase_add_test(tc, notes_none_and_empty_parts);
    tcase_add_test(tc, notes_255);
    tcase_add_test(tc, notes_hostile);
    tcase_add_test(tc, notes_cod4_corpus);
    suite_add_tcase(s, tc);
    return s;
}
