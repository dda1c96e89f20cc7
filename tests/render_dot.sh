#!/bin/sh
# The pictures are Graphviz programs: every dot golden and a live run on the
# samples must render with `dot -Tsvg` without a single warning, and the SVG
# must show each node's label.
#   ATRC=/abs/atrc SAMPLE_GAME=dir sh tests/render_dot.sh
set -u
: "${ATRC:?set ATRC to the atrc binary}"
: "${SAMPLE_GAME:?set SAMPLE_GAME to the generated sample game directory}"
command -v dot >/dev/null 2>&1 || { echo "render: Graphviz 'dot' is missing (scripts/ensure-deps.sh graphviz)" >&2; exit 1; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0
fail=0
render() { # NAME FILE [LABEL...]: FILE renders; each LABEL appears in the SVG
    name=$1 file=$2
    shift 2
    if ! dot -Tsvg "$file" >"$tmp/out.svg" 2>"$tmp/err" || [ -s "$tmp/err" ]; then
        echo "FAIL $name: dot -Tsvg failed or warned:"; head -5 "$tmp/err"; fail=$((fail + 1)); return
    fi
    for label in "$@"; do
        if ! grep -qF -- "$label" "$tmp/out.svg"; then
            echo "FAIL $name: the SVG lacks '$label'"; fail=$((fail + 1)); return
        fi
    done
    pass=$((pass + 1))
}
for f in $(find tests/golden -name '*dot*.stdout' | LC_ALL=C sort); do render "$f" "$f" "<svg"; done
render "pruned tree" tests/golden/trees/pruned_dot.stdout "scratch_head" "(pruned)" "walk_fast" "0x00010005"
scripts=$(ls samples/scripts/*.gsc | LC_ALL=C sort)
# shellcheck disable=SC2086
"$ATRC" --format dot --show-pruned -g "$SAMPLE_GAME" $scripts >"$tmp/samples.dot" 2>/dev/null
render "samples --show-pruned" "$tmp/samples.dot" "tree 1 soldier" "stand_idle" "(placeholder)" "(pruned)"
# Quotes, backslashes and a newline in a game directory's name stay inside the labels.
weird="$tmp/we\"ird \\ dir
x"
mkdir -p "$weird/animtrees"
cp tests/golden/trees/game/animtrees/human.atr "$weird/animtrees/"
"$ATRC" --format dot --no-xanim -g "$weird" tests/golden/trees/human.gsc >"$tmp/weird.dot" 2>/dev/null
render "a game directory named with quotes, a backslash and a newline" "$tmp/weird.dot" "fire_single" "ird \\ dir"
# A real tree: CoD4's generic_human of a stock single-player level renders
# to PNG at 100% (Graphviz prints no "Scaling" warning) and the picture's
# size is sane (cairo's bitmap limit is 32767 pixels a side).
corpus=../shared/corpus/cod4-game
if [ -d "$corpus" ]; then
    "$ATRC" --format dot --profile cod4 -g "$corpus" --map killhouse --sp --tree generic_human >"$tmp/gh.dot" 2>/dev/null
    if ! grep -q 'rankdir=LR' "$tmp/gh.dot" || ! grep -q 'cluster_legend' "$tmp/gh.dot"; then
        echo "FAIL generic_human: not laid out left to right with a legend"; fail=$((fail + 1))
    elif ! dot -Tpng "$tmp/gh.dot" -o "$tmp/gh.png" 2>"$tmp/err" || [ -s "$tmp/err" ]; then
        echo "FAIL generic_human: dot -Tpng failed or warned:"; head -3 "$tmp/err"; fail=$((fail + 1))
    else
        # IHDR: width and height, big-endian, at bytes 16..23
        set -- $(od -An -tu1 -j16 -N8 "$tmp/gh.png")
        w=$(( ($1 << 24) | ($2 << 16) | ($3 << 8) | $4 )) h=$(( ($5 << 24) | ($6 << 16) | ($7 << 8) | $8 ))
        if [ "$w" -lt 1000 ] || [ "$h" -lt 1000 ] || [ "$w" -gt 12000 ] || [ "$h" -gt 12000 ]; then
            echo "FAIL generic_human: a ${w}x${h} PNG"; fail=$((fail + 1))
        else
            pass=$((pass + 1))
        fi
    fi
else
    echo "render: skipping generic_human ($corpus is absent)"
    [ -n "${ATRC_SKIP_LOG:-}" ] && echo "CoD4's generic_human as a PNG: $corpus is absent" >>"$ATRC_SKIP_LOG"
fi
echo "render: $pass passed, $fail failed"
[ $fail -eq 0 ] && [ $pass -gt 0 ]
