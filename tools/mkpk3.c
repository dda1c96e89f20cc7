/* mkpk3 — packs a directory into a .pk3/.iwd archive (a ZIP file) with
** libzip, for the sample install, tests and benchmarks.
**
**   mkpk3 [-0] OUT DIR [NAME...]
**
** Adds every regular file under DIR (or under DIR/NAME for each NAME), named
** by its path relative to DIR with '/' separators, in byte order; deflate
** compression, or stored with -0.  OUT is replaced (libzip writes a temporary
** and renames it).  Exit status 0, or 1 with a message. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zip.h>

#include "base/arena.h"
#include "base/vec.h"

static int stored;

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Adds DIR/rel (a file, or a directory recursively). */
static int add(zip_t *z, const char *dir, const char *rel)
{
    size_t n = strlen(dir) + strlen(rel) + 2;
    char *path = malloc(n);
    if (!path) return -1;
    snprintf(path, n, "%s%s%s", dir, *rel ? "/" : "", rel);
    struct stat st;
    int rc = 0;
    if (stat(path, &st) != 0) {
        perror(path);
        rc = -1;
    } else if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        if (!d) {
            perror(path);
            free(path);
            return -1;
        }
        char **names = NULL;
        size_t count = 0, cap = 0;
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
            size_t k = strlen(rel) + strlen(e->d_name) + 2;
            char **name = vec_push(names, count, cap);
            *name = xmalloc(k);
            snprintf(*name, k, "%s%s%s", rel, *rel ? "/" : "", e->d_name);
        }
        closedir(d);
        if (count > 1) qsort(names, count, sizeof *names, compare_names);
        for (size_t i = 0; i < count; i++) {
            if (rc == 0 && add(z, dir, names[i]) != 0) rc = -1;
            free(names[i]);
        }
        free(names);
    } else if (S_ISREG(st.st_mode)) {
        zip_source_t *src = zip_source_file(z, path, 0, -1);
        zip_int64_t idx = src ? zip_file_add(z, rel, src, ZIP_FL_ENC_UTF_8) : -1;
        if (idx < 0) {
            fprintf(stderr, "mkpk3: %s: %s\n", path, zip_strerror(z));
            if (src) zip_source_free(src);
            rc = -1;
        } else if (stored) {
            zip_set_file_compression(z, (zip_uint64_t)idx, ZIP_CM_STORE, 0);
        }
    }
    free(path);
    return rc;
}

int main(int argc, char **argv)
{
    int i = 1;
    if (i < argc && strcmp(argv[i], "-0") == 0) {
        stored = 1;
        i++;
    }
    if (argc - i < 2) {
        fputs("usage: mkpk3 [-0] OUT DIR [NAME...]\n", stderr);
        return 1;
    }
    const char *out = argv[i], *dir = argv[i + 1];
    int err = 0;
    zip_t *z = zip_open(out, ZIP_CREATE | ZIP_TRUNCATE, &err);
    if (!z) {
        zip_error_t e;
        zip_error_init_with_code(&e, err);
        fprintf(stderr, "mkpk3: %s: %s\n", out, zip_error_strerror(&e));
        zip_error_fini(&e);
        return 1;
    }
    int rc = 0;
    if (argc - i == 2) rc = add(z, dir, "");
    for (int k = i + 2; k < argc && rc == 0; k++) rc = add(z, dir, argv[k]);
    if (rc != 0) {
        zip_discard(z);
        return 1;
    }
    if (zip_close(z) != 0) {
        fprintf(stderr, "mkpk3: %s: %s\n", out, zip_strerror(z));
        zip_discard(z);
        return 1;
    }
    return 0;
}
