#!/bin/sh
# Hostile inputs: limits, broken files, failing output.  Nothing may crash,
# hang or be lost; every case states the exit status and the message atrc
# must print (exact text, or a fixed substring of standard error).
#   ATRC=/abs/atrc B=/abs/build sh tests/hostile/run.sh [FILTER]
# Inputs are generated on the fly into a temporary directory; each case runs
# atrc from inside it, so messages name short relative paths.
set -u
: "${ATRC:?set ATRC to the atrc binary}"
: "${B:?set B to the build directory}"
filter=${1:-}
repo=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d) || exit 2
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 2
pass=0
fail=0
skip=0
case_name=""
ran=0

# A hung atrc fails its case instead of hanging make check.
if command -v timeout >/dev/null 2>&1; then limit="timeout 120"; else limit=""; fi

begin() {
    case_name=$1
    ran=0
    case "$case_name" in *"$filter"*) return 0 ;; esac
    return 1
}

# As root, permission cases run atrc as the unprivileged user `nobody`
# (setpriv, from util-linux); the temporary tree is opened up for it.
as_nobody=""
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
    as_nobody="setpriv --reuid=nobody --regid=nogroup --clear-groups"
    chmod 755 "$tmp"
fi

# run_nobody ARGS...: like run, as `nobody` when we are root.
run_nobody() {
    # shellcheck disable=SC2086
    $limit $as_nobody "$ATRC" "$@" >out 2>err </dev/null
    st=$?
    ran=1
}

# run ARGS...: atrc with stdout -> out, stderr -> err, status -> $st.
run() {
    # shellcheck disable=SC2086
    $limit "$ATRC" "$@" >out 2>err </dev/null
    st=$?
    ran=1
}

bad() {
    echo "FAIL $case_name: $*"
    echo "  status $st; stderr (first lines):"
    head -c 2000 err | head -8 | sed 's/^/    /'
    fail=$((fail + 1))
}

# expect STATUS TEXT: TEXT is a fixed substring of stderr ('' = any).
expect() {
    if [ "$st" -ge 124 ] || [ "$st" -eq 99 ]; then bad "crashed, timed out or sanitizer report"; return; fi
    if [ "$st" -ne "$1" ]; then bad "exit status $st, expected $1"; return; fi
    if [ -n "$2" ] && ! grep -qF -- "$2" err; then bad "stderr lacks: $2"; return; fi
    pass=$((pass + 1))
}

# expect_exact STATUS FILE: stderr is exactly FILE's contents.
expect_exact() {
    if [ "$st" -ne "$1" ]; then bad "exit status $st, expected $1"; return; fi
    if ! cmp -s err "$2"; then
        bad "stderr differs"
        diff -u "$2" err | head -20 | sed 's/^/    /'
        return
    fi
    pass=$((pass + 1))
}

# also TEXT: one more substring the last run's stderr must contain.
also() {
    if ! grep -qF -- "$1" err; then
        pass=$((pass - 1))
        bad "stderr lacks: $1"
    fi
}

# out_has TEXT: the last run's stdout contains TEXT.
out_has() {
    if ! grep -qF -- "$1" out; then
        pass=$((pass - 1))
        bad "stdout lacks: $1"
    fi
}

# small_err BYTES: a diagnostic stays readable whatever the input's size.
small_err() {
    n=$(wc -c <err)
    if [ "$n" -gt "$1" ]; then
        pass=$((pass - 1))
        bad "stderr is $n bytes (more than $1)"
    fi
}

skipped() {
    echo "skip $case_name: $*"
    [ -n "${ATRC_SKIP_LOG:-}" ] && echo "$case_name: $*" >>"$ATRC_SKIP_LOG"
    skip=$((skip + 1))
}

# header-only xanim: mkxanim NAME LOOP(0/1) [VERSION]
mkxanim() {
    flags=$(printf "\\%03o" "$2")
    if [ "${3:-14}" = 17 ]; then
        printf "\\021\\000\\036\\000\\001\\000${flags}\\000\\036\\000" >"game/xanim/$1"
    else
        printf "\\016\\000\\036\\000\\001\\000${flags}\\036\\000" >"game/xanim/$1"
    fi
}

mkdir -p game/animtrees game/xanim
cat >game/animtrees/human.atr <<'EOF'
stand
{
	idle
	alert
}
walk : loopsync
{
	walk_f
}
EOF
for a in idle alert; do mkxanim $a 0; done
mkxanim walk_f 1
cat >ok.gsc <<'EOF'
#using_animtree("human");
main() { self setanim(%idle); }
EOF

# ---------------------------------------------------------------- command line
if begin "game directory that does not exist"; then
    run -g nope ok.gsc
    expect 2 "atrc: error: cannot read game directory 'nope': No such file or directory"
fi
if begin "game directory that is a file"; then
    run -g ok.gsc ok.gsc
    expect 2 "atrc: error: cannot read game directory 'ok.gsc': not a directory"
fi
if begin "script that does not exist"; then
    run -g game missing.gsc
    expect 2 "atrc: error: cannot read 'missing.gsc': No such file or directory"
fi
if begin "directory given as a script, holding none"; then
    mkdir -p adir
    run -g game adir
    expect 2 "atrc: error: cannot read 'adir': a directory with no .gsc script below it"
fi
if begin "directory given as a script, one below it unreadable"; then
    mkdir -p bdir/locked && cp ok.gsc bdir/ && chmod 000 bdir/locked
    run -g game bdir
    chmod 755 bdir/locked
    if [ "$(id -u)" = 0 ]; then expect 0 ""; else expect 2 "atrc: error: cannot read 'bdir/locked': Permission denied"; fi
fi
if begin "script path through a file"; then
    run -g game ok.gsc/x.gsc
    expect 2 "atrc: error: cannot read 'ok.gsc/x.gsc': Not a directory"
fi
if begin "symbolic link loop as a script"; then
    ln -sf loop2.gsc loop1.gsc && ln -sf loop1.gsc loop2.gsc
    run -g game loop1.gsc
    expect 2 "atrc: error: cannot read 'loop1.gsc': Too many levels of symbolic links"
fi
if begin "unreadable script"; then
    printf 'f() {}\n' >secret.gsc && chmod 000 secret.gsc
    if [ -r secret.gsc ] && [ -z "$as_nobody" ]; then
        skipped "running as root without setpriv: permissions do not apply"
    else
        run_nobody -g game secret.gsc
        expect 2 "atrc: error: cannot read 'secret.gsc': Permission denied"
    fi
fi
if begin "unreadable script among good ones: the others still compile"; then
    run -g game ok.gsc missing.gsc ok.gsc
    expect 2 "atrc: error: cannot read 'missing.gsc': No such file or directory"
    out_has "ok.gsc:2:23:"
fi
if begin "empty script"; then
    : >empty.gsc
    run -g game empty.gsc
    expect 0 ""
    [ -s err ] && { pass=$((pass - 1)); bad "stderr not empty"; }
