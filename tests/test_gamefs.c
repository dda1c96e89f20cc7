/* The game-file layer (game-files.md): the engine's search path (loose files,
** archives sorted by path compare, mod over base, localized archives), name
** folding, duplicate and hostile archive entries, damaged archives.  Every
** archive is built here at run time (tests/zip_testlib.h), none is committed. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "files/gamefs.h"
#include "game/profile.h"
#include "tmpdir_testlib.h"
#include "os/os.h"
#include "posix_only.h"
#include "base/source.h"
#include "zip_testlib.h"

static tmp_game game;

static const char *at(const char *rel)
{
    return tmp_game_at(&game, rel);
}

static void put(const char *rel, const char *text)
{
    tmp_game_put(&game, rel, text);
}

/* An archive holding one entry `name` with text `text`. */
static void pak(const char *rel, const char *name, const char *text)
{
    ztest_entry e = {name, 0, text, strlen(text), -1, 0};
    tmp_game_make_parents(&game, rel);
    ck_assert_int_eq(ztest_write(at(rel), &e, 1), 0);
}

static void paks(const char *rel, const ztest_entry *e, size_t n)
{
    tmp_game_make_parents(&game, rel);
    ck_assert_int_eq(ztest_write(at(rel), e, n), 0);
}

typedef struct fixture {
    arena mem;
    diag_list diags;
    gamefs fs;
} fixture;

static fixture *fx_new(atrc_profile profile)
{
    fixture *f = calloc(1, sizeof *f);
    arena_init(&f->mem);
    diag_init(&f->diags);
    gamefs_init(&f->fs, &f->mem, profile_get(profile));
    f->fs.diags = &f->diags;
    return f;
}

static void fx_free(fixture *f)
{
    gamefs_free(&f->fs);
    diag_free(&f->diags);
    arena_free_all(&f->mem);
    free(f);
}

/* The file's contents as found, prefixed by where it was found (relative to the game directory). */
static const char *read_as(fixture *f, const char *name)
{
    const char *err = NULL;
    source_file *s = gamefs_open(&f->fs, name, &err);
    if (!s) return err ? arena_printf(&f->mem, "error: %s", err) : "(none)";
    const char *path = s->path;
    if (strncmp(path, game.dir, strlen(game.dir)) == 0) path += strlen(game.dir) + 1;
    const char *r = arena_printf(&f->mem, "%s=%s", path, s->data);
    source_free(s);
    return r;
}

/* The search path, highest priority first, relative to the game directory, ';'-separated. */
static const char *order(fixture *f)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = os_memstream_open(&text, &len);
    gamefs_describe(&f->fs, m);
    os_memstream_close(m, &text, &len);
    char *out = arena_alloc(&f->mem, len + 1);
    size_t k = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char *p = strstr(line, game.dir);
        if (p) memmove(p, p + strlen(game.dir) + 1, strlen(p + strlen(game.dir) + 1) + 1);
        k += (size_t)sprintf(out + k, "%s%s", k ? ";" : "", line);
    }
    out[k] = 0;
    free(text);
    return out;
}

static const char *diags(fixture *f)
{
    size_t k = 0;
    char *out = arena_alloc(&f->mem, 4096);
    for (size_t i = 0; i < f->diags.count && k < 3500; i++) {
        const char *m = f->diags.items[i].message;
        char buf[600];
        snprintf(buf, sizeof buf, "%s", m);
        char *p;
        size_t dl = strlen(game.dir);
        while ((p = strstr(buf, game.dir)) != NULL) memmove(p, p + dl + 1, strlen(p + dl + 1) + 1);
        k += (size_t)snprintf(out + k, 4096 - k, "%s%s", k ? "\n" : "", buf);
    }
    out[k] = 0;
    return out;
}

static void setup(void)
{
    tmp_game_make(&game, "gamefs");
}

static void teardown(void)
{
    tmp_game_remove(&game);
}

