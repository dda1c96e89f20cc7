#!/usr/bin/env python3
"""`atrc lsp` on stock content, compared with the command line.

For each game of GAMES (cod1-game, uo-game, cod2-game, cod4-game, laid out
as GAMES/GAMES.md says; third-party, read in place): one multiplayer level
(the first map with the first gametype), CoD4's single-player killhouse, and
one file-list run (the game's animscripts/ directory and a few maps/ scripts,
some with Windows-1252 bytes in comments or strings); and CoD1's
carride_anim.gsc saved in UTF-8 (in the workspace) with an error after its
non-ASCII comment on the same line.  Each run is an
atrc.flags in a temporary workspace naming the corpus; the server opens a
bounded sample of the run's scripts (the named ones, those with diagnostics
or non-ASCII bytes first, and the two with the most references), and is
compared with
`atrc --format json @atrc.flags` in the same workspace:
  - every published diagnostic of every file (start in UTF-16 code units
    from the file's bytes, severity, code, message), and nothing more;
  - for the %name and #animtree references the JSON lists in an opened
    script (at most MAX_REFS of each script, spread over it): the
    hover's packed value (or tree index), the definition's .atr file, line
    and character (the node's line, its first word);
  - the definition of calls and ::f references to functions of the same
    script (their line in --dump-ast).
    ATRC=build/atrc python3 tests/lsp/corpus.py GAMES
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import protocol as P  # noqa: E402  (the client: framing, Server, positions)

P.NAME = "lsp corpus"
check = P.check
SEVERITY = {"error": 1, "warning": 2, "note": 3}
MAX_OPEN = 5          # scripts opened per run
MAX_CALLS = 4         # call definitions checked per opened script
MAX_REFS = 30         # references (hover, definition) per opened script, spread over it
GAMES = os.path.realpath(sys.argv[1]) if len(sys.argv) > 1 else None
# game: (profile, game directories, flags, extra scripts of the file-list run)
CONF = [
    ("cod1", ["cod1-game"], ["--no-xanim"], ["maps/carride_anim.gsc", "maps/_panzer.gsc"]),
    ("uo", ["cod1-game", "uo-game"], ["--no-xanim"], ["maps/_panzer_gmi.gsc"]),
    ("cod2", ["cod2-game"], ["--no-xanim"], ["maps/matmata_anim.gsc", "maps/bergstein_anim.gsc"]),
    ("cod4", ["cod4-game"], [], ["maps/sniperescape_anim.gsc"]),
]


def level_names(dirs, sub):
    """Lower-cased base names of maps/mp/SUB*.gsc (any letter case of mp)."""
    out = set()
    for d in dirs:
        maps = os.path.join(d, "maps")
        for mp in (e for e in os.listdir(maps) if e.lower() == "mp") if os.path.isdir(maps) else []:
            base = os.path.join(maps, mp, *sub.split("/")[:-1])
            prefix = sub.split("/")[-1]
            for f in os.listdir(base) if os.path.isdir(base) else []:
                n = f.lower()
                if n.endswith(".gsc") and n.startswith(prefix):
                    out.add(n[:-4])
    return sorted(out)


def non_ascii(path):
    with open(path, "rb") as f:
        return any(b > 0x7f for b in f.read())


def first_non_ascii_line(path):
    """The 1-based line of the file's first byte over 0x7f (None: none)."""
    with open(path, "rb") as f:
        for i, line in enumerate(f.read().split(b"\n")):
            if any(b > 0x7f for b in line):
                return i + 1
    return None


def read_text(path):
    """The document as an editor holds it: bytes that are not UTF-8 (the
    corpus' Windows-1252 comments) become U+FFFD."""
    with open(path, "rb") as f:
        return f.read().decode("utf-8", "replace")


def atr_line(path, node):
    """0-based line and byte column of the .atr line declaring node (its first word)."""
    with open(path, "rb") as f:
        for i, line in enumerate(f.read().split(b"\n")):
            m = re.match(rb"^(\xef\xbb\xbf)?\s*([A-Za-z0-9_]+)", line.split(b"//")[0])
            if m and m.group(2).decode().lower() == node.lower():
                return i, m.start(2)
    return None, None


