#!/bin/sh
# The Windows behaviour of atrc.exe under Wine, and the hostile cases that
# make sense there (no data loss with -o, bad input located, exit statuses).
# Where a case is not about the platform, atrc.exe must print what the
# native atrc prints, byte for byte, and exit the same.
#   NATIVE=/abs/build/atrc WATRC=/abs/wrapper-running-atrc.exe sh win/hostile.sh
# Paths in the output are as the user spelled them: `scripts\a.gsc` stays
# `scripts\a.gsc`; names atrc builds itself (DIR/animtrees/x.atr, an
# archive's ARCHIVE:ENTRY) are joined with '/', which Windows accepts too.
set -u
: "${NATIVE:?set NATIVE to the native atrc}" "${WATRC:?set WATRC to the atrc.exe wrapper}"
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 2
pass=0
fail=0
bad() { printf "FAIL %s: %s\n" "$case" "$*"; fail=$((fail + 1)); }
ok() { pass=$((pass + 1)); }
begin() { case=$1; }

mkdir -p game/animtrees scripts
printf 'human\n{\n\tidle\n\talert\n\twalk : complete\n\t{\n\t\twalk_f\n\t\twalk_b\n\t}\n}\n' >game/animtrees/human.atr
printf '#using_animtree("human");\nf()\n{\n\ta = %%idle;\n\tb = %%walk_f;\n}\n' >scripts/a.gsc
printf '#using_animtree("human");\ng()\n{\n\tc = %%alert;\n\td = %%nowhere;\n}\n' >scripts/b.gsc
printf 'f() { a = ; }\n' >scripts/syntax.gsc

# same NAME ARGS...: atrc.exe prints and returns what the native atrc does.
same() {
    begin "$1"
    shift
    "$NATIVE" "$@" >n.out 2>n.err </dev/null
    echo $? >n.st
    "$WATRC" "$@" >w.out 2>w.err </dev/null
    echo $? >w.st
    if cmp -s n.out w.out && cmp -s n.err w.err && cmp -s n.st w.st; then
        ok
    else
        bad "differs from the native build (status $(cat w.st), native $(cat n.st))"
        diff n.out w.out | head -5
        diff n.err w.err | head -5
    fi
}

same "trees" --trees --no-xanim -g game scripts/a.gsc scripts/b.gsc
same "json" --format json --no-xanim -g game scripts/a.gsc scripts/b.gsc
same "exit status 1, the error located" --no-xanim -g game scripts/syntax.gsc
same "exit status 2: a missing input" --no-xanim -g game scripts/a.gsc no_such.gsc
same "exit status 2: usage" --format xml scripts/a.gsc
same "exit status 2: a game directory that is a file" -g scripts/a.gsc scripts/a.gsc

# Binary reads: a CRLF script with a ^Z (end of file in text mode) inside a
# string, and a NUL.
printf '#using_animtree("human");\r\nf()\r\n{\r\n\ts = "\032";\r\n\ta = %%alert;\r\n}\r\n\000x\r\n' >scripts/crlf.gsc
same "binary read: CRLF, ^Z and NUL bytes" --no-xanim -g game scripts/crlf.gsc
# Standard output in binary mode: no CR added.
begin "binary standard output"
"$WATRC" --no-xanim -g game scripts/a.gsc >w.out 2>/dev/null </dev/null
if tr -d '\n' <w.out | grep -q "$(printf '\r')"; then bad "a CR in the output"; else ok; fi

# A directory operand: what the native build says (not "Permission denied").
mkdir -p adir
cp scripts/a.gsc adir/
same "a directory operand" --no-xanim -g game adir scripts/b.gsc
begin "a directory operand is not 'Permission denied'"
if grep -q 'Permission denied' w.err; then bad "$(cat w.err)"; else ok; fi

# '\' separates paths on the command line and in -o.
begin "'\\' in script and game-directory operands"
"$WATRC" --trees --no-xanim -g 'game\' 'scripts\a.gsc' >w.out 2>w.err </dev/null
st=$?
"$NATIVE" --trees --no-xanim -g 'game/' 'scripts/a.gsc' >n.out 2>n.err </dev/null
if [ $st -ne 0 ]; then
    bad "status $st: $(head -2 w.err)"