fi
if begin "option without its value"; then
    run ok.gsc -g
    expect 2 "atrc: error: -g needs a directory"
fi
for opt in --format --profile --engine-anim --explain --max-errors; do
    if begin "$opt without its value"; then
        run ok.gsc $opt
        expect 2 "atrc: error: $opt needs a value"
    fi
done
if begin "malformed --engine-anim"; then
    run --engine-anim 'a b:c' ok.gsc
    expect 2 "atrc: error: --engine-anim takes TREE:NAME with identifiers, not 'a b:c'"
fi

# --color=auto on a terminal (util-linux `script` provides one): colour
# unless NO_COLOR is set or GCC_COLORS is empty; --color=always wins over NO_COLOR.
esc=$(printf '\033')
on_tty() {
    env -u NO_COLOR -u GCC_COLORS TERM=xterm "$@" script -qec "$ATRC -g game $tty_args" /dev/null >err 2>&1 </dev/null
    st=$?
    ran=1
}
tty_case() { # NAME WANT(colour/plain) ENV... -- ARGS
    if begin "$1"; then
        want=$2
        shift 2
        envs=""
        while [ "$1" != -- ]; do envs="$envs $1"; shift; done
        shift
        tty_args="$*"
        if ! command -v script >/dev/null 2>&1; then
            skipped "no script(1) to provide a terminal"
        else
            # shellcheck disable=SC2086
            on_tty $envs
            expect 0 "warning:"
            if [ "$want" = colour ] && ! grep -q "$esc\[01;35m" err; then pass=$((pass - 1)); bad "no colour"; fi
            if [ "$want" = plain ] && grep -q "$esc" err; then pass=$((pass - 1)); bad "colour escapes present"; fi
        fi
    fi
}
printf '#using_animtree("nosuchtree");\n' >warn.gsc
tty_case "--color=auto on a terminal: colour" colour -- warn.gsc
tty_case "--color=auto on a terminal with NO_COLOR: plain" plain NO_COLOR=1 -- warn.gsc
tty_case "--color=always beats NO_COLOR" colour NO_COLOR=1 -- --color=always warn.gsc
tty_case "--color=never on a terminal: plain" plain -- --color=never warn.gsc
tty_case "GCC_COLORS empty: plain" plain GCC_COLORS= -- warn.gsc
tty_case "TERM=dumb: plain" plain TERM=dumb -- warn.gsc

# ---------------------------------------------------------------- script input
if begin "binary file as a script"; then
    # Deterministic pseudo-random bytes (a linear congruential generator).
    awk 'BEGIN { x = 12345; for (i = 0; i < 65536; i++) { x = (x * 1103515245 + 12345) % 2147483648; printf "%c", int(x / 65536) % 256 } }' >binary.gsc
    run -g game binary.gsc
    expect 1 "binary.gsc:1:1: error: not a script: the file is mostly binary data"
    also "1 error, 0 warnings"
    small_err 20000
fi
if begin "NUL bytes inside a script"; then
    printf '#using_animtree("human");\nf() { a = 1;\000 b = %%idle; }\n' >nul.gsc
    run -g game nul.gsc
    expect 1 "nul.gsc:2:13: warning: NUL byte ends the script (the game reads no further)"
    also "error: '{' opened at line 2 is never closed"
fi
if begin "invalid UTF-8 in strings and comments is accepted"; then
    printf '// \377\376 comment \300\200\nf() { a = "\355\240\200 \377"; }\n' >utf8.gsc
    run -g game utf8.gsc
    expect 0 ""
fi
if begin "invalid UTF-8 in code is an error"; then
    printf 'f() { a\377 = 1; }\n' >utf8code.gsc
    run -g game utf8code.gsc
    expect 1 "utf8code.gsc:1:8: error: stray '\xFF'"
fi
if begin "100,000 nested parentheses"; then
    awk 'BEGIN { printf "f() { x = "; for (i = 0; i < 100000; i++) printf "("; printf "1"; for (i = 0; i < 100000; i++) printf ")"; print "; }" }' >parens.gsc
    run -g game parens.gsc
    expect 1 "parens.gsc:1:1010: error: nesting too deep (max 1000)"
    also "1 error, 0 warnings"
    small_err 4000
fi
if begin "100,000 nested blocks"; then
    awk 'BEGIN { print "f()"; for (i = 0; i < 100000; i++) print "{"; for (i = 0; i < 100000; i++) print "}" }' >blocks.gsc
    run -g game blocks.gsc
    expect 1 "blocks.gsc:1002:1: error: nesting too deep (max 1000)"
    also "1 error, 0 warnings"
    small_err 4000
fi
if begin "100,000 unclosed blocks"; then
    awk 'BEGIN { print "f()"; for (i = 0; i < 100000; i++) print "{" }' >open.gsc
    run -g game open.gsc
    expect 1 "nesting too deep (max 1000)"
    small_err 4000
fi
if begin "long expression chain (deep AST, no nesting)"; then
    awk 'BEGIN { printf "f() { x = 1"; for (i = 0; i < 200000; i++) printf " + 1"; print "; }" }' >chain.gsc
    run -g game chain.gsc
    expect 0 ""
fi
if begin "megabyte identifier"; then
    awk 'BEGIN { printf "f() { "; for (i = 0; i < 1048576; i++) printf "a"; print " = 1; }" }' >longid.gsc
    run -g game longid.gsc
    expect 0 ""
fi
if begin "megabyte string"; then
    awk 'BEGIN { printf "f() { s = \""; for (i = 0; i < 1048576; i++) printf "s"; print "\"; }" }' >longstr.gsc
    run -g game longstr.gsc
    expect 0 ""
fi
if begin "megabyte %name: reported, excerpt stays short"; then
    awk 'BEGIN { printf "#using_animtree(\"human\");\nf() { x = %%"; for (i = 0; i < 1048576; i++) printf "n"; print "; }" }' >longanim.gsc
    run -g game longanim.gsc
    expect 1 "longanim.gsc:2:11: error: animation 'nnnnnnnn"
    also "not defined in anim tree 'human'"
fi
if begin "error at the end of a megabyte line: excerpt stays short"; then
    awk 'BEGIN { printf "f() { x = 1"; for (i = 0; i < 200000; i++) printf " + 1"; print " +; }" }' >longline.gsc
    run -g game longline.gsc
    expect 1 "longline.gsc:1:800014: error: expected expression before ';'"
    small_err 2000
fi
if begin "unterminated string at end of file"; then
    printf 'f() { s = "open\n\n' >openstr.gsc
    run -g game openstr.gsc
    expect 1 "openstr.gsc:1:11: error: missing terminating '\"' character"
fi
if begin "unterminated comment at end of a complete file (accepted, as the games do)"; then
    printf 'f() { }\n/* open\n\n' >opencomment.gsc
    run -g game opencomment.gsc
    expect 0 "opencomment.gsc:2:1: warning: unterminated /* comment runs to the end of the file"
