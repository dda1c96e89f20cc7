#!/bin/sh
# Real-world check against a corpus directory laid out as CORPUS/animtrees/*.atr,
# CORPUS/scripts/**/*.gsc and CORPUS/XANIMS_NEEDED.txt (third-party data: it is
# read in place and never copied into the project).
#  1. every script parses with --syntax-only and no diagnostic;
#  2. a game directory = CORPUS (trees) + generated header-only xanims with the
#     looping bits the sync groups need; all scripts compile in sorted order
#     with no error, and warnings only for trees the corpus lacks;
#  3. the same trees and xanims packed into two .pk3 archives of an install
#     (built under WORKDIR with mkpk3): every value is the same as from loose files;
#  4. with a game tree beside it (CORPUS_GAME, default CORPUS/../cod1-game; skipped
#     when absent): level mode for every multiplayer map and gametype, and the
#     load walk from every single-player level script maps/*.gsc, with no error
#     and warnings only for trees the game tree lacks.
#  5. when the whole game's scripts are there (GAME_CORPUS, default
#     CORPUS/../cod1-game), every one parses under --profile cod1 with no
#     diagnostic (skipped otherwise).
#  6. when the four games' trees are beside it (CORPUS_GAMES, default the
#     corpus' parent: cod1-game, uo-game, cod2-game, cod4-game), every stock
#     level of each and every script of each (scripts/corpus-games.sh).
#  7. with those games, the language server on some of their levels and
#     directories compared with the command line (tests/lsp/corpus.py;
#     skipped without python3).
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
# 4. level mode and the load walk over a whole game tree
game=${CORPUS_GAME:-$(dirname "$corpus")/cod1-game}
if [ -d "$game/maps" ]; then
    runs=0; bad=0; scripts=0
    gametypes=$(find "$game/maps" -ipath '*/mp/gametypes/*.gsc' ! -name '_*' | sed 's|.*/||; s|\.gsc$||' | LC_ALL=C sort)
    maps=$(find "$game/maps" -ipath '*/mp/mp_*.gsc' ! -name '*_fx.gsc' | sed 's|.*/||; s|\.gsc$||' | LC_ALL=C sort)
    # The multiplayer tree's leaves are not in XANIMS_NEEDED.txt: assets are not read here.
    for m in $maps; do
        for g in $gametypes; do
            runs=$((runs + 1))
            if ! "$ATRC" --profile cod1 --no-xanim --format json -o "$work/level.json" -g "$game" \
                    --map "$m" --gametype "$g" 2>"$work/level.err" || [ -s "$work/level.err" ]; then
                bad=$((bad + 1)); echo "FAIL level $m $g:"; head -10 "$work/level.err"
            fi
            scripts=$((scripts + $(grep -c '"from": ' "$work/level.json")))
            # root torso legs turning + the 165 names of the stock CoD1 mp/playeranim.script (grammar.md 4.6)
            engine=$(grep -c '"kind": "engine"' "$work/level.json")
            [ "$engine" -eq 169 ] || { bad=$((bad + 1)); echo "FAIL level $m $g: $engine engine names, not 169"; }
        done
    done
    if [ $bad -eq 0 ] && [ $runs -gt 0 ]; then
        echo "ok   level: $runs map/gametype runs ($(echo $maps | wc -w) maps x $(echo $gametypes | wc -w) gametypes), $scripts scripts loaded, 169 multiplayer names each, no diagnostic"
        pass=$((pass + 1))
    else
        echo "FAIL level: $bad of $runs runs"; fail=$((fail + 1))
    fi
    runs=0; bad=0
    for f in $(find "$game/maps" -maxdepth 1 -name '*.gsc' | LC_ALL=C sort); do
        runs=$((runs + 1))
        "$ATRC" --profile cod1 -g "$game" -g "$work/game" --entry "maps/$(basename "$f" .gsc)" \
            >/dev/null 2>"$work/walk.err"
        status=$?
        if [ $status -ne 0 ] || grep -E ': (error|warning): ' "$work/walk.err" | grep -qv "warning: unknown anim tree '"; then
            bad=$((bad + 1)); echo "FAIL walk maps/$(basename "$f" .gsc) (exit $status):"; head -10 "$work/walk.err"
        fi
        grep ': warning: ' "$work/walk.err" >>"$work/walk.warnings"
    done
    if [ $bad -eq 0 ] && [ $runs -gt 0 ]; then
        echo "ok   walk: from each of $runs level scripts, no error; warnings only for trees the game tree lacks:"
        sort -u "$work/walk.warnings" | sed 's/^/     /'
        pass=$((pass + 1))
    else
        echo "FAIL walk: $bad of $runs"; fail=$((fail + 1))
    fi
    # The same game tree as an install whose data lives only in .pk3 archives.
    if [ -n "${MKPK3:-}" ]; then
        rm -rf "$work/gameinst" && mkdir -p "$work/gameinst/main" || exit 2
        "$MKPK3" "$work/gameinst/main/pak0.pk3" "$game" maps || exit 2
        # shellcheck disable=SC2046
        "$MKPK3" "$work/gameinst/main/pak1.pk3" "$game" $(cd "$game" && ls | grep -v '^maps$') || exit 2
        runs=0; bad=0
        for m in $maps; do
            runs=$((runs + 1))
            "$ATRC" --profile cod1 --no-xanim -g "$game" --map "$m" --gametype tdm 2>&1 |
                sed "s|^$game/||" >"$work/level-loose.txt"
            "$ATRC" --profile cod1 --no-xanim --install "$work/gameinst" --map "$m" --gametype tdm 2>&1 |
                sed "s|^$work/gameinst/main/pak[01].pk3:||" >"$work/level-pk3.txt"
            if [ ! -s "$work/level-pk3.txt" ] || ! cmp -s "$work/level-loose.txt" "$work/level-pk3.txt"; then
                bad=$((bad + 1)); echo "FAIL level from archives: $m tdm"
                diff "$work/level-loose.txt" "$work/level-pk3.txt" | head -10
            fi
        done
        if [ $bad -eq 0 ] && [ $runs -gt 0 ]; then
            echo "ok   level from archives: $runs maps (tdm) from two .pk3 files give the values of the loose game tree"
            pass=$((pass + 1))
        else
            echo "FAIL level from archives: $bad of $runs"; fail=$((fail + 1))
        fi
    fi
else
    echo "skip level and walk: no game tree at $game"
fi
# 5. every script of the game under its profile
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
# 6. every stock level of the four games
games=${CORPUS_GAMES:-$(dirname "$corpus")}
if [ -d "$games/cod2-game" ] || [ -d "$games/uo-game" ] || [ -d "$games/cod4-game" ]; then
    if sh "$(dirname "$0")/corpus-games.sh" "$games" "$work/games"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
    fi
else
    echo "skip four games: no uo-game, cod2-game or cod4-game in $games"
fi
# 7. the language server against the command line on the four games
if [ ! -d "$games/cod1-game" ] && [ ! -d "$games/uo-game" ] && [ ! -d "$games/cod2-game" ] && [ ! -d "$games/cod4-game" ]; then
    echo "skip lsp corpus: no game tree in $games"
elif ! command -v python3 >/dev/null 2>&1; then
    echo "skip lsp corpus: no python3 (scripts/ensure-deps.sh lsp)"
elif ATRC="$ATRC" python3 "$(dirname "$0")/../tests/lsp/corpus.py" "$games"; then
    pass=$((pass + 1))
else
    fail=$((fail + 1))
fi
echo "corpus-check: $pass passed, $fail failed"
[ $fail -eq 0 ]
