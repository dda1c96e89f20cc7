#!/bin/sh
# scripts/check-layers.sh: the real tree passes; a small tree with one
# include of each forbidden kind fails with each reported at its line.
#   sh tests/layers/run.sh
set -u
top=$(pwd)
sh "$top/scripts/check-layers.sh" "$top" || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/atrc-layers-XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/src/base" "$tmp/src/script" "$tmp/src/tree" "$tmp/src/check" "$tmp/src/output" \
    "$tmp/src/cli" "$tmp/tests"
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
[ $rc -eq 1 ] || { echo "layers: exit status $rc, not 1" >&2; fail=1; }
[ $fail -eq 0 ] || { cat "$tmp/out" >&2; exit 1; }
echo "layers: 10 breaches found at their lines"
