/* A source file held whole in memory with a NUL sentinel after its last byte
** (the re2c scanners and the .atr tokenizer rely on it). */
#ifndef ATRC_SOURCE_H
#define ATRC_SOURCE_H
#include <stddef.h>
#include "base/vec.h"

typedef struct source_file {
    const char *path;     /* as given / as opened; used in diagnostics */
    char *data;           /* len bytes + NUL */
    size_t len;
    size_t *line_starts;  /* built on first use by source_line() */
    size_t line_count;
    int borrowed;         /* data is a caller's reusable buffer, not owned */
    int released;         /* data dropped after parsing; source_reload() reads it again */
    /* Identity of the file as read, so that a re-read can tell it is unchanged. */
    unsigned long long dev, ino, size;
    long long mtime_sec, mtime_nsec;
} source_file;

/* Most bytes read from a file that is not regular (a pipe, a device,
** standard input): /dev/zero or an endless stream is an error, not a full
** memory.  Regular files are read at their size, with no cap. */
#define SOURCE_MAX_STREAM_SIZE ((size_t)256 << 20)

/* Reads path whole.  Returns NULL and sets *err to a message ("No such file or
** directory", "is a directory", ...) when it cannot. */
source_file *source_read(const char *path, const char **err);
/* The same for a file found through the game directories: it must be a
** regular file (a FIFO, a device or a socket is "not a regular file"; it is
** never opened in a way that could block). */
source_file *source_read_regular(const char *path, const char **err);
/* Opens path for reading without ever blocking (O_NONBLOCK, then fstat):
** returns the descriptor (blocking again), -1 with errno, or -2 with *why
** ("is a directory", with regular_only "not a regular file"). */
int source_open_nonblocking(const char *path, int regular_only, const char **why);
/* A read buffer reused from file to file (no fresh pages per file): its
** count is the last file's length. */
typedef VEC(char) source_buffer;
/* Reads path whole into buf (grown as needed).  The result borrows buf's
** bytes until source_release().  On failure *err points into errbuf
** (thread-safe). */
source_file *source_read_into(const char *path, source_buffer *buf, const char **err, char *errbuf,
                              size_t errsize);
/* Drops the text (the path and identity stay): memory then holds only what
** diagnostics name.  A released file can be read again by source_reload(). */
void source_release(source_file *f);
/* Reads a released file again; returns 0, or -1 when it cannot be read or it
** changed since it was first read (size, modification time, inode). */
int source_reload(source_file *f);
/* Copies a buffer (for tests and embedding). */
source_file *source_from_buffer(const char *path, const char *data, size_t len);
/* The same for bytes kept from the file at path as it was when id was taken
** (a session's copy): the identity a later source_reload checks is id's. */
struct os_file_id;
source_file *source_from_bytes(const char *path, const char *data, size_t len, const struct os_file_id *id);
void source_free(source_file *f);
/* The text of line `line` (1-based) without its newline or CR; returns its length, or -1. */
long source_line(source_file *f, int line, const char **text);
/* Line and byte column (1-based) of byte offset off. */
void source_position(source_file *f, size_t off, int *line, int *col);

/* Length of the well-formed UTF-8 sequence starting at p (1 for ASCII), or 0
** when p does not start one; reads at most `avail` bytes. */
size_t utf8_sequence_length(const unsigned char *p, size_t avail);

#endif
