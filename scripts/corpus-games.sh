#!/bin/sh
# Every stock level of four games (third-party content, read in place, never
# copied): GAMES holds cod1-game, uo-game, cod2-game, cod4-game laid out as
# GAMES/GAMES.md says.  For each game present:
#  - level mode for every multiplayer map (with the first gametype) and every
#    gametype (with the first map), and for CoD4 every single-player level;
#  - the whole-game syntax run: every .gsc of the game's directory under its
#    profile;
#  - the whole-game compile (with --developer-script): not one run-time
#    animation warning (the checks' codes in the JSON).
# Each run must give no diagnostic at all, except the data gaps GAMES.md lists
# for the snapshots, which must still be reported (every run of that game
# reports them), and the two stock files the games never load because they do
# not compile (spec/grammar.md section 0).
#   ATRC=build/atrc sh scripts/corpus-games.sh GAMES WORKDIR
set -u
games=${1:?usage: corpus-games.sh GAMES WORKDIR}
work=${2:?usage: corpus-games.sh GAMES WORKDIR}
: "${ATRC:?}"
rm -rf "$work" && mkdir -p "$work" || exit 2
pass=0
fail=0
runs_total=0
# The codes of the run-time animation checks (README, "Diagnostic codes").
runtime_codes='anim-parameter-count|not-an-animtree|not-an-anim|anim-argument-type|anim-argument-sign|anim-no-time|anim-tree-mismatch|anim-root-not-ancestor|anim-no-length|anim-set-time|animscripted-mode|anim-has-no-children'

# Lower-cased base names of the files matching a find -ipath pattern below
# the given directories (a later directory of one name is the same script).
names() {
    pattern=$1
    shift
    for d in "$@"; do
        find "$d/maps" -ipath "$pattern" 2>/dev/null
    done | sed 's|.*/||; s|\.gsc$||' | tr 'A-Z' 'a-z' | LC_ALL=C sort -u
}

# run LABEL GAP ARGS...: one level run; GAP is the extended regular
# expression every diagnostic must match (empty: none allowed, and then no
# diagnostic at all), and which at least one diagnostic must match.
bad=0
runs=0
run() {
    label=$1
    gap=$2
    shift 2
    runs=$((runs + 1))
    "$ATRC" -q --format json -o "$work/level.json" "$@" 2>"$work/level.err"
    status=$?
    grep -E ': (error|warning|note): ' "$work/level.err" >"$work/diags.txt"
    if [ -z "$gap" ]; then
        if [ $status -ne 0 ] || [ -s "$work/level.err" ]; then
            bad=$((bad + 1)); echo "FAIL $label (exit $status):"; head -10 "$work/level.err"
        fi
        return
    fi
    others=$(grep -Evc "$gap" "$work/diags.txt")
    gaps=$(grep -Ec "$gap" "$work/diags.txt")
    if [ "$others" -ne 0 ] || [ "$gaps" -eq 0 ]; then
        bad=$((bad + 1))
        echo "FAIL $label (exit $status, $gaps gap diagnostics, $others others):"
        grep -Ev "$gap" "$work/diags.txt" | head -10
    fi
    grep -E "$gap" "$work/diags.txt" | sed 's/^[^ ]*: //' >>"$work/gaps.txt"
}

