/* The lookup both game-file harnesses (fuzz_archive, fuzz_searchpath) make
** of every name: read whole and by prefix, with the layer's promises
** checked.  Static inline and guarded, as fuzz_common.h (the seed replay
** compiles the harnesses into one translation unit). */
#ifndef ATRC_FUZZ_GAMEFS_H
#define ATRC_FUZZ_GAMEFS_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz_common.h"
#include "files/gamefs.h"
#include "game/profile.h"
#include "os/os.h"
#include "base/source.h"

/* A fresh directory $TMPDIR/atrc-fuzz-TAG-XXXXXX (or under /tmp) into out. */
static inline void fuzz_gamefs_tempdir(char *out, size_t size, const char *tag)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(out, size, "%s/atrc-fuzz-%s-XXXXXX", tmp && *tmp && strlen(tmp) < 30 ? tmp : "/tmp", tag);
    if (!os_make_temp_dir(out)) abort();
}

/* A game-file layer with its memory and diagnostics, for one input. */
typedef struct fuzz_fs {
    arena mem;
    diag_list diags;
    gamefs fs;
} fuzz_fs;

static inline void fuzz_fs_init(fuzz_fs *f)
{
    arena_init(&f->mem);
    diag_init(&f->diags);
    gamefs_init(&f->fs, &f->mem, profile_get(ATRC_PROFILE_UO));
    f->fs.diags = &f->diags;
}

/* Prints the diagnostics (their excerpts are part of what runs), then frees. */
static inline void fuzz_fs_free(fuzz_fs *f)
{
    diag_print(&f->diags, NULL, fuzz_sink());
    gamefs_free(&f->fs);
    diag_free(&f->diags);
    arena_free_all(&f->mem);
}

static inline void fuzz_gamefs_lookup(gamefs *fs, const char *name)
{
    const char *err = NULL, *where = NULL;
    source_file *s = gamefs_open_where(fs, name, &where, &err);
    if (s) {
        const char *located = gamefs_locate(fs, name);
        if (s->len > GAMEFS_MAX_ENTRY_SIZE || s->data[s->len] != 0 || !where) abort();
        if (!located || strcmp(located, where) != 0) abort(); /* read from where the lookup says */
        source_free(s);
    } else if (err && !where) {
        abort(); /* an unreadable file is always named */
    }
    unsigned char buf[16];
    size_t got = 99;
    int r = gamefs_read_prefix(fs, name, buf, sizeof buf, &got, &where, &err);
    if (r == 1 && got > sizeof buf) abort();
    if (r == -1 && !err) abort();
}

#endif
