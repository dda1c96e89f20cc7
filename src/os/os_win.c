/* The OS layer (src/os/os.h) on Windows (mingw-w64).  File names are UTF-8:
** the executable's manifest (src/win/atrc.manifest) sets the process's code
** page to UTF-8, so the C library's and the *A functions take them as is. */
#ifdef _WIN32
#ifndef _WIN32_WINNT
#define _WIN32_WINNT 0x0601 /* Windows 7: GetActiveProcessorCount */
#endif
#define WIN32_LEAN_AND_MEAN
#include "os/os.h"

#include <windows.h>
#include <errno.h>
#include <fcntl.h>
#include <direct.h>
#include <io.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- the process ---- */

static int own_console; /* started from Explorer: the console closes at exit */

static void wait_for_key(void)
{
    fflush(NULL);
    HANDLE in = GetStdHandle(STD_INPUT_HANDLE);
    HANDLE err = GetStdHandle(STD_ERROR_HANDLE);
    static const char prompt[] = "\nPress any key to close this window.\n";
    DWORD done;
    WriteConsoleA(err, prompt, (DWORD)(sizeof prompt - 1), &done, NULL);
    FlushConsoleInputBuffer(in);
    for (;;) {
        INPUT_RECORD r;
        DWORD got = 0;
        if (!ReadConsoleInputW(in, &r, 1, &got) || got == 0) return;
        if (r.EventType == KEY_EVENT && r.Event.KeyEvent.bKeyDown) return;
    }
}

/* The console's output code page before atrc set UTF-8 (0: unchanged).
** The console outlives atrc when it is cmd.exe's: the code page goes back
** at exit, or at Ctrl+C (on_console_event). */
static UINT saved_output_cp;

static void restore_console_cp(void)
{
    if (saved_output_cp) SetConsoleOutputCP(saved_output_cp);
}

void os_process_start(void)
{
    _setmode(0, _O_BINARY);
    _setmode(1, _O_BINARY);
    _setmode(2, _O_BINARY);
    _fmode = _O_BINARY; /* every later open() and fopen() */
    /* atrc's bytes are UTF-8 (the manifest's code page; scripts and paths
    ** as given): a console shows them through its output code page, which
    ** is the OEM one (437, 850, ...) unless set.  Each write is decoded on
    ** its own (Wine's console, and Windows' before 10 1903, make a
    ** character split between two writes two U+FFFD), and stderr is
    ** unbuffered, written byte by byte: on a console both streams are
    ** fully buffered, so that a message is one write (exit and
    ** wait_for_key flush them). */
    static char console_buf[2][1 << 16];
    int console = 0;
    DWORD cmode;
    for (int fd = 1; fd <= 2; fd++) {
        if (!GetConsoleMode((HANDLE)_get_osfhandle(fd), &cmode)) continue;
        setvbuf(fd == 1 ? stdout : stderr, console_buf[fd - 1], _IOFBF, sizeof console_buf[0]);
        console = 1;
    }
    if (console) {
        UINT cp = GetConsoleOutputCP();
        if (cp != 0 && cp != CP_UTF8 && SetConsoleOutputCP(CP_UTF8)) {
            saved_output_cp = cp;
            atexit(restore_console_cp);
        }
    }
    /* Explorer (a double-click, files dropped on the icon) gives atrc a
    ** console of its own, which closes when atrc exits; from cmd.exe or
    ** PowerShell the console is shared.  Redirected streams mean a script. */
    DWORD procs[2], mode;
    if (GetConsoleProcessList(procs, 2) == 1 && GetConsoleMode(GetStdHandle(STD_INPUT_HANDLE), &mode) &&
        GetConsoleMode(GetStdHandle(STD_ERROR_HANDLE), &mode)) {
        own_console = 1;
        atexit(wait_for_key);
    }
}

int os_write_errno(int err)
{
    /* msvcrt's write() keeps the Windows error in _doserrno: a pipe being
    ** closed (ERROR_NO_DATA), closed (ERROR_BROKEN_PIPE) or, as Wine says
    ** it, not connected */
    if (err == EINVAL && (_doserrno == ERROR_NO_DATA || _doserrno == ERROR_BROKEN_PIPE ||
                          _doserrno == ERROR_PIPE_NOT_CONNECTED))
        return EPIPE;
    return err;
}