elif ! sed 's|scripts\\a.gsc|scripts/a.gsc|' w.out | cmp -s - n.out; then
    bad "output differs beyond the path spelling"; diff n.out w.out | head -5
else
    ok
fi

# -o replaces an existing file atomically: MoveFileEx, the temporary in
# FILE's directory (here out\, named with '\').
mkdir -p out
echo previous >out/res.txt
begin "-o 'out\\res.txt' replaces the existing file"
"$WATRC" --no-xanim -g game -o 'out\res.txt' scripts/a.gsc >/dev/null 2>w.err </dev/null
st=$?
"$NATIVE" --no-xanim -g game scripts/a.gsc >n.out 2>/dev/null </dev/null
left=$(ls -A out | grep -v '^res.txt$')
if [ $st -ne 0 ]; then bad "status $st: $(cat w.err)"
elif ! cmp -s out/res.txt n.out; then bad "out/res.txt is not the output"
elif [ -n "$left" ] || ls -A | grep -q '^\.'; then bad "a temporary left behind: $left"
else ok; fi
begin "-o again over the file it wrote"
"$WATRC" --no-xanim -g game --trees -o 'out\res.txt' scripts/a.gsc >/dev/null 2>w.err </dev/null
st=$?
"$NATIVE" --no-xanim -g game --trees scripts/a.gsc >n.out 2>/dev/null </dev/null
if [ $st -ne 0 ] || ! cmp -s out/res.txt n.out; then bad "status $st, or FILE not replaced"; else ok; fi

# The refusal to overwrite an input, by file identity (volume serial number
# and file index): the input under another spelling, through '\' and in
# another letter case.
cp scripts/a.gsc input.txt
begin "-o naming an input as '.\\INPUT.TXT'"
"$WATRC" --no-xanim -g game -o '.\INPUT.TXT' input.txt >/dev/null 2>w.err </dev/null
st=$?
if [ $st -ne 2 ]; then bad "status $st, expected 2"
elif ! grep -q "input file 'input.txt' is the same as output file '.\\\\INPUT.TXT'" w.err; then bad "$(cat w.err)"
elif ! cmp -s input.txt scripts/a.gsc; then bad "the input was changed"
else ok; fi
begin "-o naming a different file is not refused"
"$WATRC" --no-xanim -g game -o other.txt input.txt >/dev/null 2>w.err </dev/null
st=$?
if [ $st -ne 0 ]; then bad "status $st: $(cat w.err)"; else ok; fi
rm -f other.txt

# -o over game content: a name the game reads inside a game directory is
# refused, the directory found by its identity (volume serial number and file
# index) whatever the spelling: letter case, '\', "..", a drive path.
mkdir -p game/maps
same "-o over a game file that does not exist yet" --no-xanim -g game -o game/animtrees/new.atr scripts/a.gsc
begin "-o over game content under other spellings is refused"
why=""
for o in 'GAME\ANIMTREES\New.atr' 'game\maps\x.gsc' '.\game\..\game\maps\y.gsc' "$(winepath -w "$PWD/game/maps/z.gsc")"; do
    "$WATRC" --no-xanim -g game -o "$o" scripts/a.gsc >/dev/null 2>w.err </dev/null
    st=$?
    if [ $st -ne 2 ] || ! grep -q "in the game directory 'game', the [a-z ]*.* the game reads.*: not overwriting it" w.err; then
        why="$why [$o: status $st: $(cat w.err)]"
    fi
done
if [ -n "$why" ]; then bad "$why"
elif [ -n "$(ls game/maps)" ] || [ -e game/animtrees/New.atr ]; then bad "a file was written: $(ls game/maps game/animtrees)"
else ok; fi
begin "-o 'game\\notes.txt' (no game file) is written"
"$WATRC" --no-xanim -g game -o 'game\notes.txt' scripts/a.gsc >/dev/null 2>w.err </dev/null
st=$?
if [ $st -ne 0 ] || [ ! -s game/notes.txt ]; then bad "status $st: $(cat w.err)"; else ok; fi
rm -rf game/maps game/notes.txt

