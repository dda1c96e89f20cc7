/* For builds without libzip (-DATRC_NO_ARCHIVES, the WebAssembly build): the
** few libzip declarations src/files/gamefs_archive.c
** uses, so that it compiles unchanged.
** No archive opens: each one found on the search path is reported, with the
** reason, and skipped as a damaged one is; loose files are read as usual. */
#ifndef ATRC_GAMEFS_NOARCHIVES_H
#define ATRC_GAMEFS_NOARCHIVES_H
#include <stddef.h>
#include <stdint.h>

typedef int64_t zip_int64_t;
typedef uint64_t zip_uint64_t;
typedef struct zip zip_t;           /* never defined: no archive is ever open */
typedef struct zip_file zip_file_t;
typedef struct { int code; } zip_error_t;
typedef struct {
    zip_uint64_t valid;
    const char *name;
    zip_uint64_t size;
    uint16_t comp_method;
} zip_stat_t;

enum { ZIP_RDONLY = 16, ZIP_FL_ENC_RAW = 64, ZIP_STAT_NAME = 1, ZIP_STAT_SIZE = 4, ZIP_STAT_COMP_METHOD = 64 };
enum { ZIP_ER_OPEN = 11 };
enum { ZIP_CM_STORE = 0, ZIP_CM_DEFLATE = 8, ZIP_CM_BZIP2 = 12, ZIP_CM_LZMA = 14, ZIP_CM_XZ = 95 };

static inline zip_t *zip_open(const char *path, int flags, int *code)
{
    (void)path, (void)flags;
    *code = 1;
    return NULL;
}
static inline void zip_error_init_with_code(zip_error_t *e, int code) { e->code = code; }
static inline const char *zip_error_strerror(zip_error_t *e)
{
    (void)e;
    return "this atrc was built without archive support (ATRC_NO_ARCHIVES), "
           "so .pk3/.iwd files are not read";
}
static inline void zip_error_fini(zip_error_t *e) { (void)e; }

/* Reached only through an open archive, which this build never has. */
static inline zip_int64_t zip_get_num_entries(zip_t *z, int flags) { (void)z, (void)flags; return -1; }
static inline void zip_discard(zip_t *z) { (void)z; }
static inline void zip_stat_init(zip_stat_t *st) { st->valid = 0; }
static inline int zip_stat_index(zip_t *z, zip_uint64_t i, int flags, zip_stat_t *st)
{
    (void)z, (void)i, (void)flags, (void)st;
    return -1;
}
static inline zip_file_t *zip_fopen_index(zip_t *z, zip_uint64_t i, int flags)
{
    (void)z, (void)i, (void)flags;
    return NULL;
}
static inline zip_error_t *zip_get_error(zip_t *z) { (void)z; static zip_error_t e = {1}; return &e; }
static inline zip_int64_t zip_fread(zip_file_t *f, void *buf, zip_uint64_t n)
{
    (void)f, (void)buf, (void)n;
    return -1;
}
static inline zip_error_t *zip_file_get_error(zip_file_t *f) { (void)f; return zip_get_error(NULL); }
static inline int zip_fclose(zip_file_t *f) { (void)f; return 0; }

#endif