const char *os_argument_problem(const char *arg)
{
    if (!strchr(arg, '"')) return NULL;
    return "contains '\"', which no Windows file name holds: cmd.exe reads a backslash before a quote as a "
           "quote of the argument, so \"C:\\dir\\\" ends in '\"' and runs on into the arguments after it; "
           "write the directory without its trailing backslash (\"C:\\dir\") or double it (\"C:\\dir\\\\\")";
}

int os_cpu_count(void)
{
    DWORD n = GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
    return n < 1 ? 1 : n > 0x7fffffff ? 0x7fffffff : (int)n;
}

int os_color_terminal(int fd)
{
    HANDLE h = (HANDLE)_get_osfhandle(fd);
    DWORD mode;
    if (h == INVALID_HANDLE_VALUE || !GetConsoleMode(h, &mode)) return 0;
    if (mode & ENABLE_VIRTUAL_TERMINAL_PROCESSING) return 1;
    return SetConsoleMode(h, mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING) != 0;
}

/* ---- files ---- */

static int errno_of(DWORD e)
{
    switch (e) {
    case ERROR_FILE_NOT_FOUND: case ERROR_PATH_NOT_FOUND: case ERROR_INVALID_DRIVE:
    case ERROR_BAD_NETPATH: case ERROR_BAD_PATHNAME:
        return ENOENT;
    case ERROR_ACCESS_DENIED: case ERROR_SHARING_VIOLATION: case ERROR_LOCK_VIOLATION:
    case ERROR_WRITE_PROTECT:
        return EACCES;
    case ERROR_FILE_EXISTS: case ERROR_ALREADY_EXISTS:
        return EEXIST;
    case ERROR_NOT_SAME_DEVICE:
        return EXDEV;
    case ERROR_DISK_FULL: case ERROR_HANDLE_DISK_FULL:
        return ENOSPC;
    case ERROR_FILENAME_EXCED_RANGE:
        return ENAMETOOLONG;
    case ERROR_INVALID_NAME:
        return EINVAL;
    case ERROR_NOT_ENOUGH_MEMORY: case ERROR_OUTOFMEMORY:
        return ENOMEM;
    default:
        return EIO;
    }
}

static int id_from_handle(HANDLE h, os_file_id *id)
{
    memset(id, 0, sizeof *id);
    if (GetFileType(h) != FILE_TYPE_DISK) return 0; /* a console, pipe or device: no identity */
    BY_HANDLE_FILE_INFORMATION fi;
    if (!GetFileInformationByHandle(h, &fi)) {
        errno = errno_of(GetLastError());
        return -1;
    }
    id->dev = fi.dwVolumeSerialNumber;
    id->ino = ((unsigned long long)fi.nFileIndexHigh << 32) | fi.nFileIndexLow;
    id->size = ((unsigned long long)fi.nFileSizeHigh << 32) | fi.nFileSizeLow;
    /* 100 ns units since 1601 */
    unsigned long long t = ((unsigned long long)fi.ftLastWriteTime.dwHighDateTime << 32) |
                           fi.ftLastWriteTime.dwLowDateTime;
    id->mtime_sec = (long long)(t / 10000000u);
    id->mtime_nsec = (long long)(t % 10000000u) * 100;
    FILE_BASIC_INFO basic;
    unsigned long long c = t;
    if (GetFileInformationByHandleEx(h, FileBasicInfo, &basic, sizeof basic)) c = (unsigned long long)basic.ChangeTime.QuadPart;
    id->change_sec = (long long)(c / 10000000u);
    id->change_nsec = (long long)(c % 10000000u) * 100;
    id->directory = (fi.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) != 0;
    id->regular = !id->directory;
    return 0;
}

int os_path_id(const char *path, os_file_id *id)
{
    /* Backup semantics: directories open too; no access right needed for
    ** the file's information, and every sharing mode, so an open file is
    ** looked up as well. */
    HANDLE h = CreateFileA(path, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                           OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL);
    if (h == INVALID_HANDLE_VALUE) {
        errno = errno_of(GetLastError());
        return -1;
    }
    int rc = id_from_handle(h, id);
    CloseHandle(h);
    return rc;
}