START_TEST(path_compare)
{
    ck_assert_int_eq(gamefs_path_compare("Maps\\MP:x", "maps/mp/X"), 0);
    ck_assert_int_lt(gamefs_path_compare("a.pk3", "Zz.pk3"), 0);    /* not byte order */
    ck_assert_int_lt(gamefs_path_compare("pak\\2.pk3", "pak0.pk3"), 0); /* '\\' sorts as '/' */
    ck_assert_int_gt(gamefs_path_compare("pak_a.pk3", "pakz.pk3"), 0);  /* letters fold up */
    ck_assert_int_lt(gamefs_path_compare("pak", "pak0"), 0);
}
END_TEST

/* A directory's file names over the whole search path: loose files of
** every spelling of each component, archive entries directly in it, each
** name once, lower case, sorted. */
START_TEST(listing)
{
    put("main/maps/mp/gametypes/TDM.gsc", "");
    put("main/Maps/MP/gametypes/ctf.gsc", "");
    put("main/maps/mp/gametypes/notes.txt", "");
    put("mod/maps/mp/gametypes/_util.GSC", "");
    ztest_entry e[] = {{"maps/MP/gametypes/dm.gsc", 0, "", 0, -1, 0},
                       {"maps\\mp\\gametypes\\tdm.gsc", 0, "", 0, -1, 0},
                       {"maps/mp/gametypes/sub/deep.gsc", 0, "", 0, -1, 0},
                       {"maps/mp/gametypes.gsc", 0, "", 0, -1, 0}};
    paks("mod/z.pk3", e, sizeof e / sizeof *e);
    fixture *f = fx_new(ATRC_PROFILE_UO);
    gamefs_add_dir(&f->fs, at("main"));
    gamefs_add_dir(&f->fs, at("mod"));
    const char **names;
    size_t n = gamefs_list(&f->fs, "Maps\\mp/gametypes", ".gsc", &names);
    char got[256] = "";
    for (size_t i = 0; i < n; i++) snprintf(got + strlen(got), sizeof got - strlen(got), "%s;", names[i]);
    ck_assert_str_eq(got, "_util;ctf;dm;tdm;");
    ck_assert_uint_eq(gamefs_list(&f->fs, "maps/sp", ".gsc", &names), 0);
    ck_assert_str_eq(diags(f), "");
    fx_free(f);
}
END_TEST

START_TEST(archive_order)
{
    pak("main/pak0.pk3", "animtrees/x.atr", "pak0");
    pak("main/PAK1.pk3", "animtrees/x.atr", "PAK1");
    pak("main/pak\\2.pk3", "animtrees/x.atr", "pak\\2");
    pak("main/Zz.pk3", "other", "-");
    pak("main/a.pk3", "other", "-");
    pak("main/pak_a.pk3", "other", "-");
    pak("main/notes.zip", "animtrees/x.atr", "zip");      /* not an archive of cod1/uo */
    pak("main/pak9.iwd", "animtrees/x.atr", "iwd");
    put("main/animtrees/x.atr", "loose");
    fixture *f = fx_new(ATRC_PROFILE_COD1);
    gamefs_add_dir(&f->fs, at("main"));
    ck_assert_str_eq(order(f), "archive main/Zz.pk3;archive main/pak_a.pk3;archive main/PAK1.pk3;"
                               "archive main/pak0.pk3;archive main/pak\\2.pk3;archive main/a.pk3;dir main");
    /* an archive beats the loose files of its directory; later-sorting archives win */
    ck_assert_str_eq(read_as(f, "animtrees/x.atr"), "main/PAK1.pk3:animtrees/x.atr=PAK1");
    ck_assert_str_eq(diags(f), "");
    fx_free(f);

    /* cod2 reads .iwd, not .pk3 */
    f = fx_new(ATRC_PROFILE_COD2);
    gamefs_add_dir(&f->fs, at("main"));
    ck_assert_str_eq(order(f), "archive main/pak9.iwd;dir main");
    ck_assert_str_eq(read_as(f, "animtrees/x.atr"), "main/pak9.iwd:animtrees/x.atr=iwd");
    fx_free(f);
}
END_TEST

