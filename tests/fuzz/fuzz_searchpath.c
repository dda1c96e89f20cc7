/* Fuzz harness 7: whole search paths (src/files/gamefs.c): several game
** directories, each with loose files and several archives whose names may
** differ only in case — what fuzz_archive (one archive) never builds.  The
** input is a text recipe, one command a line:
**
**     %DIR           switch to game directory DIR (a name of [A-Za-z0-9_]);
**                    up to 4, added to the search path in first-use order
**     @NAME          start an archive DIR/NAME (.pk3 appended when NAME
**                    does not end in it, in any case)
**     NAME=CONTENT   an entry of the current archive
**     +NAME=CONTENT  a loose file DIR/NAME (components of [A-Za-z0-9_.],
**                    no "..", at most 4 deep)
**     ~NAME          a directory DIR/NAME (an empty one, or a name that
**                    shadows an archive or a file)
**
** Every entry and file named is looked up whole and by prefix; the search
** path must list every archive made (each case spelling is an archive), and
** a name found must be read from where the lookup says it is. */
#include "fuzz_common.h"
#include "fuzz_gamefs.h"
#include "../zip_testlib.h"
#include "files/gamefs.h"
#include "os/os.h"
#include "base/source.h"

#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef FUZZ_ENTRY
#define FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

#define SPF_MAX_DIRS 4
#define SPF_MAX_ARCHIVES 24
#define SPF_MAX_ENTRIES 32
#define SPF_MAX_PATHS 256

static char spf_root[64];
static char *spf_made[SPF_MAX_PATHS]; /* files and directories made, in order */
static int spf_made_dir[SPF_MAX_PATHS];
static size_t spf_made_count;

static void spf_clean(void)
{
    while (spf_made_count > 0) {
        spf_made_count--;
        if (spf_made_dir[spf_made_count]) rmdir(spf_made[spf_made_count]);
        else unlink(spf_made[spf_made_count]);
        free(spf_made[spf_made_count]);
    }
}

static void spf_cleanup(void)
{
    spf_clean();
    if (spf_root[0]) rmdir(spf_root);
}

static void spf_init(void)
{
    if (spf_root[0]) return;
    fuzz_gamefs_tempdir(spf_root, sizeof spf_root, "path");
    atexit(spf_cleanup);
}

static int spf_note(const char *path, int is_dir)
{
    if (spf_made_count == SPF_MAX_PATHS) return -1;
    size_t n = strlen(path) + 1;
    spf_made[spf_made_count] = malloc(n);
    if (!spf_made[spf_made_count]) abort();
    memcpy(spf_made[spf_made_count], path, n);
    spf_made_dir[spf_made_count++] = is_dir;
    return 0;
}

/* mkdir that remembers what it made (for the cleanup); 0 when it exists. */
static int spf_mkdir(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0) return S_ISDIR(st.st_mode) ? 0 : -1;
    if (spf_made_count == SPF_MAX_PATHS || os_mkdir(path, 0700) != 0) return -1;
    return spf_note(path, 1);
}

/* A relative name of [A-Za-z0-9_.] components, no "." or "..", at most 4 deep. */
static int spf_safe_name(const char *name)
{
    int depth = 1;
    size_t comp = 0;
    if (!*name) return 0;
    for (const char *p = name;; p++) {
        if (*p == '/' || *p == 0) {
            if (comp == 0 || (comp <= 2 && strncmp(p - comp, "..", comp) == 0)) return 0;
            if (!*p) return 1;
            if (++depth > 4) return 0;
            comp = 0;
            continue;
        }
        unsigned char c = (unsigned char)*p;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.'))
            return 0;
        if (++comp > 40) return 0;
    }
}

/* Makes DIR/NAME's parent directories. */
static int spf_parents(const char *dir, const char *name, char *path, size_t size)
{
    snprintf(path, size, "%s/%s", dir, name);
    for (char *p = path + strlen(dir) + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            int rc = spf_mkdir(path);
            *p = '/';
            if (rc != 0) return -1;
        }
    return 0;
}

/* NAME.pk3 in any case: an archive of the search path (a non-localized one). */
static int spf_is_archive_name(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && strcasecmp(name + n - 4, ".pk3") == 0 && strncasecmp(name, "localized_", 10) != 0;
}

typedef struct spf_archive {
    char path[160];
    ztest_entry entries[SPF_MAX_ENTRIES];
    size_t count;
} spf_archive;