fi
if begin "unterminated comment inside a function"; then
    printf 'f() {\n/* open } \n\n' >opencomment2.gsc
    run -g game opencomment2.gsc
    expect 1 "opencomment2.gsc:3:1: error: '{' opened at line 1 is never closed"
fi

# ---------------------------------------------------------------- .atr input
if begin ".atr nested 100,000 levels, all pruned"; then
    awk 'BEGIN { for (i = 0; i < 100000; i++) { printf "n%d\n{\n", i } print "leaf"; for (i = 0; i < 100000; i++) print "}" }' >game/animtrees/deep.atr
    printf '#using_animtree("deep");\nf() { x = #animtree; }\n' >deep.gsc
    run -g game --no-xanim deep.gsc
    expect 0 ""
fi
if begin ".atr nested 100,000 levels, leaf referenced: too many nodes"; then
    printf '#using_animtree("deep");\nf() { x = %%leaf; }\n' >deepref.gsc
    run -g game --no-xanim deepref.gsc
    expect 1 "game/animtrees/deep.atr:1:1: error: anim tree 'deep' has too many nodes (100002, max 65536)"
fi
if begin ".atr nested 60,000 levels builds, lists and explains"; then
    awk 'BEGIN { for (i = 0; i < 60000; i++) { printf "n%d\n{\n", i } print "leaf"; for (i = 0; i < 60000; i++) print "}" }' >game/animtrees/deep60.atr
    printf '#using_animtree("deep60");\nf() { x = %%leaf; }\n' >deep60.gsc
    run -g game --no-xanim --trees --explain 0x0001ea61 deep60.gsc
    expect 0 ""
    out_has "/n59999/leaf (leaf)"
fi
if begin ".atr unclosed at 100,000 levels"; then
    awk 'BEGIN { for (i = 0; i < 100000; i++) { printf "n%d\n{\n", i } }' >game/animtrees/open.atr
    printf '#using_animtree("open");\nf() { x = %%n5; }\n' >open_atr.gsc
    run -g game --no-xanim open_atr.gsc
    expect 1 "error: unexpected end of file"
fi
if begin ".atr token longer than 1023 bytes"; then
    awk 'BEGIN { print "idle"; printf "  "; for (i = 0; i < 1500; i++) printf "t"; print "" }' >game/animtrees/longtok.atr
    printf '#using_animtree("longtok");\nf() { x = %%idle; }\n' >longtok.gsc
    run -g game longtok.gsc
    expect 0 "game/animtrees/longtok.atr:2:3: warning: token longer than 1023 bytes truncated"
    small_err 2000
fi
if begin ".atr with a NUL byte"; then
    printf 'idle\nalert\000walk\n' >game/animtrees/nul.atr
    printf '#using_animtree("nul");\nf() { x = %%idle; }\n' >nul_atr.gsc
    run -g game nul_atr.gsc
    expect 0 "game/animtrees/nul.atr:2:6: warning: NUL byte ends the animation tree"
fi
if begin ".atr that is binary junk"; then
    awk 'BEGIN { x = 777; for (i = 0; i < 65536; i++) { x = (x * 1103515245 + 12345) % 2147483648; printf "%c", int(x / 65536) % 256 } }' >game/animtrees/junk.atr
    printf '#using_animtree("junk");\nf() { x = %%a; }\n' >junk.gsc
    run -g game junk.gsc
    expect 1 "game/animtrees/junk.atr:"
fi
if begin "empty .atr"; then
    : >game/animtrees/emptytree.atr
    printf '#using_animtree("emptytree");\nf() { x = #animtree; }\n' >emptytree.gsc
    run -g game --no-xanim --trees emptytree.gsc
    expect 0 ""
    out_has "void"
fi
if begin ".atr that is a directory"; then
    mkdir -p game/animtrees/dirtree.atr
    printf '#using_animtree("dirtree");\nf() { x = %%a; }\n' >dirtree.gsc
    run -g game dirtree.gsc
    expect 1 "dirtree.gsc:1:1: error: cannot read anim tree 'game/animtrees/dirtree.atr': is a directory"
fi

# ---------------------------------------------------------------- xanim assets
cat >game/animtrees/assets.atr <<'EOF'
a_empty
a_trunc
a_v17
a_huge
a_ok
EOF
if begin "xanim empty file"; then
    : >game/xanim/a_empty
    printf '#using_animtree("assets");\nf() { x = %%a_empty; }\n' >x1.gsc
    run -g game x1.gsc
    expect 1 "game/animtrees/assets.atr:1:1: error: malformed xanim 'a_empty' (file is 0 bytes, header needs 9)"
fi
if begin "xanim truncated header"; then
    printf '\016\000\036\000' >game/xanim/a_trunc
    printf '#using_animtree("assets");\nf() { x = %%a_trunc; }\n' >x2.gsc
    run -g game x2.gsc
    expect 1 "game/animtrees/assets.atr:2:1: error: malformed xanim 'a_trunc' (file is 4 bytes, header needs 9)"
fi
if begin "xanim of another version"; then
    mkxanim a_v17 1 17
    printf '#using_animtree("assets");\nf() { x = %%a_v17; }\n' >x3.gsc
    run -g game x3.gsc
    expect 1 "game/animtrees/assets.atr:3:1: error: xanim 'a_v17' out of date (version 17, expecting 14)"
fi
if begin "xanim of another version, cod2: warning and default"; then
    run -g game --profile cod2 x3.gsc
    expect 0 "game/animtrees/assets.atr:3:1: warning: xanim 'a_v17' out of date (version 17, expecting 14)"
fi
if begin "xanim sparse 1 GB file: only the header is read"; then
    mkxanim a_huge 0
    if truncate -s 1G game/xanim/a_huge 2>/dev/null; then
        printf '#using_animtree("assets");\nf() { x = %%a_huge; }\n' >x4.gsc
        run -g game x4.gsc
        expect 0 ""
        out_has "x4.gsc:2:11:"
    else
        skipped "truncate -s 1G not supported here"
    fi
    rm -f game/xanim/a_huge
fi
if begin "xanim that is a directory"; then
    mkdir -p game/xanim/a_ok
    printf '#using_animtree("assets");\nf() { x = %%a_ok; }\n' >x5.gsc
    run -g game x5.gsc
    expect 1 "game/animtrees/assets.atr:5:1: error: cannot read xanim 'a_ok' (game/xanim/a_ok: is a directory)"
    rmdir game/xanim/a_ok
fi

# ---------------------------------------------------------------- registry limits
if begin "127 trees work, the 128th is refused"; then
    awk 'BEGIN { for (i = 1; i <= 128; i++) printf "#using_animtree(\"t%d\");\n", i; print "f() { x = #animtree; }" }' >trees.gsc
    run -g game trees.gsc
    expect 1 "trees.gsc:128:1: error: maximum animation tree count exceeded (127)"
    also "1 error, 127 warnings"
fi
if begin "127 trees are allowed"; then
    head -127 trees.gsc >trees127.gsc
    run -g game --max-errors 0 trees127.gsc
    expect 0 "trees127.gsc:127:1: warning: unknown anim tree 't127'"
