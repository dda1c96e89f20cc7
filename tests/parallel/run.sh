#!/bin/sh
# Thread counts: the same run at -j 1, 2, 4 and 16 must print the same bytes
# and exit with the same status — over hundreds of generated files, many of
# them full of errors (syntax, lexical junk, bad and unknown trees, more than
# 127 trees, /# #/ misuse, unreadable files, a directory, standard input),
# in text, --trees, JSON and --syntax-only.  With CORPUS=DIR, also every
# script of a real game directory.
#   ATRC=/abs/atrc sh tests/parallel/run.sh
set -u
: "${ATRC:?set ATRC to the atrc binary}"
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 2
pass=0
fail=0

mkdir -p game/animtrees scripts
for t in 0 1 2 3 4; do
    awk -v t="$t" 'BEGIN { print "root_" t; print "grp : complete"; print "{";
        for (i = 0; i < 50; i++) printf "\ta%d_%d\n", t, i; print "}" }' >"game/animtrees/t$t.atr"
done
awk 'BEGIN {
    for (i = 0; i < 400; i++) {
        f = sprintf("scripts/s%03d.gsc", i); k = i % 10; t = i % 5
        if (k == 0 || k == 5) {
            printf "#using_animtree(\"t%d\");\nmain()\n{\n", t > f
            for (j = 0; j < 20; j++) printf "\tself setanim(%%a%d_%d, 1);\n", t, (i * 7 + j * 3) % 60 > f
            printf "\tx = #animtree;\n}\n" > f
        } else if (k == 1) {
            printf "#using_animtree(\"t%d\");\nf()\n{\n\ta = %%a%d_1\n\tif (x {\n\tb = %%a%d_2;\n", t, t, t > f
        } else if (k == 2) {
            printf "f() { a = %%early; b = #animtree; }\n#using_animtree(\"T%d\");\ng() { c = %%A%d_3; }\n", t, t > f
        } else if (k == 3) {
            printf "#using_animtree(\"bad-name\");\nf() { a = %%x; }\n#using_animtree(\"t%d\");\ng() { b = %%a%d_4; }\n", t, t > f
        } else if (k == 4) {
            printf "/#\n#using_animtree(\"t%d\");\nf() { a = %%a%d_5; }\n#/\n#using_animtree(\"t%d\");\ng() { /# b = %%a%d_6; #/ }\n", t, t, t, t > f
        } else if (k == 6 || k == 7) {
            for (j = 0; j < 3; j++) printf "#using_animtree(\"missing_%d_%d\");\nf%d() { a = %%n%d; }\n", i, j, j, j > f
        } else if (k == 8) {
            if (i % 20 == 8) for (j = 0; j < 60; j++) printf "\x01 x;\n" > f
            printf "f() { a = \"unterminated;\n\x01\x02 } } }\n%%\n" > f
        } else {
            printf "" > f
        }
        close(f)
    } }'
printf '#using_animtree("t1");\nf() { a = %%a1_7; b = %%nope; }\n' >stdin.gsc
# Arguments: every script, with an unreadable one, a directory holding no
# script, a directory of scripts and standard input among them.
mkdir -p nogsc scripts/more && cp scripts/s001.gsc scripts/s002.gsc scripts/more/
set -- $(ls scripts/*.gsc | LC_ALL=C sort | sed -n '1,150p') no_such.gsc nogsc scripts/more - \
    $(ls scripts/*.gsc | LC_ALL=C sort | sed -n '151,400p') scripts/s000.gsc

# check NAME ARGS...: the run at -j 1 is the reference for -j 2, 4, 16.
check() {
    name=$1
    shift
    "$ATRC" -j 1 "$@" >ref.out 2>ref.err <stdin.gsc
    ref_st=$?
    if [ $ref_st -gt 2 ]; then
        echo "FAIL $name: -j 1 exited $ref_st"; head -5 ref.err; fail=$((fail + 1)); return
    fi
    for j in 2 4 16; do
        "$ATRC" -j $j "$@" >out 2>err <stdin.gsc
        st=$?
        if [ $st != $ref_st ] || ! cmp -s out ref.out || ! cmp -s err ref.err; then
            echo "FAIL $name: -j $j differs from -j 1 (status $st vs $ref_st)"
            diff ref.out out | head -10; diff ref.err err | head -10
            fail=$((fail + 1))
        else
            pass=$((pass + 1))
        fi
    done
}

check text -g game "$@"
check trees --trees -g game "$@"
check json --format json -g game "$@"
check cod2 --profile cod2 --format json --no-xanim -g game "$@"
check syntax --syntax-only "$@"
# The generated runs must really be full of errors, or this test proves little.
"$ATRC" -j 4 -g game "$@" >out 2>err <stdin.gsc
for want in "maximum animation tree count exceeded" "too many errors" "bad anim tree name" \
    "#using_animtree was not specified" "cannot read 'no_such.gsc'" "cannot read 'nogsc': a directory with no .gsc script below it" \
    "<stdin>:2:22: error: animation 'nope' not defined"; do
    if ! grep -q "$want" err; then echo "FAIL coverage: no '$want' in the run's diagnostics"; fail=$((fail + 1)); fi
done
# Memory follows the largest file, not the sum: 40 files of 2 MB (80 MB) in
# well under 80 MB (each thread's buffer holds one file; the text is dropped
# after parsing).  Skipped in sanitizer builds (MEMCHECK unset) and without GNU time.
if [ -n "${MEMCHECK:-}" ] && [ -x /usr/bin/time ]; then
    mkdir big
    awk 'BEGIN { for (i = 0; i < 40; i++) { f = sprintf("big/b%02d.gsc", i)
        printf "#using_animtree(\"t%d\");\n/*\n", i % 5 > f
        for (j = 0; j < 32768; j++) printf "%063d\n", j > f
        printf "*/\nf%d() { a = %%a%d_%d; }\n", i, i % 5, i > f; close(f) } }'
    /usr/bin/time -f %M -o rss "$ATRC" -j 2 --format json -g game big/*.gsc >out 2>err
    st=$?
    kb=$(tail -1 rss)
    if [ $st -gt 1 ] || [ "$kb" -gt 30000 ]; then
        echo "FAIL memory: 80 MB of scripts took $kb KB (status $st)"; fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
fi
if [ -n "${CORPUS:-}" ] && [ -d "$CORPUS" ]; then
    find "$CORPUS" -name '*.gsc' | LC_ALL=C sort >corpus.txt
    # shellcheck disable=SC2046
    check corpus --format json --no-xanim -g "$CORPUS" $(cat corpus.txt)
elif [ -n "${ATRC_SKIP_LOG:-}" ]; then
    echo "the corpus' scripts at every thread count: no corpus (../shared/corpus/cod1-game is absent)" >>"$ATRC_SKIP_LOG"
fi
if [ -n "${MEMCHECK:-}" ] && [ ! -x /usr/bin/time ] && [ -n "${ATRC_SKIP_LOG:-}" ]; then
    echo "memory of 80 MB of scripts: no GNU time (scripts/ensure-deps.sh bench)" >>"$ATRC_SKIP_LOG"
fi
echo "parallel: $pass passed, $fail failed"
[ $fail -eq 0 ] && [ $pass -gt 0 ]
