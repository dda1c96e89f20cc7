/* The growable array (vec.h), the hash index (hashtab.h) and the output
** buffer (outbuf.h). */
#define _GNU_SOURCE /* fopencookie: a stream whose first write fails */
#include <check.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>
#include "base/arena.h"
#include "atrc.h"
#include "base/hashtab.h"
#include "os/os.h"
#include "posix_only.h"
#include "base/outbuf.h"
#include "base/text.h"
#include "base/vec.h"

START_TEST(push_grows_and_keeps_elements)
{
    int *items = NULL;
    size_t count = 0, cap = 0, grows = 0;
    for (int i = 0; i < 100000; i++) {
        size_t before = cap;
        *vec_push(items, count, cap) = i * 3;
        ck_assert_uint_ge(cap, count);
        if (cap != before) {
            grows++;
            ck_assert_uint_ge(cap, before * 2); /* doubling: amortized O(1) */
        }
    }
    ck_assert_uint_eq(count, 100000);
    ck_assert_uint_le(grows, 16);
    for (int i = 0; i < 100000; i++) ck_assert_int_eq(items[i], i * 3);
    free(items);
}
END_TEST

START_TEST(reserve_makes_room_once)
{
    struct pair { int a; double b; } *items = NULL;
    size_t count = 0, cap = 0;
    vec_reserve(items, cap, 1000);
    ck_assert_uint_ge(cap, 1000);
    struct pair *first = items;
    size_t reserved = cap;
    for (int i = 0; i < 1000; i++) *vec_push(items, count, cap) = (struct pair){i, i / 2.0};
    ck_assert_ptr_eq(items, first); /* no reallocation within the reserve */
    ck_assert_uint_eq(cap, reserved);
    vec_reserve(items, cap, 10);   /* already room: nothing changes */
    ck_assert_ptr_eq(items, first);
    ck_assert_uint_eq(cap, reserved);
    vec_reserve(items, cap, reserved + 1);
    ck_assert_uint_ge(cap, reserved * 2);
    ck_assert_int_eq(items[999].a, 999);
    ck_assert(items[999].b == 499.5);
    free(items);
}
END_TEST

/* The struct form: the same growth, its three fields named once. */
typedef VEC_STRUCT(int_vec, int) int_vec;

static void push_squares(struct int_vec *v, int n) /* a tagged VEC passes by its tag */
{
    for (int i = 0; i < n; i++) *VEC_PUSH(*v) = i * i;
}

START_TEST(vec_struct_push_reserve_free)
{
    VEC(double) d = {0};
    VEC_RESERVE(d, 100);
    ck_assert_uint_ge(d.cap, 100);
    ck_assert_uint_eq(d.count, 0);
    double *first = d.items;
    for (int i = 0; i < 100; i++) *VEC_PUSH(d) = i / 4.0;
    ck_assert_ptr_eq(d.items, first);
    ck_assert_uint_eq(d.count, 100);
    ck_assert(d.items[99] == 24.75);
    VEC_FREE(d);
    ck_assert_ptr_null(d.items);
    ck_assert_uint_eq(d.count, 0);
    ck_assert_uint_eq(d.cap, 0);
    *VEC_PUSH(d) = 1.5; /* usable again after a free */
    ck_assert_uint_eq(d.count, 1);
    ck_assert(d.items[0] == 1.5);
    VEC_FREE(d);

    int_vec v = {0};
    push_squares(&v, 5000);
    ck_assert_uint_eq(v.count, 5000);
    ck_assert_uint_ge(v.cap, v.count);
    for (int i = 0; i < 5000; i++) ck_assert_int_eq(v.items[i], i * i);
    int_vec copy = v; /* one type: assignable */
    ck_assert_ptr_eq(copy.items, v.items);
    VEC_FREE(v);
}
END_TEST

