/* The operating-system layer: everything that differs between POSIX systems
** (src/os/os_posix.c) and Windows (src/os/os_win.c).  No other file tests
** _WIN32 or includes <windows.h>.  Exactly one of the two .c files compiles
** to code on a given system.
**
** Outside os/, atrc calls only this and the POSIX subset below, which
** Windows' runtime (mingw-w64, winpthreads) provides with the same meaning,
** as is.  Each line: a header, what is called from it, and the files (below
** src/) that may include it and make those calls; scripts/check-layers.sh
** holds src/ to the list (a header beyond ISO C99 or a POSIX call that no
** line names is refused):
**   <unistd.h>    read write close: base/source.c files/gamefs.c cli/main.c
**                 cli/lsp.c cli/lsp_rpc.c
**   <unistd.h>    access unlink: cli/main.c
**   <unistd.h>    getcwd: files/overlay.c
**   <sys/stat.h>  stat S_ISREG: cli/main.c
**   <stdio.h>     fileno fdopen: cli/main.c
**   <strings.h>   strcasecmp strncasecmp: everywhere
**   <pthread.h>   pthread_*: compile/frontend.c compile/fe_cache.c
** Anything else that differs goes through a function here. */
#ifndef ATRC_OS_H
#define ATRC_OS_H
#include <stddef.h>
#include <stdio.h>

/* 1 on Windows, 0 elsewhere: for the tests that only a POSIX system can
** run (tests/posix_only.h). */
#ifdef _WIN32
#define OS_WINDOWS 1
#else
#define OS_WINDOWS 0
#endif

/* ---- the process ---- */

/* Called first in main: a closed pipe is a write error, not a silent death
** (POSIX: SIGPIPE, SIGXFSZ ignored); on Windows the standard streams become
** binary, a console shows UTF-8 (its output code page is set to UTF-8 and
** put back at exit) and, when atrc was started from Explorer (a console of
** its own), it waits for a key at exit so that the window can be read. */
void os_process_start(void);
/* The errno to report for a failed write whose errno was err: err itself,
** except that on Windows the C library reports a pipe whose reader has gone
** (ERROR_NO_DATA, ERROR_BROKEN_PIPE; Wine: ERROR_PIPE_NOT_CONNECTED) as EINVAL; that is EPIPE here, so the
** message is "Broken pipe" on every system. */
int os_write_errno(int err);
/* Why a command-line argument cannot be what the user typed, as the end of
** a sentence ("contains ..."), or NULL.  Windows: a '"', which no file
** name holds — the trace of cmd.exe's "C:\dir\" (the trailing backslash
** escapes the closing quote).  POSIX: always NULL. */
const char *os_argument_problem(const char *arg);
/* The processors this process may run on (at least 1). */
int os_cpu_count(void);
/* 1 when fd is a terminal that shows ANSI colour sequences (POSIX: a tty
** whose TERM is set and not "dumb"; Windows: a console, switched to
** virtual-terminal processing). */
int os_color_terminal(int fd);

/* ---- files ---- */

/* A file's identity: the same file through any path, link or hard link
** (POSIX: st_dev/st_ino; Windows: volume serial number and file index),
** plus what tells that it changed since (size, modification time). */
typedef struct os_file_id {
    unsigned long long dev, ino, size;
    long long mtime_sec, mtime_nsec;
    /* the last change of the file or its metadata (POSIX: st_ctime, which a
    ** chmod moves too; Windows: ChangeTime, else the modification time) */
    long long change_sec, change_nsec;
    int regular; /* a regular file (not a directory, device or FIFO) */
    int directory;
} os_file_id;
/* 0, or -1 with errno set. */
int os_path_id(const char *path, os_file_id *id);
int os_fd_id(int fd, os_file_id *id);
/* 1 when a and b name one file (0 too when either cannot be looked up). */
int os_same_file(const char *a, const char *b);
int os_same_id(const os_file_id *a, const os_file_id *b);
/* 1 when `now` is the file `was` described, unchanged since: the same file
** (os_same_id), size, modification and change times. */
static inline int os_unchanged(const os_file_id *was, const os_file_id *now)
{
    return os_same_id(was, now) && was->size == now->size && was->mtime_sec == now->mtime_sec &&
           was->mtime_nsec == now->mtime_nsec && was->change_sec == now->change_sec &&
           was->change_nsec == now->change_nsec;
}
/* The current time, in whole seconds of the clock os_file_id's times count
** (POSIX: time(); Windows: seconds since 1601, as file times). */
long long os_file_clock_now(void);
/* os_path_id without following a final symbolic link (lstat): a link, or
** on Windows any reparse point (a junction too), is neither regular nor a
** directory. */
int os_link_id(const char *path, os_file_id *id);
/* The absolute path of an existing file, links resolved (POSIX: realpath;
** Windows: _fullpath, '\\' separators), malloc'ed; NULL with errno. */
char *os_real_path(const char *path);
/* The length of path's root: "/" 1 (POSIX); "C:\\" 3, "C:" 2, "\\" or "/"
** 1, "\\\\server\\share\\" its length (Windows); 0 for a relative path. */
size_t os_path_root_length(const char *path);
/* The most descriptors this process may have open, or 0 when there is no
** such bound (POSIX: RLIMIT_NOFILE's soft limit; Windows: 0, handles are
** bounded by memory). */
unsigned long long os_open_file_limit(void);

