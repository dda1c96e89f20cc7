#!/bin/sh
# Golden tests: each tests/golden/<group>/<name>.cmd holds atrc's arguments (one
# shell line, run from the .cmd's directory); <name>.stdout, <name>.stderr and
# <name>.status hold what atrc must print and return, byte for byte.
#   ATRC=path/to/atrc sh tests/run_golden.sh tests/golden [filter]
#   UPDATE=1 ... rewrites the expected files from the current output (review the diff!).
#   JOBS=N ... runs every case with `-j N` first: the expected files are the same for any N.
#   SKIP=FILE ... skips the cases FILE lists, one `group/name reason...` a line
#   (`#` comments), printing each with its reason.
#   SKIP_PLATFORM=windows ... leaves out the cases with a <name>.posix-only file
#   (it says why: e.g. two file names that differ only in case), and says so.
set -u
root=${1:?usage: run_golden.sh DIR [FILTER]}
filter=${2:-}
: "${ATRC:?set ATRC to the atrc binary}"
export ATRC MKXANIM="${MKXANIM:-}"
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0
fail=0
skip=0
for cmd in $(find "$root" -name '*.cmd' | LC_ALL=C sort); do
    case "$cmd" in *"$filter"*) ;; *) continue ;; esac
    dir=$(dirname "$cmd")
    name=$(basename "$cmd" .cmd)
    base="$dir/$name"
    if [ -n "${SKIP:-}" ]; then
        why=$(awk -v c="$(basename "$dir")/$name" '$1 == c { $1 = ""; sub(/^ /, ""); print; exit }' "$SKIP")
        if [ -n "$why" ]; then echo "SKIP $base: $why"; skip=$((skip + 1)); continue; fi
    fi
    if [ "${SKIP_PLATFORM:-}" = windows ] && [ -f "$base.posix-only" ]; then
        echo "SKIP $base: $(cat "$base.posix-only")"
        skip=$((skip + 1))
        continue
    fi
    args=$(cat "$cmd")
    # (`atrc diff` reads no scripts: it takes no -j.)
    case $args in diff\ *) ;; *) [ -n "${JOBS:-}" ] && args="-j $JOBS $args" ;; esac
    (cd "$dir" && eval "\"\$ATRC\" $args") >"$tmp/out" 2>"$tmp/err" </dev/null
    echo $? >"$tmp/status"
    if [ "${UPDATE:-}" = 1 ]; then
        cp "$tmp/out" "$base.stdout"; cp "$tmp/err" "$base.stderr"; cp "$tmp/status" "$base.status"
    fi
    ok=1
    for k in stdout stderr status; do
        src=$tmp/out
        [ $k = stderr ] && src=$tmp/err
        [ $k = status ] && src=$tmp/status
        if [ ! -f "$base.$k" ]; then
            echo "FAIL $base: missing $base.$k"; ok=0
        elif ! cmp -s "$src" "$base.$k"; then
            echo "FAIL $base: $k differs:"; diff -u "$base.$k" "$src" | head -40; ok=0
        fi
    done
    if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "golden${JOBS:+ (-j $JOBS)}: $pass passed, $fail failed$([ "$skip" -gt 0 ] || [ -n "${SKIP:-}" ] && echo ", $skip skipped")"
[ $fail -eq 0 ] && [ $pass -gt 0 ]
