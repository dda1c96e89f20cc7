/* Temporary directories for the tests that build a game tree on disk:
** made with os_make_temp_dir(), removed with everything in them (no
** `rm -rf`: there is no rm on Windows); and the scripts below a directory. */
#ifndef TMPDIR_TESTLIB_H
#define TMPDIR_TESTLIB_H
#include "os/os.h"
#include "base/vec.h"

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Removes path and, for a directory, everything below it (links are removed,
** not followed).  0, or -1 when something could not be removed. */
static inline int remove_tree(const char *path)
{
    DIR *d = opendir(path);
    if (!d) return unlink(path) == 0 ? 0 : -1;
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        size_t n = strlen(path) + strlen(e->d_name) + 2;
        char *child = malloc(n);
        if (!child) { rc = -1; break; }
        snprintf(child, n, "%s/%s", path, e->d_name);
        if (unlink(child) != 0 && remove_tree(child) != 0) rc = -1;
        free(child);
    }
    closedir(d);
    return rmdir(path) == 0 ? rc : -1;
}

/* A temporary game directory, the one fixture of the tests that put files
** on disk: tmp_game_make, then files written below it, then tmp_game_remove. */
typedef struct tmp_game {
    char dir[256];
} tmp_game;

/* Makes /tmp/atrc-TAG-XXXXXX. */
static inline void tmp_game_make(tmp_game *g, const char *tag)
{
    snprintf(g->dir, sizeof g->dir, "/tmp/atrc-%s-XXXXXX", tag);
    ck_assert_ptr_nonnull(os_make_temp_dir(g->dir));
}

/* Removes it with everything in it; says so on standard error when it cannot. */
static inline int tmp_game_remove(tmp_game *g)
{
    int rc = remove_tree(g->dir);
    if (rc != 0) fprintf(stderr, "cannot remove %s\n", g->dir);
    return rc;
}

/* DIR/rel, in one of four static buffers (a call may name several). */
static inline const char *tmp_game_at(const tmp_game *g, const char *rel)
{
    static char path[4][600];
    static int k;
    k = (k + 1) % 4;
    ck_assert_int_lt(snprintf(path[k], sizeof path[k], "%s/%s", g->dir, rel), (int)sizeof path[k]);
    return path[k];
}

/* Makes the directories of DIR/rel that are missing, below DIR. */
static inline void tmp_game_make_parents(const tmp_game *g, const char *rel)
{
    char path[600];
    snprintf(path, sizeof path, "%s", tmp_game_at(g, rel));
    for (char *p = path + strlen(g->dir) + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            os_mkdir(path, 0777);
            *p = '/';
        }
}

/* Writes len bytes as DIR/rel, making its directories. */
static inline void tmp_game_write(const tmp_game *g, const char *rel, const void *data, size_t len)
{
    tmp_game_make_parents(g, rel);
    FILE *fp = fopen(tmp_game_at(g, rel), "wb");
    ck_assert_ptr_nonnull(fp);
    if (len) ck_assert_uint_eq(fwrite(data, 1, len, fp), len);
    ck_assert_int_eq(fclose(fp), 0);
}

/* Writes text as DIR/rel, making its directories. */
static inline void tmp_game_put(const tmp_game *g, const char *rel, const char *text)
{
    tmp_game_write(g, rel, text, strlen(text));
}

typedef VEC(char *) test_paths;

/* Appends DIR/NAME for every entry of dir whose name does not start with
** '.', in directory order; the caller frees each.  0, or -1 when dir cannot
** be read. */
static inline int list_dir(const char *dir, test_paths *out)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        size_t n = strlen(dir) + strlen(e->d_name) + 2;
        char *path = malloc(n);
        if (!path) abort(); /* callable outside a test (a suite's setup) */
        snprintf(path, n, "%s/%s", dir, e->d_name);
        *VEC_PUSH(*out) = path;
    }
    closedir(d);
    return 0;
}

/* Appends the path of every *.gsc file below dir (names starting with '.'
** skipped, links followed), in directory order; the caller frees each. */
static inline void collect_scripts(const char *dir, test_paths *out)
{
    test_paths entries = {0};
    list_dir(dir, &entries);
    for (size_t i = 0; i < entries.count; i++) {
        char *path = entries.items[i];
        size_t len = strlen(path);
        os_file_id st;
        if (os_path_id(path, &st) == 0 && st.directory) {
            collect_scripts(path, out);
            free(path);
        } else if (len > 4 && strcmp(path + len - 4, ".gsc") == 0) {
            *VEC_PUSH(*out) = path;
        } else {
            free(path);
        }
    }
    VEC_FREE(entries);
}
#endif
