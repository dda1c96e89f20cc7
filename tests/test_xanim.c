/* xanim headers (7.1) and leaf asset resolution (4.8, 7.3). */
#include "atr_testlib.h"
#include "tmpdir_testlib.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

START_TEST(header_v14)
{
    /* unaligned on purpose: the header starts at offset 1 */
    const unsigned char buf[] = {0xff, 14, 0, 0x2c, 0x01, 3, 0, 1, 30, 0, 0xaa};
    xanim_header h;
    ck_assert_int_eq(xanim_read_header(buf + 1, 9, profile_get(ATRC_PROFILE_UO), &h), XANIM_OK);
    ck_assert_int_eq(h.version, 14);
    ck_assert_uint_eq(h.frames, 300);
    ck_assert_int_eq(h.bones, 3);
    ck_assert_uint_eq(h.flags, 1);
    ck_assert_int_eq(h.frame_rate, 30);
    ck_assert_int_eq(xanim_read_header(buf + 1, 10, profile_get(ATRC_PROFILE_COD1), &h), XANIM_OK);
    ck_assert_int_eq(xanim_read_header(buf + 1, 9, profile_get(ATRC_PROFILE_COD2), &h), XANIM_OK);
    /* v14 is out of date for cod4 */
    ck_assert_int_eq(xanim_read_header(buf + 1, 10, profile_get(ATRC_PROFILE_COD4), &h), XANIM_BAD_VERSION);
    ck_assert_int_eq(h.version, 14);
}
END_TEST

START_TEST(header_v17)
{
    const unsigned char buf[] = {17, 0, 0x10, 0x01, 0xfe, 0xff, 3, 7, 0x14, 0};
    xanim_header h;
    ck_assert_int_eq(xanim_read_header(buf, 10, profile_get(ATRC_PROFILE_COD4), &h), XANIM_OK);
    ck_assert_int_eq(h.version, 17);
    ck_assert_uint_eq(h.frames, 272);
    ck_assert_int_eq(h.bones, -2);
    ck_assert_uint_eq(h.flags, 3);
    ck_assert_int_eq(h.asset_type, 7);
    ck_assert_int_eq(h.frame_rate, 20);
    ck_assert_int_eq(xanim_read_header(buf, 9, profile_get(ATRC_PROFILE_COD4), &h), XANIM_TRUNCATED);
    ck_assert_int_eq(xanim_read_header(buf, 10, profile_get(ATRC_PROFILE_UO), &h), XANIM_BAD_VERSION);
    ck_assert_int_eq(h.version, 17);
}
END_TEST

START_TEST(header_short)
{
    const unsigned char buf[] = {14, 0, 1, 0, 1, 0, 0, 30, 0};
    xanim_header h;
    ck_assert_int_eq(xanim_read_header(buf, 8, profile_get(ATRC_PROFILE_UO), &h), XANIM_TRUNCATED);
    ck_assert_int_eq(xanim_read_header(buf, 1, profile_get(ATRC_PROFILE_UO), &h), XANIM_TRUNCATED);
    ck_assert_int_eq(xanim_read_header(buf, 0, profile_get(ATRC_PROFILE_UO), &h), XANIM_TRUNCATED);
    ck_assert_int_eq(xanim_read_header(NULL, 0, profile_get(ATRC_PROFILE_UO), &h), XANIM_TRUNCATED);
    /* a wrong version is reported as such even in a short file */
    const unsigned char old[] = {13, 0, 5};
    ck_assert_int_eq(xanim_read_header(old, 3, profile_get(ATRC_PROFILE_UO), &h), XANIM_BAD_VERSION);
    ck_assert_int_eq(h.version, 13);
}
END_TEST

/* ---- resolution against files in a temporary game directory ---- */

typedef struct game {
    tmp_game tmp;
    char path[600];
} game;