fi
if begin "128 trees through --engine-anim"; then
    set --
    i=1
    while [ $i -le 128 ]; do set -- "$@" --engine-anim "e$i:root"; i=$((i + 1)); done
    run -g game "$@" empty.gsc
    expect 1 "atrc: error: maximum animation tree count exceeded (127)"
    set --
fi
if begin "65,536 nodes is the maximum"; then
    awk 'BEGIN { for (i = 1; i < 65536; i++) printf "l%d\n", i }' >game/animtrees/max.atr
    printf '#using_animtree("max");\nf() { x = %%l1; y = %%l65535; }\n' >max.gsc
    run -g game --no-xanim --anim-check max.gsc
    expect 0 ""
    out_has "max.gsc:2:20: %l65535 -> max[1] node 1 = 0x00010001"
fi
if begin "65,537 nodes: too many"; then
    awk 'BEGIN { for (i = 1; i <= 65536; i++) printf "l%d\n", i }' >game/animtrees/over.atr
    printf '#using_animtree("over");\nf() { x = %%l1; }\n' >over.gsc
    run -g game --no-xanim --anim-check over.gsc
    expect 1 "game/animtrees/over.atr:1:1: error: anim tree 'over' has too many nodes (65537, max 65536)"
fi
if begin "a million references: works, memory proportional"; then
    awk 'BEGIN { print "#using_animtree(\"human\");"; print "f() {"; for (i = 0; i < 250000; i++) print "x = %idle; y = %alert; z = %walk_f; w = %walk;"; print "}" }' >million.gsc
    awk 'BEGIN { print "#using_animtree(\"human\");"; print "f() {"; for (i = 0; i < 62500; i++) print "x = %idle; y = %alert; z = %walk_f; w = %walk;"; print "}" }' >quarter.gsc
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f %M -o rss_big $limit "$ATRC" -g game -o million.out million.gsc >out 2>err
        st=$?
        ran=1
        expect 0 ""
        /usr/bin/time -f %M -o rss_small "$ATRC" -g game -o quarter.out quarter.gsc >/dev/null 2>&1
        lines=$(wc -l <million.out)
        big=$(tail -1 rss_big)
        small=$(tail -1 rss_small)
        if [ "$lines" -ne 1000000 ]; then
            pass=$((pass - 1)); bad "$lines output lines, expected 1000000"
        elif [ $((big * 10)) -gt $((small * 45)) ]; then
            pass=$((pass - 1)); bad "peak RSS ${big} KB for 1M references vs ${small} KB for 250k: not proportional"
        fi
    else
        run -g game -o million.out million.gsc
        expect 0 ""
    fi
    rm -f million.gsc million.out quarter.gsc quarter.out
fi

# ---------------------------------------------------------------- output: nothing lost
if begin "-o /dev/full"; then
    run -g game -o /dev/full ok.gsc
    expect 2 "atrc: error: cannot write '/dev/full': No space left on device"
fi
if begin "standard output is /dev/full"; then
    $limit "$ATRC" -g game ok.gsc >/dev/full 2>err </dev/null
    st=$?
    expect 2 "atrc: error: cannot write standard output: No space left on device"
fi
if begin "standard output is closed"; then
    $limit "$ATRC" -g game ok.gsc >&- 2>err </dev/null
    st=$?
    expect 2 "atrc: error: cannot write standard output: Bad file descriptor"
fi
if begin "standard output is a pipe nobody reads"; then
    # A FIFO opened read-write (so opening it never blocks), a write end
    # taken, then the read-write end closed: fd 5 is a pipe with no reader
    # before atrc starts, so the outcome does not depend on timing.
    mkfifo fifo
    exec 4<>fifo
    exec 5>fifo
    exec 4<&-
    $limit "$ATRC" -g game ok.gsc >&5 2>err </dev/null
    st=$?
    exec 5>&-
    rm -f fifo
    expect 2 "atrc: error: cannot write standard output: Broken pipe"
fi
if begin "-o: a run killed while it writes FILE leaves no temporary, and FILE as it was"; then
    awk 'BEGIN { print "#using_animtree(\"human\");"; print "f() {"; for (i = 0; i < 250000; i++) print "x = %idle; y = %alert; z = %walk_f; w = %walk;"; print "}" }' >sig.gsc
    echo previous >sig.out
    "$ATRC" -g game -o sig.out sig.gsc >out 2>err </dev/null &
    pid=$!
    # The temporary exists only while the output is written: stop the run then.
    seen=0
    while kill -0 "$pid" 2>/dev/null; do
        set -- .sig.out.*
        if [ -e "$1" ]; then seen=1; kill -TERM "$pid"; break; fi
    done
    wait "$pid" 2>/dev/null
    st=$?
    ran=1
    set -- .sig.out.*
    if [ -e "$1" ]; then
        bad "temporary $1 left behind"
    elif [ $seen -eq 1 ] && [ "$st" -eq 143 ] && [ "$(cat sig.out)" != previous ]; then
        bad "FILE changed by a run that was killed"
    elif [ $seen -eq 1 ] && [ "$st" -eq 143 ]; then
        pass=$((pass + 1))
    elif [ "$st" -eq 0 ]; then
        skipped "the run finished before the signal arrived"
    else
        bad "exit status $st, expected 143 (killed by SIGTERM)"
    fi
    rm -f sig.gsc sig.out
fi
if begin "-o into a directory that does not exist"; then
    run -g game -o nodir/out.txt ok.gsc
    expect 2 "atrc: error: cannot write 'nodir/out.txt': No such file or directory"
fi
if begin "-o naming a directory"; then
    run -g game -o adir ok.gsc
    expect 2 "atrc: error: cannot write 'adir': Is a directory"
fi
if begin "-o into a read-only directory"; then
    mkdir -p rodir && chmod 555 rodir
    if [ -w rodir ] && [ -z "$as_nobody" ]; then
        skipped "running as root without setpriv: permissions do not apply"
    else
        run_nobody -g game -o rodir/out.txt ok.gsc
        expect 2 "atrc: error: cannot write 'rodir/out.txt': the directory 'rodir' does not allow creating files: Permission denied"
    fi
    chmod 755 rodir
fi
if begin "-o over an existing file that a failed write must not touch"; then
    # The file-size limit makes the write fail half way (EFBIG).
    printf 'previous contents\n' >keep.txt
    awk 'BEGIN { print "#using_animtree(\"human\");"; print "f() {"; for (i = 0; i < 20000; i++) print "x = %idle;"; print "}" }' >many.gsc
    (ulimit -f 64 2>/dev/null && exec $limit "$ATRC" -g game -o keep.txt many.gsc) >out 2>err </dev/null
    st=$?
    ran=1
    expect 2 "atrc: error: cannot write 'keep.txt': File too large"
    if [ "$(cat keep.txt)" != "previous contents" ]; then pass=$((pass - 1)); bad "keep.txt was changed"; fi
    leftovers=$(ls -a | grep -c '^\.keep\.txt\.')
    if [ "$leftovers" -ne 0 ]; then pass=$((pass - 1)); bad "temporary file left behind"; fi