/* VEC_COPY: the elements copied, the capacity exactly their count, the
** copy independent of the original; an empty one copies to nothing. */
START_TEST(vec_copy_is_exact)
{
    VEC(long) from = {0}, to = {0}, none = {0}, empty_to = {0};
    for (long i = 0; i < 1000; i++) *VEC_PUSH(from) = i * 7;
    ck_assert_uint_gt(from.cap, from.count); /* grown by doubling: room left */
    VEC_COPY(to, from);
    ck_assert_uint_eq(to.count, 1000);
    ck_assert_uint_eq(to.cap, 1000);
    ck_assert_ptr_ne(to.items, from.items);
    from.items[5] = -1;
    for (long i = 0; i < 1000; i++) ck_assert_int_eq(to.items[i], i * 7);
    *VEC_PUSH(to) = 1; /* a copy grows like any VEC */
    ck_assert_uint_eq(to.count, 1001);
    VEC_COPY(empty_to, none);
    ck_assert_ptr_null(empty_to.items);
    ck_assert_uint_eq(empty_to.count, 0);
    ck_assert_uint_eq(empty_to.cap, 0);
    VEC_FREE(from);
    VEC_FREE(to);
}
END_TEST

/* VEC_FIELDS: a struct that is a VEC with fields of its own after them
** takes the VEC_* macros and keeps its fields. */
typedef struct counted_list {
    VEC_FIELDS(int);
    int pushed;
} counted_list;

START_TEST(vec_fields_struct)
{
    counted_list l = {0};
    for (int i = 0; i < 300; i++) {
        *VEC_PUSH(l) = i;
        l.pushed++;
    }
    ck_assert_uint_eq(l.count, 300);
    ck_assert_int_eq(l.pushed, 300);
    ck_assert_int_eq(l.items[299], 299);
    VEC_FREE(l);
    ck_assert_ptr_null(l.items);
    ck_assert_int_eq(l.pushed, 300);
}
END_TEST

START_TEST(array_size_in_range)
{
    ck_assert_uint_eq(array_size(0, 8), 0);
    ck_assert_uint_eq(array_size(SIZE_MAX, 0), 0);
    ck_assert_uint_eq(array_size(1000, 24), 24000);
    ck_assert_uint_eq(array_size(SIZE_MAX / 8, 8), SIZE_MAX / 8 * 8);
    ck_assert_uint_eq(array_size(SIZE_MAX, 1), SIZE_MAX);
}
END_TEST

/* Standard error while the out-of-memory test runs: its message is checked
** there, not printed among the suite names. */
static FILE *captured_stderr;

static void exit_3_if_message_was_written(void)
{
    char text[64] = {0};
    fflush(stderr);
    rewind(captured_stderr);
    size_t n = fread(text, 1, sizeof text - 1, captured_stderr);
    _exit(n == 20 && strcmp(text, "atrc: out of memory\n") == 0 ? 3 : 4);
}

/* A size whose byte count does not fit in size_t is refused, not wrapped:
** the message, then the program's handler (the CLI exits 2), never a return. */
static void expect_out_of_memory(void)
{
    captured_stderr = tmpfile();
    ck_assert_ptr_nonnull(captured_stderr);
    fflush(stderr);
    ck_assert_int_ge(dup2(fileno(captured_stderr), 2), 0);
    atrc_set_out_of_memory_handler(exit_3_if_message_was_written);
}

START_TEST(reserve_overflow_is_out_of_memory)
{
    expect_out_of_memory();
    double *items = NULL;
    size_t cap = 0;
    vec_reserve(items, cap, SIZE_MAX / 4);
    free(items);
}
END_TEST

/* One element past what size_t can count in bytes: refused the same way. */
START_TEST(array_size_overflow_is_out_of_memory)
{
    expect_out_of_memory();
    volatile size_t n = SIZE_MAX / 8 + 1;
    ck_assert_uint_eq(array_size(n, 8), 0); /* not reached */
}
END_TEST

static const char *name_at(const void *names, size_t i)
{
    return ((char *const *)names)[i];
}

/* The lookup every string-keyed table makes. */
static size_t find(const hashtab *t, char *const *names, uint32_t h, const char *name)
{
    return hashtab_find_string(t, h, name, 0, names, name_at);
}

typedef struct named {
    int value;
    const char *name;
} named;