int os_fd_id(int fd, os_file_id *id)
{
    HANDLE h = (HANDLE)_get_osfhandle(fd);
    if (h == INVALID_HANDLE_VALUE) {
        errno = EBADF;
        return -1;
    }
    if (id_from_handle(h, id) == 0) return 0;
    /* A handle without the right to read its attributes (Wine gives one for
    ** a redirected standard input): the C library's fstat still tells the
    ** size and kind, and the file has no identity to compare. */
    struct _stat64 st;
    if (_fstat64(fd, &st) != 0) return -1;
    memset(id, 0, sizeof *id);
    id->size = (unsigned long long)st.st_size;
    id->mtime_sec = (long long)st.st_mtime;
    id->regular = (st.st_mode & _S_IFMT) == _S_IFREG;
    id->directory = (st.st_mode & _S_IFMT) == _S_IFDIR;
    return 0;
}

long long os_file_clock_now(void)
{
    FILETIME ft;
    GetSystemTimeAsFileTime(&ft);
    return (long long)((((unsigned long long)ft.dwHighDateTime << 32) | ft.dwLowDateTime) / 10000000u);
}

int os_same_id(const os_file_id *a, const os_file_id *b)
{
    if ((!a->dev && !a->ino) || (!b->dev && !b->ino)) return 0; /* not files on a disk */
    return a->dev == b->dev && a->ino == b->ino;
}

int os_link_id(const char *path, os_file_id *id)
{
    HANDLE h = CreateFileA(path, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL, OPEN_EXISTING,
                           FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, NULL);
    if (h == INVALID_HANDLE_VALUE) {
        errno = errno_of(GetLastError());
        return -1;
    }
    BY_HANDLE_FILE_INFORMATION fi;
    int link = GetFileInformationByHandle(h, &fi) && (fi.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT);
    int rc = id_from_handle(h, id);
    CloseHandle(h);
    if (rc == 0 && link) id->regular = id->directory = 0; /* a symbolic link or junction itself */
    return rc;
}

char *os_real_path(const char *path)
{
    if (GetFileAttributesA(path) == INVALID_FILE_ATTRIBUTES) {
        errno = errno_of(GetLastError());
        return NULL;
    }
    char *full = _fullpath(NULL, path, 0);
    if (!full) errno = ENOMEM;
    return full;
}

size_t os_path_root_length(const char *path)
{
    if (((path[0] | 32) >= 'a' && (path[0] | 32) <= 'z') && path[1] == ':')
        return os_is_path_sep((unsigned char)path[2]) ? 3 : 2;
    if (!os_is_path_sep((unsigned char)path[0])) return 0;
    if (!os_is_path_sep((unsigned char)path[1])) return 1;
    /* \\server\share\ */
    size_t k = 2;
    for (int part = 0; part < 2 && path[k]; part++) {
        while (path[k] && !os_is_path_sep((unsigned char)path[k])) k++;
        if (path[k]) k++;
    }
    return k;
}

unsigned long long os_open_file_limit(void)
{
    return 0; /* archives are Windows handles, bounded only by memory */
}

int os_same_file(const char *a, const char *b)
{
    os_file_id x, y;
    return os_path_id(a, &x) == 0 && os_path_id(b, &y) == 0 && os_same_id(&x, &y);
}

int os_open_read(const char *path, int nonblocking)
{
    (void)nonblocking; /* no FIFOs */
    int fd = _open(path, _O_RDONLY | _O_BINARY | _O_NOINHERIT);
    if (fd < 0 && errno == EACCES) {
        DWORD a = GetFileAttributesA(path);
        if (a != INVALID_FILE_ATTRIBUTES && (a & FILE_ATTRIBUTE_DIRECTORY)) errno = EISDIR;
    }
    return fd;
}

void os_clear_nonblocking(int fd)
{
    (void)fd; /* opens never block */
}

long os_pipe_capacity(int fd, size_t bytes)
{
    (void)fd; /* an anonymous pipe's size is fixed when it is made */
    (void)bytes;
    return -1;
}

int os_is_path_sep(int c)
{
    return c == '/' || c == '\\';
}

const char *os_last_path_sep(const char *path)
{
    const char *last = NULL;
    for (const char *p = path; *p; p++)
        if (*p == '/' || *p == '\\' || (*p == ':' && p == path + 1)) last = p; /* C:name */
    return last;
}

struct os_dir {
    HANDLE h;              /* INVALID_HANDLE_VALUE: no entries at all */
    WIN32_FIND_DATAA data; /* the entry os_dir_next gives next */
    int pending;           /* data holds an entry not given yet */
};