START_TEST(mod_over_base)
{
    pak("main/pak0.pk3", "maps/a.gsc", "main-pak");
    put("main/maps/b.gsc", "main-loose");
    pak("uo/pak0.pk3", "maps/b.gsc", "uo-pak");
    put("mods/m/maps/a.gsc", "mod-loose");
    put("top/maps/c.gsc", "top");
    put("mods/m/maps/c.gsc", "mod");
    fixture *f = fx_new(ATRC_PROFILE_UO);
    gamefs_add_dir(&f->fs, at("top")); /* -g stacks on the install, whatever the call order */
    gamefs_set_install(&f->fs, game.dir, "mods/m");
    ck_assert_str_eq(order(f), "dir top;dir mods/m;archive uo/pak0.pk3;dir uo;archive main/pak0.pk3;dir main");
    ck_assert_str_eq(read_as(f, "maps/a.gsc"), "mods/m/maps/a.gsc=mod-loose"); /* loose mod file over a base archive */
    ck_assert_str_eq(read_as(f, "maps/b.gsc"), "uo/pak0.pk3:maps/b.gsc=uo-pak");
    ck_assert_str_eq(read_as(f, "maps/c.gsc"), "top/maps/c.gsc=top");
    ck_assert_str_eq(read_as(f, "maps/d.gsc"), "(none)");
    fx_free(f);

    /* cod2: the development directories that exist, below main */
    put("raw_shared/maps/d.gsc", "raw_shared");
    put("devraw/maps/d.gsc", "devraw");
    f = fx_new(ATRC_PROFILE_COD2);
    gamefs_set_install(&f->fs, game.dir, NULL);
    ck_assert_str_eq(order(f), "dir main;dir devraw;dir raw_shared");
    ck_assert_str_eq(read_as(f, "maps/d.gsc"), "devraw/maps/d.gsc=devraw");
    fx_free(f);

    /* cod1 has no uo directory and no development directories */
    f = fx_new(ATRC_PROFILE_COD1);
    gamefs_set_install(&f->fs, game.dir, NULL);
    ck_assert_str_eq(order(f), "archive main/pak0.pk3;dir main");
    ck_assert_str_eq(read_as(f, "maps/b.gsc"), "main/maps/b.gsc=main-loose");
    fx_free(f);
}
END_TEST

START_TEST(localized)
{
    pak("main/localized_english_pak0.pk3", "x", "en");
    pak("main/localized_french_pak0.pk3", "x", "fr");
    pak("main/pak0.pk3", "y", "pak");
    put("main/x", "loose");
    pak("mod/z.pk3", "z", "-");
    pak("mod/Localized_English_mod.pk3", "x", "en-mod");
    pak("main/localized_english_pak0.iwd", "x", "en");
    pak("main/localized_french_pak0.iwd", "x", "fr");
    pak("main/iw_00.iwd", "y", "pak");
    fixture *f = fx_new(ATRC_PROFILE_COD1);
    gamefs_add_dir(&f->fs, at("main"));
    gamefs_add_dir(&f->fs, at("mod"));
    ck_assert_str_eq(order(f), "archive mod/z.pk3;dir mod;archive main/pak0.pk3;dir main");
    ck_assert_str_eq(read_as(f, "x"), "main/x=loose");
    fx_free(f);

    /* cod1: the language's archives below every other entry */
    f = fx_new(ATRC_PROFILE_COD1);
    gamefs_set_language(&f->fs, "english");
    gamefs_add_dir(&f->fs, at("main"));
    gamefs_add_dir(&f->fs, at("mod"));
    ck_assert_str_eq(order(f), "archive mod/z.pk3;dir mod;archive main/pak0.pk3;dir main;"
                               "archive mod/Localized_English_mod.pk3;archive main/localized_english_pak0.pk3");
    ck_assert_str_eq(read_as(f, "x"), "main/x=loose");
    fx_free(f);

    /* cod2: first inside their directory, above its loose files */
    f = fx_new(ATRC_PROFILE_COD2);
    gamefs_set_language(&f->fs, "french");
    gamefs_add_dir(&f->fs, at("main"));
    ck_assert_str_eq(order(f), "archive main/iw_00.iwd;archive main/localized_french_pak0.iwd;dir main");
    ck_assert_str_eq(read_as(f, "x"), "main/localized_french_pak0.iwd:x=fr");
    fx_free(f);
}
END_TEST