static const char *named_at(const void *items, size_t i)
{
    return ((const named *)items)[i].name;
}

/* hashtab_find_string: each key by its own text, the newest of equal keys,
** case folded only when asked, and an absent key never matched. */
START_TEST(find_string_keys)
{
    hashtab t = {0};
    VEC(named) items = {0};
    ck_assert_uint_eq(hashtab_find_string(&t, text_hash(0, "x", 0), "x", 0, items.items, named_at), HASHTAB_END);
    static const char *const keys[] = {"Alpha", "beta", "alpha", "gamma", "Beta"};
    for (int i = 0; i < 5; i++) {
        hashtab_add(&t, text_hash(0, keys[i], 1)); /* folded hash: case variants share a chain */
        *VEC_PUSH(items) = (named){i, keys[i]};
    }
    ck_assert_uint_eq(hashtab_find_string(&t, text_hash(0, "alpha", 1), "alpha", 0, items.items, named_at), 2);
    ck_assert_uint_eq(hashtab_find_string(&t, text_hash(0, "Alpha", 1), "Alpha", 0, items.items, named_at), 0);
    ck_assert_uint_eq(hashtab_find_string(&t, text_hash(0, "ALPHA", 1), "ALPHA", 0, items.items, named_at),
                      HASHTAB_END);
    ck_assert_uint_eq(hashtab_find_string(&t, text_hash(0, "ALPHA", 1), "ALPHA", 1, items.items, named_at), 2);
    ck_assert_uint_eq(hashtab_find_string(&t, text_hash(0, "bEtA", 1), "bEtA", 1, items.items, named_at), 4);
    ck_assert_uint_eq(hashtab_find_string(&t, text_hash(0, "beta", 1), "beta", 0, items.items, named_at), 1);
    ck_assert_uint_eq(hashtab_find_string(&t, text_hash(0, "delta", 1), "delta", 1, items.items, named_at),
                      HASHTAB_END);
    /* A key under another hash is not a candidate, whatever its text. */
    ck_assert_uint_eq(hashtab_find_string(&t, text_hash(0, "gamma", 1) + 1, "gamma", 0, items.items, named_at),
                      HASHTAB_END);
    VEC_FREE(items);
    hashtab_free(&t);
}
END_TEST

typedef struct span {
    const char *z;
    size_t n;
} span;

static const char *span_at(const void *items, size_t i, size_t *len)
{
    const span *s = &((const span *)items)[i];
    *len = s->n;
    return s->z;
}

/* hashtab_find_bytes: keys are their bytes and their length, so a prefix, a
** longer run of the same text and bytes past a NUL all tell keys apart; the
** newest of equal keys is found. */
START_TEST(find_bytes_keys)
{
    hashtab t = {0};
    VEC(span) items = {0};
    ck_assert_uint_eq(hashtab_find_bytes(&t, 7, "x", 1, items.items, span_at), HASHTAB_END);
    static const char text[] = "abcab\0zab";
    const span keys[] = {{text, 2}, {text, 3}, {text + 3, 2}, {text + 5, 4}, {text + 5, 3}};
    for (int i = 0; i < 5; i++) {
        hashtab_add(&t, 7); /* one hash: every key a candidate of every lookup */
        *VEC_PUSH(items) = keys[i];
    }
    ck_assert_uint_eq(hashtab_find_bytes(&t, 7, "ab", 2, items.items, span_at), 2);
    ck_assert_uint_eq(hashtab_find_bytes(&t, 7, "abc", 3, items.items, span_at), 1);
    ck_assert_uint_eq(hashtab_find_bytes(&t, 7, "abca", 4, items.items, span_at), HASHTAB_END);
    ck_assert_uint_eq(hashtab_find_bytes(&t, 7, "a", 1, items.items, span_at), HASHTAB_END);
    ck_assert_uint_eq(hashtab_find_bytes(&t, 7, "\0zab", 4, items.items, span_at), 3);
    ck_assert_uint_eq(hashtab_find_bytes(&t, 7, "\0za", 3, items.items, span_at), 4);
    ck_assert_uint_eq(hashtab_find_bytes(&t, 7, "\0zb", 3, items.items, span_at), HASHTAB_END);
    ck_assert_uint_eq(hashtab_find_bytes(&t, 8, "ab", 2, items.items, span_at), HASHTAB_END); /* other hash */
    VEC_FREE(items);
    hashtab_free(&t);
}
END_TEST