# No data loss: an unreadable input keeps FILE; a missing directory fails.
echo previous >keep.txt
same "-o with an unreadable input keeps FILE" --no-xanim -g game -o keep.txt scripts/a.gsc no_such.gsc
begin "-o with an unreadable input: FILE unchanged"
if [ "$(cat keep.txt)" = previous ]; then ok; else bad "keep.txt changed"; fi
same "-o into a directory that does not exist" --no-xanim -g game -o nodir/out.txt scripts/a.gsc

# UTF-8 file names (the manifest's code page).
mkdir -p 'игра/animtrees' 'карты'
cp game/animtrees/human.atr 'игра/animtrees/human.atr'
cp scripts/b.gsc 'карты/тест.gsc'
same "UTF-8 file and directory names" --trees --no-xanim -g 'игра' 'карты/тест.gsc'
begin "UTF-8 names are read"
if grep -q "карты/тест.gsc:5:" w.out w.err; then ok; else bad "$(head -3 w.err)"; fi
same "-o to a UTF-8 name" --no-xanim -g 'игра' -o 'вывод.txt' 'карты/тест.gsc'
begin "-o to a UTF-8 name: written"
if [ -s 'вывод.txt' ]; then ok; else bad "вывод.txt missing"; fi

# Ctrl+C while FILE is written (Wine turns SIGINT into the console's
# Ctrl+C): the temporary is removed, FILE stays as it was.
begin "Ctrl+C while -o writes leaves no temporary and FILE as it was"
awk 'BEGIN { print "#using_animtree(\"human\");"; print "f() {"; for (i = 0; i < 250000; i++) print "x = %idle; y = %alert; z = %walk_f;"; print "}" }' >sig.gsc
echo previous >sig.out
"$WATRC" --no-xanim -g game -o sig.out sig.gsc >/dev/null 2>&1 </dev/null &
pid=$!
seen=0
while kill -0 "$pid" 2>/dev/null; do
    set -- .sig.out.*
    if [ -e "$1" ]; then seen=1; kill -INT "$pid"; break; fi
done
wait "$pid"
st=$?
# The handler deletes the temporary while it is open (FILE_SHARE_DELETE):
# Windows removes it when the dying process's handles close, which under
# Wine is the wineserver's cleanup after the Unix process has exited, so a
# loaded machine can see it for a moment after the wait.  Up to 5 s.
for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50; do
    set -- .sig.out.*
    [ -e "$1" ] || break
    sleep 0.1
done
set -- .sig.out.*
if [ -e "$1" ]; then bad "temporary $1 left behind (status $st)"
elif [ $seen -eq 1 ] && [ "$(cat sig.out)" != previous ] && [ $st -ne 0 ]; then bad "FILE changed by a stopped run"
elif [ $seen -eq 1 ] && [ $st -ne 0 ]; then ok
elif [ $st -eq 0 ]; then echo "skip $case: the run finished before the signal arrived"
else bad "exit status $st"; fi
rm -f sig.gsc sig.out

# Colours: --color=always as on Linux; NO_COLOR does not matter then.
same "--color=always" --color=always --no-xanim -g game scripts/b.gsc
begin "NO_COLOR with --color=auto: no colour"
NO_COLOR=1 "$WATRC" --no-xanim -g game scripts/b.gsc >/dev/null 2>w.err </dev/null
if grep -q "$(printf '\033')" w.err; then bad "escape sequences"; else ok; fi

