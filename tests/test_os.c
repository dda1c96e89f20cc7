/* The OS layer (src/os/os.h): the same behaviour on POSIX and on Windows (the
** Windows build runs these under Wine). */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <fcntl.h>
#endif

#include "os/os.h"
#include "tmpdir_testlib.h"

static tmp_game game;

static void setup(void)
{
    tmp_game_make(&game, "os");
}

static void teardown(void)
{
    tmp_game_remove(&game);
}

static const char *at(const char *rel)
{
    return tmp_game_at(&game, rel);
}

static void put(const char *path, const char *text)
{
    FILE *fp = fopen(path, "wb");
    ck_assert_ptr_nonnull(fp);
    fputs(text, fp);
    ck_assert_int_eq(fclose(fp), 0);
}

static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    static char buf[256];
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    buf[n] = 0;
    return buf;
}

/* The rename that Windows refuses by default: over an existing file. */
START_TEST(replace_existing_file)
{
    put(at("new"), "new\r\n\032text");
    put(at("old"), "old");
    ck_assert_int_eq(os_replace_file(at("new"), at("old")), 0);
    ck_assert_str_eq(slurp(at("old")), "new\r\n\032text");
    ck_assert_ptr_null(slurp(at("new")));
    errno = 0;
    ck_assert_int_eq(os_replace_file(at("gone"), at("old")), -1);
    ck_assert_int_eq(errno, ENOENT);
}
END_TEST

/* One file under two spellings; two files with the same contents are two. */
START_TEST(file_identity)
{
    put(at("a.txt"), "x");
    put(at("b.txt"), "x");
    char other[300];
    snprintf(other, sizeof other, "%s/./a.txt", game.dir);
    ck_assert_int_eq(os_same_file(at("a.txt"), other), 1);
    ck_assert_int_eq(os_same_file(at("a.txt"), at("b.txt")), 0);
    ck_assert_int_eq(os_same_file(at("a.txt"), at("none")), 0);
#if OS_WINDOWS
    /* '\' and another letter case name the same file */
    snprintf(other, sizeof other, "%s\\A.TXT", game.dir);
    ck_assert_int_eq(os_same_file(at("a.txt"), other), 1);
#else
    ck_assert_int_eq(link(at("a.txt"), at("hard")), 0); /* a hard link */
    ck_assert_int_eq(os_same_file(at("a.txt"), at("hard")), 1);
#endif
    os_file_id id;
    ck_assert_int_eq(os_path_id(at("a.txt"), &id), 0);
    ck_assert(id.regular && !id.directory);
    ck_assert_uint_eq(id.size, 1);
    ck_assert_int_eq(os_path_id(game.dir, &id), 0);
    ck_assert(id.directory && !id.regular);
    errno = 0;
    ck_assert_int_eq(os_path_id(at("none"), &id), -1);
    ck_assert_int_eq(errno, ENOENT);
}
END_TEST

/* Reading: binary (CR and ^Z kept); a directory is a directory. */
START_TEST(open_read)
{
    put(at("bin"), "a\r\n\032b");
    int fd = os_open_read(at("bin"), 0);
    ck_assert_int_ge(fd, 0);
    char buf[16];
    ck_assert_int_eq((int)read(fd, buf, sizeof buf), 5);
    ck_assert_int_eq(memcmp(buf, "a\r\n\032b", 5), 0);
    os_file_id id;
    ck_assert_int_eq(os_fd_id(fd, &id), 0);
    ck_assert(id.regular);
    ck_assert_uint_eq(id.size, 5);
    close(fd);
    fd = os_open_read(game.dir, 0);
    if (fd >= 0) { /* POSIX opens a directory; its identity says what it is */
        ck_assert_int_eq(os_fd_id(fd, &id), 0);
        ck_assert(id.directory);
        close(fd);
    } else {
        ck_assert_int_eq(errno, EISDIR);
    }
}
END_TEST

START_TEST(path_separators)
{
    ck_assert(os_is_path_sep('/'));
    ck_assert_int_eq(os_is_path_sep('\\'), OS_WINDOWS);
    const char *p = "out/sub\\x.json";
    ck_assert_ptr_eq(os_last_path_sep(p), OS_WINDOWS ? p + 7 : p + 3);
    ck_assert_ptr_null(os_last_path_sep("x.json"));
    if (OS_WINDOWS) ck_assert_ptr_eq(os_last_path_sep("C:x.json"), (const char *)"C:x.json" + 1);
}
END_TEST

