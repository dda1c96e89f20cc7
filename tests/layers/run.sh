#!/bin/sh
# scripts/check-layers.sh: the real tree passes; a small tree with one
# include of each forbidden kind, and one breach of each idiom (a capacity
# outside VEC, a loose triple grown with vec_push, an unchecked size
# product, a header or a POSIX call that os.h does not list for the file),
# fails with each reported at its line, and what is allowed is not.
#   sh tests/layers/run.sh
set -u
top=$(pwd)
sh "$top/scripts/check-layers.sh" "$top" || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/atrc-layers-XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/src/base" "$tmp/src/script" "$tmp/src/tree" "$tmp/src/check" "$tmp/src/output" \
    "$tmp/src/cli" "$tmp/tests" "$tmp/src/os" "$tmp/src/files" "$tmp/src/compile"
cat >"$tmp/src/base/a.c" <<'C'
#include "base/vec.h"
#include "os/os.h"
#include "compile/driver.h"
#include "text.h"
C
cat >"$tmp/src/script/b.c" <<'C'
#include "gsc_parser.h"
#include "tree/atr.h"
#include "check/check_internal.h"
C
cat >"$tmp/src/output/diff_x.c" <<'C'
#include "output/diff_internal.h"
#include "cli/args.h"
C
cat >"$tmp/src/output/emit.c" <<'C'
#include "output/diff_internal.h"
C
cat >"$tmp/src/cli/main.c" <<'C'
#include "atrc.h"
#include "base/vec.h"
#include "cli/lsp_server.h"
#include "compile/context.h"
C
cat >"$tmp/src/api.c" <<'C'
#include "editor/session.h"
C
cat >"$tmp/tests/t.c" <<'C'
#include "check/check_internal.h"
C
# ---- the idioms ----
cat >"$tmp/src/os/os.h" <<'C'
/* The subset this tree may use:
**   <unistd.h>    read close: base/io.c
**                 files/more.c
**   <strings.h>   strcasecmp: everywhere
**   <pthread.h>   pthread_*: compile/threads.c
** Nothing else. */
C
cat >"$tmp/src/base/io.c" <<'C'
#include <unistd.h>
#include <strings.h>
/* fork() and xmalloc(n * sizeof(int)) named in a comment */
static const char *s = "write(1, p, n * sizeof(int))";
int f(int fd) { char b[4]; (void)s; return strcasecmp("a", "b") + (int)read(fd, b, 4) + close(fd); }
C
cat >"$tmp/src/files/more.c" <<'C'
#include <unistd.h>
int g(int fd) { return close(fd); }
C
cat >"$tmp/src/files/list.c" <<'C'
#include <stdlib.h>
#include <unistd.h>
#include <dirent.h>
typedef struct names {
    char **items;
    size_t count, cap;
} names;
struct walk { int *frames; size_t frame_cap; };
void h(names *l, int fd, char *s)
{
    *vec_push(l->items, l->count, l->cap) = s;
    (void)read(fd, s, 1);
    if (fork() == 0) _exit(0);
}
C
cat >"$tmp/src/base/outbuf.h" <<'C'
typedef struct outbuf {
    char *s;
    size_t len, cap;
} outbuf;
C
cat >"$tmp/src/base/other.h" <<'C'
typedef struct outbuf
{
    size_t cap;
} not_the_outbuf;
C
cat >"$tmp/src/compile/threads.c" <<'C'
#include <pthread.h>
void t(pthread_t *p) { pthread_create(p, NULL, NULL, NULL); }
C
cat >"$tmp/src/compile/other.c" <<'C'
#include <pthread.h>
void u(pthread_mutex_t *m) { pthread_mutex_lock(m); }
C
cat >"$tmp/src/tree/sz.c" <<'C'
#include "base/arena.h"
void *a(size_t n) { return xmalloc(n * sizeof(int)); }
void *b(size_t n) { return xmalloc(array_size(n, sizeof(int))); }
void c(int *d, const int *s, size_t n) { memcpy(d, s, sizeof *d * n); }
void *e(arena *m, size_t n)
{
    return arena_alloc(m,
                       n * sizeof(long));
}
void f(int *d, size_t n) { memset(d, 0, sizeof *d + n - n); }
C
sh "$top/scripts/check-layers.sh" "$tmp" >"$tmp/out" 2>&1
rc=$?
fail=0
expect() {
    grep -qxF "$1" "$tmp/out" || { echo "layers: missing: $1" >&2; fail=1; }
}
expect 'src/base/a.c:3: #include "compile/driver.h": compile/ is above base/'
expect 'src/base/a.c:4: #include "text.h": a project header is named with its folder'
expect 'src/script/b.c:2: #include "tree/atr.h": script/ and tree/ are on one level: siblings do not include each other'
expect 'src/script/b.c:3: #include "check/check_internal.h": check_internal.h is private to check/'
expect 'src/script/b.c:3: #include "check/check_internal.h": check/ is above script/'
expect 'src/output/diff_x.c:2: #include "cli/args.h": the library never includes cli/'
expect 'src/output/emit.c:1: #include "output/diff_internal.h": diff_internal.h is private to output/diff*.c'
expect 'src/cli/main.c:3: #include "cli/lsp_server.h": cli/lsp_server.h is private to cli/lsp*.c'
expect 'src/cli/main.c:4: #include "compile/context.h": cli/ includes only atrc.h, base/, os/ and cli/'
expect 'tests/t.c:1: #include "check/check_internal.h": check_internal.h is private to check/'
expect 'check-layers: 10 includes against the rule (README, "Design")'
expect "src/base/other.h:3: 'cap' in struct outbuf: a capacity outside VEC (base/vec.h): make the array a VEC"
expect 'src/compile/other.c:1: <pthread.h>: src/os/os.h does not list compile/other.c for it'
expect "src/compile/other.c:2: 'pthread_mutex_lock' (POSIX): src/os/os.h does not list compile/other.c for pthread_*"
expect 'src/files/list.c:2: <unistd.h>: src/os/os.h does not list files/list.c for it'
expect 'src/files/list.c:3: <dirent.h>: beyond ISO C99 and not in the POSIX subset of src/os/os.h'
expect "src/files/list.c:6: 'cap' in struct names: a capacity outside VEC (base/vec.h): make the array a VEC"
expect "src/files/list.c:8: 'frame_cap' in struct walk: a capacity outside VEC (base/vec.h): make the array a VEC"
expect 'src/files/list.c:11: vec_push/vec_reserve grow a loose triple: make it a VEC (VEC_PUSH, VEC_RESERVE)'
expect "src/files/list.c:12: 'read' (POSIX, <unistd.h>): src/os/os.h does not list files/list.c for it"
expect "src/files/list.c:13: 'fork' is POSIX and not in the subset of src/os/os.h: wrap it in os/ or list it there"
expect 'src/tree/sz.c:2: xmalloc(): an unchecked size product: array_size(n, size) (base/arena.h)'
expect 'src/tree/sz.c:4: memcpy(): an unchecked size product: array_size(n, size) (base/arena.h)'
expect 'src/tree/sz.c:7: arena_alloc(): an unchecked size product: array_size(n, size) (base/arena.h)'
expect 'check-layers: 13 breaches of the idioms (README, "Design"; src/os/os.h)'
[ "$(grep -c '^[a-z/_.]*:[0-9][0-9]*: ' "$tmp/out")" -eq 23 ] || { echo "layers: not 23 breaches, or one where none is" >&2; fail=1; }
[ $rc -eq 1 ] || { echo "layers: exit status $rc, not 1" >&2; fail=1; }
[ $fail -eq 0 ] || { cat "$tmp/out" >&2; exit 1; }
echo "layers: 10 include breaches and 13 of the idioms found at their lines, none where there is none"