int FUZZ_ENTRY(const uint8_t *data, size_t size);
int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    spf_init();
    char *text = malloc(size + 1);
    if (!text) abort();
    if (size) memcpy(text, data, size);
    text[size] = 0;
    char dirs[SPF_MAX_DIRS][96];
    size_t ndirs = 0, cur_dir = 0;
    spf_archive *ars = calloc(SPF_MAX_ARCHIVES, sizeof *ars);
    if (!ars) abort();
    size_t nars = 0;
    spf_archive *cur = NULL;
    const char *names[SPF_MAX_ARCHIVES * SPF_MAX_ENTRIES + 64];
    size_t nnames = 0, loose_archives = 0;
    char path[256];
    snprintf(dirs[0], sizeof dirs[0], "%s/main", spf_root);
    if (spf_mkdir(dirs[0]) != 0) abort();
    ndirs = 1;

    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        if (line[0] == '%') {
            int ok = line[1] != 0 && strlen(line) < 40;
            for (char *p = line + 1; ok && *p; p++)
                ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_';
            if (!ok) continue;
            char want[96];
            snprintf(want, sizeof want, "%s/%s", spf_root, line + 1);
            size_t k = 0;
            while (k < ndirs && strcmp(dirs[k], want) != 0) k++;
            if (k == ndirs) {
                if (ndirs == SPF_MAX_DIRS || spf_mkdir(want) != 0) continue;
                memcpy(dirs[ndirs++], want, sizeof want);
            }
            cur_dir = k;
            cur = NULL;
        } else if (line[0] == '@') {
            char *name = line + 1;
            if (nars == SPF_MAX_ARCHIVES || !spf_safe_name(name) || strchr(name, '/') || strlen(name) > 40) continue;
            if (strncasecmp(name, "localized_", 10) == 0) continue; /* used only with a language */
            int has_ext = spf_is_archive_name(name);
            cur = &ars[nars];
            snprintf(cur->path, sizeof cur->path, "%s/%s%s", dirs[cur_dir], name, has_ext ? "" : ".pk3");
            size_t k = 0;
            while (k < nars && strcmp(ars[k].path, cur->path) != 0) k++;
            if (k < nars) cur = &ars[k]; /* the same name again: more entries */
            else nars++;
        } else if (line[0] == '+' || line[0] == '~') {
            char *eq = line[0] == '+' ? strchr(line, '=') : NULL;
            if (eq) *eq = 0;
            const char *name = line + 1;
            if (!spf_safe_name(name) || spf_parents(dirs[cur_dir], name, path, sizeof path) != 0) continue;
            if (line[0] == '~') {
                spf_mkdir(path);
            } else {
                struct stat st;
                if (stat(path, &st) == 0 || spf_made_count == SPF_MAX_PATHS) continue;
                FILE *fp = fopen(path, "wb");
                if (!fp) continue;
                fputs(eq ? eq + 1 : "", fp);
                fclose(fp);
                spf_note(path, 0);
                if (!strchr(name, '/') && spf_is_archive_name(name)) loose_archives++; /* a damaged archive */
            }
            if (nnames < sizeof names / sizeof *names) names[nnames++] = name;
        } else if (cur && cur->count < SPF_MAX_ENTRIES) {
            ztest_entry *e = &cur->entries[cur->count++];
            char *eq = strchr(line, '=');
            memset(e, 0, sizeof *e);
            e->claimed_size = -1;
            e->name = line;
            e->data = eq ? eq + 1 : "";
            if (eq) *eq = 0;
            e->len = strlen(e->data);
            if (nnames < sizeof names / sizeof *names) names[nnames++] = line;
        }
    }
    /* Archives are written last: a loose file of the same name came first. */
    size_t written = 0;
    for (size_t i = 0; i < nars; i++) {
        struct stat st;
        if (stat(ars[i].path, &st) == 0 || spf_made_count == SPF_MAX_PATHS) continue;
        if (ztest_write(ars[i].path, ars[i].entries, ars[i].count) != 0) abort();
        spf_note(ars[i].path, 0);
        written++;
    }

    fuzz_fs ff;
    fuzz_fs_init(&ff);
    gamefs *fs = &ff.fs;
    for (size_t i = 0; i < ndirs; i++) gamefs_add_dir(fs, dirs[i]);
    /* Every archive made is on the search path: count them. */
    char *listing = NULL;
    size_t listing_len = 0;
    FILE *m = os_memstream_open(&listing, &listing_len);
    if (!m) abort();
    gamefs_describe(fs, m);
    if (os_memstream_close(m, &listing, &listing_len) != 0) abort();
    size_t listed = 0;
    for (const char *p = listing; (p = strstr(p, "archive ")) != NULL; p++) listed++;
    if (listed != written + loose_archives) abort();
    free(listing);
    for (size_t i = 0; i < nnames; i++) fuzz_gamefs_lookup(fs, names[i]);
    static const char *const fixed[] = {"animtrees/gh.atr", "xanim/idle", "mp/playeranim.script", "a", ""};
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++) fuzz_gamefs_lookup(fs, fixed[i]);
    fuzz_fs_free(&ff);
    spf_clean();
    free(ars);
    free(text);
    return 0;
}
