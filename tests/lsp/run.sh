#!/bin/sh
# The language server's tests: the protocol client (tests/lsp/protocol.py)
# and headless Neovim as the editor (tests/lsp/nvim_test.lua), in file-list
# mode (the open documents; initializationOptions.flags with UTF-8
# positions) and level mode (an atrc.flags project), each compared with the
# command line on the same files.  The workspaces are copied into a
# temporary directory (the Neovim runs edit and save them).
#   ATRC=/abs/atrc INSTALL=/abs/build/samples/install sh tests/lsp/run.sh
set -u
: "${ATRC:?set ATRC to the atrc binary}"
repo=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
if command -v timeout >/dev/null 2>&1; then limit="timeout 300"; else limit=""; fi

echo "== lsp: protocol"
$limit env ATRC="$ATRC" WORKSPACE="$repo/tests/lsp/workspace" INSTALL="${INSTALL:-}" \
    python3 "$repo/tests/lsp/protocol.py" || fail=1
echo "== lsp: hostile input and project files"
$limit env ATRC="$ATRC" WORKSPACE="$repo/tests/lsp/workspace" python3 "$repo/tests/lsp/hostile.py" || fail=1

# nvim_case NAME ROOT OPEN CLI_ARGS INIT_FLAGS ENCODING
nvim_case() {
    echo "== lsp: neovim, $1"
    $limit env ATRC="$ATRC" LSP_NAME="$1" LSP_ROOT="$2" LSP_OPEN="$3" LSP_CLI_ARGS="$4" LSP_INIT_FLAGS="$5" \
        LSP_ENCODING="$6" HOME="$tmp/home" XDG_STATE_HOME="$tmp/state" XDG_DATA_HOME="$tmp/data" \
        nvim --headless --clean -u NONE -i NONE -n -c "luafile $repo/tests/lsp/nvim_test.lua" </dev/null \
        >"$tmp/nvim.out" 2>&1
    st=$?
    grep -v '^$' "$tmp/nvim.out"
    [ $st -eq 0 ] || { echo "FAIL lsp neovim $1: exit status $st"; fail=1; }
}
mkdir -p "$tmp/home"
cp -R "$repo/tests/lsp/workspace" "$tmp/open"
nvim_case "file list, the open documents" "$tmp/open" tank.gsc '["-g", ".", "tank.gsc"]' "" ""
cp -R "$repo/tests/lsp/workspace" "$tmp/flags"
nvim_case "file list, initializationOptions.flags, UTF-8" "$tmp/flags" tank.gsc \
    '["--no-xanim", "-g", ".", "tank.gsc", "util.gsc"]' '["--no-xanim", "-g", ".", "tank.gsc", "util.gsc"]' utf-8
mkdir -p "$tmp/level" && cp -R "$repo/samples/install/main" "$tmp/level/main"
printf '%s\n' '# the sample install, level mode' --profile cod2 --no-xanim -g main --map mp_harbour --gametype tdm \
    >"$tmp/level/atrc.flags"
nvim_case "level mode, atrc.flags" "$tmp/level" main/maps/mp/mp_harbour.gsc '["@atrc.flags"]' "" ""
[ $fail -eq 0 ] && echo "lsp: all passed"
exit $fail
