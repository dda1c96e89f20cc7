#!/bin/sh
# scripts/check-layers.sh: the real tree passes; a small tree with one
# include of each forbidden kind, a file without its banner, one of 1,201
# lines, one with a string hash of its own, and one breach of each idiom (a
# capacity outside VEC, a loose triple grown with vec_push, an unchecked size
# product, a header or a POSIX call that os.h does not list for the file)
# fails with each reported at its line; what is allowed (a hash of the
# allow-list, a file of 1,200 lines, the allowed idioms) is not.
#   sh tests/layers/run.sh
set -u
top=$(pwd)
sh "$top/scripts/check-layers.sh" "$top" || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/atrc-layers-XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/src/base" "$tmp/src/script" "$tmp/src/tree" "$tmp/src/check" "$tmp/src/output" \
    "$tmp/src/cli" "$tmp/tests" "$tmp/src/os" "$tmp/src/files" "$tmp/src/compile"
cat >"$tmp/src/base/a.c" <<'C'
/* banner */
#include "base/vec.h"
#include "os/os.h"
#include "compile/driver.h"
#include "text.h"
C
cat >"$tmp/src/script/b.c" <<'C'
/* banner */
#include "gsc_parser.h"
#include "tree/atr.h"
#include "check/check_internal.h"
C
cat >"$tmp/src/output/diff_x.c" <<'C'
/* banner */
#include "output/diff_internal.h"
#include "cli/args.h"
C
cat >"$tmp/src/output/emit.c" <<'C'
/* banner */
#include "output/diff_internal.h"
C
cat >"$tmp/src/cli/main.c" <<'C'
/* banner */
#include "atrc.h"
#include "base/vec.h"
#include "cli/lsp_server.h"
#include "compile/context.h"
C
cat >"$tmp/src/api.c" <<'C'
/* banner */
#include "editor/session.h"
#include "editor/lookup_internal.h"
C
cat >"$tmp/tests/t.c" <<'C'
/* banner */
#include "check/check_internal.h"
C
cat >"$tmp/src/tree/nobanner.c" <<'C'
int x;
C
cat >"$tmp/src/tree/fnv.c" <<'C'
/* banner */
static unsigned h(const char *s) { unsigned v = 2166136261u; while (*s) v = (v ^ *s++) * 16777619u; return v; }
static unsigned k(unsigned n) { return n * 31u; }
C
mkdir -p "$tmp/src/game"
cat >"$tmp/src/game/anim_builtins.h" <<'C'
/* banner: allowed (the quick-test key of a fixed table) */
static unsigned key(unsigned n) { return n * 31u; }
C
{ echo '/* banner */'; i=1; while [ $i -lt 1200 ]; do echo; i=$((i + 1)); done; } >"$tmp/src/tree/at_limit.c"
{ cat "$tmp/src/tree/at_limit.c"; echo; } >"$tmp/src/tree/over.c"
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
/* banner */
#include <unistd.h>
#include <strings.h>
/* fork() and xmalloc(n * sizeof(int)) named in a comment */
static const char *s = "write(1, p, n * sizeof(int))";
int f(int fd) { char b[4]; (void)s; return strcasecmp("a", "b") + (int)read(fd, b, 4) + close(fd); }
C
cat >"$tmp/src/files/more.c" <<'C'
/* banner */
#include <unistd.h>
int g(int fd) { return close(fd); }
C
cat >"$tmp/src/files/list.c" <<'C'
/* banner */
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
/* banner */
typedef struct outbuf {
    char *s;
    size_t len, cap;
} outbuf;
C
cat >"$tmp/src/base/other.h" <<'C'
/* banner */
typedef struct outbuf
{
    size_t cap;
} not_the_outbuf;
C
cat >"$tmp/src/compile/threads.c" <<'C'
/* banner */
#include <pthread.h>
void t(pthread_t *p) { pthread_create(p, NULL, NULL, NULL); }
C
cat >"$tmp/src/compile/other.c" <<'C'
/* banner */
#include <pthread.h>
void u(pthread_mutex_t *m) { pthread_mutex_lock(m); }
C
cat >"$tmp/src/tree/sz.c" <<'C'
/* banner */
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
expect 'src/base/a.c:4: #include "compile/driver.h": compile/ is above base/'
expect 'src/base/a.c:5: #include "text.h": a project header is named with its folder'
expect 'src/script/b.c:3: #include "tree/atr.h": script/ and tree/ are on one level: siblings do not include each other'
expect 'src/script/b.c:4: #include "check/check_internal.h": check_internal.h is private to check/'
expect 'src/script/b.c:4: #include "check/check_internal.h": check/ is above script/'
expect 'src/output/diff_x.c:3: #include "cli/args.h": the library never includes cli/'
expect 'src/output/emit.c:2: #include "output/diff_internal.h": diff_internal.h is private to output/diff*.c'
expect 'src/cli/main.c:4: #include "cli/lsp_server.h": cli/lsp_server.h is private to cli/lsp*.c'
expect 'src/cli/main.c:5: #include "compile/context.h": cli/ includes only atrc.h, base/, os/ and cli/'
expect 'tests/t.c:2: #include "check/check_internal.h": check_internal.h is private to check/'
expect 'src/api.c:3: #include "editor/lookup_internal.h": lookup_internal.h is private to editor/lookup*.c'
expect 'check-layers: 11 includes against the rule (README, "Design")'
expect 'src/tree/nobanner.c:1: no banner comment: a file starts with what it holds'
expect 'src/tree/fnv.c:2: a string hash of its own: use text_hash or text_hash_bytes (base/text.h)'
expect 'src/tree/fnv.c:3: a string hash of its own: use text_hash or text_hash_bytes (base/text.h)'
expect 'src/tree/over.c:1201: over 1,200 lines: split it along its sections'
expect 'check-layers: 4 file rules broken'
expect "src/base/other.h:4: 'cap' in struct outbuf: a capacity outside VEC (base/vec.h): make the array a VEC"
expect 'src/compile/other.c:2: <pthread.h>: src/os/os.h does not list compile/other.c for it'
expect "src/compile/other.c:3: 'pthread_mutex_lock' (POSIX): src/os/os.h does not list compile/other.c for pthread_*"
expect 'src/files/list.c:3: <unistd.h>: src/os/os.h does not list files/list.c for it'
expect 'src/files/list.c:4: <dirent.h>: beyond ISO C99 and not in the POSIX subset of src/os/os.h'
expect "src/files/list.c:7: 'cap' in struct names: a capacity outside VEC (base/vec.h): make the array a VEC"
expect "src/files/list.c:9: 'frame_cap' in struct walk: a capacity outside VEC (base/vec.h): make the array a VEC"
expect 'src/files/list.c:12: vec_push/vec_reserve grow a loose triple: make it a VEC (VEC_PUSH, VEC_RESERVE)'
expect "src/files/list.c:13: 'read' (POSIX, <unistd.h>): src/os/os.h does not list files/list.c for it"
expect "src/files/list.c:14: 'fork' is POSIX and not in the subset of src/os/os.h: wrap it in os/ or list it there"
expect 'src/tree/sz.c:3: xmalloc(): an unchecked size product: array_size(n, size) (base/arena.h)'
expect 'src/tree/sz.c:5: memcpy(): an unchecked size product: array_size(n, size) (base/arena.h)'
expect 'src/tree/sz.c:8: arena_alloc(): an unchecked size product: array_size(n, size) (base/arena.h)'
expect 'check-layers: 13 breaches of the idioms (README, "Design"; src/os/os.h)'
[ "$(grep -c '^[a-z/_.]*:[0-9][0-9]*: ' "$tmp/out")" -eq 28 ] || { echo "layers: not 28 breaches, or one where none is" >&2; fail=1; }
[ $rc -eq 1 ] || { echo "layers: exit status $rc, not 1" >&2; fail=1; }
[ $fail -eq 0 ] || { cat "$tmp/out" >&2; exit 1; }
echo "layers: 11 include breaches, 4 of the file rules and 13 of the idioms found at their lines, none where there is none"
