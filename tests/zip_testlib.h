/* A minimal ZIP writer for tests and the archive fuzz harness: stored
** (uncompressed) entries with any name bytes, duplicates allowed, and ways to
** lie (recorded size, CRC) — what a hostile archive does and what libzip's
** own writer refuses to produce.  Written from the ZIP format (APPNOTE):
** local headers, central directory, end record.  Everything static inline. */
#ifndef ATRC_ZIP_TESTLIB_H
#define ATRC_ZIP_TESTLIB_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/vec.h"

typedef struct ztest_entry {
    const char *name;
    size_t name_len;       /* 0: strlen(name) (set it to include NUL bytes) */
    const void *data;
    size_t len;
    int64_t claimed_size;  /* >= 0: recorded (un)compressed size instead of len */
    int bad_crc;           /* record a wrong CRC */
} ztest_entry;

typedef VEC(unsigned char) ztest_buf;

static inline void ztest_put(ztest_buf *b, const void *p, size_t n)
{
    VEC_RESERVE(*b, b->count + n);
    if (n) memcpy(b->items + b->count, p, n);
    b->count += n;
}

static inline void ztest_u16(ztest_buf *b, unsigned v)
{
    unsigned char x[2] = {(unsigned char)v, (unsigned char)(v >> 8)};
    ztest_put(b, x, 2);
}

static inline void ztest_u32(ztest_buf *b, uint32_t v)
{
    unsigned char x[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 24)};
    ztest_put(b, x, 4);
}

/* CRC-32 (IEEE, reflected), bit by bit: small inputs only. */
static inline uint32_t ztest_crc32(const void *data, size_t n)
{
    const unsigned char *p = data;
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    }
    return c ^ 0xFFFFFFFFu;
}

/* The archive's bytes (caller frees b.items). */
static inline ztest_buf ztest_build(const ztest_entry *e, size_t n)
{
    ztest_buf b = {0}, cd = {0};
    for (size_t i = 0; i < n; i++) {
        size_t nl = e[i].name_len ? e[i].name_len : strlen(e[i].name);
        uint32_t crc = ztest_crc32(e[i].data, e[i].len) ^ (e[i].bad_crc ? 0x5A5A5A5Au : 0);
        uint32_t size = e[i].claimed_size >= 0 ? (uint32_t)e[i].claimed_size : (uint32_t)e[i].len;
        uint32_t offset = (uint32_t)b.count;
        ztest_u32(&b, 0x04034b50u);
        ztest_u16(&b, 20);
        ztest_u16(&b, 0);      /* flags */
        ztest_u16(&b, 0);      /* stored */
        ztest_u16(&b, 0);      /* time */
        ztest_u16(&b, 0x21);   /* date: 1980-01-01 */
        ztest_u32(&b, crc);
        ztest_u32(&b, size);
        ztest_u32(&b, size);
        ztest_u16(&b, (unsigned)nl);
        ztest_u16(&b, 0);
        ztest_put(&b, e[i].name, nl);
        ztest_put(&b, e[i].data, e[i].len);

        ztest_u32(&cd, 0x02014b50u);
        ztest_u16(&cd, 20);
        ztest_u16(&cd, 20);
        ztest_u16(&cd, 0);
        ztest_u16(&cd, 0);
        ztest_u16(&cd, 0);
        ztest_u16(&cd, 0x21);
        ztest_u32(&cd, crc);
        ztest_u32(&cd, size);
        ztest_u32(&cd, size);
        ztest_u16(&cd, (unsigned)nl);
        ztest_u16(&cd, 0);     /* extra */
        ztest_u16(&cd, 0);     /* comment */
        ztest_u16(&cd, 0);     /* disk */
        ztest_u16(&cd, 0);     /* internal attributes */
        ztest_u32(&cd, 0);     /* external attributes */
        ztest_u32(&cd, offset);
        ztest_put(&cd, e[i].name, nl);
    }
    uint32_t cd_offset = (uint32_t)b.count;
    ztest_put(&b, cd.items, cd.count);
    ztest_u32(&b, 0x06054b50u);
    ztest_u16(&b, 0);
    ztest_u16(&b, 0);
    ztest_u16(&b, (unsigned)n);
    ztest_u16(&b, (unsigned)n);
    ztest_u32(&b, (uint32_t)cd.count);
    ztest_u32(&b, cd_offset);
    ztest_u16(&b, 0);
    free(cd.items);
    return b;
}

/* Writes the archive to path; returns 0 or -1. */
static inline int ztest_write(const char *path, const ztest_entry *e, size_t n)
{
    ztest_buf b = ztest_build(e, n);
    FILE *fp = fopen(path, "wb");
    int ok = fp && fwrite(b.items, 1, b.count, fp) == b.count;
    if (fp && fclose(fp) != 0) ok = 0;
    free(b.items);
    return ok ? 0 : -1;
}

#endif
