/* Sessions (atrc.h "sessions"): the editor's buffers, consulted by every
** read a compilation begun from the session makes of a file by path.
**
** A buffer is keyed by the real path of the file it stands for (or, for a
** file not on disk, its absolute path).  A read first compares the last
** path component with the buffers' (a hash lookup), so a compilation of
** hundreds of files with one buffer resolves one real path per file whose
** name matches, not one per file read. */
#include "editor/session.h"
#include "compile/driver.h"
#include "compile/frontend.h"
#include "files/gamefs.h"
#include "compile/registry.h"
#include "os/os.h"
#include "base/text.h"
#include "base/vec.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct buffer {
    char *key;                 /* real (or absolute) path */
    const char *base;          /* its last component, inside key */
    char *data;
    size_t len;
} buffer;

struct atrc_session {
    buffer *buffers;
    size_t count, cap;
    hashtab by_base;           /* buffers by text_hash_bytes(base) */
    atrc_ctx *live;            /* the context begun from it, until atrc_free */
    fe_cache *records;         /* the files' parses, kept for the next context */
    gamefs_store *index;       /* directory listings and archive indexes, likewise */
};

atrc_session *atrc_session_new(void)
{
    atrc_session *s = xcalloc(1, sizeof(atrc_session));
    s->records = fe_cache_new();
    s->index = gamefs_store_new();
    return s;
}

static void drop_all(atrc_session *s)
{
    for (size_t i = 0; i < s->count; i++) {
        free(s->buffers[i].key);
        free(s->buffers[i].data);
    }
    s->count = 0;
    hashtab_clear(&s->by_base);
}

void atrc_session_free(atrc_session *s)
{
    if (!s) return;
    if (s->live) s->live->session = NULL, s->live->fs.session = NULL;
    drop_all(s);
    free(s->buffers);
    hashtab_free(&s->by_base);
    fe_cache_free(s->records);
    gamefs_store_release(s->index); /* a live context keeps it until its end */
    free(s);
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

static long find_base(const atrc_session *s, const char *base, long from)
{
    size_t n = strlen(base);
    uint32_t h = text_hash_bytes(base, n);
    size_t i = from < 0 ? hashtab_first(&s->by_base, h) : hashtab_next(&s->by_base, h, (size_t)from);
    for (; i != HASHTAB_END; i = hashtab_next(&s->by_base, h, i))
        if (s->buffers[i].key && strcmp(s->buffers[i].base, base) == 0) return (long)i;
    return -1;
}

static long find_key(const atrc_session *s, const char *key)
{
    for (long i = find_base(s, base_of(key), -1); i >= 0; i = find_base(s, base_of(key), i))
        if (strcmp(s->buffers[i].key, key) == 0) return i;
    return -1;
}

/* Dropped buffers leave a hole (key NULL) in the table; rebuilt when most are holes. */
static void compact(atrc_session *s)
{
    size_t live = 0;
    for (size_t i = 0; i < s->count; i++) live += s->buffers[i].key != NULL;
    if (live * 2 >= s->count) return;
    size_t k = 0;
    hashtab_clear(&s->by_base);
    for (size_t i = 0; i < s->count; i++)
        if (s->buffers[i].key) {
            s->buffers[k] = s->buffers[i];
            hashtab_add(&s->by_base, text_hash_bytes(s->buffers[k].base, strlen(s->buffers[k].base)));
            k++;
        }
    s->count = k;
}

int atrc_session_set_buffer(atrc_session *s, const char *path, const char *data, size_t len)
{
    char *key = key_of(path);
    if (!key) return -1;
    long i = find_key(s, key);
    buffer *b;
    if (i >= 0) {
        b = &s->buffers[i];
        free(key);
        free(b->data);
    } else {
        b = vec_push(s->buffers, s->count, s->cap);
        b->key = key;
        b->base = base_of(key);
        hashtab_add(&s->by_base, text_hash_bytes(b->base, strlen(b->base)));
    }
    b->data = xmalloc(len + 1);
    memcpy(b->data, data, len);
    b->data[len] = 0;
    b->len = len;
    return 0;
}

void atrc_session_drop_buffer(atrc_session *s, const char *path)
{
    char *key = key_of(path);
    long i = key ? find_key(s, key) : -1;
    free(key);
    if (i < 0) return;
    free(s->buffers[i].key);
    free(s->buffers[i].data);
    s->buffers[i].key = NULL;
    s->buffers[i].data = NULL;
    compact(s);
}

atrc_ctx *atrc_session_begin(atrc_session *s, const atrc_options *opts)
{
    if (!s || s->live) return NULL;
    atrc_ctx *ctx = atrc_new(opts);
    ctx->session = s;
    ctx->fs.session = s;
    gamefs_use_store(&ctx->fs, s->index);
    s->live = ctx;
    return ctx;
}

void session_context_freed(atrc_session *s, const atrc_ctx *ctx)
{
    if (s && s->live == ctx) {
        s->live = NULL;
        fe_cache_end_round(s->records);
        gamefs_store_end_round(s->index);
    }
}

struct gamefs_store *session_index(const atrc_session *s)
{
    return s ? s->index : NULL;
}

struct fe_cache *session_records(const atrc_session *s)
{
    return s ? s->records : NULL;
}

const char *session_buffer(const atrc_session *s, const char *path, size_t *len)
{
    if (!s || !s->count || !path) return NULL;
    const char *base = base_of(path);
    if (find_base(s, base, -1) < 0) return NULL;
    char *key = key_of(path);
    long i = key ? find_key(s, key) : -1;
    free(key);
    if (i < 0) return NULL;
    *len = s->buffers[i].len;
    return s->buffers[i].data;
}
