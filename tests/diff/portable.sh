#!/bin/sh
# `atrc diff` across checkouts and machines (interface.md): the same content
# compiled from two folders, from two install locations (archives made with
# mkpk3), and as a Windows run names it (`\` in every path) is no difference:
# exit 0 and no output, in text and JSON.  After one edit, the diff leads
# with the cause and its reach.
#   ATRC=/abs/atrc MKPK3=/abs/mkpk3 sh tests/diff/portable.sh
set -u
: "${ATRC:?set ATRC to the atrc binary}"
: "${MKPK3:?set MKPK3 to the mkpk3 binary}"
src=$(cd "$(dirname "$0")/../golden/diff/inputs" && pwd)
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }

# A checkout: a game folder with a tree and a script that uses it.
mkdir -p "$tmp/work/mod/animtrees" "$tmp/work/mod/maps"
cp "$src/game/animtrees/soldier.atr" "$tmp/work/mod/animtrees/"
cp "$src/base/a.gsc" "$tmp/work/mod/maps/army.gsc"
json() { out=$1; dir=$2; shift 2; (cd "$dir" && "$ATRC" --format json --no-xanim "$@") >"$tmp/$out" 2>/dev/null; }
same() { # NAME OLD NEW: no difference, in text and JSON
    name=$1
    "$ATRC" diff "$tmp/$2" "$tmp/$3" >"$tmp/diff.out" 2>&1
    st=$?
    if [ $st -ne 0 ] || [ -s "$tmp/diff.out" ]; then bad "$name: exit $st, output:"; head -5 "$tmp/diff.out"; return; fi
    "$ATRC" diff --format json "$tmp/$2" "$tmp/$3" >"$tmp/diff.json" 2>&1
    st=$?
    if [ $st -ne 0 ] || ! grep -q '"changes": \[\]' "$tmp/diff.json" || ! grep -q '"causes": \[\]' "$tmp/diff.json"; then
        bad "$name (json): exit $st"; head -8 "$tmp/diff.json"; return
    fi
    ok
}

# 1. From inside the folder and from its parent.
json inside.json "$tmp/work/mod" maps/army.gsc
json parent.json "$tmp/work" -g mod mod/maps/army.gsc
json dotted.json "$tmp/work" -g ./mod/ ./mod//maps/army.gsc
grep -q '"script": "maps/army"' "$tmp/inside.json" || bad "inside.json names no game-relative script"
if cmp -s "$tmp/inside.json" "$tmp/parent.json"; then bad "the runs should name other paths"; fi
same "inside vs parent folder" inside.json parent.json
same "parent vs ./mod/ spelling" parent.json dotted.json
# The same checkout copied elsewhere, named by an absolute path.
cp -R "$tmp/work" "$tmp/copy"
json copy.json / -g "$tmp/copy/mod" "$tmp/copy/mod/maps/army.gsc"
same "another location (absolute paths)" inside.json copy.json
# A script named through a path other than the -g directory's spelling.
json other.json "$tmp/work/mod/maps" -g .. army.gsc
same "the script named from inside maps/" inside.json other.json

# 2. Two install locations, archives made with mkpk3 (walk mode).
for inst in A "B dir"; do
    mkdir -p "$tmp/$inst/main"
    "$MKPK3" "$tmp/$inst/main/pak0.pk3" "$tmp/work/mod" animtrees maps || bad "mkpk3 failed"
done
json instA.json "$tmp" --install A --entry maps/army
json instB.json / --install "$tmp/B dir" --entry maps/army
grep -q 'pak0.pk3:maps/army.gsc' "$tmp/instA.json" || bad "the install run did not read the archive"
same "two install locations" instA.json instB.json
# The same scripts as loose files of a -g directory: walk mode names them alike.
json loose.json "$tmp/work" -g mod --entry maps/army
same "archive vs loose files" instA.json loose.json

# 3. A Windows run of the same checkout: '\' in every path.
sed -e 's|/|\\\\|g' "$tmp/parent.json" >"$tmp/windows.json"
grep -q '"script": "maps\\\\army"' "$tmp/windows.json" || bad "windows.json was not rewritten"
same "'\\' paths" parent.json windows.json

# 4. One edit: the summary leads with its cause and reach.
sed -e '/%run/d' "$tmp/copy/mod/maps/army.gsc" >"$tmp/e.gsc" && mv "$tmp/e.gsc" "$tmp/copy/mod/maps/army.gsc"
json edited.json / -g "$tmp/copy/mod" "$tmp/copy/mod/maps/army.gsc"
"$ATRC" diff "$tmp/inside.json" "$tmp/edited.json" >"$tmp/edit.out" 2>&1
st=$?
first=$(sed -n 2p "$tmp/edit.out")
if [ $st -ne 1 ] || [ "$(sed -n 1p "$tmp/edit.out")" != "1 cause:" ] ||
   [ "$first" != "  [1] soldier: %run is no longer referenced (was maps/army.gsc:7:15), so it is pruned (2 nodes moved, 1 node added or removed, 3 references changed, 1 other change)" ]; then
    bad "one edit: exit $st, first lines:"; head -3 "$tmp/edit.out"
else ok; fi
if [ "$(grep -c '^\[1\] ' "$tmp/edit.out")" -ne 7 ]; then bad "one edit: every change names cause 1"; cat "$tmp/edit.out"; else ok; fi
"$ATRC" diff --format json "$tmp/inside.json" "$tmp/edited.json" >"$tmp/edit.json" 2>&1
if ! grep -q '{"id": 1, "kind": "reference", "tree": "soldier", "name": "run", .*"changes": 7, "moved_nodes": 2, "nodes": 1, "references": 3, "trees": 0}' "$tmp/edit.json" ||
   [ "$(grep -c '"cause": 1}' "$tmp/edit.json")" -ne 7 ]; then
    bad "one edit (json)"; head -8 "$tmp/edit.json"
else ok; fi

echo "diff across checkouts: $pass passed, $fail failed"
[ $fail -eq 0 ] && [ $pass -gt 0 ]
