#!/bin/sh
# Makes sure the Debian packages atrc's build needs are installed.
# Usage: scripts/ensure-deps.sh [base] [fuzz] [memcheck] [bench]
#   base      C compiler, make, re2c, lemon, Check, libzip, pkg-config, mandoc
#             (always; mandoc lints the man page in make check)
#   fuzz      clang and its libFuzzer/sanitizer runtime (make fuzz)
#   memcheck  valgrind (make memcheck)
#   model     python3, for the independent model of the tree rules (make model-check)
#             and the call layers' check of the objects (make calls, in make check)
#   bench     GNU time, for peak memory (make bench)
#   graphviz  dot, which renders --format dot (make check, make demo)
#   lsp       neovim (its built-in LSP client drives `atrc lsp`), Emacs with
#             eglot (emacs-nox, elpa-eglot: the same in batch mode) and
#             python3 (the protocol-level test client), for make check
#   wasm      emscripten and node-acorn (its optimizer), node (make wasm, make check-wasm)
#   web       wasm, plus chromium, npm and python3 (make check-web: playwright-core drives
#             Debian's chromium against the page served by python3 -m http.server)
#   vscode    node and npm (make vsix, make check-vscode: npm ci, vsce)
#   vscode-real  vscode, plus what code-server's native modules build from
#             source with (g++, make, python3, libkrb5-dev), Debian's ripgrep
#             (VS Code's search) and chromium (make check-vscode-real)
#   windows   the mingw-w64 cross compiler (winpthreads), Debian's mingw zlib,
#             Wine, CMake, dpkg-dev, zip and unzip (make windows, check-windows,
#             dist-windows); and
#             a deb-src entry for the machine's own Debian archive, so that
#             scripts/win-deps.sh can fetch libzip's and Check's source packages
# As root (or with password-less sudo) it installs what is missing with
# apt-get install --no-install-recommends, refreshing the package lists when
# a package is not found; it never upgrades or removes an installed package
# (a plan that would is refused).  The windows group may add one apt source,
# a deb-src entry, saying so first.  Otherwise it prints the exact command to
# run and fails.
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

check_lsp() {
    have nvim || add neovim
    have emacs || add emacs-nox
    [ -d /usr/share/emacs/site-lisp/elpa-src ] && ls -d /usr/share/emacs/site-lisp/elpa-src/eglot-* >/dev/null 2>&1 \
        || add elpa-eglot
    have python3 || add python3
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

check_vscode() {
    have node || add nodejs
    have npm || add npm
}

check_vscode_real() {
    have g++ || add g++
    have make || add make
    have python3 || add python3
    have krb5-config.mit || [ -f /usr/include/gssapi/gssapi.h ] || add libkrb5-dev
    have rg || add ripgrep
    have chromium || add chromium
}

check_windows() {
    have x86_64-w64-mingw32-gcc-posix || add gcc-mingw-w64-x86-64-posix
    have x86_64-w64-mingw32-windres || add binutils-mingw-w64-x86-64
    [ -f /usr/x86_64-w64-mingw32/include/windows.h ] || add mingw-w64-x86-64-dev
    [ -f /usr/x86_64-w64-mingw32/lib/libz.a ] || add libz-mingw-w64-dev
    have wine || add wine
    have wine64 || [ -x /usr/lib/wine/wine64 ] || add wine64
    have cmake || add cmake
    have dpkg-source || add dpkg-dev
    have zip || add zip
    have unzip || add unzip
}

# apt-get source needs deb-src lines: the same archive, suites and components
# as the machine's own Debian entries (deb822 .sources or one-line form).
DEB_SRC=/etc/apt/sources.list.d/atrc-deb-src.sources
deb_src_entry() {
    for f in /etc/apt/sources.list.d/debian.sources; do
        [ -f "$f" ] && awk 'BEGIN { RS = ""; ORS = "\n\n" }
            /(^|\n)Types:[^\n]*deb( |\n|$)/ { sub(/Types:[^\n]*/, "Types: deb-src"); print }' "$f"
    done
    [ -f /etc/apt/sources.list ] && awk '$1 == "deb" && $2 !~ /^\[/ {
            printf "Types: deb-src\nURIs: %s\nSuites: %s\nComponents:", $2, $3
            for (i = 4; i <= NF; i++) printf " %s", $i
            printf "\n\n" }' /etc/apt/sources.list
    return 0
}
need_deb_src() {
    apt-cache showsrc libzip 2>/dev/null | grep -q '^Version:' && return 1
    return 0
}