os_dir *os_dir_open(const char *path)
{
    size_t n = strlen(path);
    char *pattern = malloc(n + 3);
    os_dir *d = malloc(sizeof *d);
    if (!pattern || !d) {
        free(pattern);
        free(d);
        errno = ENOMEM;
        return NULL;
    }
    memcpy(pattern, path, n);
    if (n && !os_is_path_sep((unsigned char)path[n - 1]) && path[n - 1] != ':') pattern[n++] = '\\';
    pattern[n++] = '*';
    pattern[n] = 0;
    d->h = FindFirstFileA(pattern, &d->data);
    free(pattern);
    d->pending = d->h != INVALID_HANDLE_VALUE;
    if (d->h == INVALID_HANDLE_VALUE) {
        DWORD e = GetLastError();
        DWORD attrs = GetFileAttributesA(path);
        /* a directory with no entries (a drive's root can be one) lists as empty */
        if (e == ERROR_FILE_NOT_FOUND && attrs != INVALID_FILE_ATTRIBUTES && (attrs & FILE_ATTRIBUTE_DIRECTORY))
            return d;
        free(d);
        errno = e == ERROR_DIRECTORY || (attrs != INVALID_FILE_ATTRIBUTES && !(attrs & FILE_ATTRIBUTE_DIRECTORY))
                    ? ENOTDIR : errno_of(e);
        return NULL;
    }
    return d;
}

const char *os_dir_next(os_dir *d)
{
    for (;;) {
        if (!d->pending) {
            if (d->h == INVALID_HANDLE_VALUE || !FindNextFileA(d->h, &d->data)) return NULL;
        }
        d->pending = 0;
        const char *name = d->data.cFileName;
        if (!(name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2])))) return name;
    }
}

void os_dir_close(os_dir *d)
{
    if (!d) return;
    if (d->h != INVALID_HANDLE_VALUE) FindClose(d->h);
    free(d);
}

int os_mkdir(const char *path, int mode)
{
    (void)mode;
    return _mkdir(path);
}

