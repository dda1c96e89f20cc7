/* Source files (source.h): read whole with a NUL sentinel, released after
** parsing and read again for excerpts only while unchanged; lines and
** columns of byte offsets, UTF-8 sequence lengths. */
#include "base/source.h"
#include "base/arena.h"
#include "os/os.h"
#include "base/vec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

source_file *source_from_buffer(const char *path, const char *data, size_t len)
{
    source_file *f = xcalloc(1, sizeof *f);
    f->path = xstrdup(path);
    f->data = xmalloc(len + 1);
    if (len) memcpy(f->data, data, len);
    f->data[len] = 0;
    f->len = len;
    return f;
}

/* Reads fd into buf (grown as needed, one byte kept for the NUL; its count
** is what was read): to its end, or with `exact`, its first `hint` bytes (a
** regular file's size when it was opened: no extra call to find the end).
** A file that grows or shrinks meanwhile is read as far as it goes, never
** past the buffer.  Returns 0 or an errno. */
static int read_all(int fd, source_buffer *buf, size_t hint, int exact)
{
    /* A stream (a pipe, a device, standard input) has no size to trust:
    ** /dev/zero or an endless pipe stops at the limit instead of filling memory. */
    size_t limit = exact ? hint : SOURCE_MAX_STREAM_SIZE;
    buf->count = 0;
    if (buf->cap < hint + 2 || !buf->items) {
        /* a fresh block of exactly the size rather than a realloc (the old
        ** bytes are not wanted) or VEC_RESERVE's power of two (a large
        ** file's buffer would be up to twice its size) */
        size_t want = hint + 2 > buf->cap ? hint + 2 : buf->cap;
        if (!exact && want < 4096) want = 4096; /* no size known: a first guess */
        VEC_FREE(*buf);
        buf->items = xmalloc(want);
        buf->cap = want;
    }
    size_t n = 0;
    for (;;) {
        VEC_RESERVE(*buf, n + 2);
        ssize_t got = read(fd, buf->items + n, buf->cap - n - 1);
        if (got < 0) {
            if (errno == EINTR) continue;
            return errno ? errno : EIO;
        }
        if (got == 0) break;
        n += (size_t)got;
        if (exact && n == hint) break;
        if (!exact && n > limit) return EFBIG;
    }
    buf->items[n] = 0;
    buf->count = n;
    return 0;
}

static void set_identity(source_file *f, const os_file_id *id)
{
    f->dev = id->dev;
    f->ino = id->ino;
    f->size = id->size;
    f->mtime_sec = id->mtime_sec;
    f->mtime_nsec = id->mtime_nsec;
}

source_file *source_from_bytes(const char *path, const char *data, size_t len, const os_file_id *id)
{
    source_file *f = source_from_buffer(path, data, len);
    set_identity(f, id);
    return f;
}

