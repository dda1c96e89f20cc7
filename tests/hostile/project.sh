# Sourced by tests/hostile/run.sh (its helpers, its temporary directory):
# response files and project files are data.  A byte order mark and CRLF
# lines are read as editors write them; -o never names a response file or a
# list the run reads; control bytes of an argument reach no message raw; a
# directory operand never reads a device, a FIFO or standard input through
# a link.

if begin "@FILE with a UTF-8 byte order mark and CRLF lines"; then
    printf '\357\273\277-g\r\ngame\r\nok.gsc\r\n' >bom.flags
    run @bom.flags
    expect 0 ""
fi
if begin "-o naming the response file the run reads"; then
    printf '%s\n' -g game ok.gsc >self-out.flags
    cp self-out.flags self-out.want
    run -o self-out.flags @self-out.flags
    expect 2 "atrc: error: input file 'self-out.flags' is the same as output file 'self-out.flags'"
    cmp -s self-out.flags self-out.want || { pass=$((pass - 1)); bad "self-out.flags was changed"; }
fi
if begin "-o inside a response file naming that file"; then
    mkdir -p inside && printf '%s\n' -g ../game -o args ../ok.gsc >inside/args
    cp inside/args inside.want
    run @inside/args
    expect 2 "atrc: error: input file 'inside/args' is the same as output file 'inside/args'"
    cmp -s inside/args inside.want || { pass=$((pass - 1)); bad "inside/args was changed"; }
fi
if begin "-o naming a nested response file"; then
    printf '%s\n' ok.gsc >nested-inner.flags
    printf '%s\n' -g game @nested-inner.flags >nested-outer.flags
    run -o nested-inner.flags @nested-outer.flags
    expect 2 "atrc: error: input file 'nested-inner.flags' is the same as output file 'nested-inner.flags'"
fi
if begin "-o naming a --builtins list"; then
    echo 'function my_builtin' >list.txt
    run -g game --builtins list.txt -o list.txt ok.gsc
    expect 2 "atrc: error: input file 'list.txt' is the same as output file 'list.txt'"
    [ "$(cat list.txt)" = "function my_builtin" ] || { pass=$((pass - 1)); bad "list.txt was changed"; }
fi
if begin "-o naming an --entities list (through a link)"; then
    echo 'maps/x' >ents.txt && ln -sf ents.txt ents-link.txt
    run -g game --map m --sp --entities ents.txt -o ents-link.txt
    expect 2 "atrc: error: input file 'ents.txt' is the same as output file 'ents-link.txt'"
    [ "$(cat ents.txt)" = "maps/x" ] || { pass=$((pass - 1)); bad "ents.txt was changed"; }
fi
if begin "control bytes of an option are escaped in its message"; then
    run -g game --extension "$(printf 'x\033]0;owned\007')" ok.gsc
    expect 2 "unknown extension 'x\\x1B]0;owned\\x07'"
    if LC_ALL=C grep -q "$(printf '\033')" err; then pass=$((pass - 1)); bad "a raw ESC byte reached the terminal"; fi
fi
if begin "control bytes of a response file's line are escaped in its message"; then
    printf -- '--frob\033[2J\n' >ctl.flags
    run @ctl.flags
    expect 2 "ctl.flags:1: error: unknown option '--frob\\x1B[2J'"
    if LC_ALL=C grep -q "$(printf '\033')" err; then pass=$((pass - 1)); bad "a raw ESC byte reached the terminal"; fi
fi
if begin "control bytes of a file name are escaped in its message"; then
    run -g game "$(printf 'no\033[31mpe.gsc')"
    expect 2 "no\\x1B[31mpe.gsc"
    if LC_ALL=C grep -q "$(printf '\033')" err; then pass=$((pass - 1)); bad "a raw ESC byte reached the terminal"; fi
fi
if begin "a directory operand with a link to standard input, a FIFO and a device"; then
    mkdir -p devdir && cp ok.gsc devdir/a.gsc
    ln -sf /dev/stdin devdir/in.gsc
    ln -sf /dev/zero devdir/zero.gsc
    ln -sf /proc/self/fd/0 devdir/fd0.gsc
    mkfifo devdir/fifo.gsc 2>/dev/null
    # standard input held open and silent: a read of it would wait forever
    # shellcheck disable=SC2086
    sleep 30 | $limit "$ATRC" -g game devdir >out 2>err
    st=$?
    ran=1
    expect 2 "atrc: error: cannot read 'devdir/fd0.gsc': not a regular file"
    also "atrc: error: cannot read 'devdir/fifo.gsc': not a regular file"
    also "atrc: error: cannot read 'devdir/in.gsc': not a regular file"
    also "atrc: error: cannot read 'devdir/zero.gsc': not a regular file"
fi
if begin "a --builtins list of 2 million bad lines: the error cap, bounded output"; then
    seq 1 2000000 | sed 's/.*/nonsense &/' >huge-list.txt
    run -g game --builtins huge-list.txt ok.gsc
    expect 2 "atrc: error: cannot read builtin list 'huge-list.txt': larger than the 4 MiB a list may hold"
    small_err 2000
    rm -f huge-list.txt
fi
if begin "a --builtins list of many bad lines: 50 errors, then one note"; then
    seq 1 5000 | sed 's/.*/nonsense &/' >bad-list.txt
    run -g game --builtins bad-list.txt ok.gsc
    expect 1 "bad-list.txt:51:1: note: more errors in this list are not shown (--max-errors)"
    n=$(grep -c ': error: ' err)
    [ "$n" -eq 50 ] || { pass=$((pass - 1)); bad "$n errors shown, expected 50"; }
    rm -f bad-list.txt
fi
if begin "an --entities list of many bad lines: 50 errors, then one note"; then
    seq 1 5000 | sed 's/.*/bogus &/' >bad-ents.txt
    run -g game --map nomap --sp --entities bad-ents.txt
    expect 1 "bad-ents.txt:50:1: error: expected 'actor_<type>'"
    also "bad-ents.txt:51:1: note: more errors in this list are not shown (--max-errors)"
    n=$(grep -c 'bad-ents.txt:.*error: expected' err)
    [ "$n" -eq 50 ] || { pass=$((pass - 1)); bad "$n list errors shown, expected 50"; }
    rm -f bad-ents.txt
fi
