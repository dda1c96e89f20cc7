#!/bin/sh
# Checks an installed copy of atrc: `make install DESTDIR=D PREFIX=P` put the
# binary, header, static and shared library (with its soname), pkg-config file,
# man page and licence under D/P; a program built through `pkg-config --cflags --libs
# atrc` links against the shared library and runs.
#   CC=cc [CFLAGS=...] sh tests/install/run.sh DESTDIR PREFIX
set -u
destdir=${1:?usage: run.sh DESTDIR PREFIX}
prefix=${2:?usage: run.sh DESTDIR PREFIX}
root=$destdir$prefix
here=$(cd "$(dirname "$0")" && pwd)
: "${CC:=cc}" "${PKG_CONFIG:=pkg-config}"
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
bad() { echo "FAIL install: $*"; fail=1; }

for f in bin/atrc include/atrc.h lib/libatrc.a lib/libatrc.so lib/pkgconfig/atrc.pc share/man/man1/atrc.1 share/doc/atrc/LICENSE; do
    [ -e "$root/$f" ] || bad "$prefix/$f not installed"
done
soname=$(readlink "$root/lib/libatrc.so")
case "$soname" in libatrc.so.[0-9]*) ;; *) bad "lib/libatrc.so does not point at a versioned soname ($soname)" ;; esac
if command -v readelf >/dev/null 2>&1; then
    readelf -d "$root/lib/libatrc.so" | grep -q "SONAME.*\[$soname\]" || bad "libatrc.so has no soname $soname"
    if readelf --dyn-syms -W "$root/lib/libatrc.so" | awk '$7 != "UND" && $5 == "GLOBAL" { print $8 }' | grep -v '^atrc_' | grep -q .; then
        bad "libatrc.so exports symbols outside the atrc_ API"
    fi
fi

# pkg-config on the copy: the .pc names PREFIX; the sysroot maps it into DESTDIR.
# The system's own .pc files stay reachable: atrc.pc requires libzip.
sys_pc=$($PKG_CONFIG --variable pc_path pkg-config 2>/dev/null)
export PKG_CONFIG_LIBDIR="$root/lib/pkgconfig${sys_pc:+:$sys_pc}" PKG_CONFIG_SYSROOT_DIR="$destdir"
flags=$($PKG_CONFIG --cflags --libs atrc) || { bad "pkg-config --cflags --libs atrc failed"; exit 1; }
case "$flags" in *"-I$root/include"*"-L$root/lib"*|*"-L$root/lib"*"-I$root/include"*) ;;
    *) bad "pkg-config flags do not point into the installed copy: $flags" ;; esac
[ "$($PKG_CONFIG --modversion atrc)" = "$("$root/bin/atrc" --version | sed -n '1s/^atrc //p')" ] \
    || bad "pkg-config version differs from atrc --version"

# shellcheck disable=SC2086
$CC ${CFLAGS:-} -std=c99 -Wall -Wextra -Werror -o "$tmp/embed" "$here/embed.c" $flags \
    || { bad "a program does not build against the installed library"; exit 1; }
if command -v readelf >/dev/null 2>&1; then
    readelf -d "$tmp/embed" | grep -q "NEEDED.*\[$soname\]" || bad "the program is not linked to $soname"
fi
mkdir -p "$tmp/game/animtrees"
printf 'a\nb\nc\n' >"$tmp/game/animtrees/t.atr"
LD_LIBRARY_PATH="$root/lib" "$tmp/embed" "$tmp/game" >"$tmp/out" 2>"$tmp/err"
st=$?
cat >"$tmp/want" <<'OUT'
atrc 0.1.0: tree t, 2 nodes, checksum 30753
embed.gsc:2:11: %b -> t[1] node 1 = 0x00010001
embed.gsc:2:19: %nope -> t[1] unresolved
embed.gsc:2:19: error: animation 'nope' not defined in anim tree 't'
  f() { a = %b; c = %nope; }
                    ^
1 error, 0 warnings
OUT
sed -i "s/^atrc 0.1.0:/atrc $($PKG_CONFIG --modversion atrc):/" "$tmp/want"
if [ $st -ne 0 ] || ! cmp -s "$tmp/out" "$tmp/want"; then
    bad "the embedded program (status $st) printed:"
    diff -u "$tmp/want" "$tmp/out" | sed 's/^/    /'
    sed 's/^/    stderr: /' "$tmp/err"
fi

# The same program linked statically against libatrc.a: `pkg-config --static`
# must name what the archive needs (libzip, -lm, -pthread).  A copy of the
# installed tree without the shared library leaves the linker only the archive.
static=$tmp/static
mkdir -p "$static" && cp -R "$destdir/." "$static/" && rm -f "$static$prefix"/lib/libatrc.so*
sflags=$(PKG_CONFIG_LIBDIR="$static$prefix/lib/pkgconfig${sys_pc:+:$sys_pc}" PKG_CONFIG_SYSROOT_DIR="$static" \
    $PKG_CONFIG --static --cflags --libs atrc) || bad "pkg-config --static --cflags --libs atrc failed"
case "$sflags" in *-lzip*) ;; *) bad "pkg-config --static does not name libzip: $sflags" ;; esac
# shellcheck disable=SC2086
if $CC ${CFLAGS:-} -std=c99 -Wall -Wextra -Werror -o "$tmp/embed-static" "$here/embed.c" $sflags; then
    if command -v readelf >/dev/null 2>&1 && readelf -d "$tmp/embed-static" | grep -q 'NEEDED.*libatrc'; then
        bad "the static program still needs the shared libatrc"
    fi
    "$tmp/embed-static" "$tmp/game" >"$tmp/out" 2>"$tmp/err"
    st=$?
    if [ $st -ne 0 ] || ! cmp -s "$tmp/out" "$tmp/want"; then
        bad "the statically linked program (status $st) printed:"
        diff -u "$tmp/want" "$tmp/out" | sed 's/^/    /'
    fi
else
    bad "a program does not link statically against libatrc.a with pkg-config --static ($sflags)"
fi

# The installed binary and man page.
"$root/bin/atrc" --version >/dev/null || bad "installed atrc does not run"
if command -v mandoc >/dev/null 2>&1; then
    mandoc -T lint -W warning "$root/share/man/man1/atrc.1" || bad "installed man page fails mandoc -T lint"
fi
[ $fail -eq 0 ] && echo "install: binary, header, libatrc.a (pkg-config --static), libatrc.so ($soname), atrc.pc and atrc.1 work from $prefix"
exit $fail
