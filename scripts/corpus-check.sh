#!/bin/sh
# Real-world check against a corpus directory laid out as CORPUS/animtrees/*.atr,
# CORPUS/scripts/**/*.gsc and CORPUS/XANIMS_NEEDED.txt (third-party data: it is
# read in place and never copied into the project).
#  1. every script parses with --syntax-only and no diagnostic;
#  2. a game directory = CORPUS (trees) + generated header-only xanims with the
#     looping bits the sync groups need; all scripts compile in sorted order
#     with no error, and warnings only for trees the corpus lacks;
#  3. the same trees and xanims packed into two .pk3 archives of an install
#     (built under WORKDIR with mkpk3): every value is the same as from loose files.
#   ATRC=build/atrc MKXANIM=build/mkxanim MKPK3=build/mkpk3 sh scripts/corpus-check.sh CORPUS WORKDIR
set -u
corpus=${1:?usage: corpus-check.sh CORPUS WORKDIR}
work=${2:?usage: corpus-check.sh CORPUS WORKDIR}
: "${ATRC:?}" "${MKXANIM:?}"
[ -d "$corpus/scripts" ] || { echo "corpus-check: $corpus/scripts not found" >&2; exit 2; }
rm -rf "$work" && mkdir -p "$work/game/xanim" || exit 2

find "$corpus/scripts" -name '*.gsc' | LC_ALL=C sort >"$work/scripts.txt"
n=$(wc -l <"$work/scripts.txt")
pass=0
fail=0

# 1. syntax
# shellcheck disable=SC2046
if "$ATRC" --syntax-only $(cat "$work/scripts.txt") 2>"$work/syntax.err"; then
    if [ -s "$work/syntax.err" ]; then
        echo "FAIL syntax: diagnostics on clean scripts:"; head -40 "$work/syntax.err"; fail=$((fail + 1))
    else
        echo "ok   syntax: $n scripts parse with no diagnostic"; pass=$((pass + 1))
    fi
else
    echo "FAIL syntax:"; head -40 "$work/syntax.err"; fail=$((fail + 1))
fi

# 2. full compile
if [ -f "$corpus/XANIMS_NEEDED.txt" ]; then
    "$MKXANIM" -d "$work/game/xanim" -l "$corpus/XANIMS_NEEDED.txt" || exit 2
fi
# shellcheck disable=SC2046
"$ATRC" --format json -o "$work/result.json" -g "$corpus" -g "$work/game" $(cat "$work/scripts.txt") 2>"$work/compile.err"
status=$?
errors=$(grep -c ': error: ' "$work/compile.err")
others=$(grep ': warning: ' "$work/compile.err" | grep -vc "warning: unknown anim tree '")
if [ $status -eq 0 ] && [ "$errors" -eq 0 ] && [ "$others" -eq 0 ]; then
    refs=$(grep -c '"kind": "anim"' "$work/result.json")
    nulls=$(grep '"kind": "anim"' "$work/result.json" | grep -c '"value": null')
    trees=$(grep -c '"checksum": [0-9]' "$work/result.json")
    echo "ok   compile: $n scripts, $trees trees built, $refs %anim references ($nulls null: trees the corpus lacks)"
    grep ': warning: ' "$work/compile.err" | sed 's/^/     /'
    pass=$((pass + 1))
else
    echo "FAIL compile (exit $status, $errors errors, $others unexpected warnings):"
    grep -E ': (error|warning): ' "$work/compile.err" | head -40
    fail=$((fail + 1))
fi
# 3. the same content from archives
if [ -n "${MKPK3:-}" ]; then
    mkdir -p "$work/inst/main" || exit 2
    "$MKPK3" "$work/inst/main/pak0.pk3" "$corpus" animtrees || exit 2
    "$MKPK3" "$work/inst/main/pak1.pk3" "$work/game" xanim || exit 2
    # shellcheck disable=SC2046
    "$ATRC" -g "$corpus" -g "$work/game" $(cat "$work/scripts.txt") >"$work/loose.txt" 2>/dev/null
    # shellcheck disable=SC2046
    "$ATRC" --install "$work/inst" $(cat "$work/scripts.txt") >"$work/pk3.txt" 2>"$work/pk3.err"
    if [ -s "$work/loose.txt" ] && cmp -s "$work/loose.txt" "$work/pk3.txt" && ! grep -q ': error: ' "$work/pk3.err"; then
        echo "ok   archives: $(wc -l <"$work/pk3.txt") values from two .pk3 files equal those from loose files"
        pass=$((pass + 1))
    else
        echo "FAIL archives: values from .pk3 files differ from loose files:"
        diff "$work/loose.txt" "$work/pk3.txt" | head -20; head -20 "$work/pk3.err"
        fail=$((fail + 1))
    fi
fi
echo "corpus-check: $pass passed, $fail failed"
[ $fail -eq 0 ]