static int read_in_game(void *ud, const char *name, unsigned char *buf, size_t n, size_t *got,
                        const char **where, const char **err)
{
    game *g = ud;
    snprintf(g->path, sizeof g->path, "%s/%s", g->tmp.dir, name);
    *got = 0;
    *where = g->path;
    if (access(g->path, F_OK) != 0) return 0;
    FILE *fp = fopen(g->path, "rb");
    if (!fp) {
        *err = strerror(errno);
        return -1;
    }
    errno = 0;
    *got = fread(buf, 1, n, fp);
    int failed = ferror(fp);
    *err = errno ? strerror(errno) : "read error";
    fclose(fp);
    return failed ? -1 : 1;
}

static void game_init(game *g)
{
    tmp_game_make(&g->tmp, "xanim");
}

static void write_file(game *g, const char *name, const unsigned char *data, size_t len)
{
    tmp_game_write(&g->tmp, name, data, len);
}

/* A header: version, frames, looping, rate. */
static void write_xanim(game *g, const char *name, int version, unsigned frames, int looping, int rate)
{
    unsigned char b[10] = {(unsigned char)version, 0, (unsigned char)frames, (unsigned char)(frames >> 8), 1, 0,
                           (unsigned char)looping, 0, 0, 0};
    if (version == 17) {
        b[8] = (unsigned char)rate;
        write_file(g, name, b, 10);
    } else {
        b[7] = (unsigned char)rate;
        write_file(g, name, b, 9);
    }
}

static void game_free(game *g)
{
    ck_assert_int_eq(tmp_game_remove(&g->tmp), 0);
}

static tt *resolve(game *g, const char *text, const char *refs, atrc_profile profile)
{
    tt *t = tt_build(text, refs, profile);
    ck_assert_int_eq(t->built, 1);
    atr_asset_finder f = {g, read_in_game};
    atr_resolve_assets(&t->tree, t->src, &f, profile_get(profile), &t->d);
    return t;
}

START_TEST(resolve_present)
{
    game g;
    game_init(&g);
    write_xanim(&g, "walk", 14, 20, 1, 30);
    write_xanim(&g, "stand", 14, 31, 0, 15);
    tt *t = resolve(&g, "walk\nstand\n", NULL, ATRC_PROFILE_UO);
    ck_assert_str_eq(tt_diags(t), "");
    ck_assert_str_eq(tt_tree(t), "0 root parent=- n=2 first=1 flags=0\n"
                                 "1 stand parent=0 n=0 loop=0\n"
                                 "2 walk parent=0 n=0 loop=1\n");
    ck_assert_int_eq(t->tree.nodes[1].has_asset, 1);
    ck_assert_uint_eq(t->tree.nodes[1].frames, 31);
    ck_assert_int_eq(t->tree.nodes[1].frame_rate, 15);
    ck_assert_int_eq(t->tree.state->default_asset[1], 0);
    tt_free(t);
    write_xanim(&g, "walk", 17, 20, 1, 30);
    t = resolve(&g, "walk\n", NULL, ATRC_PROFILE_COD4);
    ck_assert_str_eq(tt_diags(t), "");
    ck_assert_int_eq(t->tree.nodes[1].looping, 1);
    tt_free(t);
    game_free(&g);
}
END_TEST

