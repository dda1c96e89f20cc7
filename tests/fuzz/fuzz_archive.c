/* Fuzz harness 5: the archive layer (src/files/gamefs_archive.c over libzip).  The input is
** either a raw archive (it starts with "PK") or a text recipe, so that seeds
** stay text and mutations still reach every field of the format:
**
**     [!|~]NAME=CONTENT      one stored entry per line ('!' wrong CRC,
**                            '~' recorded size half the real one)
**     --                     then byte edits of the built archive:
**     OFFSET VALUE           decimal, one per line
**
** The archive is written as main/f.pk3 of a temporary game directory, indexed,
** and every named entry (and a few fixed names) is opened whole and by prefix. */
#include "fuzz_common.h"
#include "fuzz_gamefs.h"
#include "os/os.h"
#include "../zip_testlib.h"
#include "files/gamefs.h"
#include "base/source.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef FUZZ_ENTRY
#define FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

static char arf_dir[64];
static char arf_main[96];
static char arf_path[128];

static void arf_cleanup(void)
{
    if (arf_path[0]) unlink(arf_path);
    if (arf_main[0]) rmdir(arf_main);
    if (arf_dir[0]) rmdir(arf_dir);
}

static void arf_init(void)
{
    if (arf_path[0]) return;
    fuzz_gamefs_tempdir(arf_dir, sizeof arf_dir, "archive");
    snprintf(arf_main, sizeof arf_main, "%s/main", arf_dir);
    if (os_mkdir(arf_main, 0700) != 0) abort();
    snprintf(arf_path, sizeof arf_path, "%s/f.pk3", arf_main);
    atexit(arf_cleanup);
}

#define ARF_MAX_ENTRIES 64

int FUZZ_ENTRY(const uint8_t *data, size_t size);
int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    arf_init();
    char *text = malloc(size + 1);
    if (!text) abort();
    if (size) memcpy(text, data, size);
    text[size] = 0;
    ztest_entry entries[ARF_MAX_ENTRIES];
    size_t n = 0;
    ztest_buf built = {0};
    const unsigned char *bytes = data;
    size_t len = size;
    if (!(size >= 2 && data[0] == 'P' && data[1] == 'K')) {
        char *line = text, *edits = NULL;
        while (line && *line && n < ARF_MAX_ENTRIES) {
            char *next = strchr(line, '\n');
            if (next) *next++ = 0;
            if (strcmp(line, "--") == 0) {
                edits = next;
                break;
            }
            ztest_entry *e = &entries[n];
            memset(e, 0, sizeof *e);
            e->claimed_size = -1;
            if (*line == '!') e->bad_crc = 1, line++;
            else if (*line == '~') e->claimed_size = 0, line++;
            char *eq = strchr(line, '=');
            e->name = line;
            e->data = eq ? eq + 1 : "";
            if (eq) *eq = 0;
            e->len = strlen(e->data);
            if (e->claimed_size == 0) e->claimed_size = (int64_t)(e->len / 2);
            n++;
            line = next;
        }
        built = ztest_build(entries, n);
        while (edits && *edits) {
            char *next = strchr(edits, '\n');
            if (next) *next++ = 0;
            unsigned long off = 0, val = 0;
            if (sscanf(edits, "%lu %lu", &off, &val) == 2 && off < built.count) built.items[off] = (unsigned char)val;
            edits = next;
        }
        bytes = built.items;
        len = built.count;
    }
    FILE *fp = fopen(arf_path, "wb");
    if (!fp) abort();
    if (len && fwrite(bytes, 1, len, fp) != len) abort();
    if (fclose(fp) != 0) abort();

    fuzz_fs ff;
    fuzz_fs_init(&ff);
    gamefs *fs = &ff.fs;
    gamefs_add_dir(fs, arf_main);
    gamefs_describe(fs, fuzz_sink());
    for (size_t i = 0; i < n; i++) fuzz_gamefs_lookup(fs, entries[i].name);
    static const char *const fixed[] = {"animtrees/gh.atr", "xanim/idle", "maps/mp/_load.gsc", "a", ""};
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++) fuzz_gamefs_lookup(fs, fixed[i]);
    fuzz_fs_free(&ff);
    VEC_FREE(built);
    free(text);
    return 0;
}