/* Fills the XXXXXX of a template with letters and digits; 0, or -1. */
static int fill_template(char *template_path, unsigned long long *seed)
{
    size_t n = strlen(template_path);
    if (n < 6 || strcmp(template_path + n - 6, "XXXXXX") != 0) {
        errno = EINVAL;
        return -1;
    }
    static const char letters[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    unsigned long long r = *seed;
    for (int i = 0; i < 6; i++) {
        template_path[n - 6 + i] = letters[r % 36];
        r /= 36;
    }
    *seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
    return 0;
}

static unsigned long long new_seed(void)
{
    LARGE_INTEGER now;
    QueryPerformanceCounter(&now);
    return (unsigned long long)now.QuadPart ^ ((unsigned long long)GetCurrentProcessId() << 32);
}

char *os_make_temp_dir(char *template_path)
{
    unsigned long long seed = new_seed();
    for (int attempt = 0; attempt < 100; attempt++) {
        if (fill_template(template_path, &seed) != 0) return NULL;
        if (_mkdir(template_path) == 0) return template_path;
        if (errno != EEXIST) return NULL;
    }
    return NULL;
}

char *os_output_target(const char *path)
{
    /* Symbolic links on Windows need privileges to make; -o writes the
    ** path given. */
    char *copy = os_strndup(path, strlen(path));
    if (!copy) errno = ENOMEM;
    return copy;
}

/* ---- -o ---- */

int os_create_temporary(char *template_path)
{
    unsigned long long seed = new_seed();
    for (int attempt = 0; attempt < 100; attempt++) {
        if (fill_template(template_path, &seed) != 0) return -1;
        /* Deleting must stay possible while it is open: the console handler
        ** removes it from another thread (os_remove_on_termination). */
        HANDLE h = CreateFileA(template_path, GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                               NULL, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, NULL);
        if (h == INVALID_HANDLE_VALUE) {
            DWORD e = GetLastError();
            if (e == ERROR_FILE_EXISTS || e == ERROR_ALREADY_EXISTS) continue;
            errno = errno_of(e);
            return -1;
        }
        int fd = _open_osfhandle((intptr_t)h, _O_BINARY);
        if (fd < 0) {
            CloseHandle(h);
            DeleteFileA(template_path);
            errno = EMFILE;
        }
        return fd;
    }
    errno = EEXIST;
    return -1;
}

void os_set_new_file_mode(int fd, const char *like)
{
    (void)fd; /* access is the directory's ACL, inherited */
    (void)like;
}

int os_sync(int fd)
{
    return _commit(fd);
}

int os_replace_file(const char *from, const char *to)
{
    /* rename() refuses an existing target on Windows. */
    if (MoveFileExA(from, to, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH)) return 0;
    errno = errno_of(GetLastError());
    return -1;
}

/* ---- termination: console events instead of signals ----
** The handler runs on a thread of its own.  It takes the lock that
** os_block_termination holds, so a request that comes while a temporary is
** being created waits until the temporary is registered. */
static SRWLOCK term_lock = SRWLOCK_INIT;
static char remove_path[4 * MAX_PATH + 64];
static volatile LONG remove_pending;
static int handler_installed;

static BOOL WINAPI on_console_event(DWORD event)
{
    (void)event; /* Ctrl+C, Ctrl+Break, console closed, logoff, shutdown */
    restore_console_cp();
    AcquireSRWLockExclusive(&term_lock);
    if (remove_pending) DeleteFileA(remove_path);
    remove_pending = 0;
    ReleaseSRWLockExclusive(&term_lock);
    /* Ends the process as the default handler would, but at once: no atexit
    ** handler or stdio flush (the main thread may hold their locks), the
    ** same status on Windows and Wine. */
    TerminateProcess(GetCurrentProcess(), STATUS_CONTROL_C_EXIT);
    return TRUE;
}

void os_block_termination(void)
{
    /* The handler goes in first: a request before it would take the default
    ** action at once, the lock notwithstanding. */
    if (!handler_installed) handler_installed = SetConsoleCtrlHandler(on_console_event, TRUE) != 0;
    AcquireSRWLockExclusive(&term_lock);
}

void os_unblock_termination(void)
{
    ReleaseSRWLockExclusive(&term_lock);
}

int os_remove_on_termination(const char *path)
{
    size_t n = strlen(path);
    if (n >= sizeof remove_path) return -1;
    remove_pending = 0;
    memcpy(remove_path, path, n + 1);
    remove_pending = 1;
    if (!handler_installed) handler_installed = SetConsoleCtrlHandler(on_console_event, TRUE) != 0;
    return handler_installed ? 0 : -1;
}

void os_keep_on_termination(void)
{
    remove_pending = 0;
}

void os_remove_armed_temporary(void)
{
    if (remove_pending) DeleteFileA(remove_path);
    remove_pending = 0;
}

/* ---- C library gaps ---- */

char *os_strndup(const char *s, size_t n)
{
    const char *end = memchr(s, 0, n);
    size_t len = end ? (size_t)(end - s) : n;
    char *r = malloc(len + 1);
    if (!r) return NULL;
    memcpy(r, s, len);
    r[len] = 0;
    return r;
}

const char *os_strerror(int err, char *buf, size_t size)
{
    if (strerror_s(buf, size, err) != 0) snprintf(buf, size, "error %d", err);
    return buf;
}

/* A temporary file that Windows deletes when it is closed ("D"), kept in
** memory where it fits ("T"), read back whole at the end. */
FILE *os_memstream_open(char **buf, size_t *len)
{
    *buf = NULL;
    *len = 0;
    char dir[MAX_PATH + 1], name[MAX_PATH + 1];
    DWORD n = GetTempPathA(sizeof dir, dir);
    if (n == 0 || n > MAX_PATH || !GetTempFileNameA(dir, "atr", 0, name)) return NULL;
    FILE *f = fopen(name, "w+bTD");
    if (!f) DeleteFileA(name);
    return f;
}

int os_memstream_close(FILE *f, char **buf, size_t *len)
{
    *buf = NULL;
    *len = 0;
    long n = -1;
    int ok = fflush(f) == 0 && !ferror(f) && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 &&
             fseek(f, 0, SEEK_SET) == 0;
    char *data = ok ? malloc((size_t)n + 1) : NULL;
    if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
        free(data);
        data = NULL;
    }
    fclose(f);
    if (!data) return -1;
    data[n] = 0;
    *buf = data;
    *len = (size_t)n;
    return 0;
}
#endif
