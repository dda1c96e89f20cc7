/* Shared helpers of the script front-end tests: lex or parse a string and
** render tokens, the AST and diagnostics as text for ck_assert_str_eq. */
#ifndef GSC_TESTLIB_H
#define GSC_TESTLIB_H
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "script/script_parse.h"
#include "os/os.h"

/* "L:C: error: message\n" per diagnostic (no path, no excerpt). */
static inline char *gsc_diag_text(const diag_list *d)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = os_memstream_open(&buf, &len);
    for (size_t i = 0; i < d->count; i++)
        fprintf(f, "%d:%d: %s: %s\n", d->items[i].line, d->items[i].col,
                d->items[i].severity == DIAG_ERROR ? "error" : "warning", d->items[i].message);
    os_memstream_close(f, &buf, &len);
    return buf;
}

/* Token dump of n bytes (may contain NULs) under profile p, diagnostics
** appended after "--\n". */
static inline char *gsc_lex_np(const char *src, size_t n, atrc_profile p)
{
    source_file *f = source_from_buffer("t.gsc", src, n);
    diag_list d;
    diag_init(&d);
    char *toks = script_dump_tokens(f, profile_get(p), NULL, &d);
    char *diags = gsc_diag_text(&d);
    char *out = NULL;
    size_t len = 0;
    FILE *m = os_memstream_open(&out, &len);
    fputs(toks, m);
    if (d.count) fprintf(m, "--\n%s", diags);
    os_memstream_close(m, &out, &len);
    free(toks);
    free(diags);
    diag_free(&d);
    source_free(f);
    return out;
}

static inline char *gsc_lex_n(const char *src, size_t n)
{
    return gsc_lex_np(src, n, ATRC_PROFILE_UO);
}

static inline char *gsc_lex(const char *src)
{
    return gsc_lex_n(src, strlen(src));
}

/* AST dump under profile p, diagnostics appended after "--\n". */
static inline char *gsc_parse_np(const char *src, size_t n, int want_ast, atrc_profile p)
{
    source_file *f = source_from_buffer("t.gsc", src, n);
    diag_list d;
    diag_init(&d);
    arena a;
    arena_init(&a);
    ast_node *root = script_parse(f, profile_get(p), NULL, &a, &d);
    {
        /* Every parse of the tests also checks the driver's line-start
        ** shortcut against the parser (script_verify_line_starts). */
        diag_list vd;
        diag_init(&vd);
        arena va;
        arena_init(&va);
        ck_assert_int_eq(script_verify_line_starts(f, profile_get(p), &va, &vd), 0);
        diag_free(&vd);
        arena_free_all(&va);
    }
    char *ast = want_ast ? ast_dump_string(root) : xstrdup("");
    char *diags = gsc_diag_text(&d);
    char *out = NULL;
    size_t len = 0;
    FILE *m = os_memstream_open(&out, &len);
    fputs(ast, m);
    if (d.count) fprintf(m, "%s%s", want_ast ? "--\n" : "", diags);
    os_memstream_close(m, &out, &len);
    free(ast);
    free(diags);
    diag_free(&d);
    arena_free_all(&a);
    source_free(f);
    return out;
}

static inline char *gsc_parse_n(const char *src, size_t n, int want_ast)
{
    return gsc_parse_np(src, n, want_ast, ATRC_PROFILE_UO);
}

static inline char *gsc_parse(const char *src)
{
    return gsc_parse_n(src, strlen(src), 1);
}

#define assert_tokens(src, expected)                                                    \
    do {                                                                                \
        char *got_ = gsc_lex(src);                                                      \
        ck_assert_str_eq(got_, expected);                                               \
        free(got_);                                                                     \
    } while (0)

#define assert_ast(src, expected)                                                       \
    do {                                                                                \
        char *got_ = gsc_parse(src);                                                    \
        ck_assert_str_eq(got_, expected);                                               \
        free(got_);                                                                     \
    } while (0)

/* Exactly these diagnostics ("L:C: error: msg\n" each) and nothing else. */
#define assert_diag(src, expected)                                                      \
    do {                                                                                \
        const char *s_ = (src);                                                         \
        char *got_ = gsc_parse_n(s_, strlen(s_), 0);                                    \
        ck_assert_str_eq(got_, expected);                                               \
        free(got_);                                                                     \
    } while (0)

#define assert_diag_n(src, n, expected)                                                 \
    do {                                                                                \
        char *got_ = gsc_parse_n(src, n, 0);                                            \
        ck_assert_str_eq(got_, expected);                                               \
        free(got_);                                                                     \
    } while (0)

/* The AST dump without node positions (for tests about shapes, not places):
** "(kind L:C" becomes "(kind". */
static inline char *gsc_strip_positions(char *s)
{
    char *w = s;
    for (const char *r = s; *r;) {
        *w++ = *r;
        if (*r++ != '(') continue;
        while (*r && (*r == '_' || (*r >= 'a' && *r <= 'z'))) *w++ = *r++;
        const char *q = r;
        if (*q != ' ') continue;
        q++;
        if (*q < '0' || *q > '9') continue;
        while (*q >= '0' && *q <= '9') q++;
        if (*q != ':') continue;
        q++;
        while (*q >= '0' && *q <= '9') q++;
        r = q;
    }
    *w = 0;
    return s;
}

#define assert_shape_p(p, src, expected)                                                \
    do {                                                                                \
        const char *s_ = (src);                                                         \
        char *got_ = gsc_strip_positions(gsc_parse_np(s_, strlen(s_), 1, p));           \
        ck_assert_str_eq(got_, expected);                                               \
        free(got_);                                                                     \
    } while (0)

/* The same under an explicit profile. */
#define assert_tokens_p(p, src, expected)                                               \
    do {                                                                                \
        const char *s_ = (src);                                                         \
        char *got_ = gsc_lex_np(s_, strlen(s_), p);                                     \
        ck_assert_str_eq(got_, expected);                                               \
        free(got_);                                                                     \
    } while (0)

#define assert_ast_p(p, src, expected)                                                  \
    do {                                                                                \
        const char *s_ = (src);                                                         \
        char *got_ = gsc_parse_np(s_, strlen(s_), 1, p);                                \
        ck_assert_str_eq(got_, expected);                                               \
        free(got_);                                                                     \
    } while (0)

#define assert_diag_p(p, src, expected)                                                 \
    do {                                                                                \
        const char *s_ = (src);                                                         \
        char *got_ = gsc_parse_np(s_, strlen(s_), 0, p);                                \
        ck_assert_str_eq(got_, expected);                                               \
        free(got_);                                                                     \
    } while (0)

#endif
