#!/bin/sh
# scripts/check-calls.py: the real build passes; a small tree of compiled
# files with one breach of each kind (a call up a level, a call to a
# sibling folder, a cycle of calls across folders, files calling each other
# with no private header, cli/ calling an internal function, the library
# calling cli/) fails with each reported, and what is allowed (a module
# sharing check/'s private header, cli/ calling atrc_*) is not.
#   sh tests/layers/calls.sh OBJDIR   (the build's objects)
set -u
top=$(pwd)
python3 "$top/scripts/check-calls.py" "$1" || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/atrc-calls-XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 2
unit() { # FILE DEFINES CALLS...
    f=$1 def=$2
    shift 2
    mkdir -p "$(dirname "src/$f")" "$(dirname "build/obj/$f")"
    {
        echo "/* banner */"
        for c in "$@"; do echo "void $c(void);"; done
        printf 'void %s(void)\n{\n' "$def"
        for c in "$@"; do echo "    $c();"; done
        echo "}"
    } >"src/$f"
    ${CC:-cc} -c "src/$f" -o "build/obj/${f%.c}.o" || exit 2
}
unit base/a.c a_fn c_fn
unit compile/c.c c_fn a_fn
unit tree/t.c t_fn f_fn
unit files/f.c f_fn
unit check/x.c x_fn y_fn
unit check/y.c y_fn x_fn
unit output/p.c p_fn q_fn
unit output/q.c q_fn p_fn
unit cli/m.c m_fn atrc_run p_fn
unit api.c atrc_run
unit compile/k.c k_fn m_fn
python3 "$top/scripts/check-calls.py" build/obj >out 2>&1
rc=$?
fail=0
expect() {
    grep -qxF "$1" out || { echo "calls: missing: $1" >&2; fail=1; }
}
expect 'src/base/a.c: calls c_fn (src/compile/c.c): compile/ is above base/'
expect 'src/tree/t.c: calls f_fn (src/files/f.c): files/ is a sibling of tree/'
expect 'src/cli/m.c: calls p_fn (src/output/p.c): cli/ calls the library through atrc.h'
expect 'src/compile/k.c: calls m_fn (src/cli/m.c): the library never calls cli/'
expect 'a cycle of calls across folders base, compile: src/base/a.c src/compile/c.c'
expect 'files that call each other share no private header: src/output/p.c src/output/q.c'
expect 'check-calls: 6 breaches of the call rule (README, "Design")'
[ "$(grep -c . out)" -eq 7 ] || { echo "calls: more reported than expected (check/'s module, atrc_*)" >&2; fail=1; }
[ $rc -eq 1 ] || { echo "calls: exit status $rc, not 1" >&2; fail=1; }
[ $fail -eq 0 ] || { cat out >&2; exit 1; }
echo "calls: 6 breaches found, none where there is none"