START_TEST(lookup_of_absent_keys)
{
    hashtab t = {0};
    char *names[] = {"alpha", "beta"};
    ck_assert_uint_eq(find(&t, names, text_hash(0, "alpha", 0), "alpha"), HASHTAB_END); /* empty table */
    ck_assert_uint_eq(hashtab_add(&t, text_hash(0, "alpha", 0)), 0);
    ck_assert_uint_eq(hashtab_add(&t, text_hash(0, "beta", 0)), 1);
    ck_assert_uint_eq(find(&t, names, text_hash(0, "alpha", 0), "alpha"), 0);
    ck_assert_uint_eq(find(&t, names, text_hash(0, "beta", 0), "beta"), 1);
    ck_assert_uint_eq(find(&t, names, text_hash(0, "gamma", 0), "gamma"), HASHTAB_END);
    ck_assert_uint_eq(t.count, 2);
    hashtab_clear(&t); /* every entry forgotten, the table reusable */
    ck_assert_uint_eq(find(&t, names, text_hash(0, "alpha", 0), "alpha"), HASHTAB_END);
    ck_assert_uint_eq(hashtab_add(&t, text_hash(0, "beta", 0)), 0);
    ck_assert_uint_eq(find(&t, names + 1, text_hash(0, "beta", 0), "beta"), 0);
    hashtab_free(&t);
    ck_assert_ptr_null(t.buckets);
    ck_assert_uint_eq(find(&t, names, text_hash(0, "alpha", 0), "alpha"), HASHTAB_END);
}
END_TEST

/* Keys sharing one hash, and hashes sharing a bucket, are all found, each by
** its own key; the candidates of one hash come newest first. */
START_TEST(hash_collisions)
{
    hashtab t = {0};
    char *names[] = {"a", "b", "c", "d", "e", "f"};
    uint32_t last = 15; /* last + 16 shares its bucket while the table is small */
    for (size_t i = 0; i < 6; i++) ck_assert_uint_eq(hashtab_add(&t, i < 4 ? last : last + 16), i);
    for (size_t i = 0; i < 6; i++) ck_assert_uint_eq(find(&t, names, i < 4 ? last : last + 16, names[i]), i);
    ck_assert_uint_eq(find(&t, names, last, "e"), HASHTAB_END); /* e shares the bucket, not the hash */
    ck_assert_uint_eq(find(&t, names, last, "zz"), HASHTAB_END);
    size_t seen = 0;
    for (size_t i = hashtab_first(&t, last); i != HASHTAB_END; i = hashtab_next(&t, last, i))
        ck_assert_uint_eq(i, 3 - seen++); /* newest first */
    ck_assert_uint_eq(seen, 4);
    hashtab_free(&t);
}
END_TEST

/* A reserved table keeps its entries and takes that many more without moving. */
START_TEST(hashtab_reserve_room)
{
    hashtab t = {0};
    char *names[1000];
    for (size_t i = 0; i < 1000; i++) {
        names[i] = malloc(16);
        snprintf(names[i], 16, "n%zu", i);
    }
    for (size_t i = 0; i < 10; i++) hashtab_add(&t, text_hash(0, names[i], 0));
    hashtab_reserve(&t, 1000);
    ck_assert_uint_ge(t.mask + 1, 2000);
    const hashtab_node *nodes = t.nodes;
    for (size_t i = 0; i < 10; i++) ck_assert_uint_eq(find(&t, names, text_hash(0, names[i], 0), names[i]), i);
    for (size_t i = 10; i < 1000; i++) ck_assert_uint_eq(hashtab_add(&t, text_hash(0, names[i], 0)), i);
    ck_assert_ptr_eq(t.nodes, nodes);
    for (size_t i = 0; i < 1000; i++) ck_assert_uint_eq(find(&t, names, text_hash(0, names[i], 0), names[i]), i);
    hashtab_reserve(&t, 10); /* never shrinks */
    ck_assert_ptr_eq(t.nodes, nodes);
    for (size_t i = 0; i < 1000; i++) free(names[i]);
    hashtab_free(&t);
}
END_TEST