# GNU time reports peak memory (make bench).
check_bench() {
    [ -x /usr/bin/time ] || add time
}

[ $# -eq 0 ] && set -- base
windows=0
for what in "$@"; do
    case "$what" in
        base) check_base ;;
        fuzz) check_base; check_fuzz ;;
        memcheck) check_base; check_memcheck ;;
        model) check_base; check_model ;;
        bench) check_base; check_bench ;;
        graphviz) check_base; check_graphviz ;;
        lsp) check_base; check_lsp ;;
        wasm) check_base; check_wasm ;;
        web) check_base; check_wasm; check_web ;;
        vscode) check_base; check_vscode ;;
        vscode-real) check_base; check_vscode; check_vscode_real ;;
        windows) check_base; check_windows; windows=1 ;;
        *) echo "ensure-deps: unknown group '$what'" >&2; exit 2 ;;
    esac
done

src_entry=0
if [ "$windows" = 1 ] && need_deb_src; then src_entry=1; fi
[ -z "$need" ] && [ "$src_entry" = 0 ] && exit 0
need=${need# }

if [ "$(id -u)" -eq 0 ]; then
    sudo=""
elif have sudo && sudo -n true 2>/dev/null; then
    sudo="sudo"
else
    if [ "$src_entry" = 1 ]; then
        echo "atrc: apt has no deb-src entry (needed for libzip's and Check's source packages); add one with:" >&2
        printf '    sudo tee %s >/dev/null <<'"'"'END'"'"'\n' "$DEB_SRC" >&2
        deb_src_entry | sed '$d' >&2
        echo "END" >&2
        echo "    sudo apt-get update" >&2
    fi
    if [ -n "$need" ]; then
        echo "atrc: missing build dependencies: $need" >&2
        echo "atrc: install them with:" >&2
        echo "    sudo apt-get update && sudo apt-get install --no-install-recommends $need" >&2
    fi
    exit 1
fi

if [ "$src_entry" = 1 ]; then
    echo "atrc: adding $DEB_SRC (deb-src for the machine's Debian archive) and running apt-get update" >&2
    deb_src_entry | $sudo tee "$DEB_SRC" >/dev/null
    $sudo apt-get update -q >&2 || true
    need_deb_src && { echo "atrc: apt-get source still finds no libzip source package" >&2; exit 1; }
    [ -z "$need" ] && exit 0
fi

# Installs what is missing and nothing else: no recommended packages, and
# never an upgrade or removal of a package already installed.  apt-get has
# no switch against upgrading a dependency, so its simulated plan is read
# first ("Inst NAME [OLD] ..." is an upgrade, "Remv NAME" a removal) and a
# plan with either is refused with the command to run by hand.
plan_changes() {
    # shellcheck disable=SC2086
    $sudo apt-get install -s -q --no-install-recommends $need 2>/dev/null |
        awk '$1 == "Remv" || ($1 == "Inst" && $3 ~ /^\[/) { printf " %s", $2 }'
}
install_missing() {
    changes=$(plan_changes)
    if [ -n "$changes" ]; then
        echo "atrc: installing$need would upgrade or remove installed packages:$changes; not done." >&2
        echo "atrc: install them yourself if you want that: apt-get install --no-install-recommends $need" >&2
        return 2
    fi
    # shellcheck disable=SC2086
    $sudo apt-get install -y -q --no-install-recommends --no-remove $need >&2
}

echo "atrc: installing missing Debian packages: $need (apt-get install --no-install-recommends)" >&2
export DEBIAN_FRONTEND=noninteractive
install_missing
rc=$?
[ $rc -eq 2 ] && exit 1
if [ $rc -ne 0 ]; then
    echo "atrc: refreshing package lists (apt-get update)" >&2
    $sudo apt-get update -q >&2 || true
    install_missing || {
        echo "atrc: could not install: $need" >&2
        exit 1
    }
fi
exit 0
