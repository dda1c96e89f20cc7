/* The overlay (overlay.h): texts keyed by the real path of the file each
** stands for (or, for a file not on disk, its absolute path).
**
** A read first compares the last path component with the texts' (a hash
** lookup), so a compilation of hundreds of files with one text resolves one
** real path per file whose name matches, not one per file read. */
#include "files/overlay.h"
#include "base/hashtab.h"
#include "base/text.h"
#include "base/vec.h"
#include "os/os.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct buffer {
    char *key;                 /* real (or absolute) path */
    const char *base;          /* its last component, inside key */
    char *data;
    size_t len;
} buffer;

struct overlay {
    VEC(buffer) buffers;       /* in the order set; a dropped one is a hole until compact() */
    hashtab by_base;           /* buffers by text_hash_bytes(base) */
};

overlay *overlay_new(void)
{
    return xcalloc(1, sizeof(overlay));
}

void overlay_free(overlay *o)
{
    if (!o) return;
    for (size_t i = 0; i < o->buffers.count; i++) {
        free(o->buffers.items[i].key);
        free(o->buffers.items[i].data);
    }
    VEC_FREE(o->buffers);
    hashtab_free(&o->by_base);
    free(o);
}

/* path as a key: its real path, or for a file that does not exist, path made
** absolute.  malloc'd; NULL for an empty path. */
static char *key_of(const char *path)
{
    if (!path || !*path) return NULL;
    char *real = os_real_path(path);
    if (real) return real;
    if (os_path_root_length(path)) return xstrdup(path);
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd)) return xstrdup(path);
    size_t a = strlen(cwd), b = strlen(path);
    char *k = xmalloc(a + b + 2);
    memcpy(k, cwd, a);
    k[a] = '/';
    memcpy(k + a + 1, path, b + 1);
    return k;
}

static const char *base_of(const char *path)
{
    const char *sep = os_last_path_sep(path);
    return sep ? sep + 1 : path;
}

/* What a lookup seeks: a buffer of this last component, and (key not NULL)
** of this whole key; a hole (a dropped buffer) is never found. */
typedef struct wanted {
    const char *base, *key;
} wanted;

static int buffer_matches(const void *buffers, size_t i, const void *w)
{
    const wanted *x = w;
    const buffer *b = &((const buffer *)buffers)[i];
    return b->key && strcmp(b->base, x->base) == 0 && (!x->key || strcmp(b->key, x->key) == 0);
}

/* The buffer of key (path as a key), or with key NULL any buffer whose path
** ends in base; -1 when there is none. */
static long find(const overlay *o, const char *base, const char *key)
{
    uint32_t h = text_hash_bytes(base, strlen(base));
    size_t i = hashtab_find(&o->by_base, h, o->buffers.items, &(const wanted){base, key}, buffer_matches);
    return i == HASHTAB_END ? -1 : (long)i;
}

static long find_key(const overlay *o, const char *key)
{
    return find(o, base_of(key), key);
}

/* Dropped texts leave a hole (key NULL) in the table; rebuilt when most are holes. */
static void compact(overlay *o)
{
    size_t live = 0;
    for (size_t i = 0; i < o->buffers.count; i++) live += o->buffers.items[i].key != NULL;
    if (live * 2 >= o->buffers.count) return;
    size_t k = 0;
    hashtab_clear(&o->by_base);
    for (size_t i = 0; i < o->buffers.count; i++)
        if (o->buffers.items[i].key) {
            o->buffers.items[k] = o->buffers.items[i];
            hashtab_add(&o->by_base, text_hash_bytes(o->buffers.items[k].base, strlen(o->buffers.items[k].base)));
            k++;
        }
    o->buffers.count = k;
}

int overlay_set(overlay *o, const char *path, const char *data, size_t len)
{
    char *key = key_of(path);
    if (!key) return -1;
    long i = find_key(o, key);
    buffer *b;
    if (i >= 0) {
        b = &o->buffers.items[i];
        free(key);
        free(b->data);
    } else {
        b = VEC_PUSH(o->buffers);
        b->key = key;
        b->base = base_of(key);
        hashtab_add(&o->by_base, text_hash_bytes(b->base, strlen(b->base)));
    }
    b->data = xmalloc(len + 1);
    memcpy(b->data, data, len);
    b->data[len] = 0;
    b->len = len;
    return 0;
}

void overlay_drop(overlay *o, const char *path)
{
    char *key = key_of(path);
    long i = key ? find_key(o, key) : -1;
    free(key);
    if (i < 0) return;
    free(o->buffers.items[i].key);
    free(o->buffers.items[i].data);
    o->buffers.items[i].key = NULL;
    o->buffers.items[i].data = NULL;
    compact(o);
}

const char *overlay_find(const overlay *o, const char *path, size_t *len)
{
    if (!o || !o->buffers.count || !path) return NULL;
    const char *base = base_of(path);
    if (find(o, base, NULL) < 0) return NULL;
    char *key = key_of(path);
    long i = key ? find_key(o, key) : -1;
    free(key);
    if (i < 0) return NULL;
    *len = o->buffers.items[i].len;
    return o->buffers.items[i].data;
}