/* A path's root, its real path, lstat, the descriptor bound. */
START_TEST(paths_links_limits)
{
    ck_assert_uint_eq(os_path_root_length("/x"), 1);
    ck_assert_uint_eq(os_path_root_length("x/y"), 0);
    if (OS_WINDOWS) {
        ck_assert_uint_eq(os_path_root_length("C:\\x"), 3);
        ck_assert_uint_eq(os_path_root_length("c:x"), 2);
        ck_assert_uint_eq(os_path_root_length("\\\\srv\\share\\x"), 12);
    } else {
        ck_assert_uint_eq(os_path_root_length("C:\\x"), 0);
    }
    put(at("a.txt"), "x");
    char *real = os_real_path(at("a.txt"));
    ck_assert_ptr_nonnull(real);
    ck_assert_uint_gt(os_path_root_length(real), 0);
    ck_assert_int_eq(os_same_file(real, at("a.txt")), 1);
    free(real);
    errno = 0;
    ck_assert_ptr_null(os_real_path(at("none")));
    ck_assert_int_eq(errno, ENOENT);
    os_file_id id;
    ck_assert_int_eq(os_link_id(at("a.txt"), &id), 0);
    ck_assert(id.regular && !id.directory);
    ck_assert_int_eq(os_link_id(game.dir, &id), 0);
    ck_assert(id.directory && !id.regular);
#if OS_WINDOWS
    ck_assert_uint_eq(os_open_file_limit(), 0); /* handles: no such bound */
#else
    /* a link to a directory is itself neither: directory walks do not follow it */
    ck_assert_int_eq(symlink(game.dir, at("link")), 0);
    ck_assert_int_eq(os_link_id(at("link"), &id), 0);
    ck_assert(!id.directory && !id.regular);
    ck_assert_int_eq(os_path_id(at("link"), &id), 0);
    ck_assert(id.directory);
    unsigned long long limit = os_open_file_limit();
    long open_max = sysconf(_SC_OPEN_MAX);
    if (open_max > 0) ck_assert_uint_eq(limit, (unsigned long long)open_max);
#endif
}
END_TEST

/* A temporary made while termination is held off, registered, then renamed
** over FILE. */
START_TEST(temporary_then_replace)
{
    put(at("FILE"), "previous");
    char tmp[300];
    snprintf(tmp, sizeof tmp, "%s/.FILE.XXXXXX", game.dir);
    os_block_termination();
    int fd = os_create_temporary(tmp);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(os_remove_on_termination(tmp), 0);
    os_unblock_termination();
    ck_assert_str_ne(tmp + strlen(tmp) - 6, "XXXXXX");
    os_set_new_file_mode(fd, at("FILE"));
    ck_assert_int_eq((int)write(fd, "next\n", 5), 5);
    ck_assert_int_eq(os_sync(fd), 0);
    ck_assert_int_eq(close(fd), 0);
    ck_assert_int_eq(os_replace_file(tmp, at("FILE")), 0);
    os_keep_on_termination();
    ck_assert_str_eq(slurp(at("FILE")), "next\n");
    /* the same template twice gives two files */
    char t1[300], t2[300];
    snprintf(t1, sizeof t1, "%s/t.XXXXXX", game.dir);
    memcpy(t2, t1, sizeof t1);
    int a = os_create_temporary(t1), b = os_create_temporary(t2);
    ck_assert(a >= 0 && b >= 0);
    ck_assert_str_ne(t1, t2);
    close(a);
    close(b);
}
END_TEST

START_TEST(libc_gaps)
{
    char *s = os_strndup("abcdef", 3);
    ck_assert_str_eq(s, "abc");
    free(s);
    s = os_strndup("ab", 10);
    ck_assert_str_eq(s, "ab");
    free(s);
    char buf[128];
    ck_assert_str_eq(os_strerror(ENOENT, buf, sizeof buf), "No such file or directory");
    char *mem;
    size_t len;
    FILE *f = os_memstream_open(&mem, &len);
    ck_assert_ptr_nonnull(f);
    fprintf(f, "%d-%s\r\n", 42, "x");
    fputc(0, f);
    fputs("end", f);
    ck_assert_int_eq(os_memstream_close(f, &mem, &len), 0);
    ck_assert_uint_eq(len, 10);
    ck_assert_int_eq(memcmp(mem, "42-x\r\n\0end", 11), 0);
    free(mem);
    ck_assert_int_ge(os_cpu_count(), 1);
}
END_TEST

/* A pipe grown for the language server's answers takes one of 256 KiB in a
** single write with no reader yet (64 KiB before); a file is no pipe. */
START_TEST(pipe_capacity)
{
#ifdef __linux__
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    ck_assert_int_ge(os_pipe_capacity(fds[1], (size_t)1 << 20), 256 * 1024);
    ck_assert_int_eq(fcntl(fds[1], F_SETFL, O_NONBLOCK), 0);
    static char big[256 * 1024];
    ck_assert_int_eq((int)write(fds[1], big, sizeof big), (int)sizeof big);
    close(fds[0]);
    close(fds[1]);
#endif
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(os_pipe_capacity(fileno(f), (size_t)1 << 20), -1);
    fclose(f);
}
END_TEST

Suite *make_os_suite(void)
{
    Suite *s = suite_create("os");
    TCase *tc = tcase_create("os");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, replace_existing_file);
    tcase_add_test(tc, file_identity);
    tcase_add_test(tc, open_read);
    tcase_add_test(tc, path_separators);
    tcase_add_test(tc, paths_links_limits);
    tcase_add_test(tc, temporary_then_replace);
    tcase_add_test(tc, libc_gaps);
    tcase_add_test(tc, pipe_capacity);
    suite_add_tcase(s, tc);
    return s;
}
