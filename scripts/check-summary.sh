#!/bin/sh
# The last words of make check: what its suites skipped, and why (each
# suite's notes in SKIPS/SUITE, ATRC_SKIP_LOG), and the suites make check
# never runs with what they need, then the verdict.
#   sh scripts/check-summary.sh SKIPS "normal build" SUITE...
set -u
skips=${1:?usage: check-summary.sh SKIPS BUILD SUITE...}
build=${2:?usage: check-summary.sh SKIPS BUILD SUITE...}
shift 2
n=0
for suite in "$@"; do
    [ -s "$skips/$suite" ] || continue
    [ $n -eq 0 ] && echo "== skipped by make check's suites:"
    while IFS= read -r line; do
        echo "  $suite: $line"
        n=$((n + 1))
    done <"$skips/$suite"
done
echo "== not part of make check (run them by name):"
echo "  make corpus-check CORPUS=DIR: the real games' scripts, levels and trees (../shared/corpus/*-game)"
echo "  make check-windows: the Windows build under Wine; make check-wasm, make check-web: WebAssembly and the playground"
echo "  make memcheck, make fuzz, make model-check, make bench: valgrind, libFuzzer, the independent model, timings"
if [ $n -eq 0 ]; then
    echo "== all tests passed ($build), nothing skipped"
else
    echo "== all tests passed ($build), $n case(s) skipped (above)"
fi
