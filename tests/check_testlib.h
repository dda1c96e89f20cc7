/* Helpers of the compile-stage check tests: run the checks of src/check/check.c on
** a script (parsed as the front end streams it) or on an AST written as the
** S-expressions of --dump-ast (for forms a grammar may produce that the
** current one does not), and render every diagnostic as
** "L:C: severity: message\n" for ck_assert_str_eq. */
#ifndef CHECK_TESTLIB_H
#define CHECK_TESTLIB_H
#include "gsc_testlib.h"

#include "script/ast_build.h"
#include "check_pieces_testlib.h"
#include "check/check_stage.h"
#include "game/profile.h"

/* The diagnostics of src: each function whole (streamed 0) or a statement
** at a time (streamed 1). */
static inline char *check_run_way(atrc_profile p, atrc_game_mode mode, int developer_script,
                                  const char *src, int streamed)
{
    source_file *f = source_from_buffer("t.gsc", src, strlen(src));
    diag_list d;
    diag_init(&d);
    atrc_options opts;
    memset(&opts, 0, sizeof opts);
    opts.profile = p;
    opts.game_mode = mode;
    opts.developer_script = developer_script;
    arena scratch;
    arena_init(&scratch);
    check_state *st = check_begin(f, profile_get(p), &opts, &d);
    if (streamed)
        script_parse_stream(f, profile_get(p), NULL, &scratch, &d, check_testlib_item, check_testlib_function, st, 0);
    else
        script_parse_each(f, profile_get(p), &scratch, &d, check_testlib_item, st);
    check_end(st, NULL);
    char *out = gsc_diag_text(&d);
    arena_free_all(&scratch);
    diag_free(&d);
    source_free(f);
    return out;
}

/* The diagnostics of src, the same whether each function comes whole or a
** statement at a time (as a long one does from the front end). */
static inline char *check_run_dev(atrc_profile p, atrc_game_mode mode, int developer_script,
                                  const char *src)
{
    char *whole = check_run_way(p, mode, developer_script, src, 0);
    char *streamed = check_run_way(p, mode, developer_script, src, 1);
    ck_assert_str_eq(streamed, whole);
    free(streamed);
    return whole;
}

static inline char *check_run(atrc_profile p, atrc_game_mode mode, const char *src)
{
    return check_run_dev(p, mode, 0, src);
}

/* "(kind L:C "text" children...)" as ast_dump writes it. */
static inline ast_node *sx_parse(arena *a, const char **pp)
{
    const char *p = *pp;
    while (*p == ' ' || *p == '\n') p++;
    ck_assert_int_eq(*p, '(');
    p++;
    const char *k = p;
    while (*p && *p != ' ' && *p != ')') p++;
    ast_kind kind = AST_KIND_COUNT;
    for (int i = 0; i < AST_KIND_COUNT; i++)
        if (strlen(ast_kind_name((ast_kind)i)) == (size_t)(p - k) &&
            !strncmp(ast_kind_name((ast_kind)i), k, (size_t)(p - k)))
            kind = (ast_kind)i;
    ck_assert_msg(kind != AST_KIND_COUNT, "unknown kind in %s", k);
    int line = 0, col = 0, used = 0;
    ck_assert_int_eq(sscanf(p, " %d:%d%n", &line, &col, &used), 2);
    p += used;
    ast_node *n = ast_new(a, kind, line, col);
    while (*p == ' ') p++;
    if (*p == '"') {
        const char *s = ++p;
        while (*p && *p != '"') p++;
        n->text = arena_strndup(a, s, (size_t)(p - s));
        n->len = (size_t)(p - s);
        p++;
    }
    for (;;) {
        while (*p == ' ' || *p == '\n') p++;
        if (*p == ')') {
            p++;
            break;
        }
        *pp = p;
        ast_append(n, sx_parse(a, pp));
        p = *pp;
    }
    *pp = p;
    return n;
}

/* Checks each item of a (file ...) S-expression; the source text only
** serves diagnostic excerpts. */
static inline char *check_run_ast(atrc_profile p, const char *sx)
{
    source_file *f = source_from_buffer("t.gsc", "", 0);
    diag_list d;
    diag_init(&d);
    atrc_options opts;
    memset(&opts, 0, sizeof opts);
    opts.profile = p;
    arena a;
    arena_init(&a);
    const char *cur = sx;
    ast_node *root = sx_parse(&a, &cur);
    check_state *st = check_begin(f, profile_get(p), &opts, &d);
    for (const ast_node *c = root->child; c; c = c->next) check_item(st, c);
    check_end(st, NULL);
    char *out = gsc_diag_text(&d);
    arena_free_all(&a);
    diag_free(&d);
    source_free(f);
    return out;
}

/* Exactly these diagnostics under profile p (file-list mode). */
#define assert_check(p, src, expected) assert_check_mode(p, ATRC_GAME_FILES, src, expected)

#define assert_check_mode(p, mode, src, expected)                                       \
    do {                                                                                \
        char *got_ = check_run(p, mode, src);                                           \
        ck_assert_str_eq(got_, expected);                                               \
        free(got_);                                                                     \
    } while (0)

/* The same for cod1 and uo (grammar G1) / cod2 and cod4 (G2). */
#define assert_check_g1(src, expected)                                                  \
    do {                                                                                \
        assert_check(ATRC_PROFILE_COD1, src, expected);                                 \
        assert_check(ATRC_PROFILE_UO, src, expected);                                   \
    } while (0)
#define assert_check_g2(src, expected)                                                  \
    do {                                                                                \
        assert_check(ATRC_PROFILE_COD2, src, expected);                                 \
        assert_check(ATRC_PROFILE_COD4, src, expected);                                 \
    } while (0)
#define assert_check_all(src, expected)                                                 \
    do {                                                                                \
        assert_check_g1(src, expected);                                                 \
        assert_check_g2(src, expected);                                                 \
    } while (0)

/* The same with the developer_script dvar set (multiplayer). */
#define assert_check_devscript(p, src, expected)                                        \
    do {                                                                                \
        char *got_ = check_run_dev(p, ATRC_GAME_MP, 1, src);                            \
        ck_assert_str_eq(got_, expected);                                               \
        free(got_);                                                                     \
    } while (0)

#define assert_check_ast(p, sx, expected)                                               \
    do {                                                                                \
        char *got_ = check_run_ast(p, sx);                                              \
        ck_assert_str_eq(got_, expected);                                               \
        free(got_);                                                                     \
    } while (0)

#endif
