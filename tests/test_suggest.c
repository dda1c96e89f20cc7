/* Nearest-name suggestions (suggest.h): the bounded distance against a plain
** full-matrix one, the bounds per length, ties, and the cost of a query. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/suggest.h"

/* Optimal string alignment distance, the whole matrix, case folded: the
** reference the bounded one must agree with wherever it is within bound. */
static int full_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    int *d = malloc((la + 1) * (lb + 1) * sizeof *d);
#define D(i, j) d[(i) * (lb + 1) + (j)]
    for (size_t i = 0; i <= la; i++) D(i, 0) = (int)i;
    for (size_t j = 0; j <= lb; j++) D(0, j) = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int x = a[i - 1] | 32, y = b[j - 1] | 32; /* letters only below */
            int v = D(i - 1, j - 1) + (x != y);
            if (D(i - 1, j) + 1 < v) v = D(i - 1, j) + 1;
            if (D(i, j - 1) + 1 < v) v = D(i, j - 1) + 1;
            if (i > 1 && j > 1 && x == (b[j - 2] | 32) && (a[i - 2] | 32) == y && D(i - 2, j - 2) + 1 < v)
                v = D(i - 2, j - 2) + 1;
            D(i, j) = v;
        }
    int r = D(la, lb);
#undef D
    free(d);
    return r;
}

START_TEST(bounded_distance_agrees_with_the_full_one)
{
    ck_assert_int_eq(suggest_distance("windmil", 7, "windmill", 8, 2), 1);
    ck_assert_int_eq(suggest_distance("getEnd", 6, "getent", 6, 1), 1);
    ck_assert_int_eq(suggest_distance("WALK", 4, "walk", 4, 1), 0);   /* case folded */
    ck_assert_int_eq(suggest_distance("wlak", 4, "walk", 4, 1), 1);   /* a transposition is one edit */
    ck_assert_int_eq(suggest_distance("abc", 3, "abcdefg", 7, 3), 4); /* lengths: never compared */
    ck_assert_int_eq(suggest_distance("", 0, "ab", 2, 3), 2);
    srand(15);
    for (int n = 0; n < 20000; n++) {
        char a[16], b[16];
        int la = rand() % 12, lb = la + rand() % 7 - 3;
        if (lb < 0) lb = 0;
        for (int i = 0; i < la; i++) a[i] = (char)("abcAB"[rand() % 5]);
        for (int i = 0; i < lb; i++) b[i] = (char)("abcAB"[rand() % 5]);
        a[la] = b[lb] = 0;
        int bound = rand() % 4, full = full_distance(a, b);
        int got = suggest_distance(a, (size_t)la, b, (size_t)lb, bound);
        if (full <= bound) ck_assert_msg(got == full, "'%s' '%s' bound %d: %d, want %d", a, b, bound, got, full);
        else ck_assert_msg(got == bound + 1, "'%s' '%s' bound %d: %d, want %d", a, b, bound, got, bound + 1);
    }
}
END_TEST

START_TEST(bound_grows_with_the_name)
{
    ck_assert_int_eq(suggest_max_distance(2), 0);
    ck_assert_int_eq(suggest_max_distance(3), 1);
    ck_assert_int_eq(suggest_max_distance(7), 1);
    ck_assert_int_eq(suggest_max_distance(8), 2);
    ck_assert_int_eq(suggest_max_distance(11), 2);
    ck_assert_int_eq(suggest_max_distance(12), 3);
    ck_assert_int_eq(suggest_max_distance(1000), 3);
    suggest s;
    /* A two-letter name gets nothing; a far name is no guess. */
    suggest_init(&s, "fo", 2, 1);
    suggest_add(&s, "go", 2, NULL);
    ck_assert_uint_eq(s.count, 0);
    suggest_init(&s, "walk", 4, 1);
    suggest_add(&s, "wxyz", 4, NULL);
    suggest_add(&s, "run", 3, NULL);
    suggest_add(&s, "WALK", 4, NULL); /* the name itself */
    ck_assert_uint_eq(s.count, 0);
}
END_TEST

START_TEST(nearest_first_ties_by_name_whatever_the_order)
{
    static const char *const names[] = {"walk_last", "walk_fast", "walk_slow", "walk_xastt", "walk_fast"};
    for (int rot = 0; rot < 5; rot++) {
        suggest s;
        suggest_init(&s, "walk_xast", 9, SUGGEST_MAX_KEPT);
        for (int i = 0; i < 5; i++) {
            const char *n = names[(i + rot) % 5];
            suggest_add(&s, n, strlen(n), NULL);
        }
        /* distance 1: walk_fast, walk_last, walk_xastt (by name); walk_fast once */
        ck_assert_uint_eq(s.count, 3);
        ck_assert_str_eq(s.best[0].name, "walk_fast");
        ck_assert_str_eq(s.best[1].name, "walk_last");
        ck_assert_str_eq(s.best[2].name, "walk_xastt");
        ck_assert_int_eq(s.best[0].dist, 1);
    }
    suggest one;
    suggest_init(&one, "windmil", 7, 1);
    suggest_add(&one, "windmills", 9, "far");
    suggest_add(&one, "Windmill", 8, "near");
    ck_assert_uint_eq(one.count, 1);
    ck_assert_str_eq(one.best[0].data, "near");
}
END_TEST

/* A huge name against many candidates: the length filter and the band keep
** each comparison short. */
START_TEST(a_query_costs_length_times_bound)
{
    size_t n = 1 << 20;
    char *big = malloc(n + 1), *near = malloc(n + 2);
    memset(big, 'a', n);
    big[n] = 0;
    memcpy(near, big, n);
    near[n] = 'b';
    near[n + 1] = 0;
    clock_t t0 = clock();
    suggest s;
    suggest_init(&s, big, n, 1);
    for (int i = 0; i < 100000; i++) suggest_add(&s, "short", 5, NULL); /* filtered by length */
    suggest_add(&s, near, n + 1, NULL);
    ck_assert_uint_eq(s.count, 1);
    ck_assert_int_eq(s.best[0].dist, 1);
    ck_assert_msg((double)(clock() - t0) / CLOCKS_PER_SEC < 2.0, "too slow");
    free(big);
    free(near);
}
END_TEST

Suite *make_suggest_suite(void)
{
    Suite *s = suite_create("suggest");
    TCase *tc = tcase_create("suggest");
    tcase_add_test(tc, bounded_distance_agrees_with_the_full_one);
    tcase_add_test(tc, bound_grows_with_the_name);
    tcase_add_test(tc, nearest_first_ties_by_name_whatever_the_order);
    tcase_add_test(tc, a_query_costs_length_times_bound);
    suite_add_tcase(s, tc);
    return s;
}