for game in cod1 uo cod2 cod4; do
    case $game in
    uo) dirs="$games/cod1-game $games/uo-game" ;;
    *) dirs="$games/$game-game" ;;
    esac
    top=$games/$game-game
    [ -d "$top/maps" ] || { echo "skip $game: no $top/maps"; continue; }
    gdirs=""
    for d in $dirs; do gdirs="$gdirs -g $d"; done
    xanim=--no-xanim
    [ $game = cod4 ] && xanim=
    gap=
    case $game in
    uo) gap="warning: unknown anim tree 'turret88'" ;;
    cod2) gap="error: Could not find script 'xmodelalias/" ;;
    esac
    # shellcheck disable=SC2086
    maps=$(names '*/mp/mp_*.gsc' $dirs | grep -v '_fx$')
    # shellcheck disable=SC2086
    gametypes=$(names '*/mp/gametypes/*.gsc' $dirs | grep -v '^_')
    first_gametype=$(echo "$gametypes" | head -1)
    first_map=$(echo "$maps" | head -1)
    runs=0; bad=0; : >"$work/gaps.txt"
    start=$(date +%s)
    for m in $maps; do
        # shellcheck disable=SC2086
        run "$game level $m $first_gametype" "$gap" --profile $game $xanim $gdirs --map "$m" --gametype "$first_gametype"
    done
    for g in $gametypes; do
        # shellcheck disable=SC2086
        run "$game level $first_map $g" "$gap" --profile $game $xanim $gdirs --map "$first_map" --gametype "$g"
    done
    mp_runs=$runs
    if [ $game = cod4 ]; then
        for l in ac130 aftermath airlift airplane ambush armada blackout bog_a bog_b cargoship coup \
                 hunted icbm jeepride killhouse launchfacility_a launchfacility_b scoutsniper \
                 sniperescape village_assault village_defend; do
            # shellcheck disable=SC2086
            run "$game single player $l" "" --profile $game $gdirs --map "$l" --sp
        done
    fi
    runs_total=$((runs_total + runs))
    if [ $bad -eq 0 ] && [ $runs -gt 0 ]; then
        echo "ok   $game levels: $(echo $maps | wc -w) maps x $first_gametype, $(echo $gametypes | wc -w) gametypes on $first_map$([ $game = cod4 ] && echo ", $((runs - mp_runs)) single-player levels"): $runs runs in $(($(date +%s) - start)) s, no diagnostic but the snapshot's gaps"
        [ -s "$work/gaps.txt" ] && LC_ALL=C sort "$work/gaps.txt" | uniq -c | sed 's/^/     /'
        pass=$((pass + 1))
    else
        echo "FAIL $game levels: $bad of $runs runs"; fail=$((fail + 1))
    fi

    # The whole game under its profile: every .gsc of its directory.
    find "$top" -name '*.gsc' | LC_ALL=C sort >"$work/scripts.txt"
    n=$(wc -l <"$work/scripts.txt")
    # Compiled together (developer code too, CoD4 with its whole xanims):
    # the run-time animation checks find nothing in stock scripts.
    # shellcheck disable=SC2086
    tr '\n' '\0' <"$work/scripts.txt" | xargs -0 "$ATRC" -q --profile $game $xanim $gdirs --developer-script \
        --format json -o "$work/whole.json" 2>/dev/null
    runtime=$(grep -cE "\"code\": \"($runtime_codes)\"" "$work/whole.json")
    if [ -s "$work/whole.json" ] && [ "$runtime" -eq 0 ]; then
        echo "ok   $game run-time checks: $n scripts compiled together, no run-time animation warning"
        pass=$((pass + 1))
    else
        echo "FAIL $game run-time checks: $runtime run-time animation warnings on stock scripts:"
        grep -E "\"code\": \"($runtime_codes)\"" "$work/whole.json" | head -10
        fail=$((fail + 1))
    fi
    tr '\n' '\0' <"$work/scripts.txt" | xargs -0 "$ATRC" -q --profile $game --syntax-only \
        2>"$work/syntax.err" >/dev/null
    status=$?
    # cod2, cod4: the two stock files that do not compile in the game either.
    expected=
    case $game in
    cod2 | cod4)
        expected="$top/animscripts/traverse/stairs_down.gsc:18:25: error: expected ';' before 'horizontalDelta'
$top/animscripts/traverse/stairs_up.gsc:29:23: error: expected '(' before '.'" ;;
    esac
    got=$(grep -E ': (error|warning|note): ' "$work/syntax.err")
    if [ "$got" = "$expected" ] && { [ -n "$expected" ] || [ $status -eq 0 ]; }; then
        echo "ok   $game syntax: $n scripts under --profile $game$([ -n "$expected" ] && echo ", errors only in the 2 files the game cannot compile either")"
        pass=$((pass + 1))
    else
        echo "FAIL $game syntax (exit $status), diagnostics (<) against the expected ones (>):"
        echo "$got" >"$work/syntax.got"
        echo "$expected" | diff "$work/syntax.got" - | head -20
        fail=$((fail + 1))
    fi
done
echo "corpus-games: $pass passed, $fail failed ($runs_total level runs)"
[ $fail -eq 0 ] && [ $pass -gt 0 ]