def published(s):
    """The last diagnostics published for each URI (notifications so far)."""
    last = {}
    for n in s.notes:
        if n.get("method") == "textDocument/publishDiagnostics":
            last[n["params"]["uri"]] = n["params"]["diagnostics"]
    return last


def functions_and_calls(flags, path, cwd):
    """The script's functions (name -> 1-based line) and its calls and ::f
    references (line, column, name), from --dump-ast."""
    profile = flags[flags.index("--profile") + 1]
    out = subprocess.run([P.ATRC, "--profile", profile, "--dump-ast", path], cwd=cwd, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL).stdout.decode("utf-8", "replace")
    funcs = {m.group(2).lower(): int(m.group(1)) for m in re.finditer(r'\(function (\d+):\d+ "([^"]+)"', out)}
    uses = [(int(m.group(1)), int(m.group(2)), m.group(3))
            for m in re.finditer(r'\(call \d+:\d+\s+\(ident (\d+):(\d+) "([^"]+)"\)', out)]
    uses += [(int(m.group(1)), int(m.group(2)) + 2, m.group(3))
             for m in re.finditer(r'\(func_ref (\d+):(\d+) "::([^"]+)"\)', out)]
    return funcs, uses


def one_location(r):
    loc = (r or {}).get("result")
    if isinstance(loc, list):
        loc = loc[0] if loc else None
    return loc or {}


def non_ascii_before(path, line, column):
    with open(path, "rb") as f:
        return any(b > 0x7f for b in f.read().split(b"\n")[line - 1][:column - 1])


