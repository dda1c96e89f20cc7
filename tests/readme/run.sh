#!/bin/sh
# The README's worked examples run as printed: in each section named on the
# command line, every indented `$ atrc ...` line is run (a `$ cd DIR` line
# moves into DIR, from the top of the sources; a `# ...` after two spaces is
# a comment) and what it prints, standard output and error together, must be
# the indented lines after it up to the next `$` line or the end of the
# block.  Exit status 0 is expected.
#   ATRC=/abs/atrc sh tests/readme/run.sh README.md "The packing, worked through"
set -u
readme=${1:?usage: run.sh README SECTION...}
shift
: "${ATRC:?set ATRC to the atrc binary}"
root=$(pwd)
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0
fail=0
for section in "$@"; do
    # the section's indented lines, blocks separated by an empty marker line
    awk -v want="## $section" '
        /^## / { inside = ($0 == want); next }
        !inside { next }
        /^    / { print substr($0, 5); blank = 0; next }
        /^$/ { next }
        { if (!blank) print "\001"; blank = 1 }' "$readme" >"$tmp/lines"
    [ -s "$tmp/lines" ] || { echo "FAIL readme: no section '## $section' with examples"; fail=$((fail + 1)); continue; }
    dir=$root
    cmd=""
    : >"$tmp/want"
    # runs the pending command and compares (called at each `$` and block end)
    flush() {
        [ -n "$cmd" ] || return 0
        args=${cmd#atrc }
        (cd "$dir" && eval "\"\$ATRC\" $args") >"$tmp/got" 2>&1 </dev/null
        st=$?
        if [ $st -ne 0 ]; then
            echo "FAIL readme ($section): \$ $cmd: exit status $st"; fail=$((fail + 1))
        elif ! cmp -s "$tmp/want" "$tmp/got"; then
            echo "FAIL readme ($section): \$ $cmd prints otherwise:"; diff -u "$tmp/want" "$tmp/got" | head -20
            fail=$((fail + 1))
        else
            pass=$((pass + 1))
        fi
        cmd=""
        : >"$tmp/want"
    }
    while IFS= read -r line; do
        case "$line" in
        "$(printf '\001')") flush ;;
        '$ '*)
            flush
            c=${line#\$ }
            c=$(printf '%s' "$c" | sed 's/  *#.*$//')
            case "$c" in
            "cd "*) dir=$root/${c#cd } ;;
            "atrc "*) cmd=$c ;;
            *) echo "FAIL readme ($section): cannot run '\$ $c'"; fail=$((fail + 1)) ;;
            esac
            ;;
        *) [ -n "$cmd" ] && printf '%s\n' "$line" >>"$tmp/want" ;;
        esac
    done <"$tmp/lines"
    flush
done
echo "readme: $pass examples as printed, $fail failed"
[ $fail -eq 0 ] && [ $pass -gt 0 ]
