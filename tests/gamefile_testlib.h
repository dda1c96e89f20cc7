/* Writing a small game tree for a test: one file below a temporary
** directory (made with tmpdir_testlib.h), its directories made as needed. */
#ifndef GAMEFILE_TESTLIB_H
#define GAMEFILE_TESTLIB_H
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "os/os.h"

static inline void put_game_file(const char *dir, const char *rel, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    for (char *p = path + strlen(dir) + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            os_mkdir(path, 0777);
            *p = '/';
        }
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}
#endif
