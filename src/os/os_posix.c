/* The OS layer (src/os/os.h) on POSIX systems. */
#ifndef _WIN32
#include "os/os.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void os_process_start(void)
{
    /* A closed pipe must be reported as a write error, not kill us silently. */
    signal(SIGPIPE, SIG_IGN);
    /* Past a file-size limit, write() must fail with EFBIG so we clean up. */
    signal(SIGXFSZ, SIG_IGN);
#ifdef __EMSCRIPTEN__
    /* emscripten starts a process with umask 0777: -o would write a file no one can read. */
    umask(022);
#endif
}

int os_write_errno(int err)
{
    return err;
}

const char *os_argument_problem(const char *arg)
{
    (void)arg; /* any byte but NUL may be in a file name */
    return NULL;
}

int os_cpu_count(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return cpus < 1 ? 1 : cpus > INT_MAX ? INT_MAX : (int)cpus;
}

int os_color_terminal(int fd)
{
    const char *term = getenv("TERM");
    if (!term || strcmp(term, "dumb") == 0) return 0;
    return isatty(fd);
}

static void id_from_stat(const struct stat *st, os_file_id *id)
{
    id->dev = (unsigned long long)st->st_dev;
    id->ino = (unsigned long long)st->st_ino;
    id->size = (unsigned long long)st->st_size;
    id->mtime_sec = (long long)st->st_mtim.tv_sec;
    id->mtime_nsec = (long long)st->st_mtim.tv_nsec;
    id->change_sec = (long long)st->st_ctim.tv_sec;
    id->change_nsec = (long long)st->st_ctim.tv_nsec;
    id->regular = S_ISREG(st->st_mode) != 0;
    id->directory = S_ISDIR(st->st_mode) != 0;
}

int os_path_id(const char *path, os_file_id *id)
{
    struct stat st;
    if (stat(path, &st) != 0) return -1;
    id_from_stat(&st, id);
    return 0;
}

int os_fd_id(int fd, os_file_id *id)
{
    struct stat st;
    if (fstat(fd, &st) != 0) return -1;
    id_from_stat(&st, id);
    return 0;
}

int os_same_id(const os_file_id *a, const os_file_id *b)
{
    return a->dev == b->dev && a->ino == b->ino;
}

long long os_file_clock_now(void)
{
    return (long long)time(NULL);
}

int os_link_id(const char *path, os_file_id *id)
{
    struct stat st;
    if (lstat(path, &st) != 0) return -1;
    id_from_stat(&st, id);
    return 0;
}

char *os_real_path(const char *path)
{
    return realpath(path, NULL);
}

size_t os_path_root_length(const char *path)
{
    return path[0] == '/';
}

unsigned long long os_open_file_limit(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return 0;
    return (unsigned long long)rl.rlim_cur;
}

int os_same_file(const char *a, const char *b)
{
    os_file_id x, y;
    return os_path_id(a, &x) == 0 && os_path_id(b, &y) == 0 && os_same_id(&x, &y);
}

int os_open_read(const char *path, int nonblocking)
{
    return open(path, O_RDONLY | O_CLOEXEC | (nonblocking ? O_NONBLOCK : 0));
}

void os_clear_nonblocking(int fd)
{
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0 && (flags & O_NONBLOCK)) fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
}

/* Linux's pipe size controls, which glibc names only under _GNU_SOURCE
** (that would also change strerror_r here): the kernel's numbers. */
#if defined(__linux__) && !defined(F_SETPIPE_SZ)
#define F_SETPIPE_SZ 1031
#define F_GETPIPE_SZ 1032
#endif

long os_pipe_capacity(int fd, size_t bytes)
{
#ifdef F_SETPIPE_SZ
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISFIFO(st.st_mode)) return -1;
    /* a size over the limit is refused whole: halve until one is taken */
    for (size_t want = bytes; want >= 65536; want /= 2) {
        long got = fcntl(fd, F_SETPIPE_SZ, want > INT_MAX ? INT_MAX : (int)want);
        if (got >= 0) return got;
    }
    long now = fcntl(fd, F_GETPIPE_SZ);
    return now >= 0 ? now : -1;
#else
    (void)fd;
    (void)bytes;
    return -1;
#endif
}

int os_is_path_sep(int c)
{
    return c == '/';
}

const char *os_last_path_sep(const char *path)
{
    return strrchr(path, '/');
}

struct os_dir {
    DIR *dp;
};

os_dir *os_dir_open(const char *path)
{
    DIR *dp = opendir(path);
    if (!dp) return NULL;
    os_dir *d = malloc(sizeof *d);
    if (!d) {
        closedir(dp);
        errno = ENOMEM;
        return NULL;
    }
    d->dp = dp;
    return d;
}

const char *os_dir_next(os_dir *d)
{
    struct dirent *e;
    while ((e = readdir(d->dp)) != NULL)
        if (!(e->d_name[0] == '.' && (!e->d_name[1] || (e->d_name[1] == '.' && !e->d_name[2])))) return e->d_name;
    return NULL;
}

