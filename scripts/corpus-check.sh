#!/bin/sh
# Real-world check against a corpus directory laid out as CORPUS/animtrees/*.atr,
# CORPUS/scripts/**/*.gsc and CORPUS/XANIMS_NEEDED.txt (third-party data: it is
# read in place and never copied into the project).
#  1. every script parses with --syntax-only and no diagnostic;
#  2. a game directory = CORPUS (trees) + generated header-only xanims with the
#     looping bits the sync groups need; all scripts compile in sorted order
#     with no error, and warnings only for trees the corpus lacks;
#  3. when the whole game's scripts are there (GAME_CORPUS, default
#     CORPUS/../cod1-game), every one parses under --profile cod1 with no
#     diagnostic (skipped otherwise).
#   ATRC=build/atrc MKXANIM=build/mkxanim sh scripts/corpus-check.sh CORPUS WORKDIR
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
# 3. every script of the game under its profile
game=${GAME_CORPUS:-$corpus/../cod1-game}
if [ -d "$game" ]; then
    find "$game" -name '*.gsc' | LC_ALL=C sort >"$work/game-scripts.txt"
    gn=$(wc -l <"$work/game-scripts.txt")
    tr '\n' '\0' <"$work/game-scripts.txt" |
        xargs -0 "$ATRC" --profile cod1 --syntax-only 2>"$work/game-syntax.err" >/dev/null
    gstatus=$?
    if [ $gstatus -eq 0 ] && [ ! -s "$work/game-syntax.err" ]; then
        echo "ok   cod1 game: $gn scripts parse under --profile cod1 with no diagnostic"; pass=$((pass + 1))
    else
        echo "FAIL cod1 game (exit $gstatus):"; head -40 "$work/game-syntax.err"; fail=$((fail + 1))
    fi
else
    echo "skip cod1 game: $game not found"
fi
echo "corpus-check: $pass passed, $fail failed"
[ $fail -eq 0 ]
