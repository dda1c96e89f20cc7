/* Directory operands (script_dir.h): an iterative walk, then one sort of the
** names below each operand with the engine's path compare. */
#include "files/script_dir.h"
#include "files/gamefs.h"
#include "os/os.h"
#include "base/text.h"
#include "base/vec.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *join(const char *dir, const char *name)
{
    size_t a = strlen(dir), b = strlen(name);
    int slash = a > 0 && !os_is_path_sep((unsigned char)dir[a - 1]);
    char *p = xmalloc(a + (size_t)slash + b + 1);
    memcpy(p, dir, a);
    if (slash) p[a] = '/';
    memcpy(p + a + (size_t)slash, name, b + 1);
    return p;
}

/* 1 for a .gsc name, 2 for a .gsx one when gsx (CoD4x's), else 0 (any case). */
static int script_kind(const char *name, int gsx)
{
    size_t n = strlen(name);
    if (n <= 4) return 0;
    if (text_equal_nocase(name + n - 4, ".gsc")) return 1;
    return gsx && text_equal_nocase(name + n - 4, ".gsx") ? 2 : 0;
}

/* A path below an operand and where the part after the operand starts. */
typedef struct found_path {
    char *path;
    size_t rel;
    int irregular; /* a FIFO, a device, a link to standard input: said, never read (a read could block) */
    int kind;      /* script_kind */
    int shadowed;  /* a .gsc beside the .gsx of its name: CoD4x reads the .gsx */
} found_path;

static int by_engine_path(const void *a, const void *b)
{
    const found_path *x = a, *y = b;
    return gamefs_path_compare(x->path + x->rel, y->path + y->rel);
}

/* The names without their extension (".gsc" or ".gsx", the same length),
** ASCII case folded as the engine folds it. */
static int stem_compare(const found_path *x, const found_path *y)
{
    const char *p = x->path + x->rel, *q = y->path + y->rel;
    size_t m = strlen(p) - 4, n = strlen(q) - 4;
    for (size_t i = 0; i < m && i < n; i++) {
        int c = tolower((unsigned char)p[i]), d = tolower((unsigned char)q[i]);
        if (c != d) return c < d ? -1 : 1;
    }
    return m == n ? 0 : m < n ? -1 : 1;
}

/* By name, then .gsc before .gsx. */
static int by_script_name(const void *a, const void *b)
{
    const found_path *x = *(found_path *const *)a, *y = *(found_path *const *)b;
    int c = stem_compare(x, y);
    return c ? c : x->kind - y->kind;
}

/* Marks each .gsc that has a .gsx of its name among found: one sort, then
** each run of one name, whose .gsx files come last. */
static void mark_shadowed(found_path *found, size_t count)
{
    found_path **order = xmalloc(array_size(count, sizeof *order));
    for (size_t k = 0; k < count; k++) order[k] = &found[k];
    qsort(order, count, sizeof *order, by_script_name);
    for (size_t k = 0, end; k < count; k = end) {
        for (end = k + 1; end < count && stem_compare(order[k], order[end]) == 0; end++) {}
        if (order[end - 1]->kind == 2)
            for (size_t j = k; j < end && order[j]->kind == 1; j++) order[j]->shadowed = 1;
    }
    free(order);
}

/* An operand NAME.gsc when NAME.gsx is beside it and gsx: the .gsx (owned),
** else the operand itself. */
static const char *preferred_file(const char *op, int gsx, script_list *out)
{
    if (!gsx || script_kind(op, 0) != 1) return op;
    size_t n = strlen(op);
    char *alt = xstrdup(op);
    alt[n - 1] = op[n - 1] == 'C' ? 'X' : 'x';
    os_file_id st;
    if (os_path_id(alt, &st) == 0 && !st.directory) {
        *VEC_PUSH(out->owned) = alt;
        return alt;
    }
    free(alt);
    return op;
}

void script_list_expand(const char *const *operands, size_t n, int gsx, script_list *out)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < n; i++) {
        os_file_id st;
        const char *op = operands[i];
        if (strcmp(op, "-") == 0 || os_path_id(op, &st) != 0 || !st.directory) {
            *VEC_PUSH(out->paths) = strcmp(op, "-") == 0 ? op : preferred_file(op, gsx, out);
            continue;
        }
        /* "." names what is below it as the game directory "." does: "x.gsc". */
        int dot = strcmp(op, ".") == 0;
        size_t a = strlen(op), rel = dot ? 0 : a + (a > 0 && !os_is_path_sep((unsigned char)op[a - 1]));
        /* Directories still to read (owned strings), the operand first. */
        VEC(char *) todo = {0};
        VEC(found_path) found = {0};
        size_t problems = out->bad.count;
        *VEC_PUSH(todo) = dot ? xstrdup("") : join(op, "");
        for (int is_op = 1; todo.count; is_op = 0) {
            char *dir = todo.items[--todo.count];
            os_dir *dp = os_dir_open(*dir ? dir : ".");
            if (!dp) {
                /* Said, not skipped: the operand itself, or a directory below it. */
                char *why = xstrdup(strerror(errno ? errno : EIO));
                *VEC_PUSH(out->owned) = why;
                *VEC_PUSH(out->owned) = dir;
                *VEC_PUSH(out->bad) =
                    (script_dir_problem){is_op ? op : dir, why};
                continue;
            }
            for (const char *name; (name = os_dir_next(dp)) != NULL;) {
                char *path = join(dir, name);
                os_file_id es;
                if (os_link_id(path, &es) == 0 && es.directory)
                    *VEC_PUSH(todo) = path;
                else if (!script_kind(name, gsx) || os_path_id(path, &es) != 0 || es.directory)
                    free(path);
                else
                    *VEC_PUSH(found) = (found_path){path, rel, !es.regular, script_kind(name, gsx), 0};
            }
            os_dir_close(dp);
            free(dir);
        }
        VEC_FREE(todo);
        if (found.count == 0) {
            if (problems == out->bad.count)
                *VEC_PUSH(out->bad) =
                    (script_dir_problem){op, gsx ? "a directory with no .gsc or .gsx script below it"
                                                 : "a directory with no .gsc script below it"};
            VEC_FREE(found);
            continue;
        }
        qsort(found.items, found.count, sizeof *found.items, by_engine_path);
        if (gsx) mark_shadowed(found.items, found.count);
        for (size_t k = 0; k < found.count; k++) {
            *VEC_PUSH(out->owned) = found.items[k].path;
            if (found.items[k].shadowed) continue;
            if (found.items[k].irregular)
                *VEC_PUSH(out->bad) = (script_dir_problem){found.items[k].path, "not a regular file"};
            else
                *VEC_PUSH(out->paths) = found.items[k].path;
        }
        VEC_FREE(found);
    }
}

void script_list_free(script_list *l)
{
    for (size_t i = 0; i < l->owned.count; i++) free(l->owned.items[i]);
    VEC_FREE(l->owned);
    VEC_FREE(l->paths);
    VEC_FREE(l->bad);
    memset(l, 0, sizeof *l);
}