void os_dir_close(os_dir *d)
{
    if (!d) return;
    closedir(d->dp);
    free(d);
}

int os_mkdir(const char *path, int mode)
{
    return mkdir(path, (mode_t)mode);
}

char *os_make_temp_dir(char *template_path)
{
    return mkdtemp(template_path);
}

char *os_output_target(const char *path)
{
    char *cur = strdup(path);
    for (int hops = 0; cur; hops++) {
        struct stat lst;
        if (lstat(cur, &lst) != 0 || !S_ISLNK(lst.st_mode)) return cur;
        if (hops == 40) {
            free(cur);
            errno = ELOOP;
            return NULL;
        }
        char link[PATH_MAX];
        ssize_t n = readlink(cur, link, sizeof link - 1);
        if (n < 0) return cur;
        link[n] = 0;
        /* A relative target is relative to the link's own directory. */
        const char *slash = strrchr(cur, '/');
        size_t dir_len = link[0] != '/' && slash ? (size_t)(slash - cur) + 1 : 0;
        char *next = malloc(dir_len + (size_t)n + 1);
        if (next) {
            memcpy(next, cur, dir_len);
            memcpy(next + dir_len, link, (size_t)n + 1);
        }
        free(cur);
        cur = next;
    }
    errno = ENOMEM;
    return NULL;
}

int os_create_temporary(char *template_path)
{
    return mkstemp(template_path);
}

void os_set_new_file_mode(int fd, const char *like)
{
    struct stat st;
    if (stat(like, &st) == 0) {
        fchmod(fd, st.st_mode & 07777);
    } else {
        mode_t mask = umask(0);
        umask(mask);
        fchmod(fd, 0666 & ~mask);
    }
}

int os_sync(int fd)
{
    return fsync(fd);
}

int os_replace_file(const char *from, const char *to)
{
    return rename(from, to);
}

/* A run stopped by a signal while writing the temporary leaves nothing
** behind: the handler removes it (unlink is async-signal-safe), then the
** process dies of the signal as it would have.  The handler is in place
** before the temporary exists.  While the creating thread holds the signals
** off, one delivered to another thread (the front end's workers do not block
** them) is passed to the creating thread, where it waits until the
** temporary is registered. */
static const int term_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
#define TERM_SIGNAL_COUNT (sizeof term_signals / sizeof term_signals[0])
static char remove_path[PATH_MAX + 64];
static volatile sig_atomic_t remove_pending;
static volatile sig_atomic_t creating;
static pthread_t creator;
static sigset_t mask_before_block;
static int handlers_installed;

static void remove_and_die(int sig)
{
#ifndef __EMSCRIPTEN__ /* (no threads there, and no pthread_kill) */
    if (creating && !pthread_equal(pthread_self(), creator)) {
        pthread_kill(creator, sig); /* pending there until unblocked */
        return;
    }
#endif
    if (remove_pending) unlink(remove_path);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_handlers(void)
{
    if (handlers_installed) return;
    handlers_installed = 1;
    for (size_t i = 0; i < TERM_SIGNAL_COUNT; i++) {
        struct sigaction old, sa;
        /* A signal the caller ignores (nohup, a background job) stays ignored. */
        if (sigaction(term_signals[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN) continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = remove_and_die;
        sigemptyset(&sa.sa_mask);
        sigaction(term_signals[i], &sa, NULL);
    }
}

void os_block_termination(void)
{
    install_handlers();
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < TERM_SIGNAL_COUNT; i++) sigaddset(&set, term_signals[i]);
    pthread_sigmask(SIG_BLOCK, &set, &mask_before_block);
    creator = pthread_self();
    creating = 1;
}

void os_unblock_termination(void)
{
    pthread_sigmask(SIG_SETMASK, &mask_before_block, NULL);
    creating = 0;
}

int os_remove_on_termination(const char *path)
{
    size_t n = strlen(path);
    if (n >= sizeof remove_path) return -1;
    remove_pending = 0;
    memcpy(remove_path, path, n + 1);
    install_handlers();
    remove_pending = 1;
    return 0;
}

void os_keep_on_termination(void)
{
    remove_pending = 0;
}

void os_remove_armed_temporary(void)
{
    if (remove_pending) unlink(remove_path);
    remove_pending = 0;
}

char *os_strndup(const char *s, size_t n)
{
    return strndup(s, n);
}

const char *os_strerror(int err, char *buf, size_t size)
{
    if (strerror_r(err, buf, size) != 0) snprintf(buf, size, "error %d", err);
    return buf;
}

FILE *os_memstream_open(char **buf, size_t *len)
{
    *buf = NULL;
    *len = 0;
    return open_memstream(buf, len);
}

int os_memstream_close(FILE *f, char **buf, size_t *len)
{
    int rc = fclose(f);
    if (rc != 0 || !*buf) {
        free(*buf);
        *buf = NULL;
        *len = 0;
        return -1;
    }
    return 0;
}
#endif
