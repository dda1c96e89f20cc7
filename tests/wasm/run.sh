#!/bin/sh
# The WebAssembly CLI (make wasm) against the golden cases, run by node: its
# output, errors and exit status must be the native CLI's byte for byte.  Cases
# it cannot run are listed in tests/wasm/skip.txt with the reason.  Then the one
# place where it differs by design: an archive on the search path is reported
# as unreadable in this build.
#   ATRC=build/wasm/atrc MKPK3=build/mkpk3 sh tests/wasm/run.sh
set -u
: "${ATRC:?set ATRC to the wasm CLI (build/wasm/atrc)}"
: "${MKPK3:?set MKPK3 to the native mkpk3}"
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
status=0
SKIP="$here/skip.txt" sh "$root/tests/run_golden.sh" "$root/tests/golden" || status=1
# Without threads: -j 4 asks for workers, pthread_create fails, and the
# calling thread reads every script; the output is the same.
JOBS=4 SKIP="$here/skip.txt" sh "$root/tests/run_golden.sh" "$root/tests/golden" || status=1

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/inst/main"
"$MKPK3" "$tmp/inst/main/pak0.pk3" "$root/samples/packing/game" >/dev/null || exit 2
cp "$root/samples/packing/a.gsc" "$tmp/"
(cd "$tmp" && "$ATRC" --no-xanim --install inst a.gsc) >"$tmp/out" 2>"$tmp/err"
rc=$?
want="atrc: warning: cannot open archive 'inst/main/pak0.pk3': this atrc was built without archive support (ATRC_NO_ARCHIVES), so .pk3/.iwd files are not read; skipped"
if [ $rc -eq 0 ] && [ "$(head -n 1 "$tmp/err")" = "$want" ] && grep -q "unknown anim tree 'example'" "$tmp/err"; then
    echo "wasm: archive refused with its reason: 1 passed, 0 failed"
else
    echo "FAIL wasm archive case (exit $rc):"; cat "$tmp/err"
    echo "wasm: archive refused with its reason: 0 passed, 1 failed"
    status=1
fi
# -o writes a file with the usual permissions (emscripten starts with umask 0777).
(cd "$tmp" && "$ATRC" --no-xanim -o out.txt -g "$root/samples/packing/game" a.gsc)
perm=$(ls -l "$tmp/out.txt" | cut -c1-10)
if [ "$perm" = "-rw-r--r--" ]; then
    echo "wasm: -o file permissions: 1 passed, 0 failed"
else
    echo "FAIL wasm -o wrote a file with permissions $perm, not -rw-r--r--"
    echo "wasm: -o file permissions: 0 passed, 1 failed"
    status=1
fi
exit $status