fi
if begin "-o succeeds atomically over an existing file"; then
    printf 'previous contents\n' >replace.txt
    run -g game -o replace.txt ok.gsc
    expect 0 ""
    grep -q 'ok.gsc:2:23:' replace.txt || { pass=$((pass - 1)); bad "replace.txt not written"; }
fi
if begin "-o through a symlink replaces its target and keeps the link"; then
    printf 'previous contents\n' >target.txt
    ln -sf target.txt link.txt
    run -g game -o link.txt ok.gsc
    expect 0 ""
    [ -L link.txt ] || { pass=$((pass - 1)); bad "link.txt is no longer a symlink"; }
    grep -q 'ok.gsc:2:23:' target.txt || { pass=$((pass - 1)); bad "target.txt not written"; }
fi
if begin "-o naming an input is refused before anything is written"; then
    cp ok.gsc self.gsc
    run -g game -o self.gsc self.gsc
    expect 2 "atrc: error: input file 'self.gsc' is the same as output file 'self.gsc'"
    cmp -s ok.gsc self.gsc || { pass=$((pass - 1)); bad "self.gsc was changed"; }
fi
if begin "-o naming an input through another path and a symlink"; then
    mkdir -p maps && cp ok.gsc maps/a.gsc && ln -sf maps/a.gsc alias.gsc
    run -g game -o alias.gsc ./maps/../maps/a.gsc
    expect 2 "atrc: error: input file './maps/../maps/a.gsc' is the same as output file 'alias.gsc'"
    ln -f maps/a.gsc hard.txt
    run -g game -o hard.txt maps/a.gsc
    expect 2 "atrc: error: input file 'maps/a.gsc' is the same as output file 'hard.txt'"
    cmp -s ok.gsc maps/a.gsc || { pass=$((pass - 1)); bad "maps/a.gsc was changed"; }
    [ -L alias.gsc ] || { pass=$((pass - 1)); bad "alias.gsc is no longer a symlink"; }
fi
if begin "-o naming a tree file through a symlink"; then
    cp game/animtrees/human.atr human.atr.orig
    ln -sf game/animtrees/human.atr treelink.txt
    run -g game -o treelink.txt ok.gsc
    expect 2 "atrc: error: input file 'game/animtrees/human.atr' is the same as output file 'treelink.txt'"
    cmp -s human.atr.orig game/animtrees/human.atr || { pass=$((pass - 1)); bad "human.atr was changed"; }
    rm -f treelink.txt human.atr.orig