/* A directory's listing, entry by entry (POSIX: opendir/readdir; Windows:
** FindFirstFileA/FindNextFileA, names UTF-8 as every path here).  NULL with
** errno (ENOENT, ENOTDIR, EACCES, EMFILE, ...). */
typedef struct os_dir os_dir;
os_dir *os_dir_open(const char *path);
/* The next entry's name, "." and ".." left out, valid until the next call;
** NULL at the end.  In the order the system gives. */
const char *os_dir_next(os_dir *d);
void os_dir_close(os_dir *d);

/* open(path, O_RDONLY) in binary mode, close-on-exec, with O_NONBLOCK when
** `nonblocking` (no FIFO stalls the open); a directory that cannot be opened
** fails with EISDIR (Windows refuses to open one with EACCES). */
int os_open_read(const char *path, int nonblocking);
/* Makes reads on fd block again after a non-blocking open (no-op where
** opens never block). */
void os_clear_nonblocking(int fd);
/* When fd is a pipe, asks the kernel to let it hold `bytes` (at most what
** an unprivileged process may ask: Linux's fs/pipe-max-size, 1 MiB by
** default), so that a writer of messages that large hands each over in one
** write instead of one per 64 KiB the reader has taken.  The capacity in
** bytes, or -1 (not a pipe, or no such control: the other systems). */
long os_pipe_capacity(int fd, size_t bytes);
/* 1 for a path separator: '/' (and '\\' on Windows). */
int os_is_path_sep(int c);
/* The last path separator in path, or NULL. */
const char *os_last_path_sep(const char *path);
/* mkdir(path, mode) (Windows: no modes); mkdtemp(). */
int os_mkdir(const char *path, int mode);
char *os_make_temp_dir(char *template_path);
/* The file that writing `path` replaces (malloc'ed): path itself, or
** through symlinks (a dangling one too) the file they point to, so that -o
** through a link writes its target and keeps the link (Windows: path).
** NULL with errno set (ELOOP past 40 links, ENOMEM). */
char *os_output_target(const char *path);

/* ---- -o: a temporary beside FILE, renamed over it ---- */

/* mkstemp(): creates the file from template (ending in XXXXXX) exclusively,
** opened for writing in binary mode.  Returns the fd or -1 with errno. */
int os_create_temporary(char *template_path);
/* Gives the new file fd the mode of `like` when it exists, else 0666 less
** the umask (no-op where files have no such modes). */
void os_set_new_file_mode(int fd, const char *like);
/* fsync(). */
int os_sync(int fd);
/* Replaces `to` by `from` atomically, even when `to` exists, written
** through to the disk.  0, or -1 with errno. */
int os_replace_file(const char *from, const char *to);

/* ---- termination (SIGINT, SIGTERM, SIGHUP, SIGQUIT; Windows: Ctrl+C,
** Ctrl+Break, a closed console, logoff, shutdown) ---- */

/* While blocked, a termination request waits (it is acted on when
** unblocked): a temporary is created and registered between the two. */
void os_block_termination(void);
void os_unblock_termination(void);
/* Arms the cleanup: a termination request removes `path` first, then the
** process ends as the request would have ended it.  Requests the caller
** ignores (nohup) stay ignored.  -1 when path is too long to keep. */
int os_remove_on_termination(const char *path);
/* Disarms it (the temporary was renamed or removed). */
void os_keep_on_termination(void);
/* Removes the armed temporary now: the process is about to exit without
** unwinding (out of memory).  Async-signal-safe on POSIX. */
void os_remove_armed_temporary(void);

/* ---- C library gaps ---- */

char *os_strndup(const char *s, size_t n);
/* strerror_r() into buf; returns buf. */
const char *os_strerror(int err, char *buf, size_t size);
/* open_memstream(): a stream whose bytes os_memstream_close() stores in
** *buf (malloc'ed, NUL-terminated) and *len, the same two pointers as were
** given to os_memstream_open().  0, or -1 (then *buf is NULL). */
FILE *os_memstream_open(char **buf, size_t *len);
int os_memstream_close(FILE *f, char **buf, size_t *len);

#endif
