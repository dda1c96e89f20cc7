#!/bin/sh
# The language server's tests: the protocol client (tests/lsp/protocol.py),
# Emacs + eglot in batch mode as the README sets it up (tests/lsp/emacs_test.el),
# Neovim as the README sets it up, through its keys (tests/lsp/nvim_readme_test.lua)
# and with two projects and a loose file in one session (tests/lsp/nvim_projects_test.lua),
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
    $limit env ATRC="$ATRC" LSP_NOTE_COMPLETE="${LSP_NOTE_COMPLETE:-}" LSP_NAME="$1" LSP_ROOT="$2" LSP_OPEN="$3" LSP_CLI_ARGS="$4" LSP_INIT_FLAGS="$5" \
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
# notetracks: a CoD4 tree whose leaves have whole xanims (the notetrack goldens);
# completion inside the note of line 9's waittillmatch("reload", "clip_on")
cp -R "$repo/tests/golden/notetracks" "$tmp/notes"
LSP_NOTE_COMPLETE=9:32:clip_out,clip_in,reload_done,end \
    nvim_case "notetracks, CoD4 xanims" "$tmp/notes" waits.gsc '["--profile", "cod4", "-g", "game", "waits.gsc"]' \
    '["--profile", "cod4", "-g", "game", "waits.gsc"]' ""
# Neovim set up exactly as the README says (its snippet as init.lua, started
# in the workspace with atrc on PATH), used through its keys.
echo "== lsp: neovim, the README's setup, K, gd and CTRL-X CTRL-O"
cp -R "$repo/tests/lsp/workspace" "$tmp/readme"
sh "$repo/tests/lsp/readme-snippet.sh" "$repo/README.md" "Neovim" >"$tmp/init.lua" || fail=1
(cd "$tmp/readme" && $limit env ATRC="$ATRC" PATH="$(dirname "$ATRC"):$PATH" LSP_OPEN=tank.gsc \
    LSP_CLI_ARGS='["-g", ".", "tank.gsc"]' HOME="$tmp/home" XDG_STATE_HOME="$tmp/state" XDG_DATA_HOME="$tmp/data" \
    nvim --headless -u "$tmp/init.lua" -i NONE -n -c "luafile $repo/tests/lsp/nvim_readme_test.lua" </dev/null \
    >"$tmp/nvim.out" 2>&1)
st=$?
# the screen's mode messages are no part of the report
tr '\r' '\n' <"$tmp/nvim.out" | sed -e 's/-- INSERT --//g' -e 's/-- ^X mode ([^)]*)//g' | grep -v '^$'
[ $st -eq 0 ] || { echo "FAIL lsp neovim README setup: exit status $st"; fail=1; }

# The same README setup, one Neovim session and so one server for two
# projects (CoD2 and CoD4, each its own tree where %walk packs differently)
# and a file outside both (the default profile, the root's tree).
echo "== lsp: neovim, the README's setup, two projects and a loose file"
p="$tmp/projects"
mkdir -p "$p/a/animtrees" "$p/a/maps" "$p/b/animtrees" "$p/b/maps" "$p/animtrees" "$p/loose"
printf '%s\n' walk run extra >"$p/a/animtrees/human.atr"
printf '%s\n' moves '{' '	step' '	{' '		walk' '	}' '}' >"$p/b/animtrees/human.atr"
printf '%s\n' stand '{' '	walk' '}' >"$p/animtrees/human.atr"
printf '%s\n' --profile cod2 --no-xanim >"$p/a/atrc.flags"
printf '%s\n' --profile cod4 --no-xanim >"$p/b/atrc.flags"
for f in "$p/a/maps/x.gsc" "$p/b/maps/x.gsc" "$p/loose/loose.gsc"; do
    printf '%s\n' '#using_animtree("human");' 'main()' '{' '	self setanim(%walk, 1);' '	self setanim(%extra, 1);' '}' >"$f"
done
(cd "$p" && $limit env ATRC="$ATRC" PATH="$(dirname "$ATRC"):$PATH" HOME="$tmp/home" XDG_STATE_HOME="$tmp/state" \
    XDG_DATA_HOME="$tmp/data" LSP_CASES='[
      {"open": "a/maps/x.gsc", "cli": ["--profile", "cod2", "--no-xanim", "-g", "a", "a/maps/x.gsc"]},
      {"open": "b/maps/x.gsc", "cli": ["--profile", "cod4", "--no-xanim", "-g", "b", "b/maps/x.gsc"]},
      {"open": "loose/loose.gsc", "cli": ["-g", ".", "loose/loose.gsc"]}]' \
    nvim --headless -u "$tmp/init.lua" -i NONE -n -c "luafile $repo/tests/lsp/nvim_projects_test.lua" </dev/null \
    >"$tmp/nvim.out" 2>&1)
st=$?
tr '\r' '\n' <"$tmp/nvim.out" | grep -v '^$'
[ $st -eq 0 ] || { echo "FAIL lsp neovim two projects: exit status $st"; fail=1; }

# Emacs + eglot, set up exactly as the README says (its snippet is extracted
# and loaded), on copies of two stock CoD4 scripts (Windows-1252, CRLF, no
# final newline) over the stock game; package-activate-all is what an
# interactive Emacs does at startup (it puts Debian's eglot on the load path).
cod4=${COD4_GAME:-$repo/../shared/corpus/cod4-game}
if [ -f "$cod4/maps/killhouse.gsc" ]; then
    echo "== lsp: emacs + eglot, the README's setup, CoD4 killhouse"
    cod4=$(cd "$cod4" && pwd)
    mkdir -p "$tmp/emacs/maps"
    cp "$cod4/maps/killhouse.gsc" "$cod4/maps/killhouse_anim.gsc" "$tmp/emacs/maps/" && chmod u+w "$tmp/emacs/maps/"*
    printf '%s\n' --profile cod4 -g "$cod4" -g . --map killhouse --sp >"$tmp/emacs/atrc.flags"
    sh "$repo/tests/lsp/readme-snippet.sh" "$repo/README.md" "Emacs" >"$tmp/emacs-setup.el" || fail=1
    $limit env ATRC="$ATRC" PATH="$(dirname "$ATRC"):$PATH" LSP_ROOT="$tmp/emacs" LSP_STOCK="$cod4" HOME="$tmp/home" \
        emacs --batch -f package-activate-all -l "$tmp/emacs-setup.el" -l "$repo/tests/lsp/emacs_test.el" \
        </dev/null >"$tmp/emacs.out" 2>&1
    st=$?
    grep -v '^\[\(eglot\|jsonrpc\)\]\|^Loading ' "$tmp/emacs.out"
    [ $st -eq 0 ] || { echo "FAIL lsp emacs: exit status $st"; fail=1; }
else
    echo "== lsp: emacs + eglot: skipped (no stock CoD4 scripts in $cod4; set COD4_GAME)"
fi
[ $fail -eq 0 ] && echo "lsp: all passed"
exit $fail
