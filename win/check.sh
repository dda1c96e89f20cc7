#!/bin/sh
# make check-windows: the Windows build (build/win64) under Wine.
#   B=/abs/build W=/abs/build/win64 sh win/check.sh
# A throwaway Wine prefix in $W/wineprefix (made on first use), WINEDEBUG=-all,
# and one long-lived wineserver for the whole run (each later start of an
# .exe then costs about 0.1 s).  Runs:
#   - the unit tests (Check without fork: CK_FORK=no; the POSIX-only tests
#     say why they are left out),
#   - every golden case, as it is and at -j 1, -j 4 and -j 16,
#   - the thread-count runs (tests/parallel/run.sh),
#   - win/hostile.sh: the Windows behaviour and a hostile subset,
#   - the language server's protocol tests (tests/lsp/protocol.py) with
#     Windows file: URIs in both clients' spellings,
#   - byte-for-byte comparisons with the native build on the samples, a
#     level-mode run from .iwd archives and bench-sized workloads,
#   - the release zip (its licence and third-party notices:
#     tests/dist/check-archive.sh) and atrc.exe's header: stripped, a
#     version resource, the minimum Windows version the README states.
set -u
: "${B:?set B to the native build directory}" "${W:?set W to the Windows build directory}"
root=$(pwd)
export WINEPREFIX="$W/wineprefix" WINEDEBUG=-all
# No Mono or Gecko installer on first use: atrc needs neither.
export WINEDLLOVERRIDES="mscoree,mshtml="
if [ ! -f "$WINEPREFIX/system.reg" ]; then
    echo "== a Wine prefix in $WINEPREFIX (first use only)"
    wineboot -i >/dev/null 2>&1 || { echo "check-windows: wineboot failed" >&2; exit 1; }
    # wineboot's own server lingers a few seconds: let it end before the
    # persistent one starts, or a client may meet it as it goes
    wineserver -w
fi
wineserver -p
trap 'wineserver -k 2>/dev/null' EXIT INT TERM

# Each .exe behind a wrapper, so the shell test runners can run it as $ATRC.
mkdir -p "$W/run"
for t in atrc mkxanim mkpk3; do
    printf '#!/bin/sh\nWINEPREFIX="%s" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" exec wine "%s/%s.exe" "$@"\n' \
        "$WINEPREFIX" "$W" "$t" >"$W/run/$t"
    chmod +x "$W/run/$t"
done
WATRC=$W/run/atrc
# The golden runs' atrc: a run that ends with a failure status having written
# nothing at all is Wine failing to start the program (atrc always says why it
# fails; no golden case is silent), so it is made once more and noted in
# $W/wine-retries.log, which the summary prints.
printf '#!/bin/sh\no=$(mktemp) e=$(mktemp)\n"%s" "$@" >"$o" 2>"$e"\nrc=$?\nif [ $rc -ne 0 ] && [ ! -s "$o" ] && [ ! -s "$e" ]; then\n    echo "$(pwd): atrc $*: status $rc and no output: run again" >>"%s/wine-retries.log"\n    "%s" "$@" >"$o" 2>"$e"\n    rc=$?\nfi\ncat "$o"\ncat "$e" >&2\nrm -f "$o" "$e"\nexit $rc\n' \
    "$WATRC" "$W" "$WATRC" >"$W/run/atrc-golden"
