/* mkxanim — writes xanim assets: header-only ones, enough for atrc to check
** presence, version and the looping bit (stock-behavior.md section 7.1), or
** whole files with notetracks (runtime-anim.md 4.1).
**
**   mkxanim [-v VERSION] -d DIR -l LIST      one asset per line of LIST
**   mkxanim [-v VERSION] -d DIR SPEC...      SPEC = name[:loop|nonloop[:frames[:rate[:NOTES]]]]
**
** LIST lines: `name [loop|nonloop|any [frames [rate [NOTES]]]]`, blank lines
** and `#` comments ignored ("any" writes a non-looping asset).  VERSION 14
** writes the 9-byte CoD1/UO/CoD2 header, 17 the 10-byte CoD4 header.  With
** NOTES the file is whole (two parts with key lists, then the notetracks):
** `-` for none, else `name@frame` entries separated by commas (`+` in a name
** stands for a space). */
#include "../tests/xanim_gen_testlib.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A whole file with the notetracks of `notes` ("fire@3,bodyfall+large@9" or "-"). */
static int write_whole(const char *path, int looping, unsigned frames, int rate, int version, const char *notes)
{
    xgen_note list[255];
    char names[255][256];
    int count = 0;
    /* (no strtok_r: the Windows build's C library lacks it) */
    for (const char *e = strcmp(notes, "-") == 0 ? NULL : notes; e && *e;) {
        const char *comma = strchr(e, ',');
        size_t len = comma ? (size_t)(comma - e) : strlen(e);
        const char *at = NULL;
        for (size_t i = 0; i < len; i++)
            if (e[i] == '@') at = e + i;
        if (!at || count == 255 || (size_t)(at - e) >= sizeof names[0]) {
            fprintf(stderr, "mkxanim: bad notetrack '%.*s' (name@frame)\n", (int)len, e);
            return -1;
        }
        size_t n = (size_t)(at - e);
        for (size_t i = 0; i < n; i++) names[count][i] = e[i] == '+' ? ' ' : e[i];
        names[count][n] = 0;
        list[count].name = names[count];
        list[count].frame = (unsigned)strtoul(at + 1, NULL, 10);
        count++;
        e = comma ? comma + 1 : NULL;
    }
    xgen_spec s = {version, frames, looping, 0, 0, rate, 2, frames > 2 ? frames / 2 : 1, frames, 0, list, count};
    return xgen_write(path, &s);
}

static int write_asset(const char *dir, const char *name, int looping, unsigned frames, int rate,
                       int version, const char *notes)
{
    if (!*name || strchr(name, '/')) {
        fprintf(stderr, "mkxanim: bad asset name '%s'\n", name);
        return -1;
    }
    size_t n = strlen(dir) + strlen(name) + 2;
    char *path = malloc(n);
    if (!path) return -1;
    snprintf(path, n, "%s/%s", dir, name);
    if (notes) {
        int rc = write_whole(path, looping, frames, rate, version, notes);
        if (rc) fprintf(stderr, "mkxanim: cannot write '%s'\n", path);
        free(path);
        return rc;
    }
    unsigned char h[10];
    size_t len = 0;
    h[len++] = (unsigned char)(version & 0xFF);
    h[len++] = (unsigned char)((version >> 8) & 0xFF);
    h[len++] = (unsigned char)(frames & 0xFF);
    h[len++] = (unsigned char)((frames >> 8) & 0xFF);
    h[len++] = 1; /* one bone */
    h[len++] = 0;
    h[len++] = (unsigned char)(looping ? 1 : 0);
    if (version == 17) h[len++] = 0; /* asset type */
    h[len++] = (unsigned char)(rate & 0xFF);
    h[len++] = (unsigned char)((rate >> 8) & 0xFF);
    FILE *fp = fopen(path, "wb");
    int rc = 0;
    if (!fp || fwrite(h, 1, len, fp) != len) rc = -1;
    if (fp && fclose(fp) != 0) rc = -1;
    if (rc) fprintf(stderr, "mkxanim: cannot write '%s': %s\n", path, strerror(errno));
    free(path);
    return rc;
}

static int parse_mode(const char *s, int *looping)
{
    if (strcmp(s, "loop") == 0) *looping = 1;
    else if (strcmp(s, "nonloop") == 0 || strcmp(s, "any") == 0) *looping = 0;
    else return -1;
    return 0;
}

static int from_list(const char *dir, const char *list, int version)
{
    FILE *fp = fopen(list, "r");
    if (!fp) {
        fprintf(stderr, "mkxanim: cannot read '%s': %s\n", list, strerror(errno));
        return -1;
    }
    char line[4096];
    int lineno = 0, rc = 0;
    while (fgets(line, sizeof line, fp)) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash) *hash = 0;
        char *name = strtok(line, " \t\r\n");
        if (!name) continue;
        char *mode = strtok(NULL, " \t\r\n");
        char *frames = strtok(NULL, " \t\r\n");
        char *rate = strtok(NULL, " \t\r\n");
        char *notes = strtok(NULL, " \t\r\n");
        int looping = 0;
        if (mode && parse_mode(mode, &looping) != 0) {
            fprintf(stderr, "%s:%d: unknown mode '%s' (loop, nonloop, any)\n", list, lineno, mode);
            rc = -1;
            continue;
        }
        if (write_asset(dir, name, looping, frames ? (unsigned)strtoul(frames, NULL, 10) : 30,
                        rate ? atoi(rate) : 30, version, notes) != 0)
            rc = -1;
    }
    fclose(fp);
    return rc;
}

int main(int argc, char **argv)
{
    const char *dir = NULL, *list = NULL;
    int version = 14, rc = 0, i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "-d") == 0 && i + 1 < argc) dir = argv[++i];
        else if (strcmp(argv[i], "-l") == 0 && i + 1 < argc) list = argv[++i];
        else if (strcmp(argv[i], "-v") == 0 && i + 1 < argc) version = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: mkxanim [-v 14|17] -d DIR (-l LIST | SPEC...)\n");
            return 2;
        }
    }
    if (!dir || (!list && i == argc)) {
        fprintf(stderr, "usage: mkxanim [-v 14|17] -d DIR (-l LIST | SPEC...)\n");
        return 2;
    }
    if (list && from_list(dir, list, version) != 0) rc = 1;
    for (; i < argc; i++) {
        char *spec = argv[i];
        char *name = strtok(spec, ":");
        char *mode = strtok(NULL, ":");
        char *frames = strtok(NULL, ":");
        char *rate = strtok(NULL, ":");
        char *notes = strtok(NULL, ":");
        int looping = 0;
        if (!name || (mode && parse_mode(mode, &looping) != 0)) {
            fprintf(stderr, "mkxanim: bad spec '%s'\n", argv[i]);
            rc = 1;
            continue;
        }
        if (write_asset(dir, name, looping, frames ? (unsigned)strtoul(frames, NULL, 10) : 30,
                        rate ? atoi(rate) : 30, version, notes) != 0)
            rc = 1;
    }
    return rc;
}
