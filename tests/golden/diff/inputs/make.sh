#!/bin/sh
# Regenerates the JSON runs the diff goldens compare (review the diff after!):
#   ATRC=build/atrc sh tests/golden/diff/inputs/make.sh
# Each pair is two real atrc runs that differ in one way; the script paths
# stay the same across a pair (each run starts in its own directory).
set -eu
: "${ATRC:?set ATRC to the atrc binary}"
cd "$(dirname "$0")"
run() { out=$1; dir=$2; shift 2; (cd "$dir" && "$ATRC" --format json "$@" >"../../$out" 2>/dev/null) || true; }
run identical.old.json base -g ../game --no-xanim a.gsc
run identical.new.json base -g ../game --no-xanim a.gsc
# 'run' and 'back' are no longer referenced: 'run' is pruned, and with 'back' the whole 'death' group.
run pruned_sibling.old.json base -g ../game --no-xanim a.gsc
run pruned_sibling.new.json pruned -g ../game --no-xanim --show-pruned a.gsc
# A script registering 'dog' is compiled first: 'soldier' becomes tree 2.
run tree_earlier.old.json dog -g ../game --no-xanim a.gsc
run tree_earlier.new.json dog -g ../game --no-xanim dog.gsc a.gsc
# uo does not know 'additive': the tree only builds under cod4.
run profile.old.json rig -g ../game --no-xanim rig.gsc
run profile.new.json rig -g ../game --no-xanim --profile cod4 rig.gsc
# Two lines added at the top and %run dropped: matched by file and name.
run moved_lines.old.json base -g ../game --no-xanim a.gsc
run moved_lines.new.json moved -g ../game --no-xanim a.gsc
# game2 overrides soldier.atr with a copy that lacks 'walk'.
run unresolved.old.json base -g ../game --no-xanim a.gsc
run unresolved.new.json base -g ../game -g ../game2 --no-xanim a.gsc
# --show-pruned lists more nodes but changes no index.
run show_pruned.old.json base -g ../game --no-xanim a.gsc
run show_pruned.new.json base -g ../game --no-xanim --show-pruned a.gsc
# level.old.json / level.new.json: tree_earlier's runs with the "scripts"
# list of level mode (interface.md) written in by hand: the tree's
# registering script is named from it.
# identical_v2.json: identical.new.json's run by this version, which names
# each reference's script game-relatively ("script") and each tree's
# "game_file": an older document and a newer one still diff as before.
run identical_v2.json base -g ../game --no-xanim a.gsc
# samples/packing/a.gsc without `self setAnim(%b, 1);`: b stays, as d's parent.
run unref_parent.old.json unref_old -g ../packing_game --no-xanim a.gsc
run unref_parent.new.json unref_new -g ../packing_game --no-xanim a.gsc
# samples/scripts/soldier.gsc without %walk_cycle: the complete group stays
# (walk_forward is referenced) but no longer keeps walk_left and walk_right.
run complete_unref.old.json walk_old -g ../samples_game --no-xanim soldier.gsc
run complete_unref.new.json walk_new -g ../samples_game --no-xanim soldier.gsc
