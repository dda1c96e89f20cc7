/* Directory operands (script_dir.h): an iterative walk, then one sort of the
** names below each operand with the engine's path compare. */
#include "files/script_dir.h"
#include "files/gamefs.h"
#include "os/os.h"
#include "base/text.h"
#include "base/vec.h"

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

static int is_script_name(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && text_equal_nocase(name + n - 4, ".gsc");
}

/* A path below an operand and where the part after the operand starts. */
typedef struct found_path {
    char *path;
    size_t rel;
    int irregular; /* a FIFO, a device, a link to standard input: said, never read (a read could block) */
} found_path;

static int by_engine_path(const void *a, const void *b)
{
    const found_path *x = a, *y = b;
    return gamefs_path_compare(x->path + x->rel, y->path + y->rel);
}

void script_list_expand(const char *const *operands, size_t n, script_list *out)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < n; i++) {
        os_file_id st;
        const char *op = operands[i];
        if (strcmp(op, "-") == 0 || os_path_id(op, &st) != 0 || !st.directory) {
            *VEC_PUSH(out->paths) = op;
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
                else if (!is_script_name(name) || os_path_id(path, &es) != 0 || es.directory)
                    free(path);
                else
                    *VEC_PUSH(found) = (found_path){path, rel, !es.regular};
            }
            os_dir_close(dp);
            free(dir);
        }
        VEC_FREE(todo);
        if (found.count == 0) {
            if (problems == out->bad.count)
                *VEC_PUSH(out->bad) =
                    (script_dir_problem){op, "a directory with no .gsc script below it"};
            VEC_FREE(found);
            continue;
        }
        qsort(found.items, found.count, sizeof *found.items, by_engine_path);
        for (size_t k = 0; k < found.count; k++) {
            *VEC_PUSH(out->owned) = found.items[k].path;
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