START_TEST(library_api)
{
    atrc_ctx *ctx = atrc_new(NULL);
    ck_assert_int_eq(atrc_set_install(ctx, "", NULL), -1);
    ck_assert_int_eq(atrc_set_install(ctx, game.dir, ""), -1);
    ck_assert_int_eq(atrc_set_install(ctx, game.dir, "mods/m"), 0);
    ck_assert_int_eq(atrc_set_language(ctx, "../x"), -1);
    ck_assert_int_eq(atrc_set_language(ctx, ""), -1);
    ck_assert_int_eq(atrc_set_language(ctx, "english"), 0);
    ck_assert_int_eq(atrc_set_language(ctx, NULL), 0);
    atrc_free(ctx);
}
END_TEST

START_TEST(name_folding)
{
    pak("main/pak0.pk3", "AnimTrees\\GH.atr", "gh");
    put("main/AnimTrees/a.atr", "upper");
    put("main/animtrees/b.atr", "lower");
    put("main/Maps/MP/x.gsc", "x");
    fixture *f = fx_new(ATRC_PROFILE_UO);
    gamefs_add_dir(&f->fs, at("main"));
    ck_assert_str_eq(read_as(f, "animtrees/gh.atr"), "main/pak0.pk3:AnimTrees\\GH.atr=gh");
    ck_assert_str_eq(read_as(f, "ANIMTREES:Gh.ATR"), "main/pak0.pk3:AnimTrees\\GH.atr=gh");
    /* animtrees/ and AnimTrees/ are one directory */
    ck_assert_str_eq(read_as(f, "animtrees/A.ATR"), "main/AnimTrees/a.atr=upper");
    ck_assert_str_eq(read_as(f, "animtrees/b.atr"), "main/animtrees/b.atr=lower");
    ck_assert_str_eq(read_as(f, "maps\\mp\\X.gsc"), "main/Maps/MP/x.gsc=x");
    ck_assert_str_eq(read_as(f, "maps:mp:x.gsc"), "main/Maps/MP/x.gsc=x");
    /* the script-name rule (empty components dropped) with no trailing
    ** separator, but a byte below 0x20 kept: only script names drop it */
    ck_assert_str_eq(read_as(f, "\\Maps//mp\\\\x.gsc/"), "main/Maps/MP/x.gsc=x");
    ck_assert_str_eq(read_as(f, "maps/mp/\x01x.gsc"), "(none)");
    ck_assert_str_eq(read_as(f, "maps/mp/../mp/x.gsc"), "(none)");
    fx_free(f);
}
END_TEST

START_TEST(duplicate_entries)
{
    ztest_entry e[] = {
        {"maps/x.gsc", 0, "first", 5, -1, 0},
        {"MAPS\\X.gsc", 0, "second", 6, -1, 0},
        {"maps/y.gsc", 0, "y", 1, -1, 0},
    };
    paks("main/pak0.pk3", e, 3);
    fixture *f = fx_new(ATRC_PROFILE_UO);
    gamefs_add_dir(&f->fs, at("main"));
    ck_assert_str_eq(read_as(f, "maps/x.gsc"), "main/pak0.pk3:MAPS\\X.gsc=second");
    ck_assert_str_eq(read_as(f, "maps/y.gsc"), "main/pak0.pk3:maps/y.gsc=y");
    fx_free(f);
}
END_TEST