START_TEST(many_entries)
{
    enum { N = 200000 };
    char **names = malloc(N * sizeof *names);
    hashtab t = {0};
    for (size_t i = 0; i < N; i++) {
        char buf[32];
        snprintf(buf, sizeof buf, "name_%zu", i);
        names[i] = strdup(buf);
        ck_assert_uint_eq(hashtab_add(&t, text_hash(0, names[i], 0)), i);
        ck_assert_uint_le(t.count * 2, t.mask + 1); /* at most one entry per two buckets */
    }
    ck_assert_uint_eq(t.count, N);
    for (size_t i = 0; i < N; i++) ck_assert_uint_eq(find(&t, names, text_hash(0, names[i], 0), names[i]), i);
    for (size_t i = 0; i < 1000; i++) {
        char buf[32];
        snprintf(buf, sizeof buf, "other_%zu", i);
        ck_assert_uint_eq(find(&t, names, text_hash(0, buf, 0), buf), HASHTAB_END);
    }
    for (size_t i = 0; i < N; i++) free(names[i]);
    free(names);
    hashtab_free(&t);
}
END_TEST

/* Entries listed only for their place: numbered in step with the array,
** found by no lookup, and never in a chain, also after the table grows. */
START_TEST(unlinked_entries)
{
    enum { N = 20000 };
    char *names[N + 1];
    hashtab t = {0};
    uint32_t h = text_hash(0, "a", 0);
    names[0] = "a";
    ck_assert_uint_eq(hashtab_add(&t, h), 0);
    for (size_t i = 1; i <= N; i++) {
        names[i] = "a"; /* the same name again */
        ck_assert_uint_eq(hashtab_add_unlinked(&t), i);
    }
    ck_assert_uint_eq(t.count, N + 1);
    /* The one linked entry is the only candidate: the chain did not grow. */
    size_t candidates = 0;
    for (size_t i = hashtab_first(&t, h); i != HASHTAB_END; i = hashtab_next(&t, h, i)) candidates++;
    ck_assert_uint_eq(candidates, 1);
    ck_assert_uint_eq(find(&t, names, h, "a"), 0);
    ck_assert_uint_eq(hashtab_add(&t, text_hash(0, "b", 0)), N + 1);
    hashtab_free(&t);
}
END_TEST

/* A stream buffer: what reaches the stream is exactly what was written, in
** order, across block boundaries and puts larger than a block. */
START_TEST(outbuf_stream_order)
{
    char *mem = NULL;
    size_t memlen = 0;
    FILE *f = os_memstream_open(&mem, &memlen);
    ck_assert_ptr_nonnull(f);
    outbuf b;
    outbuf_stream(&b, f);
    size_t want_len = 0, big = (size_t)200 << 10;
    char *want = malloc(big * 2 + 100000);
    char *chunk = malloc(big);
    for (size_t i = 0; i < big; i++) chunk[i] = (char)('a' + i % 26);
    for (int i = 0; i < 30000; i++) {
        outbuf_char(&b, (char)('0' + i % 10));
        want[want_len++] = (char)('0' + i % 10);
        if (i == 12345) { /* larger than the block: written as it is */
            outbuf_put(&b, chunk, big);
            memcpy(want + want_len, chunk, big);
            want_len += big;
        }
        if (i % 1000 == 0) {
            outbuf_int(&b, -(int64_t)i * 1000003);
            want_len += (size_t)sprintf(want + want_len, "%lld", -(long long)i * 1000003);
        }
    }
    outbuf_int(&b, INT64_MIN);
    want_len += (size_t)sprintf(want + want_len, "%lld", (long long)INT64_MIN);
    ck_assert_int_eq(outbuf_flush(&b), 0);
    outbuf_free(&b);
    os_memstream_close(f, &mem, &memlen);
    ck_assert_uint_eq(memlen, want_len);
    ck_assert_int_eq(memcmp(mem, want, want_len), 0);
    free(mem);
    free(want);
    free(chunk);
}
END_TEST