START_TEST(resolve_missing)
{
    game g;
    game_init(&g);
    write_xanim(&g, "a", 14, 20, 1, 30);
    const char *text = "a\n  b\n";
    tt *t = resolve(&g, text, NULL, ATRC_PROFILE_UO);
    ck_assert_str_eq(tt_diags(t), "x.atr:2:3: error: Cannot find 'xanim/b'\n");
    ck_assert_int_eq(t->tree.nodes[1].looping, -1);
    ck_assert_int_eq(t->tree.nodes[1].has_asset, 0);
    tt_free(t);
    t = resolve(&g, text, NULL, ATRC_PROFILE_COD1);
    ck_assert_str_eq(tt_diags(t), "x.atr:2:3: error: Cannot find 'xanim/b'\n");
    tt_free(t);
    t = resolve(&g, text, NULL, ATRC_PROFILE_COD2);
    ck_assert_str_eq(tt_diags(t), "x.atr:2:3: warning: Couldn't find xanim 'b', using default xanim 'void' instead\n");
    ck_assert_int_eq(t->tree.nodes[1].looping, 0);
    ck_assert_int_eq(t->tree.state->default_asset[1], 1);
    ck_assert_str_eq(t->tree.nodes[1].name, "b");
    tt_free(t);
    /* the default is a copy of the game's void when there is one */
    write_xanim(&g, "void", 17, 5, 1, 10);
    t = resolve(&g, "b\n", NULL, ATRC_PROFILE_COD4);
    ck_assert_str_eq(tt_diags(t), "x.atr:1:1: warning: Couldn't find xanim 'b', using default xanim 'void' instead\n");
    ck_assert_int_eq(t->tree.nodes[1].looping, 1);
    ck_assert_uint_eq(t->tree.nodes[1].frames, 5);
    ck_assert_int_eq(t->tree.nodes[1].frame_rate, 10);
    tt_free(t);
    game_free(&g);
}
END_TEST

START_TEST(resolve_void_builtin)
{
    game g;
    game_init(&g);
    /* placeholders and explicit void/void_loop need no file */
    tt *t = resolve(&g, "g : loopsync\n{\n}\nh\n{\n}\nvoid\n", NULL, ATRC_PROFILE_UO);
    ck_assert_str_eq(tt_diags(t), "");
    ck_assert_str_eq(tt_tree(t), "0 root parent=- n=3 first=1 flags=0\n"
                                 "1 void parent=0 n=0 loop=0\n"
                                 "2 h parent=0 n=1 first=4 flags=0\n"
                                 "3 g parent=0 n=1 first=5 flags=1\n"
                                 "4 void parent=2 n=0 loop=0\n"
                                 "5 void_loop parent=3 n=0 loop=1\n");
    ck_assert_int_eq(t->tree.nodes[5].has_asset, 1);
    ck_assert_uint_eq(t->tree.nodes[5].frames, 1);
    ck_assert_int_eq(t->tree.nodes[5].frame_rate, 30);
    tt_free(t);
    /* a game's own void_loop wins */
    write_xanim(&g, "void_loop", 14, 9, 1, 20);
    t = resolve(&g, "", "", ATRC_PROFILE_UO);
    ck_assert_str_eq(tt_tree(t), "0 root parent=- n=1 first=1 flags=0\n1 void parent=0 n=0 loop=0\n");
    tt_free(t);
    t = resolve(&g, "void_loop\n", NULL, ATRC_PROFILE_UO);
    ck_assert_uint_eq(t->tree.nodes[1].frames, 9);
    tt_free(t);
    game_free(&g);
}
END_TEST