START_TEST(damaged_archives)
{
    put("main/garbage.pk3", "this is not a zip archive at all, just text padding it out");
    put("main/empty.pk3", "");
    pak("main/ok.pk3", "maps/x.gsc", "ok");
    /* a good archive cut in the middle of its central directory */
    ztest_entry e = {"maps/y.gsc", 0, "y", 1, -1, 0};
    ztest_buf b = ztest_build(&e, 1);
    FILE *fp = fopen(at("main/truncated.pk3"), "wb");
    fwrite(b.items, 1, b.count - 30, fp);
    fclose(fp);
    VEC_FREE(b);
    fixture *f = fx_new(ATRC_PROFILE_UO);
    gamefs_add_dir(&f->fs, at("main"));
    ck_assert_str_eq(read_as(f, "maps/x.gsc"), "main/ok.pk3:maps/x.gsc=ok");
    ck_assert_str_eq(read_as(f, "maps/y.gsc"), "(none)");
    ck_assert_str_eq(diags(f), "cannot open archive 'main/empty.pk3': Not a zip archive; skipped\n"
                               "cannot open archive 'main/garbage.pk3': Not a zip archive; skipped\n"
                               "cannot open archive 'main/truncated.pk3': Not a zip archive; skipped");
    ck_assert_int_eq(f->diags.warnings, 3);
    ck_assert_int_eq(f->diags.errors, 0);
    fx_free(f);
}
END_TEST

START_TEST(hostile_entries)
{
    static char big[100];
    ztest_entry e[] = {
        {"../maps/evil.gsc", 0, "evil", 4, -1, 0},
        {"maps/..\\evil.gsc", 0, "evil", 4, -1, 0},
        {"/maps/abs.gsc", 0, "abs", 3, -1, 0},
        {"maps/l\xe9t.gsc", 0, "latin1", 6, -1, 0},
        {"maps/nul\0x.gsc", 14, "nul", 3, -1, 0},
        {"maps/crc.gsc", 0, "crc", 3, -1, 1},
        {"maps/huge.gsc", 0, "small", 5, (int64_t)GAMEFS_MAX_ENTRY_SIZE + 1, 0},
        {"maps/short.gsc", 0, big, sizeof big, 10, 0},
        {"maps/..x.gsc", 0, "fine", 4, -1, 0},
        {"maps/", 0, "", 0, -1, 0},
    };
    memset(big, 'b', sizeof big);
    paks("main/pak0.pk3", e, sizeof e / sizeof *e);
    fixture *f = fx_new(ATRC_PROFILE_UO);
    gamefs_add_dir(&f->fs, at("main"));
    ck_assert_str_eq(read_as(f, "maps/evil.gsc"), "(none)");
    ck_assert_str_eq(read_as(f, "evil.gsc"), "(none)");
    ck_assert_str_eq(read_as(f, "maps/abs.gsc"), "(none)");
    ck_assert_str_eq(read_as(f, "maps/..x.gsc"), "main/pak0.pk3:maps/..x.gsc=fine");
    /* libzip reads a NUL in a name as a space: no lookup can ask for it by accident */
    ck_assert_str_eq(read_as(f, "maps/nul"), "(none)");
    ck_assert_str_eq(read_as(f, "maps/nul x.gsc"), "main/pak0.pk3:maps/nul x.gsc=nul");
    ck_assert_str_eq(read_as(f, "maps/crc.gsc"), "error: CRC error");
    ck_assert_str_eq(read_as(f, "maps/huge.gsc"),
                     "error: entry is 67108865 bytes, over the 64 MiB limit for one file in an archive");
    const char *s = read_as(f, "maps/short.gsc");
    ck_assert_msg(strncmp(s, "error: ", 7) == 0, "%s", s);
    ck_assert_str_eq(diags(f), "archive 'main/pak0.pk3': 3 entries ignored: name leaves the game directory "
                               "(first: '../maps/evil.gsc')\n"
                               "archive 'main/pak0.pk3': 1 entry ignored: name is not valid UTF-8 "
                               "(first: 'maps/l\\xe9t.gsc')");
    /* the header of a huge entry is still readable: only its first bytes are read */
    unsigned char buf[4];
    size_t got = 9;
    const char *where = NULL, *err = NULL;
    ck_assert_int_eq(gamefs_read_prefix(&f->fs, "maps/huge.gsc", buf, 4, &got, &where, &err), 1);
    ck_assert_uint_eq(got, 4);
    ck_assert_int_eq(memcmp(buf, "smal", 4), 0);
    ck_assert_str_eq(where + strlen(game.dir) + 1, "main/pak0.pk3:maps/huge.gsc");
    ck_assert_int_eq(gamefs_read_prefix(&f->fs, "maps/none", buf, 4, &got, &where, &err), 0);
    ck_assert_ptr_null(where);
    fx_free(f);
}
END_TEST

