#!/bin/sh
# The third-party notices of the Windows release, found from the link itself.
#   sh win/notices.sh LINK-TRACE DEPS-SRC OUT
# LINK-TRACE is the linker's --trace of atrc.exe (every object and archive it
# read).  atrc.exe is static, so each of those files that is not atrc's own
# put third-party code in it: each is mapped to the Debian package that
# installed it (its copyright file under /usr/share/doc is the notice), or,
# for the libraries scripts/win-deps.sh builds from Debian's source packages
# (DEPS-SRC: the unpacked sources), to that source tree's licence file.  A
# linked file that maps to neither is an error: the release would ship code
# without its notice.
set -eu
trace=${1:?usage: notices.sh LINK-TRACE DEPS-SRC OUT}
deps_src=${2:?usage: notices.sh LINK-TRACE DEPS-SRC OUT}
out=${3:?usage: notices.sh LINK-TRACE DEPS-SRC OUT}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# The files the linker read (objects, and archives it took members from),
# atrc's own (its objects and libatrc.a, under the build's obj/) left out.
grep -v -e '/obj/' -e '/libatrc\.a$' "$trace" | LC_ALL=C sort -u >"$tmp/files"

: >"$tmp/sections"
while IFS= read -r f; do
    [ -n "$f" ] || continue
    case "$f" in
    */deps/prefix/lib/lib*.a)
        lib=$(basename "$f" .a) # libzip.a: the source tree libzip-VERSION
        src=$(find "$deps_src" -maxdepth 1 -type d -name "$lib-*" | LC_ALL=C sort | tail -1)
        lic=""
        for n in LICENSE COPYING LICENSE.txt COPYING.LESSER; do
            [ -n "$src" ] && [ -f "$src/$n" ] && { lic=$src/$n; break; }
        done
        [ -n "$lic" ] || { echo "notices: no licence file for $f in $deps_src" >&2; exit 1; }
        printf '%s\t%s\t%s\n' "$(basename "$src") (built from Debian's source package)" "$lic" "$(basename "$f")" >>"$tmp/sections"
        ;;
    *)
        real=$(readlink -f "$f")
        pkg=$(dpkg -S "$real" 2>/dev/null | head -1 | cut -d: -f1) || pkg=""
        [ -n "$pkg" ] || { echo "notices: $f was linked into atrc.exe but belongs to no Debian package" >&2; exit 1; }
        copy=/usr/share/doc/$pkg/copyright
        [ -f "$copy" ] || { echo "notices: $pkg has no $copy" >&2; exit 1; }
        ver=$(dpkg-query -W -f '${Version}' "$pkg")
        printf '%s\t%s\t%s\n' "Debian package $pkg $ver" "$copy" "$(basename "$f")" >>"$tmp/sections"
        ;;
    esac
done <"$tmp/files"

{
    printf 'Third-party notices for atrc.exe\n\n'
    printf 'atrc itself is under the MIT licence (LICENSE.txt).  atrc.exe is linked\n'
    printf 'statically: it also contains code of the libraries below (libzip, zlib,\n'
    printf 'the mingw-w64 runtime with winpthreads, GCC'"'"'s runtime support), each\n'
    printf 'listed with the files of it that were linked and its copyright notice and\n'
    printf 'licence as its Debian package or source package states them.\n'
    cut -f1,2 "$tmp/sections" | LC_ALL=C sort -u | while IFS="	" read -r title file; do
        printf '\n\n======== %s ========\n' "$title"
        printf 'linked: %s\n\n' "$(awk -F '\t' -v t="$title" '$1 == t { print $3 }' "$tmp/sections" | LC_ALL=C sort -u | tr '\n' ' ' | sed 's/ $//')"
        cat "$file"
    done
} >"$out"