# Started from Explorer (a console of its own, which closes at exit): atrc
# waits for a key.  A pseudo-terminal gives the same under Wine (no cmd.exe
# shares the console); a run whose streams are redirected never waits.
if command -v script >/dev/null 2>&1; then
    begin "a console of its own: 'Press any key', then the key ends the run"
    (sleep 2; printf 'k') | timeout 30 script -qec "$WATRC --no-xanim -g game scripts/a.gsc" /dev/null >tty.out 2>&1
    st=$?
    # Wine's console draws with escape sequences between the characters.
    sed 's/\x1b\[[0-9;?]*[A-Za-z]//g' tty.out >tty.txt
    if [ $st -ne 0 ]; then bad "status $st"
    elif ! grep -q 'Press any key to close this window' tty.txt; then bad "no prompt: $(head -c 200 tty.txt)"
    elif ! grep -q 'scripts/a.gsc:4:.*human\[1\]' tty.txt; then bad "no output before the prompt"
    else ok; fi
    begin "a console of its own: without a key atrc keeps the window open"
    # (standard input open, and nothing typed)
    sleep 6 | timeout 4 script -qec "$WATRC --version" /dev/null >tty.out 2>&1
    st=$?
    if [ $st -eq 124 ]; then ok; else bad "status $st: it did not wait ($(head -c 100 tty.out))"; fi
fi

# A console shows UTF-8 names and messages (its output code page set to
# UTF-8, each message one write): under a pseudo-terminal Wine's console
# turns what atrc writes into the terminal's UTF-8, and a byte sequence it
# could not decode into U+FFFD.
if command -v script >/dev/null 2>&1; then
    begin "a console shows UTF-8 file names and messages"
    printf 'f()\n{\n    x = ;\n}\n' >'Ärger_ü.gsc'
    timeout 30 script -qec "$WATRC --no-xanim -g game Ärger_ü.gsc </dev/null" /dev/null >tty.out 2>&1
    sed 's/\x1b\[[0-9;?]*[A-Za-z]//g' tty.out | tr -d '\r' >tty.txt
    if grep -q 'Ärger_ü.gsc:3:9: error: expected expression' tty.txt && ! grep -q "$(printf '\357\277\275')" tty.txt; then ok
    else bad "$(head -c 300 tty.txt)"; fi
    rm -f 'Ärger_ü.gsc'
fi

# cmd.exe's trap: "C:\dir\" passes C:\dir" (the backslash escapes the
# closing quote) and the rest of the line with it.  No Windows file name
# holds a '"': the error explains the trailing backslash.  (A POSIX file
# name may hold one: the native build takes it as a name.)
begin "an argument with '\"' (\"C:\\dir\\\" in cmd.exe): the trailing backslash explained"
"$WATRC" --no-xanim -g 'C:\My Game" scripts\a.gsc' >w.out 2>w.err </dev/null
st=$?
want="atrc: error: argument 'C:\\My Game\" scripts\\a.gsc' contains '\"', which no Windows file name holds: cmd.exe reads a backslash before a quote as a quote of the argument, so \"C:\\dir\\\" ends in '\"' and runs on into the arguments after it; write the directory without its trailing backslash (\"C:\\dir\") or double it (\"C:\\dir\\\\\")"
if [ $st -ne 2 ] || [ "$(cat w.err)" != "$want" ] || [ -s w.out ]; then bad "status $st: $(cat w.err)"; else ok; fi
begin "the native build takes a '\"' as part of a name"
"$NATIVE" --no-xanim -g game 'a"b.gsc' >n.out 2>n.err </dev/null
if grep -q "cannot read 'a\"b.gsc'" n.err; then ok; else bad "$(cat n.err)"; fi

# A closed pipe (no reader: ERROR_NO_DATA, or Wine's
# ERROR_PIPE_NOT_CONNECTED) is said once, as on Linux, not as "Invalid
# argument".  The FIFO's reader is gone before atrc starts (see
# tests/hostile/run.sh).
begin "standard output is a pipe nobody reads: said once, as natively"
mkfifo fifo
exec 4<>fifo
exec 5>fifo
exec 4<&-
"$WATRC" --no-xanim -g game scripts/a.gsc >&5 2>w.err </dev/null
st=$?
exec 5>&-
rm -f fifo
if [ $st -eq 2 ] && [ "$(cat w.err)" = "atrc: error: cannot write standard output: Broken pipe" ]; then ok
else bad "status $st: $(cat w.err)"; fi

echo "windows hostile: $pass passed, $fail failed"
[ $fail -eq 0 ]