def run_case(label, flags, stats, write=None):
    """One run: FLAGS in the workspace's atrc.flags ('{ws}' is the workspace);
    WRITE: files (workspace-relative name -> text) written there first."""
    ws = os.path.realpath(tempfile.mkdtemp(prefix="atrc-lsp-corpus-"))
    flags = [a.replace("{ws}", ws) for a in flags]
    start = time.time()
    try:
        for name, text in (write or {}).items():
            os.makedirs(os.path.dirname(os.path.join(ws, name)), exist_ok=True)
            with open(os.path.join(ws, name), "w", encoding="utf-8") as f:
                f.write(text)
        with open(os.path.join(ws, "atrc.flags"), "w") as f:
            f.write("# %s (stock content, read in place)\n" % label)
            f.write("".join(a + "\n" for a in flags))
        doc = P.cli_json(["@atrc.flags"], cwd=ws)
        trees = {t["name"]: t for t in doc["trees"]}
        files = [x["file"] for x in doc["scripts"] if x.get("file")] if doc.get("scripts") else []
        if not files:
            files = sorted({r["file"] for r in doc["references"] if r.get("file")})
        files += [f for f in flags if f.endswith(".gsc") and f not in files]
        refs_of = {}
        for r in doc["references"]:
            refs_of.setdefault(r["file"], []).append(r)
        with_diags = {d["file"] for d in doc["diagnostics"] if d.get("file")}
        extras = [f for f in flags if f.endswith(".gsc")]
        order = sorted(set(files), key=lambda f: (f not in extras, f not in with_diags,
                                                  not non_ascii(f), -len(refs_of.get(f, [])), f))
        order = [f for f in order if os.path.isfile(f)]
        # the first ones, and the two with the most references
        opened = order[:MAX_OPEN - 2]
        opened += sorted((f for f in order if f not in opened), key=lambda f: -len(refs_of.get(f, [])))[:2]

        s = P.Server(cwd=ws)
        P.initialize(s, root=ws)
        for f in opened:
            P.open_doc(s, f, read_text(f))
        r = s.call("textDocument/documentSymbol", {"textDocument": {"uri": P.uri(opened[0])}})
        check(r and isinstance(r.get("result"), list), "%s: symbols of %s: %r" % (label, opened[0], r))

        # every diagnostic, every file
        want = []
        for d in doc["diagnostics"]:
            if not d.get("file"):
                continue
            after = first_non_ascii_line(d["file"])
            if after is not None and d["line"] > after:
                stats["diags_after_non_ascii"] += 1
            if non_ascii_before(d["file"], d["line"], d["column"]):
                stats["diags_same_line"] += 1
            want.append((P.uri(d["file"]), d["line"] - 1, P.character(d["file"], d["line"], d["column"], False),
                         SEVERITY[d["severity"]], d.get("code"), d["message"]))
        got = []
        for u, ds in published(s).items():
            for g in ds:
                got.append((u, g["range"]["start"]["line"], g["range"]["start"]["character"], g.get("severity"),
                            g.get("code"), g["message"]))
        check(sorted(got) == sorted(want), "%s: published diagnostics\n  %s\nthe command line's\n  %s"
              % (label, "\n  ".join(map(repr, sorted(set(got) - set(want))[:10])),
                 "\n  ".join(map(repr, sorted(set(want) - set(got))[:10]))))
        stats["diagnostics"] += len(want)

        # hover and definition of every reference of an opened script
        for f in opened:
            refs = refs_of.get(f, [])
            step = max(1, -(-len(refs) // MAX_REFS))
            after = first_non_ascii_line(f)
            for ref in refs[::step]:
                if after is not None and ref["line"] > after:
                    stats["after_non_ascii"] += 1
                pos = {"textDocument": {"uri": P.uri(f)},
                       "position": {"line": ref["line"] - 1,
                                    "character": P.character(f, ref["line"], ref["column"], False) + 1}}
                hover = s.call("textDocument/hover", pos)
                text = ((hover or {}).get("result") or {}).get("contents", {}).get("value", "")
                where = "%s: %s:%d:%d" % (label, f, ref["line"], ref["column"])
                stats["hovers"] += 1
                if ref["kind"] == "animtree":
                    check("= %d" % ref["value"] in text, "%s: hover on #animtree lacks '= %d': %r"
                          % (where, ref["value"], text))
                    continue
                if ref["kind"] != "anim":
                    continue
                if ref["value"] is not None:
                    check("0x%08x" % ref["value"] in text and str(ref["value"]) in text,
                          "%s: hover on %%%s lacks 0x%08x (%d): %r" % (where, ref["name"], ref["value"], ref["value"], text))
                else:
                    check(not re.search(r"0x[0-9a-f]{8}", text), "%s: hover on %%%s (no value) shows one: %r"
                          % (where, ref["name"], text))
                tree = trees.get(ref.get("tree"))
                if ref["value"] is None or not tree or not tree.get("file"):
                    continue
                line, col = atr_line(tree["file"], ref["name"])
                if line is None and ref["name"].lower() == "root":
                    line, col = 0, 0   # the implicit root: the tree file's start
                loc = one_location(s.call("textDocument/definition", pos))
                ch = P.character(tree["file"], line + 1, col + 1, False) if line is not None else None
                check(loc.get("uri") == P.uri(tree["file"]) and loc["range"]["start"] == {"line": line, "character": ch},
                      "%s: definition of %%%s: %r, want %s line %s character %s"
                      % (where, ref["name"], loc, tree["file"], line, ch))
                stats["definitions"] += 1
            # calls and ::f of functions defined in the same script
            funcs, uses = functions_and_calls(flags, f, ws)
            n = 0
            for line, column, name in uses:
                if name.lower() not in funcs or n >= MAX_CALLS:
                    continue
                n += 1
                pos = {"textDocument": {"uri": P.uri(f)},
                       "position": {"line": line - 1, "character": P.character(f, line, column, False) + 1}}
                loc = one_location(s.call("textDocument/definition", pos))
                check(loc.get("uri") == P.uri(f) and loc["range"]["start"]["line"] == funcs[name.lower()] - 1,
                      "%s: %s:%d:%d: definition of %s(): %r, want line %d"
                      % (label, f, line, column, name, loc, funcs[name.lower()]))
                stats["calls"] += 1
        check(P.shut_down(s) == 0, "%s: exit status 0" % label)
        stats["opened"] += len(opened)
        stats["non_ascii"] += sum(1 for f in opened if non_ascii(f))
        print("ok   lsp corpus %s: %d scripts opened of %d, %d diagnostics, %d references, %.1f s"
              % (label, len(opened), len(set(files)), len(want), sum(min(MAX_REFS, len(refs_of.get(f, []))) for f in opened),
                 time.time() - start), file=sys.stderr)
    finally:
        shutil.rmtree(ws)


def main():
    if not GAMES or not os.path.isdir(GAMES):
        print("skip lsp corpus: no game directory %r" % GAMES, file=sys.stderr)
        return 0
    stats = dict.fromkeys(["diagnostics", "hovers", "definitions", "calls", "opened", "non_ascii", "after_non_ascii", "diags_after_non_ascii", "diags_same_line"], 0)
    runs = 0
    for game, dirs, extra, scripts in CONF:
        dirs = [os.path.join(GAMES, d) for d in dirs]
        if not all(os.path.isdir(os.path.join(d, "maps")) for d in dirs):
            print("skip lsp corpus %s: no %s" % (game, " ".join(dirs)), file=sys.stderr)
            continue
        base = ["--profile", game] + extra
        for d in dirs:
            base += ["-g", d]
        maps = [m for m in level_names(dirs, "mp_") if not m.endswith("_fx")]
        gametypes = [g for g in level_names(dirs, "gametypes/") if not g.startswith("_")]
        cases = [("%s level %s %s" % (game, maps[0], gametypes[0]), base + ["--map", maps[0], "--gametype", gametypes[0]])]
        if game == "cod4":
            cases.append(("cod4 single player killhouse", base + ["--map", "killhouse", "--sp"]))
        listed = [os.path.join(dirs[-1], "animscripts")] + [os.path.join(dirs[-1], x) for x in scripts]
        cases.append(("%s file list animscripts/ %s" % (game, " ".join(scripts)), base + listed))
        for label, flags in cases:
            run_case(label, flags, stats)
            runs += 1
        if game == "cod1":
            # A stock script as an editor saves it in UTF-8 (its Windows-1252
            # comment "don\x92t" becomes U+2019, 3 bytes, 1 UTF-16 unit), that
            # comment made a block comment with an error after it on its line.
            path = os.path.join(dirs[0], "maps/carride_anim.gsc")
            with open(path, "rb") as f:
                text = f.read().decode("cp1252", "replace")
            lines = text.split("\n")
            n = next((i for i, l in enumerate(lines) if "//Gee I don\u2019t know" in l), None)
            if not check(n is not None, "cod1 maps/carride_anim.gsc: its line 297 comment is not there"):
                continue
            lines[n] = lines[n].replace("//Gee I don\u2019t know, how about you try shoot'n the bastards.",
                                        "/*Gee I don\u2019t know*/ level.probe = %atrc_no_such_anim;")
            same = stats["diags_same_line"]
            run_case("cod1 file list, maps/carride_anim.gsc saved in UTF-8 with an error after a non-ASCII comment",
                     base + ["{ws}/carride_anim.gsc"], stats, {"carride_anim.gsc": "\n".join(lines)})
            runs += 1
            check(stats["diags_same_line"] > same, "the edited carride_anim.gsc has no diagnostic after its non-ASCII comment")
    check(runs == 0 or stats["after_non_ascii"] > 0, "no reference checked after a non-ASCII byte")
    print("lsp corpus: %d runs, %d scripts opened (%d with non-ASCII bytes), %d diagnostics, %d hovers, "
          "%d %%name definitions, %d call definitions (%d references and %d diagnostics after a non-ASCII byte, %d on its line): "
          "%d checks, %d failed"
          % (runs, stats["opened"], stats["non_ascii"], stats["diagnostics"], stats["hovers"], stats["definitions"],
             stats["calls"], stats["after_non_ascii"], stats["diags_after_non_ascii"], stats["diags_same_line"], P.checks, P.failures), file=sys.stderr)
    return 1 if P.failures else 0


sys.exit(main())
