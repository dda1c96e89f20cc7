#!/bin/sh
# The include rule of src/ (README, "Design"): a folder per stage, on levels
#   os < base < game < {script, tree, files} < check < compile < output
#      < editor < src/api.c
# A file includes headers of its own folder and of folders on lower levels
# only: never a sibling folder of its level, never a higher one.  cli/ (the
# executable) includes only atrc.h, base/, os/ and its own files, and nothing
# in the library includes cli/.  A module's private header is included by
# that module's files only: check/check_internal.h by check/, output/
# diff_internal.h by output/diff*.c, files/gamefs_internal.h by
# files/gamefs*.c, editor/lookup_internal.h by editor/lookup*.c,
# cli/lsp_server.h by cli/lsp*.c (tests included).  Every include of a project header names its folder.
# Besides the includes, every file of src/: starts with its banner comment,
# has at most 1,200 lines, and hashes no string by a loop of its own (the FNV
# constants or a `* 31u` fold: text_hash and text_hash_bytes, base/text.[ch],
# are the one hash; the allow-list below says why each other file may).
#   sh scripts/check-layers.sh [TOP]   (TOP: the tree's top, default .; exit 1 on a breach)
set -u
cd "${1:-.}" || exit 2
rc=0
find src tests -name '*.[ch]' | LC_ALL=C sort | xargs awk '
function level(d) {
    if (d == "os") return 0
    if (d == "base") return 1
    if (d == "game") return 2
    if (d == "script" || d == "tree" || d == "files") return 3
    if (d == "check") return 4
    if (d == "compile") return 5
    if (d == "output") return 6
    if (d == "editor") return 7
    if (d == "api") return 8
    return -1
}
function breach(why) {
    printf "%s:%d: #include \"%s\": %s\n", FILENAME, FNR, target, why
    bad++
}
/^[ \t]*#[ \t]*include[ \t]*"/ {
    target = $0
    sub(/^[^"]*"/, "", target)
    sub(/".*/, "", target)
    file = FILENAME
    n = split(file, part, "/")
    base = part[n]
    # private headers: tests too
    if (target == "check/check_internal.h" && file !~ /^src\/check\//)
        breach("check_internal.h is private to check/")
    if (target == "output/diff_internal.h" && file !~ /^src\/output\/diff[^\/]*\.c$/)
        breach("diff_internal.h is private to output/diff*.c")
    if (target == "files/gamefs_internal.h" && file !~ /^src\/files\/gamefs[^\/]*\.c$/)
        breach("gamefs_internal.h is private to files/gamefs*.c")
    if (target == "cli/lsp_server.h" && file !~ /^src\/cli\/lsp[^\/]*\.c$/)
        breach("cli/lsp_server.h is private to cli/lsp*.c")
    if (target == "editor/lookup_internal.h" && file !~ /^src\/editor\/lookup[^\/]*\.c$/)
        breach("lookup_internal.h is private to editor/lookup*.c")
    if (part[1] != "src") next
    own = n == 2 ? "api" : part[2]
    if (target == "atrc.h") next
    if (index(target, "/") == 0) {
        # generated in the build directory: the grammar belongs to script/
        if (target == "gsc_parser.h") tdir = "script"
        else { breach("a project header is named with its folder"); next }
    } else {
        tdir = target
        sub(/\/.*/, "", tdir)
    }
    if (own == "cli") {
        if (tdir != "cli" && tdir != "base" && tdir != "os")
            breach("cli/ includes only atrc.h, base/, os/ and cli/")
        next
    }
    if (tdir == own) next
    if (tdir == "cli") { breach("the library never includes cli/"); next }
    if (level(tdir) < 0) { breach("no such stage folder"); next }
    if (level(tdir) == level(own)) breach(own "/ and " tdir "/ are on one level: siblings do not include each other")
    else if (level(tdir) > level(own)) breach(tdir "/ is above " own "/")
}
END {
    if (bad) { printf "check-layers: %d include%s against the rule (README, \"Design\")\n", bad, bad == 1 ? "" : "s"; exit 1 }
}' || rc=1

# Files that may hold a hash's constants, and why: none of them hashes a
# string for a table.
hash_allowed='
src/base/text.c         the one string hash (text_hash)
src/tree/atr_build.c    the engine'"'"'s tree checksum (stock-behavior.md 4.6), a value the output reports
src/game/anim_builtins.h the quick-test key of a fixed table, whose filter bits are a constant
'
find src -name '*.[ch]' | LC_ALL=C sort | xargs awk -v allowed="$hash_allowed" '
BEGIN {
    n = split(allowed, line, "\n")
    for (i = 1; i <= n; i++) if (split(line[i], w, " ") > 0) may_hash[w[1]] = 1
}
FNR == 1 && $0 !~ /^\/\*/ { printf "%s:1: no banner comment: a file starts with what it holds\n", FILENAME; bad++ }
FNR == 1201 { printf "%s:1201: over 1,200 lines: split it along its sections\n", FILENAME; bad++ }
/16777619|2166136261|\* ?31u/ && !(FILENAME in may_hash) {
    printf "%s:%d: a string hash of its own: use text_hash or text_hash_bytes (base/text.h)\n", FILENAME, FNR; bad++
}
END {
    if (bad) { printf "check-layers: %d file rule%s broken\n", bad, bad == 1 ? "" : "s"; exit 1 }
}' || rc=1
[ $rc -eq 0 ] || exit 1
echo "layers: every include points down; every file has a banner, at most 1,200 lines, no hash of its own"
