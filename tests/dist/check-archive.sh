#!/bin/sh
# Lists a release archive and fails when the licence or a third-party notice
# is missing from it.
#   sh tests/dist/check-archive.sh tarball build/atrc-VERSION.tar.gz
#       (make dist): atrc-VERSION/LICENSE as in the sources, and every file
#       git tracks, nothing else
#   sh tests/dist/check-archive.sh zip build/atrc-VERSION-win64.zip TRACE
#       (make dist-windows): LICENSE.txt, and THIRD-PARTY-NOTICES.txt naming
#       every file the linker's TRACE (build/win64/atrc.exe.trace) shows
#       linked from outside atrc, with the notices of libzip, zlib,
#       winpthreads (mingw-w64) and GCC's runtime library
# (The .vsix is checked by editors/vscode/test/check.js.)
set -u
kind=${1:?usage: check-archive.sh tarball|zip ARCHIVE [TRACE]}
archive=${2:?usage: check-archive.sh tarball|zip ARCHIVE [TRACE]}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
bad() { echo "FAIL $archive: $*"; fail=1; }
version=$(sed -n 's/^#define ATRC_VERSION "\(.*\)"/\1/p' include/atrc.h)

case "$kind" in
tarball)
    top=atrc-$version
    tar -tzf "$archive" >"$tmp/list" || { bad "not a readable gzip'ed tar"; exit 1; }
    grep -v '/$' "$tmp/list" | LC_ALL=C sort >"$tmp/have"
    git ls-files | sed "s|^|$top/|" | LC_ALL=C sort >"$tmp/want"
    grep -qx "$top/LICENSE" "$tmp/have" || bad "no $top/LICENSE"
    tar -xzOf "$archive" "$top/LICENSE" 2>/dev/null | cmp -s - LICENSE || bad "$top/LICENSE differs from LICENSE"
    missing=$(comm -13 "$tmp/have" "$tmp/want" | head -5)
    extra=$(comm -23 "$tmp/have" "$tmp/want" | head -5)
    [ -z "$missing" ] || bad "tracked files missing: $missing"
    [ -z "$extra" ] || bad "files git does not track: $extra"
    [ $fail = 0 ] && echo "dist: $archive holds LICENSE and the $(wc -l <"$tmp/want") tracked files"
    ;;
zip)
    trace=${3:?usage: check-archive.sh zip ARCHIVE TRACE}
    top=atrc-$version-win64
    unzip -Z1 "$archive" >"$tmp/list" || { bad "not a readable zip"; exit 1; }
    for f in atrc.exe LICENSE.txt THIRD-PARTY-NOTICES.txt README.md; do
        grep -qx "$top/$f" "$tmp/list" || bad "no $top/$f"
    done
    unzip -p "$archive" "$top/LICENSE.txt" | tr -d '\r' | cmp -s - LICENSE || bad "LICENSE.txt differs from LICENSE"
    unzip -p "$archive" "$top/THIRD-PARTY-NOTICES.txt" | tr -d '\r' >"$tmp/notices"
    # every file linked in from outside atrc, on a "linked:" line
    grep -v -e '/obj/' -e '/libatrc\.a$' "$trace" | while IFS= read -r f; do
        name=$(basename "$f")
        grep '^linked: ' "$tmp/notices" | tr ' ' '\n' | grep -qx "$name" || echo "$name"
    done | LC_ALL=C sort -u >"$tmp/unlisted"
    [ -s "$tmp/unlisted" ] && bad "linked but without a notice: $(tr '\n' ' ' <"$tmp/unlisted")"
    grep -q 'libzip.a' "$trace" || bad "the trace shows no libzip: not atrc.exe's link"
    # each library's own notice text
    for want in "libzip:Dieter Baron and Thomas Klausner" "zlib:Jean-loup Gailly and Mark Adler" \
        "winpthreads:mingw-w64-libraries/winpthreads" "GCC runtime:GCC Runtime Library Exception"; do
        grep -qiF "${want#*:}" "$tmp/notices" || bad "THIRD-PARTY-NOTICES.txt lacks ${want%%:*}'s notice (${want#*:})"
    done
    [ $fail = 0 ] && echo "dist: $archive holds LICENSE.txt and the notices of $(grep -c '^========' "$tmp/notices") linked packages"
    ;;
*)
    echo "usage: check-archive.sh tarball|zip ARCHIVE [TRACE]" >&2
    exit 2
    ;;
esac
exit $fail
