#!/bin/sh
# Makes sure the Debian packages atrc's build needs are installed.
# Usage: scripts/ensure-deps.sh [base] [fuzz] [memcheck] [bench]
#   base      C compiler, make, re2c, lemon, Check, libzip, pkg-config, mandoc
#             (always; mandoc lints the man page in make check)
#   fuzz      clang and its libFuzzer/sanitizer runtime (make fuzz)
#   memcheck  valgrind (make memcheck)
#   model     python3, for the independent model of the tree rules (make model-check)
#   bench     GNU time, for peak memory (make bench)
#   graphviz  dot, which renders --format dot (make check, make demo)
#   wasm      emscripten and node-acorn (its optimizer), node (make wasm, make check-wasm)
#   web       wasm, plus chromium, npm and python3 (make check-web: playwright-core drives
#             Debian's chromium against the page served by python3 -m http.server)
# As root (or with password-less sudo) it installs what is missing with
# apt-get, refreshing the package lists when a package is not found.
# Otherwise it prints the exact command to run and fails.
set -u

need=""
add() { case " $need " in *" $1 "*) ;; *) need="$need $1" ;; esac; }
have() { command -v "$1" >/dev/null 2>&1; }

check_base() {
    have cc || have gcc || add gcc
    have make || add make
    have re2c || add re2c
    have lemon || add lemon
    [ -f /usr/share/lemon/lempar.c ] || add lemon
    have pkg-config || add pkg-config
    have mandoc || add mandoc
    if have pkg-config; then pkg-config --exists check 2>/dev/null || add check
    else add check; fi
    if have pkg-config; then pkg-config --exists libzip 2>/dev/null || add libzip-dev
    else add libzip-dev; fi
    check_static_libzip
}

# A program linked against libatrc.a through `pkg-config --static` (make
# check's install test) also links libzip's private libraries.
check_static_libzip() {
    have pkg-config && pkg-config --exists libzip 2>/dev/null || return 0
    cc=cc; have cc || cc=gcc; have "$cc" || return 0
    for lib in $(pkg-config --static --libs-only-l libzip 2>/dev/null); do
        lib=${lib#-l}
        case $("$cc" -print-file-name="lib$lib.so") in /*) continue ;; esac
        case $("$cc" -print-file-name="lib$lib.a") in /*) continue ;; esac
        case "$lib" in
            z) add zlib1g-dev ;;
            bz2) add libbz2-dev ;;
            ssl|crypto) add libssl-dev ;;
            lzma) add liblzma-dev ;;
            zstd) add libzstd-dev ;;
            gnutls) add libgnutls28-dev ;;
            nettle) add nettle-dev ;;
            *) echo "ensure-deps: no Debian package known for -l$lib (libzip's static link)" >&2 ;;
        esac
    done
}

check_fuzz() {
    have clang || add clang
    # libFuzzer's runtime ships in libclang-rt-<version>-dev, matching clang.
    ver=""
    if have clang; then ver=$(clang -dumpversion 2>/dev/null | cut -d. -f1); fi
    if [ -n "$ver" ]; then
        ls /usr/lib/llvm-"$ver"/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a >/dev/null 2>&1 \
            || add "libclang-rt-$ver-dev"
    else
        add libclang-rt-14-dev
    fi
}

check_memcheck() {
    have valgrind || add valgrind
}

check_model() {
    have python3 || add python3
}

check_graphviz() {
    have dot || add graphviz
}

# Debian's emcc runs its JS optimizer with Debian's acorn (NODE_PATH=/usr/share/nodejs).
check_wasm() {
    have emcc || add emscripten
    [ -f /usr/share/nodejs/acorn/package.json ] || add node-acorn
    have node || add nodejs
}

check_web() {
    have chromium || add chromium
    have npm || add npm
    have python3 || add python3
}

# GNU time reports peak memory (make bench).
check_bench() {
    [ -x /usr/bin/time ] || add time
}

[ $# -eq 0 ] && set -- base
for what in "$@"; do
    case "$what" in
        base) check_base ;;
        fuzz) check_base; check_fuzz ;;
        memcheck) check_base; check_memcheck ;;
        model) check_base; check_model ;;
        bench) check_base; check_bench ;;
        graphviz) check_base; check_graphviz ;;
        wasm) check_base; check_wasm ;;
        web) check_base; check_wasm; check_web ;;
        *) echo "ensure-deps: unknown group '$what'" >&2; exit 2 ;;
    esac
done

[ -z "$need" ] && exit 0
need=${need# }

if [ "$(id -u)" -eq 0 ]; then
    sudo=""
elif have sudo && sudo -n true 2>/dev/null; then
    sudo="sudo"
else
    echo "atrc: missing build dependencies: $need" >&2
    echo "atrc: install them with:" >&2
    echo "    sudo apt-get update && sudo apt-get install -y $need" >&2
    exit 1
fi

echo "atrc: installing missing Debian packages: $need" >&2
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086
if ! $sudo apt-get install -y -q $need >&2; then
    echo "atrc: refreshing package lists (apt-get update)" >&2
    $sudo apt-get update -q >&2 || true
    # shellcheck disable=SC2086
    $sudo apt-get install -y -q $need >&2 || {
        echo "atrc: could not install: $need" >&2
        exit 1
    }
fi
exit 0
