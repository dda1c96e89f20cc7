/* Response files (`@FILE`) and the project file (`atrc.flags`): argfile.h. */
#include "cli/argfile.h"
#include "base/arena.h"
#include "base/diag.h"
#include "os/os.h"
#include "base/vec.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static char *keep(arglist *l, char *s)
{
    if (!s) out_of_memory();
    *VEC_PUSH(l->owned) = s;
    return s;
}

static char *keep_copy(arglist *l, const char *s, size_t n)
{
    return keep(l, os_strndup(s, n));
}

void arglist_add(arglist *out, const char *arg, const arg_origin *origin)
{
    static const arg_origin command_line = {NULL, 0, ""};
    VEC_RESERVE(out->argv, out->argv.count + 2);
    *VEC_PUSH(out->argv) = keep_copy(out, arg, strlen(arg));
    out->argv.items[out->argv.count] = NULL;
    *VEC_PUSH(out->origin) = origin ? *origin : command_line;
    out->argc = (int)out->argv.count;
}

void arglist_free(arglist *l)
{
    for (size_t i = 0; i < l->owned.count; i++) free(l->owned.items[i]);
    VEC_FREE(l->owned);
    VEC_FREE(l->argv);
    VEC_FREE(l->origin);
    VEC_FREE(l->read);
    memset(l, 0, sizeof *l);
}

const char *arglist_resolve(arglist *l, const char *dir, const char *path)
{
    if (!dir || !*dir || !*path || os_path_root_length(path) > 0 || strcmp(path, "-") == 0) return path;
    /* "." and "./x" from dir are dir and dir/x: one spelling per file in
    ** every message, URI and hover ("dir/./x" is the same file) */
    while (path[0] == '.' && os_is_path_sep((unsigned char)path[1])) {
        path += 2;
        while (os_is_path_sep((unsigned char)*path)) path++;
    }
    if (!*path || strcmp(path, ".") == 0) return dir;
    size_t d = strlen(dir), n = strlen(path);
    char *s = keep(l, malloc(d + n + 2));
    memcpy(s, dir, d);
    s[d] = '/';
    memcpy(s + d + 1, path, n + 1);
    return s;
}

/* The directory part of path ("" when it has none). */
static const char *dir_of(arglist *l, const char *path)
{
    const char *sep = os_last_path_sep(path);
    if (!sep) return "";
    return keep_copy(l, path, sep == path ? 1 : (size_t)(sep - path));
}

typedef struct expansion {
    arglist *out;
    FILE *err;
    os_file_id open[ARGFILE_MAX_DEPTH];
    int depth;
    size_t lines, files;
    /* A project file read by the editor: every `@FILE` is a regular file
    ** below this directory (its real path), else NULL. */
    const char *confined;
} expansion;

void arg_print_escaped(FILE *err, const char *fmt, const char *a, const char *b)
{
    char *ea = a ? diag_escape_controls(a) : NULL, *eb = b ? diag_escape_controls(b) : NULL;
    fprintf(err, fmt, ea ? ea : a, eb ? eb : b);
    free(ea);
    free(eb);
}

void arg_print_error_start(FILE *err, const arg_origin *at)
{
    if (at && at->file) {
        arg_print_escaped(err, "%s", at->file, NULL);
        fprintf(err, ":%d: error: ", at->line);
    } else {
        fputs("atrc: error: ", err);
    }
}

/* "FILE:LINE: error: " or "atrc: error: ", then the message. */
static int fail(expansion *x, const arg_origin *at, const char *fmt, const char *arg, const char *detail)
{
    arg_print_error_start(x->err, at);
    arg_print_escaped(x->err, fmt, arg, detail);
    fputc('\n', x->err);
    return 2;
}

static int read_file(expansion *x, const char *path, const char *as_written, const arg_origin *at);

/* One argument: `@FILE` read in its place, anything else appended. */
static int take(expansion *x, const char *arg, const arg_origin *at)
{
    if (arg[0] == '@' && arg[1]) {
        const char *path = arglist_resolve(x->out, at->dir, arg + 1);
        return read_file(x, path, arg + 1, at);
    }
    if (x->out->argc > ARGFILE_MAX_ARGS) /* argv[0] is no argument */
        return fail(x, at, "too many arguments (max %s%s) once response files are read", "100000", "");
    arglist_add(x->out, arg, at);
    return 0;
}

int argfile_below(const char *dir, const char *path)
{
    char *real = os_real_path(path);
    if (!real) return -1;
    size_t n = strlen(dir);
    int below = strncmp(real, dir, n) == 0 &&
                (os_is_path_sep((unsigned char)real[n]) || (n > 0 && os_is_path_sep((unsigned char)dir[n - 1])));
    free(real);
    return below;
}

