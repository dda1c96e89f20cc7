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
echo "render: $pass passed, $fail failed"
[ $fail -eq 0 ] && [ $pass -gt 0 ]
