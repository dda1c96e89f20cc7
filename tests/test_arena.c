/* The arena's fast paths (pointer bump, word-at-a-time lower-casing) and the
** AST builders' copies (names, string bodies) against plain references:
** every length around the word sizes, every kind of byte. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "script/ast_build.h"
#include "gsc_testlib.h"

START_TEST(alloc_aligned_distinct)
{
    arena a;
    arena_init(&a);
    ck_assert(!arena_fits(&a, 8)); /* no block yet */
    char *prev = NULL;
    for (size_t n = 0; n < 3000; n++) {
        char *p = arena_alloc(&a, n % 200);
        ck_assert_uint_eq((uintptr_t)p % 16, 0);
        memset(p, 0xAB, n % 200 ? n % 200 : 16); /* a zero-size request still owns 16 bytes */
        if (prev) ck_assert_ptr_ne(p, prev);
        prev = p;
    }
    /* Larger than any block so far: a block of its own. */
    char *big = arena_alloc(&a, (size_t)1 << 20);
    memset(big, 1, (size_t)1 << 20);
    arena_reset(&a);
    ck_assert(arena_fits(&a, 64)); /* the kept block is reused */
    ck_assert(!arena_fits(&a, 0));
    arena_free_all(&a);
    ck_assert(!arena_fits(&a, 1));
    arena_reserve(&a, 100);
    ck_assert(arena_fits(&a, 100));
    char *p = arena_take(&a, 100);
    ck_assert_uint_eq((uintptr_t)p % 16, 0);
    memset(p, 2, 100);
    arena_free_all(&a);
}
END_TEST

/* A round that needed several blocks leaves one block that holds it all:
** the same round again allocates nothing (no new block, hence no malloc). */
START_TEST(reset_keeps_room_for_the_round)
{
    arena a;
    arena_init(&a);
    for (int round = 0; round < 3; round++) {
        char *first = NULL, *last = NULL;
        for (int i = 0; i < 5000; i++) {
            char *p = arena_alloc(&a, 48); /* 240 KB in all: several 64 KB blocks at first */
            memset(p, i & 0xFF, 48);
            if (!first) first = p;
            last = p;
        }
        if (round > 0) {
            /* One block, filled from its start in allocation order. */
            ck_assert_ptr_eq(last, first + 4999 * 48);
        }
        arena_reset(&a);
    }
    /* A smaller round afterwards still fits. */
    ck_assert(arena_fits(&a, 1000));
    arena_free_all(&a);
}
END_TEST

static char lower_ref(unsigned char c)
{
    return (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
}

START_TEST(lower_every_byte_and_length)
{
    arena a;
    arena_init(&a);
    char src[64], want[64];
    /* Each byte value at each position of every length up to 40. */
    for (size_t n = 0; n <= 40; n++) {
        for (int c = 0; c < 256; c++) {
            for (size_t i = 0; i < n; i++) src[i] = (char)((c + 37 * (int)i) & 0xFF);
            for (size_t i = 0; i < n; i++) want[i] = lower_ref((unsigned char)src[i]);
            char *got = arena_lower(&a, src, n);
            ck_assert_int_eq(memcmp(got, want, n), 0);
            ck_assert_int_eq(got[n], 0);
        }
        arena_reset(&a);
    }
    /* The edges of the range, also with the high bit set (0xC1 is not 'A'). */
    const char edge[] = "@AZ[`az{\xC1\xDA\x80\xFF" "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    char *got = arena_lower(&a, edge, sizeof edge - 1);
    ck_assert_str_eq(got, "@az[`az{\xC1\xDA\x80\xFF" "abcdefghijklmnopqrstuvwxyz");
    arena_free_all(&a);
}
END_TEST

START_TEST(copy_text_every_length)
{
    char src[200], dst[210];
    for (size_t i = 0; i < sizeof src; i++) src[i] = (char)(i * 7 + 1);
    for (size_t n = 0; n < sizeof src; n++) {
        memset(dst, 0x55, sizeof dst);
        ast_copy_text(dst + 3, src, n);
        ck_assert_int_eq(memcmp(dst + 3, src, n), 0);
        /* Nothing written outside [dst + 3, dst + 3 + n). */
        for (size_t i = 0; i < 3; i++) ck_assert_int_eq((unsigned char)dst[i], 0x55);
        for (size_t i = 3 + n; i < sizeof dst; i++) ck_assert_int_eq((unsigned char)dst[i], 0x55);
    }
}
END_TEST

/* The reference decoding of a string body: escapes \n \t \r, any other
** escaped byte is itself; the body ends at an unescaped quote. */
static size_t decode_ref(const char *p, size_t n, char *out)
{
    size_t k = 0, i = 0;
    while (i < n) {
        char c = p[i++];
        if (c == '"') break;
        if (c == '\\' && i < n) {
            c = p[i++];
            c = c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c;
        }
        out[k++] = c;
    }
    return k;
}

static ast_node *first_string(ast_node *n)
{
    for (; n; n = n->next) {
        if (n->kind == AST_STRING || n->kind == AST_ISTRING) return n;
        ast_node *s = first_string(n->child);
        if (s) return s;
    }
    return NULL;
}

/* Strings of every length up to 40 with an escape (or none) at each place:
** the node's text and len are the reference decoding. */
START_TEST(string_bodies)
{
    static const char *const escapes[] = {NULL, "\\n", "\\t", "\\r", "\\\\", "\\\"", "\\q"};
    for (size_t e = 0; e < sizeof escapes / sizeof escapes[0]; e++) {
        for (size_t n = 0; n <= 40; n++) {
            for (size_t at = 0; at <= n; at += escapes[e] ? 1 : n + 1) {
                char body[64], src[128], want[64];
                size_t k = 0;
                for (size_t i = 0; i < n; i++) {
                    if (escapes[e] && i == at) {
                        memcpy(body + k, escapes[e], 2);
                        k += 2;
                    }
                    body[k++] = (char)('a' + (i % 26));
                }
                if (escapes[e] && at == n) {
                    memcpy(body + k, escapes[e], 2);
                    k += 2;
                }
                int len = snprintf(src, sizeof src, "f() { x = %s\"%.*s\"; }", e % 2 ? "&" : "",
                                   (int)k, body);
                source_file *f = source_from_buffer("t.gsc", src, (size_t)len);
                diag_list d;
                diag_init(&d);
                arena a;
                arena_init(&a);
                ast_node *s = first_string(script_parse(f, profile_get(ATRC_PROFILE_UO), NULL, &a, &d));
                ck_assert_ptr_nonnull(s);
                size_t wn = decode_ref(body, k, want);
                ck_assert_uint_eq(s->len, wn);
                ck_assert_int_eq(memcmp(s->text, want, wn), 0);
                ck_assert_int_eq(s->text[wn], 0);
                arena_free_all(&a);
                diag_free(&d);
                source_free(f);
            }
        }
    }
}
END_TEST

Suite *make_arena_suite(void)
{
    Suite *s = suite_create("arena");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, alloc_aligned_distinct);
    tcase_add_test(tc, reset_keeps_room_for_the_round);
    tcase_add_test(tc, lower_every_byte_and_length);
    tcase_add_test(tc, copy_text_every_length);
    tcase_add_test(tc, string_bodies);
    suite_add_tcase(s, tc);
    return s;
}