START_TEST(many_entries)
{
    enum { N = 5000 };
    ztest_entry *e = calloc(N, sizeof *e);
    char (*names)[32] = calloc(N, sizeof *names);
    for (int i = 0; i < N; i++) {
        snprintf(names[i], sizeof names[i], "xanim/a%d", i);
        e[i].name = names[i];
        e[i].data = names[i];
        e[i].len = strlen(names[i]);
        e[i].claimed_size = -1;
    }
    paks("main/pak0.pk3", e, N);
    fixture *f = fx_new(ATRC_PROFILE_UO);
    gamefs_add_dir(&f->fs, at("main"));
    for (int i = 0; i < N; i += 97) {
        unsigned char buf[32];
        size_t got;
        const char *where, *err;
        ck_assert_int_eq(gamefs_read_prefix(&f->fs, names[i], buf, sizeof buf, &got, &where, &err), 1);
        ck_assert_uint_eq(got, strlen(names[i]));
        ck_assert_int_eq(memcmp(buf, names[i], got), 0);
    }
    ck_assert_str_eq(diags(f), "");
    fx_free(f);
    free(e);
    free(names);
}
END_TEST

START_TEST(loose_unreadable)
{
    os_mkdir(at("main"), 0777);
    os_mkdir(at("main/maps"), 0777);
    os_mkdir(at("main/maps/dir.gsc"), 0777);
    fixture *f = fx_new(ATRC_PROFILE_UO);
    gamefs_add_dir(&f->fs, at("main"));
    const char *where = NULL, *err = NULL;
    ck_assert_ptr_null(gamefs_open_where(&f->fs, "maps/DIR.gsc", &where, &err));
    ck_assert_str_eq(err, "is a directory");
    ck_assert_str_eq(where + strlen(game.dir) + 1, "main/maps/dir.gsc");
    fx_free(f);
}
END_TEST

/* Archives whose names differ only in letter case are each an archive of
** their own: all 64 spellings of pakz.pk3 are indexed (none lost, no write
** past the list), in the engine's order (equal under its compare, so byte
** order decides), between the names sorting before and after them. */
START_TEST(case_spelled_archives)
{
    const char *base = "pakz.pk3";
    int letters[6], nl = 0;
    for (int i = 0; base[i]; i++)
        if (base[i] >= 'a' && base[i] <= 'z') letters[nl++] = i;
    ck_assert_int_eq(nl, 6);
    for (int m = 0; m < 64; m++) {
        char name[32], rel[64], text[32];
        strcpy(name, base);
        for (int b = 0; b < nl; b++)
            if (m & (1 << b)) name[letters[b]] = (char)(name[letters[b]] - 32);
        snprintf(rel, sizeof rel, "main/%s", name);
        snprintf(text, sizeof text, "%s", name);
        pak(rel, m == 0 ? "animtrees/x.atr" : m % 2 ? "only_odd" : "only_even", text);
    }
    pak("main/paka.pk3", "animtrees/y.atr", "paka");
    pak("main/pb.pk3", "other", "-");
    fixture *f = fx_new(ATRC_PROFILE_UO);
    gamefs_add_dir(&f->fs, at("main"));
    const char *o = order(f);
    int archives = 0;
    for (const char *p = o; (p = strstr(p, "archive ")) != NULL; p++) archives++;
    ck_assert_int_eq(archives, 66);
    /* highest first: pb, then the 64 spellings (byte order descending), then paka */
    const char *top = "archive main/pb.pk3;archive main/pakz.pk3;archive main/pakz.pK3;";
    ck_assert_msg(strncmp(o, top, strlen(top)) == 0, "order: %s", o);
    ck_assert_ptr_nonnull(strstr(o, ";archive main/PAKZ.PK3;archive main/paka.pk3;dir main"));
    ck_assert_str_eq(read_as(f, "animtrees/x.atr"), "main/pakz.pk3:animtrees/x.atr=pakz.pk3");
    ck_assert_str_eq(read_as(f, "only_odd"), "main/Pakz.pk3:only_odd=Pakz.pk3");
    ck_assert_str_eq(read_as(f, "only_even"), "main/pakz.pK3:only_even=pakz.pK3");
    ck_assert_str_eq(read_as(f, "animtrees/y.atr"), "main/paka.pk3:animtrees/y.atr=paka");
    ck_assert_str_eq(diags(f), "");
    fx_free(f);
}
END_TEST