fi
if begin "a wildcard after -o: the first script is not overwritten"; then
    cp ok.gsc maps/b.gsc
    # shellcheck disable=SC2086
    run -g game -o maps/*.gsc
    expect 2 "atrc: error: output file 'maps/a.gsc' is an existing script or tree: not overwriting it (did a wildcard expand after -o?)"
    cmp -s ok.gsc maps/a.gsc || { pass=$((pass - 1)); bad "maps/a.gsc was changed"; }
    [ -s out ] && { pass=$((pass - 1)); bad "something was written to standard output"; }
fi
if begin "unreadable input: an existing -o FILE is left untouched"; then
    printf 'previous contents\n' >kept.txt
    run -g game -o kept.txt ok.gsc missing.gsc
    expect 2 "atrc: error: cannot read 'missing.gsc': No such file or directory"
    also "atrc: note: 'kept.txt' left unchanged: an input could not be read"
    [ "$(cat kept.txt)" = "previous contents" ] || { pass=$((pass - 1)); bad "kept.txt was changed"; }
    leftovers=$(ls -a | grep -c '^\.kept\.txt\.')
    [ "$leftovers" -eq 0 ] || { pass=$((pass - 1)); bad "temporary file left behind"; }
fi
if begin "unreadable tree (exit 1): an existing -o FILE is left untouched"; then
    printf 'previous contents\n' >kept.txt
    run -g game --format json -o kept.txt dirtree.gsc
    expect 1 "error: cannot read anim tree 'game/animtrees/dirtree.atr': is a directory"
    also "atrc: note: 'kept.txt' left unchanged: an input could not be read"
    [ "$(cat kept.txt)" = "previous contents" ] || { pass=$((pass - 1)); bad "kept.txt was changed"; }
fi
if begin "errors in the inputs (exit 1): -o FILE is still written"; then
    printf '#using_animtree("human");\nf() { x = %%nowhere; }\n' >unres.gsc
    printf 'previous contents\n' >written.json
    run -g game --format json -o written.json unres.gsc
    expect 1 "unres.gsc:2:11: error: animation 'nowhere' not defined in anim tree 'human'"
    grep -q '"value": null' written.json || { pass=$((pass - 1)); bad "written.json not written"; }
fi
if begin "300,000 diagnostics: one write each, fast"; then
    awk 'BEGIN { print "#using_animtree(\"human\");"; print "f() {"; for (i = 0; i < 300000; i++) print "x = %nowhere;"; print "}" }' >many_diags.gsc
    start=$(date +%s)
    run -g game -o /dev/null many_diags.gsc
    took=$(( $(date +%s) - start ))
    expect 1 "300000 errors, 0 warnings"
    lines=$(wc -l <err)
    [ "$lines" -eq 900001 ] || { pass=$((pass - 1)); bad "$lines lines on standard error, expected 900001"; }
    [ "$took" -le 20 ] || { pass=$((pass - 1)); bad "took $took s"; }
    if command -v strace >/dev/null 2>&1 && strace -o /dev/null true 2>/dev/null; then
        # LeakSanitizer (SANITIZE=1 builds) cannot run under ptrace.
        ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" strace -f -e trace=write -o trace.txt "$ATRC" -g game -o /dev/null many_diags.gsc >/dev/null 2>err </dev/null
        writes=$(grep -c '^[0-9]* *write(2,' trace.txt)
        [ "$writes" -eq 300001 ] || { pass=$((pass - 1)); bad "$writes writes to standard error, expected 300001"; }
        rm -f trace.txt
    fi
    rm -f many_diags.gsc
fi
if begin "script from standard input"; then
    $limit "$ATRC" -g game - <ok.gsc >out 2>err
    st=$?
    ran=1
    expect 0 ""
    out_has "<stdin>:2:23:"
fi
if begin "-o /dev/null is written in place, never renamed over"; then
    run -g game -o /dev/null ok.gsc
    expect 0 ""
    [ -c /dev/null ] || { pass=$((pass - 1)); bad "/dev/null is no longer a device"; }
fi

# ---------------------------------------------------------------- archives
# .pk3 files are built here with Python's zipfile (never committed).
have_py=0
command -v python3 >/dev/null 2>&1 && have_py=1
# pyzip ARCHIVE CODE: runs CODE with z = zipfile.ZipFile(ARCHIVE, 'w', deflated)
pyzip() {
    mkdir -p "$(dirname "$1")"
    python3 -c "import sys, zipfile
with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
$2" "$1"
}
# peak_kb ARGS...: like run, and sets $kb to atrc's peak resident memory (KB), or 0
peak_kb() {
    kb=0
    if [ -x /usr/bin/time ]; then
        $limit /usr/bin/time -f %M -o rss "$ATRC" "$@" >out 2>err </dev/null
        st=$?
        kb=$(tail -1 rss)
        case "$kb" in *[!0-9]*|"") kb=0 ;; esac
    else
        run "$@"
    fi
    ran=1
}
cat >arch.gsc <<'EOF'
#using_animtree("gh");
f() { x = %idle; y = %walk_f; z = %run; }
EOF
if begin "tree and xanims read from a .pk3, positions ARCHIVE:ENTRY"; then
    if [ $have_py = 1 ]; then
        pyzip inst/main/pak0.pk3 "
    z.writestr('AnimTrees/GH.atr', 'stand\n{\n\tidle\n\trun\n}\nwalk_f\n')
    z.writestr('xanim/idle', bytes([14, 0, 30, 0, 1, 0, 0, 30, 0]))
    z.writestr('xanim/walk_f', bytes([13, 0, 30, 0, 1, 0, 1, 30, 0]))"
        run --install inst arch.gsc
        # (A tree's diagnostics come in line order.)
        cat >expected <<'EOF'
inst/main/pak0.pk3:AnimTrees/GH.atr:4:2: error: Cannot find 'xanim/run'
  	run
  	^
inst/main/pak0.pk3:AnimTrees/GH.atr:6:1: error: xanim 'walk_f' out of date (version 13, expecting 14)
  walk_f
  ^
2 errors, 0 warnings
EOF
        expect_exact 1 expected
        out_has "arch.gsc:2:11: %idle -> gh[1] node 4 = 0x00010004"
    else skipped "python3 not installed"; fi
fi
if begin "a .pk3 entry's .atr parse error is located inside the archive"; then
    if [ $have_py = 1 ]; then
        pyzip inst2/main/pak0.pk3 "
    z.writestr('animtrees/gh.atr', 'idle\nwalk_f\n\nidle\nrun\n')"
        run --install inst2 --no-xanim arch.gsc
        expect 1 "inst2/main/pak0.pk3:animtrees/gh.atr:4:1: error: duplicate animation"
    else skipped "python3 not installed"; fi
fi
if begin "a damaged archive is a warning, skipped"; then
    if [ $have_py = 1 ]; then
        pyzip inst3/main/pak0.pk3 "
    z.writestr('animtrees/gh.atr', 'idle\nwalk_f\nrun\n')"
        printf 'PK\003\004 not really a zip' >inst3/main/pak1.pk3
        run --install inst3 --no-xanim arch.gsc
        expect 0 "atrc: warning: cannot open archive 'inst3/main/pak1.pk3': Not a zip archive; skipped"
        out_has "arch.gsc:2:11: %idle -> gh[1]"
    else skipped "python3 not installed"; fi
fi
if begin "a corrupt central directory is a warning, skipped"; then
    if [ $have_py = 1 ]; then
        pyzip inst4/main/pak1.pk3 "
    for i in range(50): z.writestr('maps/f%d.gsc' % i, 'x' * i)"
        python3 -c "import sys
d = bytearray(open(sys.argv[1], 'rb').read())
cd = d.find(b'PK\x01\x02')
d[cd + 28] = 0xff; d[cd + 29] = 0xff
open(sys.argv[1], 'wb').write(bytes(d))" inst4/main/pak1.pk3
        run --install inst4 -g game ok.gsc
        expect 0 "atrc: warning: cannot open archive 'inst4/main/pak1.pk3': "
        also "; skipped"
    else skipped "python3 not installed"; fi
fi
if begin "zip bomb: an entry of 100 MB is refused, memory stays small"; then
    if [ $have_py = 1 ]; then
        pyzip bomb/main/pak0.pk3 "
    with z.open('animtrees/gh.atr', 'w', force_zip64=True) as f:
        for i in range(100): f.write(bytes(1 << 20))"
        peak_kb --install bomb arch.gsc
        expect 1 "arch.gsc:1:1: error: cannot read anim tree 'bomb/main/pak0.pk3:animtrees/gh.atr': entry is 104857600 bytes, over the 64 MiB limit for one file in an archive"
        if [ "$kb" -gt 65536 ]; then pass=$((pass - 1)); bad "peak memory $kb KB"; fi
    else skipped "python3 not installed"; fi
fi
if begin "zip bomb with a lying size: only the recorded size is ever held"; then
    if [ $have_py = 1 ]; then
        pyzip liar/main/pak0.pk3 "
    with z.open('animtrees/gh.atr', 'w') as f:
        f.write(b'idle\n')
        for i in range(100): f.write(bytes(1 << 20))"
        python3 -c "import sys, struct
d = bytearray(open(sys.argv[1], 'rb').read())
struct.pack_into('<I', d, 22, 5)
cd = d.find(b'PK\x01\x02')
struct.pack_into('<I', d, cd + 24, 5)
open(sys.argv[1], 'wb').write(bytes(d))" liar/main/pak0.pk3
        peak_kb --install liar --no-xanim arch.gsc
        expect 1 "arch.gsc:1:1: error: cannot read anim tree 'liar/main/pak0.pk3:animtrees/gh.atr': "
        if [ "$kb" -gt 65536 ]; then pass=$((pass - 1)); bad "peak memory $kb KB"; fi
    else skipped "python3 not installed"; fi
fi
if begin "an xanim in a huge compressed entry: only its header is read"; then
    if [ $have_py = 1 ]; then
        pyzip huge/main/pak0.pk3 "
    z.writestr('animtrees/gh.atr', 'idle\nwalk_f\nrun\n')
    for n in ('idle', 'walk_f', 'run'):
        with z.open('xanim/' + n, 'w', force_zip64=True) as f:
            f.write(bytes([14, 0, 30, 0, 1, 0, 1, 30, 0]))
            for i in range(300): f.write(bytes(1 << 20))"
        peak_kb --install huge arch.gsc
        expect 0 ""
        out_has "arch.gsc:2:35: %run -> gh[1] node 1 = 0x00010001"
        if [ "$kb" -gt 65536 ]; then pass=$((pass - 1)); bad "peak memory $kb KB"; fi
    else skipped "python3 not installed"; fi
fi
if begin "thousands of entries, names with '..' and bytes that are not UTF-8"; then
    if [ $have_py = 1 ]; then
        pyzip many/main/pak0.pk3 "
    z.writestr('animtrees/gh.atr', 'idle\nwalk_f\nrun\n')
    for i in range(20000): z.writestr('xanim/f%d' % i, 'x')
    z.writestr('../../etc/evil.gsc', 'x')
    z.writestr('maps/..\\\\..\\\\evil.gsc', 'x')
    z.writestr('maps/latin_X.gsc', 'x')"
        python3 -c "import sys
d = open(sys.argv[1], 'rb').read().replace(b'latin_X', b'latin\xe9X')
open(sys.argv[1], 'wb').write(d)" many/main/pak0.pk3
        run --install many --no-xanim arch.gsc
        cat >expected <<'EOF'
atrc: warning: archive 'many/main/pak0.pk3': 2 entries ignored: name leaves the game directory (first: '../../etc/evil.gsc')
atrc: warning: archive 'many/main/pak0.pk3': 1 entry ignored: name is not valid UTF-8 (first: 'maps/latin\xe9X.gsc')
0 errors, 2 warnings
EOF
        expect_exact 0 expected
    else skipped "python3 not installed"; fi
fi
if begin "--install and --fs-game: the mod's loose files over the archives of main"; then
    if [ $have_py = 1 ]; then
        pyzip inst5/main/pak0.pk3 "
    z.writestr('animtrees/gh.atr', 'idle\n')"
        mkdir -p inst5/mods/m/animtrees
        printf 'walk_f\nidle\nrun\n' >inst5/mods/m/animtrees/GH.ATR
        run --install inst5 --fs-game mods/m --no-xanim arch.gsc
        expect 0 ""
        out_has "arch.gsc:2:11: %idle -> gh[1] node 2 = 0x00010002"
    else skipped "python3 not installed"; fi
fi
if begin "a FIFO, a directory and an unreadable file named .pk3"; then
    if [ $have_py = 1 ]; then
        pyzip inst7/main/pak0.pk3 "
    z.writestr('animtrees/gh.atr', 'idle\nwalk_f\nrun\n')"
        mkfifo inst7/main/pak1.pk3 && mkdir inst7/main/pak2.pk3
        pyzip inst7/main/pak3.pk3 "
    z.writestr('animtrees/gh.atr', 'secret\n')"
        chmod 000 inst7/main/pak3.pk3
        chmod -R a+rX inst7/main/pak0.pk3 inst7/main/pak2.pk3 2>/dev/null
        run_nobody --install inst7 --no-xanim arch.gsc
        if [ -n "$as_nobody" ] || [ "$(id -u)" -ne 0 ]; then
            expect 0 "atrc: warning: cannot open archive 'inst7/main/pak3.pk3': "
            also "; skipped"
        else
            expect 0 ""
        fi
        out_has "arch.gsc:2:11: %idle -> gh[1] node 3 = 0x00010003"
    else skipped "python3 not installed"; fi
fi
if begin "--fs-game without --install"; then
    run --fs-game m ok.gsc
    expect 2 "atrc: error: --fs-game needs --install"
fi
if begin "--install of a missing directory, --fs-game of a missing mod"; then
    run --install nowhere ok.gsc
    expect 2 "atrc: error: cannot read game directory 'nowhere': No such file or directory"
    mkdir -p inst6/main
    run --install inst6 --fs-game mods/none ok.gsc
    expect 2 "atrc: error: cannot read game directory 'inst6/mods/none': No such file or directory"
fi
if begin "--language must be a plain name"; then
    run --language ../x -g game ok.gsc
    expect 2 "atrc: error: --language takes a name of letters, digits and '_', not '../x'"
fi
# ---- level and walk mode ----
if begin "load walk: a chain of 20,000 scripts, each loading the next"; then
  # ThreadSanitizer's own allocator runs out of mappings on this walk (20,000
  # resident scripts; the serial walk starts no thread): the other builds run it.
  if [ "${SANITIZE:-}" = thread ]; then skipped "too big for ThreadSanitizer's allocator"; else
    mkdir -p chain/maps
    awk 'BEGIN { for (i = 0; i < 20000; i++) { f = "chain/maps/c" i ".gsc"; printf "f() { maps\\c%d::f(); }\n", i + 1 > f; close(f) } }'
    echo "f() {}" >chain/maps/c20000.gsc
    run --no-xanim --format json -o chain.json -g chain --entry maps/c0
    expect 0 ""
    [ "$(grep -c '"from": ' chain.json)" -eq 20001 ] || { pass=$((pass - 1)); bad "not 20001 scripts loaded"; }
  fi
fi
if begin "load walk: one name defined 200,000 times, each body calling it (linear: 60 s bound)"; then
    mkdir -p dups/maps
    awk 'BEGIN { for (i = 0; i < 200000; i++) print "f() { f(); }" }' >dups/maps/d.gsc
    lim=""; [ -n "$limit" ] && lim="timeout 60"
    # shellcheck disable=SC2086
    $lim "$ATRC" --no-xanim -g dups --entry maps/d >out 2>err </dev/null
    st=$?
    ran=1
    expect 1 "dups/maps/d.gsc:2:1: error: function already defined"
fi
if begin "load walk: a script naming 100,000 functions of files that do not exist"; then
    mkdir -p many/maps
    awk 'BEGIN { printf "f() {\n"; for (i = 0; i < 100000; i++) printf "maps\\m%d::g(); thread h%d();\n", i % 1000, i; print "}" }' \
        >many/maps/m.gsc
    run --no-xanim -g many --entry maps/m
    expect 1 "many/maps/m.gsc:2:1: error: Could not find script 'maps/m0'"
    [ "$(grep -c 'Could not find script' err)" -eq 1000 ] || { pass=$((pass - 1)); bad "not 1000 missing scripts"; }
    [ "$(grep -c 'unknown function' err)" -eq 100000 ] || { pass=$((pass - 1)); bad "not 100000 unknown functions"; }
fi
if begin "load walk: 100,000 calls into 5,000 included files"; then
    mkdir -p inc/maps
    awk 'BEGIN { top = "inc/maps/top.gsc"
                 for (i = 0; i < 5000; i++) { f = "inc/maps/i" i ".gsc"; printf "f%d() {}\nshared() {}\n", i > f; close(f)
                                              printf "#include maps\\i%d;\n", i > top }
                 printf "main() {\n" > top
                 for (i = 0; i < 100000; i++) printf "b%d(); shared(); thread f%d();\n", i, i % 5000 > top
                 print "  thread nowhere();\n}" > top }'
    run --profile cod2 --no-xanim -g inc --entry maps/top
    expect 1 "inc/maps/top.gsc:105002:10: error: unknown function"
    [ "$(grep -c 'unknown function' err)" -eq 1 ] || { pass=$((pass - 1)); bad "not exactly one unknown function"; }
fi
if begin "level mode: an unreadable entity list"; then
    mkdir -p empty
    run --no-xanim -g empty --map x --sp --entities nope.txt
    expect 2 "atrc: error: cannot read 'nope.txt': No such file or directory"
fi
# ---- atrc diff: untrusted JSON ----
hdr='{"atrc": 1, "profile": "uo", "references": [], "trees": ['
if begin "diff: 100,000 nested arrays"; then
    awk 'BEGIN { printf "{\"atrc\": 1, \"x\": "; for (i = 0; i < 100000; i++) printf "["; for (i = 0; i < 100000; i++) printf "]"; print "}" }' >deep.json
    run diff deep.json deep.json
    expect 2 "deep.json:1:273: error: not valid JSON: nesting too deep (max 256)"
fi
if begin "diff: a 2 MB number and a 12 MB string are read in linear time"; then
    awk -v h="$hdr" 'BEGIN { printf "%s], \"n\": 1", h; for (i = 0; i < 2000000; i++) printf "7"; printf ", \"s\": \""; for (i = 0; i < 2000000; i++) printf "\\u00e9"; print "\"}" }' >big.json
    run diff big.json big.json
    expect 0 ""
fi
if begin "diff: lone surrogates, escaped NULs and every escape read as text"; then
    printf '%s{"index": 1, "name": "t\\u0000\\ud800\\udc00\\udfff\\"\\\\\\/\\b\\f\\n\\r\\t", "file": null, "checksum": null, "nodes": []}]}\n' "$hdr" >esc.json
    run diff esc.json esc.json
    expect 0 ""
fi
if begin "diff: a 65,536-node chain renamed at the top (every node gone and new)"; then
    for v in a b; do
        awk -v h="$hdr" -v v=$v 'BEGIN { printf "%s{\"index\": 1, \"name\": \"t\", \"file\": null, \"checksum\": 1, \"nodes\": [{\"index\": 0, \"name\": \"root\", \"parent\": null, \"child_count\": 1}", h;
            for (i = 1; i < 65536; i++) printf ",{\"index\": %d, \"name\": \"%s\", \"parent\": %d, \"child_count\": %d}", i, (i == 1 ? v : "n"), i - 1, (i < 65535);
            print "]}]}" }' >chain_$v.json
    done
    run diff chain_a.json chain_b.json
    expect 1 ""
    [ "$(grep -c "^\[" out)" -eq 131070 ] || { pass=$((pass - 1)); bad "expected 131070 changes, got $(grep -c "^\[" out)"; }
fi
if begin "diff: 65,535 siblings of one name, the first one dropped (every node moves)"; then
    for v in 0 1; do
        awk -v h="$hdr" -v v=$v 'BEGIN { n = 65535 - v; printf "%s{\"index\": 1, \"name\": \"t\", \"file\": null, \"checksum\": 1, \"nodes\": [{\"index\": 0, \"name\": \"root\", \"parent\": null, \"child_count\": %d}", h, n;
            for (i = 1; i <= n; i++) printf ",{\"index\": %d, \"name\": \"%s\", \"parent\": 0, \"child_count\": 0}", i, (i == 1 && v == 0 ? "gone" : "a");
            print "]}]}" }' >wide_$v.json
    done
    run diff wide_0.json wide_1.json
    expect 1 ""
    out_has "t: %a (root/a) moved from node 65535 to node 65534: sibling 'gone' (node 1) is no longer in the tree"
fi
if begin "diff: 200,000 references, every value changed"; then
    for v in 1 2; do
        awk -v v=$v 'BEGIN { printf "{\"atrc\": 1, \"profile\": \"uo\", \"trees\": [], \"references\": ["; for (i = 0; i < 200000; i++) printf "%s{\"file\": \"a.gsc\", \"line\": %d, \"column\": 1, \"kind\": \"anim\", \"tree\": \"t\", \"name\": \"x\", \"value\": %d}", (i ? "," : ""), i + 1, v; print "]}" }' >refs_$v.json
    done
    run diff refs_1.json refs_2.json
    expect 1 ""
    [ "$(grep -c "^\[" out)" -eq 200000 ] || { pass=$((pass - 1)); bad "expected 200000 changes, got $(grep -c "^\[" out)"; }
fi
if begin "diff: a closed standard output is a write error"; then
    awk -v h="$hdr" 'BEGIN { print h "]}" }' >empty_run.json
    $limit "$ATRC" diff wide_0.json wide_1.json 2>err | head -c 10 >/dev/null
    st=$?
    ran=1
    grep -q "cannot write" err && pass=$((pass + 1)) || bad "no write error reported"
fi
# ---------------------------------------------------------------- compile-stage checks
if begin "20,000 switches without a case in one function: linear"; then
    awk 'BEGIN { print "f(a)\n{"; for (i = 0; i < 20000; i++) print "\tswitch (a) { wait 1; }"; print "}" }' >switches.gsc
    run --profile cod4 --no-xanim switches.gsc
    expect 1 "switches.gsc:20003:1: error: missing case statement"
    also "20000 errors, 0 warnings"
fi
if begin "an else-if ladder deeper than the checks walk"; then
    awk 'BEGIN { printf "f(a) { if (a) x = 1;"; for (i = 0; i < 3000; i++) printf " else if (a == %d) x = 1;", i; print " }" }' >ladder.gsc
    run --profile cod4 --no-xanim ladder.gsc
    expect 0 "warning: statements nested deeper than 2000: the compile-stage checks skip what is inside"
fi
if begin "a 500,000-term expression under every check"; then
    awk 'BEGIN { printf "f(a) { x = a"; for (i = 0; i < 500000; i++) printf "+1"; print "; y = (1 / 0) + x; }" }' >chain.gsc
    run --profile cod2 --no-xanim chain.gsc
    expect 1 "error: divide by 0"
    small_err 2000
fi

if begin "level mode: the sample install packed into two .iwd archives gives the values of its loose files"; then
    if [ $have_py = 1 ]; then
        mkdir -p packed/main
        python3 - "$repo/samples/install/main" packed/main <<'PY'
import os, sys, zipfile
src, out = sys.argv[1], sys.argv[2]
for arc, tops in (("pak0.iwd", ("codescripts", "maps", "mp")), ("pak1.iwd", ("animtrees",))):
    with zipfile.ZipFile(os.path.join(out, arc), "w", zipfile.ZIP_DEFLATED) as z:
        for top in tops:
            for d, _, files in os.walk(os.path.join(src, top)):
                for f in sorted(files):
                    p = os.path.join(d, f)
                    z.write(p, os.path.relpath(p, src))
PY
        run --profile cod2 --no-xanim --install packed --map mp_harbour --gametype tdm
        expect 0 ""
        sed 's|^packed/main/pak0.iwd:||' out >packed.txt
        "$ATRC" --profile cod2 --no-xanim -g "$repo/samples/install/main" --map mp_harbour --gametype tdm 2>/dev/null |
            sed "s|^$repo/samples/install/main/||" >loose.txt
        if [ ! -s loose.txt ] || ! cmp -s packed.txt loose.txt || ! grep -q 'pak0.iwd:maps/mp/_flags.gsc' out; then
            pass=$((pass - 1)); bad "archive values differ from loose files"
        fi
    else skipped "python3 not installed"; fi
fi

# Reliability findings: archives in every case, -o over game content, FIFOs, caps, signals.
. "$repo/tests/hostile/reliability.sh"
# Response files and the project file.
. "$repo/tests/hostile/argfile.sh"
. "$repo/tests/hostile/project.sh"

[ $skip -gt 0 ] && echo "hostile: $skip skipped (see above)"
echo "hostile: $pass passed, $fail failed"
[ $fail -eq 0 ]