int source_open_nonblocking(const char *path, int regular_only, const char **why)
{
    /* Non-blocking: opening a FIFO never waits for a writer (nor a device
    ** for carrier); what the file is is known before any read. */
    int fd = os_open_read(path, 1);
    if (fd < 0) return -1;
    os_file_id id;
    if (os_fd_id(fd, &id) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    *why = id.directory ? "is a directory" : regular_only && !id.regular ? "not a regular file" : NULL;
    if (*why) {
        close(fd);
        return -2;
    }
    /* Blocking again for the reads: a pipe named on the command line is
    ** read to its end as before. */
    os_clear_nonblocking(fd);
    return fd;
}

/* Opens and reads path (or standard input for "-") into *buf. */
static source_file *read_path(const char *path, int regular_only, source_buffer *buf, const char **err,
                              char *errbuf, size_t errsize)
{
    int is_stdin = strcmp(path, "-") == 0;
    const char *why = NULL;
    int fd = is_stdin ? 0 : source_open_nonblocking(path, regular_only, &why);
    if (fd == -2) {
        *err = why;
        return NULL;
    }
    os_file_id st;
    int e = 0;
    if (fd < 0) {
        e = errno;
        if (e == EISDIR) {
            *err = "is a directory";
            return NULL;
        }
    } else if (os_fd_id(fd, &st) != 0) {
        e = errno;
    } else if (st.directory) {
        if (!is_stdin) close(fd);
        *err = "is a directory";
        return NULL;
    }
    int regular = 0;
    if (!e) {
        regular = st.size > 0 && st.regular;
        e = read_all(fd, buf, regular ? (size_t)st.size : 65536, regular);
    }
    if (!is_stdin && fd >= 0) close(fd);
    if (e == EFBIG && !regular) {
        *err = "not a regular file, and longer than the 256 MiB read from a stream";
        return NULL;
    }
    if (e) {
        if (errbuf) {
            /* Off the main thread: strerror's buffer is not thread-safe. */
            *err = os_strerror(e, errbuf, errsize);
        } else {
            *err = strerror(e);
        }
        return NULL;
    }
    source_file *f = xcalloc(1, sizeof *f);
    f->path = xstrdup(is_stdin ? "<stdin>" : path);
    f->data = buf->items;
    f->len = buf->count;
    if (!is_stdin && st.regular) set_identity(f, &st);
    return f;
}

source_file *source_read(const char *path, const char **err)
{
    source_buffer buf = {0};
    source_file *f = read_path(path, 0, &buf, err, NULL, 0);
    if (!f) VEC_FREE(buf);
    return f;
}

source_file *source_read_regular(const char *path, const char **err)
{
    source_buffer buf = {0};
    source_file *f = read_path(path, 1, &buf, err, NULL, 0);
    if (!f) VEC_FREE(buf);
    return f;
}

source_file *source_read_into(const char *path, source_buffer *buf, const char **err, char *errbuf,
                              size_t errsize)
{
    source_file *f = read_path(path, 0, buf, err, errbuf, errsize);
    if (f) f->borrowed = 1;
    return f;
}

void source_release(source_file *f)
{
    if (!f->borrowed) free(f->data);
    free(f->line_starts);
    f->data = NULL;
    f->line_starts = NULL;
    f->borrowed = 0;
    f->released = 1;
}

int source_reload(source_file *f)
{
    if (!f->released) return f->data ? 0 : -1;
    const char *why;
    int fd = source_open_nonblocking(f->path, 1, &why);
    if (fd < 0) return -1;
    os_file_id st;
    source_file now;
    memset(&now, 0, sizeof now);
    int ok = os_fd_id(fd, &st) == 0 && st.regular;
    if (ok) set_identity(&now, &st);
    ok = ok && now.dev == f->dev && now.ino == f->ino && now.size == f->size &&
         now.mtime_sec == f->mtime_sec && now.mtime_nsec == f->mtime_nsec;
    source_buffer buf = {0};
    if (ok) ok = read_all(fd, &buf, (size_t)f->size, 1) == 0 && buf.count == f->len;
    close(fd);
    if (!ok) {
        VEC_FREE(buf);
        return -1;
    }
    f->data = buf.items;
    f->released = 0;
    return 0;
}

void source_free(source_file *f)
{
    if (!f) return;
    free((char *)f->path);
    if (!f->borrowed) free(f->data);
    free(f->line_starts);
    free(f);
}

/* One pass with memchr (vectorised in the C library), the table grown by
** doubling from a guess of one line per 32 bytes: lines are short, so a
** second pass that counted first would cost as much as the first. */
static void build_lines(source_file *f)
{
    const char *end = f->data + f->len;
    VEC(size_t) starts = {0};
    VEC_RESERVE(starts, f->len / 32 + 16);
    *VEC_PUSH(starts) = 0;
    for (const char *p = f->data; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
        *VEC_PUSH(starts) = (size_t)(p - f->data) + 1;
    f->line_starts = starts.items;
    f->line_count = starts.count;
}

long source_line(source_file *f, int line, const char **text)
{
    if (!f->data) return -1;
    if (!f->line_starts) build_lines(f);
    if (line < 1 || (size_t)line > f->line_count) return -1;
    size_t start = f->line_starts[line - 1];
    size_t end = (size_t)line < f->line_count ? f->line_starts[line] - 1 : f->len;
    if (end > start && f->data[end - 1] == '\r') end--;
    *text = f->data + start;
    return (long)(end - start);
}

void source_position(source_file *f, size_t off, int *line, int *col)
{
    if (!f->line_starts) build_lines(f);
    if (off > f->len) off = f->len;
    size_t lo = 0, hi = f->line_count;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (f->line_starts[mid] <= off) lo = mid;
        else hi = mid;
    }
    *line = (int)lo + 1;
    *col = (int)(off - f->line_starts[lo]) + 1;
}

size_t utf8_sequence_length(const unsigned char *p, size_t avail)
{
    if (avail == 0) return 0;
    unsigned char c = p[0];
    if (c < 0x80) return 1;
    size_t n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (n == 0 || n > avail) return 0;
    for (size_t i = 1; i < n; i++)
        if ((p[i] & 0xC0) != 0x80) return 0;
    /* No overlong forms, no surrogates, nothing past U+10FFFF. */
    if (n == 3 && ((c == 0xE0 && p[1] < 0xA0) || (c == 0xED && p[1] >= 0xA0))) return 0;
    if (n == 4 && ((c == 0xF0 && p[1] < 0x90) || (c == 0xF4 && p[1] >= 0x90))) return 0;
    return n;
}