/* The game-relative name of a path read: below the search path's directory
** or archive that holds it, whatever the spelling; else the path as given. */
START_TEST(relative_names)
{
    pak("main/pak0.pk3", "maps/a.gsc", "a");
    put("top/sub/maps/B.gsc", "b");
    fixture *f = fx_new(ATRC_PROFILE_UO);
    gamefs_add_dir(&f->fs, at("top"));
    gamefs_add_dir(&f->fs, at("top/sub")); /* the deepest directory holding it */
    gamefs_set_install(&f->fs, game.dir, NULL);
    char name[64], path[700];
    ck_assert_str_eq(read_as(f, "maps/a.gsc"), "main/pak0.pk3:maps/a.gsc=a"); /* builds the path */
    snprintf(path, sizeof path, "%s:maps/a.gsc", at("main/pak0.pk3"));
    ck_assert_str_eq(gamefs_relative_name(&f->fs, path, name, sizeof name), "maps/a.gsc");
    ck_assert_str_eq(gamefs_relative_name(&f->fs, at("top/sub/maps/B.gsc"), name, sizeof name), "maps/b.gsc");
    snprintf(path, sizeof path, "%s/./top//sub\\maps\\B.gsc", game.dir);
    ck_assert_str_eq(gamefs_relative_name(&f->fs, path, name, sizeof name), "maps/b.gsc");
    snprintf(path, sizeof path, "%s/top/../top/sub/maps/B.gsc", game.dir); /* through the real path */
    ck_assert_str_eq(gamefs_relative_name(&f->fs, path, name, sizeof name), "maps/b.gsc");
    ck_assert_str_eq(gamefs_relative_name(&f->fs, "../elsewhere/X.gsc", name, sizeof name), "../elsewhere/x.gsc");
    ck_assert_str_eq(gamefs_relative_name(&f->fs, "../elsewhere/X.gsc", name, 6), "../el"); /* truncated */
    fx_free(f);
    /* No directory given: the current one holds every relative path inside it. */
    f = fx_new(ATRC_PROFILE_UO);
    ck_assert_str_eq(gamefs_relative_name(&f->fs, "./Maps\\x.gsc", name, sizeof name), "maps/x.gsc");
    ck_assert_str_eq(gamefs_relative_name(&f->fs, "/abs/x.gsc", name, sizeof name), "/abs/x.gsc");
    fx_free(f);
}
END_TEST

Suite *make_gamefs_suite(void)
{
    Suite *s = suite_create("gamefs");
    TCase *tc = tcase_create("gamefs");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, path_compare);
    tcase_add_posix_test(tc, archive_order, "makes an archive named 'pak\\2.pk3': '\\' separates paths on Windows");
    tcase_add_test(tc, listing);
    tcase_add_test(tc, mod_over_base);
    tcase_add_test(tc, localized);
    tcase_add_test(tc, library_api);
    tcase_add_posix_test(tc, name_folding, "makes directories 'AnimTrees' and 'animtrees', one directory on Windows");
    tcase_add_test(tc, duplicate_entries);
    tcase_add_test(tc, damaged_archives);
    tcase_add_test(tc, hostile_entries);
    tcase_add_test(tc, many_entries);
    tcase_add_test(tc, loose_unreadable);
    tcase_add_posix_test(tc, case_spelled_archives, "makes archives whose names differ only in case, which one Windows directory cannot hold");
    tcase_add_test(tc, relative_names);
    suite_add_tcase(s, tc);
    return s;
}
