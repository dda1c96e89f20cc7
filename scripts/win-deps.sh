#!/bin/sh
# Builds the two libraries the Windows cross build needs and Debian ships no
# mingw package of — libzip and Check — from Debian's own source packages,
# inside the build tree: OUT/src (the unpacked, Debian-patched sources),
# OUT/prefix (static libraries and headers).  zlib comes from Debian's
# libz-mingw-w64-dev.  Nothing is vendored into the repository and nothing is
# fetched from anywhere but the machine's Debian archive (apt-get source,
# whose files apt checks against the archive's signed Release file).
# Usage: scripts/win-deps.sh OUT
# The versions are pinned to Debian 12's (the libzip-dev / check the native
# build uses); a machine without them cannot build the Windows port.
set -eu

LIBZIP_VERSION=1.7.3-1
CHECK_VERSION=0.15.2-2

out=${1:?usage: scripts/win-deps.sh OUT}
here=$(cd "$(dirname "$0")" && pwd)
toolchain=$here/win64-toolchain.cmake
mkdir -p "$out"
out=$(cd "$out" && pwd)
prefix=$out/prefix
stamp=$prefix/.built-$LIBZIP_VERSION-$CHECK_VERSION
[ -f "$stamp" ] && exit 0

mkdir -p "$out/dl" "$out/src" "$out/obj"
log=$out/build.log
: >"$log"

fetch() { # PACKAGE VERSION
    upstream=${2%-*}
    if [ ! -f "$out/dl/$1_$2.dsc" ]; then
        echo "  APT-SRC $1=$2" >&2
        (cd "$out/dl" && apt-get source -q --download-only "$1=$2") >>"$log" 2>&1 || {
            echo "atrc: cannot fetch Debian's source package $1=$2 (see $log);" >&2
            echo "atrc: run scripts/ensure-deps.sh windows (it adds the deb-src entry)" >&2
            exit 1
        }
    fi
    rm -rf "$out/src/$1-$upstream"
    dpkg-source --no-check -x "$out/dl/$1_$2.dsc" "$out/src/$1-$upstream" >>"$log" 2>&1
}

cmake_build() { # NAME SRCDIR ARGS...
    name=$1 src=$2
    shift 2
    echo "  CMAKE   $name (mingw-w64, static)" >&2
    rm -rf "$out/obj/$name"
    cmake -S "$src" -B "$out/obj/$name" -DCMAKE_TOOLCHAIN_FILE="$toolchain" \
        -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" -DBUILD_SHARED_LIBS=OFF "$@" >>"$log" 2>&1 &&
        cmake --build "$out/obj/$name" -j2 >>"$log" 2>&1 &&
        cmake --install "$out/obj/$name" >>"$log" 2>&1 || {
            echo "atrc: building $name for Windows failed; the log: $log" >&2
            tail -20 "$log" >&2
            exit 1
        }
}

fetch libzip "$LIBZIP_VERSION"
fetch check "$CHECK_VERSION"

cmake_build libzip "$out/src/libzip-${LIBZIP_VERSION%-*}" \
    -DENABLE_BZIP2=OFF -DENABLE_LZMA=OFF -DENABLE_ZSTD=OFF -DENABLE_OPENSSL=OFF -DENABLE_GNUTLS=OFF \
    -DENABLE_MBEDTLS=OFF -DENABLE_COMMONCRYPTO=OFF -DENABLE_WINDOWS_CRYPTO=ON \
    -DBUILD_TOOLS=OFF -DBUILD_REGRESS=OFF -DBUILD_EXAMPLES=OFF -DBUILD_DOC=OFF
cmake_build check "$out/src/check-${CHECK_VERSION%-*}" \
    -DCHECK_ENABLE_TESTS=OFF -DENABLE_MEMORY_LEAKING_TESTS=OFF -DCHECK_ENABLE_SUBUNIT=OFF
touch "$stamp"