/* Numbers as printf spells them: every value around the digit-pair
** boundaries, the extremes, in a string and across a stream's blocks. */
START_TEST(outbuf_numbers)
{
    outbuf b = {0};
    char want[32];
    const int64_t edges[] = {INT64_MIN, INT64_MIN + 1, INT64_MAX, -1000000000000LL, 4294967295LL, 65535};
    for (int64_t v = -300000; v <= 300000; v += (v > -1000 && v < 1000) ? 1 : 7) {
        outbuf_flush(&b);
        outbuf_int(&b, v);
        sprintf(want, "%lld", (long long)v);
        ck_assert_str_eq(b.s, want);
    }
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        outbuf_flush(&b);
        outbuf_int(&b, edges[i]);
        sprintf(want, "%lld", (long long)edges[i]);
        ck_assert_str_eq(b.s, want);
        ck_assert_uint_eq(b.len, strlen(want));
    }
    outbuf_free(&b);
}
END_TEST

/* A failed write is reported by the next flush. */
START_TEST(outbuf_stream_write_error)
{
    FILE *f = fopen("/dev/full", "w");
    if (!f) return; /* no /dev/full here */
    setvbuf(f, NULL, _IONBF, 0);
    outbuf b;
    outbuf_stream(&b, f);
    outbuf_str(&b, "lost");
    ck_assert_int_eq(outbuf_flush(&b), -1);
    ck_assert_int_eq(outbuf_flush(&b), 0); /* nothing new failed */
    outbuf_free(&b);
    fclose(f);
}
END_TEST

#if !OS_WINDOWS /* fopencookie is glibc's */
static ssize_t write_or_fail(void *cookie, const char *buf, size_t n)
{
    (void)buf;
    return *(int *)cookie ? -1 : (ssize_t)n;
}
#endif

/* A write that fails when a full block goes out mid-way is still reported
** by the next flush, though the writes after it succeed. */
START_TEST(outbuf_write_error_mid_way)
{
#if !OS_WINDOWS
    static int failing; /* static: the stream may outlive a failed assertion */
    cookie_io_functions_t io = {NULL, write_or_fail, NULL, NULL};
    FILE *f = fopencookie(&failing, "w", io);
    ck_assert_ptr_nonnull(f);
    setvbuf(f, NULL, _IONBF, 0);
    outbuf b;
    outbuf_stream(&b, f);
    char chunk[1000];
    memset(chunk, 'x', sizeof chunk);
    failing = 1;
    for (int i = 0; i < 100; i++) outbuf_put(&b, chunk, sizeof chunk); /* past the 64 KB block */
    failing = 0;
    clearerr(f); /* the stream's own error flag aside: the buffer remembers */
    ck_assert_int_eq(outbuf_flush(&b), -1);
    outbuf_str(&b, "fine");
    ck_assert_int_eq(outbuf_flush(&b), 0);
    outbuf_free(&b);
    fclose(f);
#endif
}
END_TEST

/* The one JSON string escaper: counted bytes (a NUL inside is escaped, not
** an end), control bytes escaped, bytes that are not UTF-8 as U+FFFD, a
** long plain run copied through the 8-byte test. */
START_TEST(outbuf_json_strings)
{
    outbuf b = {0};
    outbuf_json_string(&b, "a\"b\\c\n\x01\0d\xff\xed\xa0\x80\xc3\xa9", 15);
    ck_assert_str_eq(b.s, "\"a\\\"b\\\\c\\n\\u0001\\u0000d\\ufffd\\ufffd\\ufffd\\ufffd\xc3\xa9\"");
    outbuf_flush(&b);
    outbuf_json_string(&b, "0123456789abcdefghij\xc3", 21);
    ck_assert_str_eq(b.s, "\"0123456789abcdefghij\\ufffd\"");
    outbuf_flush(&b);
    outbuf_json_string(&b, "", 0);
    ck_assert_str_eq(b.s, "\"\"");
    outbuf_free(&b);
}
END_TEST