START_TEST(resolve_bad_files)
{
    game g;
    game_init(&g);
    write_xanim(&g, "old", 17, 3, 0, 30);
    write_xanim(&g, "new", 14, 3, 0, 30);
    static const unsigned char five[] = {14, 0, 1, 0, 1};
    write_file(&g, "short", five, 5);
    write_file(&g, "empty", NULL, 0);
    tt *t = resolve(&g, "old\nshort\nempty\n", NULL, ATRC_PROFILE_UO);
    ck_assert_str_eq(tt_diags(t), "x.atr:3:1: error: malformed xanim 'empty' (file is 0 bytes, header needs 9)\n"
                                  "x.atr:2:1: error: malformed xanim 'short' (file is 5 bytes, header needs 9)\n"
                                  "x.atr:1:1: error: xanim 'old' out of date (version 17, expecting 14)\n");
    for (int i = 1; i <= 3; i++) ck_assert_int_eq(t->tree.nodes[i].looping, -1);
    tt_free(t);
    /* cod4 expects 17; a failed load is a warning and the void default */
    t = resolve(&g, "new\nold\n", NULL, ATRC_PROFILE_COD4);
    ck_assert_str_eq(tt_diags(t), "x.atr:1:1: warning: xanim 'new' out of date (version 14, expecting 17)\n"
                                  "x.atr:1:1: warning: Couldn't find xanim 'new', using default xanim 'void' instead\n");
    ck_assert_int_eq(t->tree.state->default_asset[2], 1);
    ck_assert_int_eq(t->tree.nodes[2].looping, 0);
    ck_assert_int_eq(t->tree.state->default_asset[1], 0);
    tt_free(t);
    /* a placeholder whose file is bad is located at its parent */
    static const unsigned char three[] = {14, 0, 1};
    write_file(&g, "void", three, 3);
    t = resolve(&g, "\n g\n{\n}\n", "g", ATRC_PROFILE_UO);
    ck_assert_str_eq(tt_diags(t), "x.atr:2:2: error: malformed xanim 'void' (file is 3 bytes, header needs 9)\n");
    tt_free(t);
    t = resolve(&g, "", "", ATRC_PROFILE_UO);
    ck_assert_str_eq(tt_diags(t), "x.atr:1:1: error: malformed xanim 'void' (file is 3 bytes, header needs 9)\n");
    tt_free(t);
    game_free(&g);
}
END_TEST

START_TEST(resolve_unreadable_and_huge)
{
    game g;
    game_init(&g);
    ck_assert_int_eq(os_mkdir(tmp_game_at(&g.tmp, "dir"), 0700), 0);
    tt *t = resolve(&g, "dir\n", NULL, ATRC_PROFILE_UO);
    ck_assert_int_eq(t->d.errors, 1);
    ck_assert_ptr_nonnull(strstr(tt_diags(t), "x.atr:1:1: error: cannot read xanim 'dir' ("));
    tt_free(t);
    /* a 1 GiB sparse file: only the header is read */
    write_xanim(&g, "huge", 14, 7, 1, 30);
    ck_assert_int_eq(truncate(tmp_game_at(&g.tmp, "huge"), (off_t)1 << 30), 0);
    t = resolve(&g, "huge\n", NULL, ATRC_PROFILE_UO);
    ck_assert_str_eq(tt_diags(t), "");
    ck_assert_uint_eq(t->tree.nodes[1].frames, 7);
    tt_free(t);
    game_free(&g);
}
END_TEST

/* cod2/cod4 precache (4.8): whatever made the load fail, the warning about the
** `void` default follows the load's own message. */
START_TEST(resolve_failed_load_takes_default)
{
    game g;
    game_init(&g);
    write_xanim(&g, "old", 17, 3, 1, 30);
    static const unsigned char five[] = {14, 0, 1, 0, 1};
    write_file(&g, "short", five, 5);
    tt *t = resolve(&g, "old\n short\n", NULL, ATRC_PROFILE_COD2);
    ck_assert_str_eq(tt_diags(t), "x.atr:2:2: warning: malformed xanim 'short' (file is 5 bytes, header needs 9)\n"
                                  "x.atr:2:2: warning: Couldn't find xanim 'short', using default xanim 'void' instead\n"
                                  "x.atr:1:1: warning: xanim 'old' out of date (version 17, expecting 14)\n"
                                  "x.atr:1:1: warning: Couldn't find xanim 'old', using default xanim 'void' instead\n");
    ck_assert_int_eq(t->d.errors, 0);
    for (int i = 1; i <= 2; i++) {
        ck_assert_int_eq(t->tree.state->default_asset[i], 1);
        ck_assert_int_eq(t->tree.nodes[i].looping, 0);
    }
    tt_free(t);
    /* An empty file: CoD2/CoD4 say "has 0 length"; uo/cod1 call it malformed. */
    write_file(&g, "empty", five, 0);
    t = resolve(&g, "empty\n", NULL, ATRC_PROFILE_COD4);
    ck_assert_str_eq(tt_diags(t), "x.atr:1:1: warning: xanim 'empty' has 0 length\n"
                                  "x.atr:1:1: warning: Couldn't find xanim 'empty', using default xanim 'void' instead\n");
    tt_free(t);
    t = resolve(&g, "empty\n", NULL, ATRC_PROFILE_UO);
    ck_assert_str_eq(tt_diags(t), "x.atr:1:1: error: malformed xanim 'empty' (file is 0 bytes, header needs 9)\n");
    tt_free(t);
    game_free(&g);
}
END_TEST