static int read_file(expansion *x, const char *path, const char *as_written, const arg_origin *at)
{
    char why[128];
    os_file_id id;
    /* Confined: nothing outside the project is opened, nor named with its reason. */
    if (x->confined && x->depth > 0 && argfile_below(x->confined, path) == 0)
        return fail(x, at, "'@%s' is outside the project's directory: a project file the editor reads %s", as_written,
                    "includes only response files below it");
    if (os_path_id(path, &id) != 0)
        return fail(x, at, "cannot read '%s': %s", as_written, os_strerror(errno, why, sizeof why));
    if (id.directory) return fail(x, at, "cannot read '%s': %s", as_written, "a directory");
    if (x->confined && !id.regular) return fail(x, at, "cannot read '%s': %s", as_written, "not a regular file");
    for (int k = 0; k < x->depth; k++)
        if (os_same_id(&x->open[k], &id))
            return fail(x, at, "'%s' includes itself%s (a cycle of response files)", as_written, "");
    if (x->depth == ARGFILE_MAX_DEPTH)
        return fail(x, at, "'%s': response files nested too deep (max %s)", as_written, "16");
    if (++x->files > ARGFILE_MAX_FILES)
        return fail(x, at, "too many response files read (max %s%s)", "10000", "");
    FILE *f = fopen(path, "rb");
    if (!f) return fail(x, at, "cannot read '%s': %s", as_written, os_strerror(errno, why, sizeof why));
    VEC(char) bytes = {0};
    int rc = 0;
    for (;;) {
        VEC_RESERVE(bytes, bytes.count + 4096);
        size_t got = fread(bytes.items + bytes.count, 1, bytes.cap - bytes.count - 1, f);
        bytes.count += got;
        if (bytes.count > ARGFILE_MAX_BYTES) {
            rc = fail(x, at, "'%s' is too large for a response file (over %s)", as_written, "16 MB");
            break;
        }
        if (got == 0) {
            if (ferror(f)) rc = fail(x, at, "cannot read '%s': %s", as_written, os_strerror(errno, why, sizeof why));
            break;
        }
    }
    fclose(f);
    if (rc) {
        VEC_FREE(bytes);
        return rc;
    }
    char *text = bytes.items;
    size_t len = bytes.count;
    text[len] = 0; /* the room fread left */
    arg_origin here = {keep_copy(x->out, path, strlen(path)), 0, dir_of(x->out, path)};
    *VEC_PUSH(x->out->read) = here.file;
    x->open[x->depth++] = id;
    /* editors on Windows save a byte order mark; it is no part of the first argument */
    size_t start = len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    for (size_t pos = start; pos < len && rc == 0;) {
        const char *line = text + pos;
        const char *nl = memchr(line, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - line) : len - pos;
        pos += n + 1;
        here.line++;
        if (++x->lines > ARGFILE_MAX_LINES) {
            rc = fail(x, &here, "too many lines in response files (max %s%s)", "1000000", "");
            break;
        }
        if (n && line[n - 1] == '\r') n--;
        size_t blank = 0;
        while (blank < n && (line[blank] == ' ' || line[blank] == '\t')) blank++;
        if (blank == n || line[0] == '#') continue;
        if (memchr(line, 0, n)) {
            rc = fail(x, &here, "a NUL byte in an argument%s%s", "", "");
            break;
        }
        text[line - text + (ptrdiff_t)n] = 0;
        rc = take(x, line, &here);
    }
    x->depth--;
    free(text);
    return rc;
}

int arglist_expand(arglist *out, int argc, char **argv, FILE *err)
{
    expansion x = {out, err, {{0}}, 0, 0, 0, NULL};
    int only_args = 0;
    for (int i = 0; i < argc; i++) {
        static const arg_origin command_line = {NULL, 0, ""};
        if (i == 0 || only_args) {
            arglist_add(out, argv[i], NULL);
            continue;
        }
        if (strcmp(argv[i], "--") == 0) only_args = 1;
        int rc = take(&x, argv[i], &command_line);
        if (rc) return rc;
    }
    return 0;
}

int arglist_read_file(arglist *out, const char *path, FILE *err)
{
    expansion x = {out, err, {{0}}, 0, 0, 0, NULL};
    static const arg_origin none = {NULL, 0, ""};
    return read_file(&x, path, path, &none);
}

int arglist_read_project(arglist *out, const char *path, FILE *err)
{
    static const arg_origin none = {NULL, 0, ""};
    char *real = os_real_path(path);
    const char *sep = real ? os_last_path_sep(real) : NULL;
    if (!sep) {
        free(real);
        return read_file(&(expansion){out, err, {{0}}, 0, 0, 0, NULL}, path, path, &none);
    }
    /* the directory of the project file's real path; "/" for a file at the root */
    char *dir = keep_copy(out, real, sep == real ? 1 : (size_t)(sep - real));
    free(real);
    expansion x = {out, err, {{0}}, 0, 0, 0, dir};
    return read_file(&x, path, path, &none);
}

int arglist_expand_list(arglist *out, const arglist *in, const char *dir, const char *name, FILE *err)
{
    expansion x = {out, err, {{0}}, 0, 0, 0, NULL};
    arg_origin at = {name, 0, dir ? dir : ""};
    for (int i = 0; i < in->argc; i++) {
        at.line = i + 1;
        int rc = take(&x, in->argv.items[i], &at);
        if (rc) return rc;
    }
    return 0;
}

char *argfile_find_project(const char *dir)
{
    size_t n = strlen(dir);
    char *path = malloc(n + sizeof "/atrc.flags");
    if (!path) return NULL;
    memcpy(path, dir, n + 1);
    size_t root = os_path_root_length(path);
    for (;;) {
        while (n > root && os_is_path_sep((unsigned char)path[n - 1])) n--;
        size_t at = n;
        if (n > 0 && !os_is_path_sep((unsigned char)path[n - 1])) path[at++] = '/';
        memcpy(path + at, "atrc.flags", sizeof "atrc.flags");
        os_file_id id;
        if (os_path_id(path, &id) == 0 && id.regular) return path;
        while (n > root && !os_is_path_sep((unsigned char)path[n - 1])) n--;
        if (n <= root) break;
    }
    free(path);
    return NULL;
}
