/* Temporary directories for the tests that build a game tree on disk:
** made with os_make_temp_dir(), removed with everything in them (no
** `rm -rf`: there is no rm on Windows). */
#ifndef TMPDIR_TESTLIB_H
#define TMPDIR_TESTLIB_H
#include "os.h"

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
#endif