/* 6.1: a default leaf in a group of the other kind becomes the game's
** void_loop (precached on demand), even when the tree has no void_loop leaf. */
START_TEST(sync_default_takes_game_void_loop)
{
    game g;
    game_init(&g);
    write_xanim(&g, "void_loop", 14, 9, 1, 20);
    tt *t = resolve(&g, "g : loopsync\n{\nb\n}\n", NULL, ATRC_PROFILE_COD2);
    atr_sync_setup(&t->tree, t->src, profile_get(ATRC_PROFILE_COD2), &t->d);
    ck_assert_str_eq(tt_diags(t), "x.atr:3:1: warning: Couldn't find xanim 'b', using default xanim 'void' instead\n");
    ck_assert_str_eq(t->tree.nodes[2].name, "b");
    ck_assert_int_eq(t->tree.nodes[2].looping, 1);
    ck_assert_uint_eq(t->tree.nodes[2].frames, 9);
    ck_assert_int_eq(t->tree.nodes[2].frame_rate, 20);
    tt_free(t);
    /* the swap is silent and takes the file as it is, looping bit included */
    write_xanim(&g, "void_loop", 14, 4, 0, 20);
    t = resolve(&g, "g : loopsync\n{\nb\n}\n", NULL, ATRC_PROFILE_COD2);
    atr_sync_setup(&t->tree, t->src, profile_get(ATRC_PROFILE_COD2), &t->d);
    ck_assert_int_eq(t->d.errors, 0);
    ck_assert_int_eq(t->tree.nodes[2].looping, 0);
    ck_assert_uint_eq(t->tree.nodes[2].frames, 4);
    tt_free(t);
    /* no game void_loop: the built-in one */
    ck_assert_int_eq(unlink(tmp_game_at(&g.tmp, "void_loop")), 0);
    t = resolve(&g, "g : loopsync\n{\nb\n}\n", NULL, ATRC_PROFILE_COD4);
    atr_sync_setup(&t->tree, t->src, profile_get(ATRC_PROFILE_COD4), &t->d);
    ck_assert_int_eq(t->d.errors, 0);
    ck_assert_int_eq(t->tree.nodes[2].looping, 1);
    ck_assert_uint_eq(t->tree.nodes[2].frames, 1);
    ck_assert_int_eq(t->tree.nodes[2].frame_rate, 30);
    tt_free(t);
    game_free(&g);
}
END_TEST

Suite *make_xanim_suite(void)
{
    Suite *s = suite_create("xanim");
    TCase *tc = tcase_create("header");
    tcase_add_test(tc, header_v14);
    tcase_add_test(tc, header_v17);
    tcase_add_test(tc, header_short);
    suite_add_tcase(s, tc);
    tc = tcase_create("resolve");
    tcase_add_test(tc, resolve_present);
    tcase_add_test(tc, resolve_missing);
    tcase_add_test(tc, resolve_void_builtin);
    tcase_add_test(tc, resolve_bad_files);
    tcase_add_test(tc, resolve_unreadable_and_huge);
    tcase_add_test(tc, resolve_failed_load_takes_default);
    tcase_add_test(tc, sync_default_takes_game_void_loop);
    suite_add_tcase(s, tc);
    return s;
}