/* Reserved room keeps the next bytes together: in a stream buffer after
** writing out what it held, in a string by growing it. */
START_TEST(outbuf_reserve_room)
{
    char *mem = NULL;
    size_t memlen = 0;
    FILE *f = os_memstream_open(&mem, &memlen);
    outbuf b;
    outbuf_stream(&b, f);
    char chunk[65000];
    memset(chunk, 'a', sizeof chunk);
    outbuf_put(&b, chunk, sizeof chunk);
    outbuf_reserve(&b, 1000); /* 65,000 + 1,000 does not fit the block */
    ck_assert_uint_eq(b.len, 0);
    outbuf_free(&b);
    os_memstream_close(f, &mem, &memlen);
    ck_assert_uint_eq(memlen, sizeof chunk);
    free(mem);
    outbuf s = {0};
    outbuf_reserve(&s, 100);
    ck_assert_uint_ge(s.cap, 101);
    ck_assert_str_eq(s.s, "");
    outbuf_free(&s);
}
END_TEST

/* A string grows, stays terminated, and forgets its text at a flush. */
START_TEST(outbuf_string)
{
    outbuf b = {0};
    ck_assert_ptr_null(b.s);
    outbuf_put(&b, "", 0);
    ck_assert_str_eq(b.s, "");
    for (int i = 0; i < 5000; i++) outbuf_char(&b, 'x');
    ck_assert_uint_eq(b.len, 5000);
    ck_assert_uint_eq(strlen(b.s), 5000);
    char longer[600];
    memset(longer, 'y', sizeof longer - 1);
    longer[sizeof longer - 1] = 0;
    outbuf_flush(&b);
    ck_assert_str_eq(b.s, "");
    outbuf_printf(&b, "%d-%s-%s", 7, "ab", longer); /* longer than printf's small buffer */
    ck_assert_uint_eq(b.len, strlen("7-ab-") + sizeof longer - 1);
    ck_assert_int_eq(strncmp(b.s, "7-ab-yyy", 8), 0);
    ck_assert_int_eq(b.s[b.len], 0);
    outbuf_free(&b);
}
END_TEST

Suite *make_vec_suite(void)
{
    Suite *s = suite_create("vec");
    TCase *tc = tcase_create("vec");
    tcase_add_test(tc, push_grows_and_keeps_elements);
    tcase_add_test(tc, reserve_makes_room_once);
    tcase_add_test(tc, vec_struct_push_reserve_free);
    tcase_add_test(tc, vec_copy_is_exact);
    tcase_add_test(tc, vec_fields_struct);
    tcase_add_test(tc, array_size_in_range);
    tcase_add_posix_exit_test(tc, reserve_overflow_is_out_of_memory, 3,
                              "a test that exits needs Check's fork mode, which Windows lacks");
    tcase_add_posix_exit_test(tc, array_size_overflow_is_out_of_memory, 3,
                              "a test that exits needs Check's fork mode, which Windows lacks");
    suite_add_tcase(s, tc);
    tc = tcase_create("hashtab");
    tcase_add_test(tc, find_string_keys);
    tcase_add_test(tc, find_bytes_keys);
    tcase_add_test(tc, lookup_of_absent_keys);
    tcase_add_test(tc, hash_collisions);
    tcase_add_test(tc, hashtab_reserve_room);
    tcase_add_test(tc, many_entries);
    tcase_add_test(tc, unlinked_entries);
    suite_add_tcase(s, tc);
    tc = tcase_create("outbuf");
    tcase_add_test(tc, outbuf_stream_order);
    tcase_add_test(tc, outbuf_numbers);
    tcase_add_test(tc, outbuf_stream_write_error);
    tcase_add_posix_test(tc, outbuf_write_error_mid_way, "fopencookie() is glibc's");
    tcase_add_test(tc, outbuf_reserve_room);
    tcase_add_test(tc, outbuf_json_strings);
    tcase_add_test(tc, outbuf_string);
    suite_add_tcase(s, tc);
    return s;
}