chmod +x "$W/run/atrc-golden"
rm -f "$W/wine-retries.log"
failed=""
step() { echo "== $1"; }
note_fail() { failed="$failed
  $1"; }

step "unit tests under Wine (CK_FORK=no)"
CK_FORK=no wine "$W/unit-tests.exe" </dev/null || note_fail "unit tests"

step "golden tests under Wine"
for j in "" 1 4 16; do
    JOBS=$j ATRC=$W/run/atrc-golden MKXANIM=$W/run/mkxanim SKIP_PLATFORM=windows sh tests/run_golden.sh tests/golden ||
        note_fail "golden${j:+ -j $j}"
done

step "thread counts under Wine"
corpus=$root/../shared/corpus/cod1-game
[ -d "$corpus" ] || corpus=""
ATRC=$WATRC CORPUS=$corpus MEMCHECK= sh tests/parallel/run.sh || note_fail "thread counts"

step "Windows behaviour and hostile inputs"
NATIVE=$B/atrc WATRC=$WATRC sh win/hostile.sh || note_fail "windows hostile"

# The language server's protocol tests, the client on Windows: its URIs name
# Wine's drive Z: as VS Code spells it (file:///z%3A/...) and as Neovim and
# Emacs do (file:///Z:/...); every URI the server builds must be the
# client's spelling (forward slashes, one identity per file).
step "language server protocol under Wine"
for drive in 'z%3A' 'Z:'; do
    echo "-- file:///$drive/..."
    ATRC=$WATRC WORKSPACE=$root/tests/lsp/workspace INSTALL=$B/samples/install LSP_DRIVE=$drive \
        python3 tests/lsp/protocol.py || note_fail "lsp protocol (file:///$drive/)"
done

step "byte-identical to the native build"
cmp_runs() { # NAME ARGS...: same stdout, stderr and status as the native atrc
    name=$1
    shift
    "$B/atrc" "$@" >"$W/cmp.n.out" 2>"$W/cmp.n.err" </dev/null
    ns=$?
    "$WATRC" "$@" >"$W/cmp.w.out" 2>"$W/cmp.w.err" </dev/null
    ws=$?
    if [ $ns = $ws ] && cmp -s "$W/cmp.n.out" "$W/cmp.w.out" && cmp -s "$W/cmp.n.err" "$W/cmp.w.err"; then
        echo "same: $name ($(wc -c <"$W/cmp.w.out") bytes, status $ws)"
    else
        echo "FAIL $name: differs from the native build (status $ws vs $ns)"
        diff "$W/cmp.n.out" "$W/cmp.w.out" | head -5
        diff "$W/cmp.n.err" "$W/cmp.w.err" | head -5
        note_fail "compare: $name"
    fi
}
samples=$(ls samples/scripts/*.gsc | LC_ALL=C sort)
# shellcheck disable=SC2086
cmp_runs "samples --trees" --trees -g "$B/samples/game" $samples
# shellcheck disable=SC2086
cmp_runs "samples JSON" --format json --show-pruned -g "$B/samples/game" $samples
# shellcheck disable=SC2086
cmp_runs "samples dot" --format dot --show-pruned -g "$B/samples/game" $samples
cmp_runs "level mode from .iwd archives" --profile cod2 --load-order --developer-script \
    --install "$B/samples/install" --map mp_harbour --gametype tdm
cmp_runs "level mode, JSON" --profile cod2 --format json --install "$B/samples/install" --map mp_harbour --gametype tdm
# The same install packed by mkpk3.exe: archives written on Windows read the same.
rm -rf "$W/iwd-install" && mkdir -p "$W/iwd-install/main"
"$W/run/mkpk3" "$W/iwd-install/main/pak0.iwd" "$B/samples/install-files" codescripts maps mp &&
    "$W/run/mkpk3" "$W/iwd-install/main/pak1.iwd" "$B/samples/install-files" animtrees xanim ||
    note_fail "mkpk3.exe"
cmp_runs "level mode from archives mkpk3.exe wrote" --profile cod2 --load-order --install "$W/iwd-install" \
    --map mp_harbour --gametype tdm

# Bench-sized workloads (as scripts/bench.sh shapes them, smaller): one
# large script of references, and a game's many small files.
bw=$W/bench
rm -rf "$bw" && mkdir -p "$bw/game/animtrees" "$bw/scripts"
awk 'BEGIN { print "big"; print "{"; for (i = 0; i < 2000; i++) printf "\tn%d\n", i; print "}" }' >"$bw/game/animtrees/big.atr"
awk 'BEGIN { print "#using_animtree(\"big\");"; print "f()"; print "{"
    for (i = 0; i < 400000; i++) printf "\tself setanim(%%n%d, 1.0, 0.2); // %d\n", (i * 7) % 2100, i
    print "}" }' >"$bw/large.gsc"
awk -v d="$bw/scripts" 'BEGIN { for (k = 0; k < 1500; k++) { f = sprintf("%s/s%04d.gsc", d, k)
    printf "#using_animtree(\"big\");\nmain()\n{\n" > f
    for (i = 0; i < 40; i++) printf "\tif (x == %d) self setanim(%%n%d);\n", i, (k + i) % 2000 > f
    printf "}\n" > f; close(f) } }'
t0=$(date +%s%N)
cmp_runs "bench: one $(($(wc -c <"$bw/large.gsc") / 1048576)) MiB script" --no-xanim -q -g "$bw/game" "$bw/large.gsc"
t1=$(date +%s%N)
# Relative names: a Windows command line holds at most 32,767 characters.
cd "$bw" || exit 2
# shellcheck disable=SC2046
cmp_runs "bench: 1500 files" --no-xanim --format json -g game $(ls scripts/*.gsc | LC_ALL=C sort)
cd "$root" || exit 2
t2=$(date +%s%N)
echo "bench (native + Wine run each): large script $(((t1 - t0) / 1000000)) ms, many files $(((t2 - t1) / 1000000)) ms"
rm -rf "$bw" "$W/iwd-install" "$W"/cmp.*

step "the release zip: atrc.exe alone runs"
zip=$(ls "$root"/build/atrc-*-win64.zip 2>/dev/null | head -1)
alone=$W/alone
rm -rf "$alone" && mkdir -p "$alone"
if [ -z "$zip" ] || ! unzip -q -j "$zip" '*/atrc.exe' -d "$alone"; then
    note_fail "no atrc.exe in build/atrc-*-win64.zip"
elif [ "$(ls -A "$alone")" != atrc.exe ]; then
    note_fail "the release directory holds more than atrc.exe"
else
    cp -R "$B/samples/game" "$alone/game" && cp samples/scripts/*.gsc "$alone/"
    (cd "$alone" && "$B/atrc" --trees -g game *.gsc) >"$W/alone.n" 2>&1
    (cd "$alone" && wine ./atrc.exe --trees -g game *.gsc) >"$W/alone.w" 2>&1 </dev/null
    if cmp -s "$W/alone.n" "$W/alone.w"; then
        echo "same: $(basename "$zip"): atrc.exe alone, on the samples"
    else
        diff "$W/alone.n" "$W/alone.w" | head -5
        note_fail "atrc.exe from the zip"
    fi
fi
rm -rf "$alone" "$W"/alone.*

step "the release zip: the licence and every linked library's notice"
if [ -n "$zip" ]; then
    sh tests/dist/check-archive.sh zip "$zip" "$W/atrc.exe.trace" || note_fail "licence and notices in the zip"
fi

step "atrc.exe: stripped, a version resource, the minimum Windows the README states"
version=$(sed -n 's/^#define ATRC_VERSION "\(.*\)"/\1/p' include/atrc.h)
if x86_64-w64-mingw32-objdump -h "$W/atrc.exe" | grep -q '\.debug_' ||
    [ -n "$(x86_64-w64-mingw32-nm "$W/atrc.exe" 2>/dev/null | head -1)" ]; then
    note_fail "atrc.exe is not stripped (debug sections or a symbol table)"
else
    echo "stripped: $(wc -c <"$W/atrc.exe") bytes"
fi
x86_64-w64-mingw32-objcopy -O binary --only-section=.rsrc "$W/atrc.exe" "$W/rsrc.bin"
# VS_FIXEDFILEINFO's signature 0xfeef04bd, then the strings (UTF-16: NULs dropped)
if od -An -tx1 -v "$W/rsrc.bin" | tr -d ' \n' | grep -q 'bd04effe' &&
    tr -d '\000' <"$W/rsrc.bin" | grep -aq "FileVersion$version" &&
    tr -d '\000' <"$W/rsrc.bin" | grep -aq "ProductVersion$version" &&
    tr -d '\000' <"$W/rsrc.bin" | grep -aq "LegalCopyrightCopyright (c) the atrc authors; MIT licence"; then
    echo "version resource: $version"
else
    note_fail "atrc.exe has no version resource for $version"
fi
rm -f "$W/rsrc.bin"
sub=$(x86_64-w64-mingw32-objdump -p "$W/atrc.exe" | awk '$1 == "MajorSubsystemVersion" { M = $2 } $1 == "MinorSubsystemVersion" { m = $2 } END { print M "." m }')
if [ "$sub" = 6.1 ] && grep -q 'Windows 7 or later' README.md; then
    echo "minimum Windows: 7 (subsystem version $sub), as the README says"
else
    note_fail "atrc.exe's subsystem version $sub is not the README's Windows 7 (6.1)"
fi

if [ -s "$W/wine-retries.log" ]; then
    echo "== golden runs Wine did not start the first time (made again):"
    cat "$W/wine-retries.log"
fi
if [ -n "$failed" ]; then
    echo "check-windows: FAILED:$failed" >&2
    exit 1
fi
echo "== check-windows: all tests passed under Wine"
