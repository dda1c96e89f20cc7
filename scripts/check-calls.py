#!/usr/bin/env python3
"""The call rule of src/ (README, "Design"), read off the compiled objects:
the include rule (scripts/check-layers.sh) says which way a file's
declarations may point; this says which way its calls do, so a call made
through a declaration written by hand, or a cycle of calls, cannot hide.

- A file calls functions of its own folder and of lower levels only (the
  levels of check-layers.sh; cli/ calls the library through atrc.h, and the
  library never calls cli/).
- Within a folder, files that call each other (a cycle of calls between
  files) are one module: they share its private header (check_internal.h,
  diff_internal.h, gamefs_internal.h, lookup_internal.h, lsp_server.h), or
  are of the group named below with the reason (the generated parser and
  its hooks).

Each object's defined and undefined symbols come from `nm -P`; an object
build/obj/DIR/NAME.o is src/DIR/NAME.c; the generated lexer and parser
belong to script/, the builtin tables to game/.
  python3 scripts/check-calls.py OBJDIR   (exit 1 on a breach)
"""
import os
import subprocess
import sys

LEVELS = {"os": 0, "base": 1, "game": 2, "script": 3, "tree": 3, "files": 3, "check": 4,
          "compile": 5, "output": 6, "editor": 7, "api": 8, "cli": 9}

# Modules whose files share a private header: a cycle of calls among them is the module's own.
PRIVATE = {
    "check/check_internal.h": lambda f: f.startswith("src/check/"),
    "output/diff_internal.h": lambda f: f.startswith("src/output/diff"),
    "files/gamefs_internal.h": lambda f: f.startswith("src/files/gamefs"),
    "editor/lookup_internal.h": lambda f: f.startswith("src/editor/lookup"),
    "cli/lsp_server.h": lambda f: f.startswith("src/cli/lsp"),
}

# Files that may call each other without a private header, and why: a
# cycle of calls within one of these groups is allowed.
GROUPS = [
    (frozenset(["src/script/gsc_parser.c", "src/script/parse_items.c", "src/script/syntax_recovery.c",
                "src/script/syntax_messages.c", "src/script/script_parse.c"]),
     "the generated parser and the hooks its actions and %syntax_error call (items, recovery, messages), "
     "which drive it: Lemon's grammar/hook pair"),
]


def folder(path):
    parts = path.split("/")
    return "api" if len(parts) == 2 else parts[1]


def symbols(obj):
    out = subprocess.run(["nm", "-P", obj], capture_output=True, text=True, check=True).stdout
    defined, used = set(), set()
    for line in out.splitlines():
        w = line.split()
        if len(w) < 2:
            continue
        if w[1] == "U":
            used.add(w[0])
        elif w[1] in "TDBRCGSV":
            defined.add(w[0])
    return defined, used


# The generated files (build/NAME.c) and the folder each belongs to.
GENERATED = {"gsc_lexer": "script", "gsc_parser": "script", "builtin_tables": "game"}


def source_of(objdir, obj):
    """The source an object was compiled from, as src/DIR/NAME.c, or None
    for one left from a file that is gone."""
    rel = os.path.relpath(obj, objdir)[:-2]
    if rel in GENERATED:
        return "src/%s/%s.c" % (GENERATED[rel], rel)
    src = "src/" + rel + ".c"
    return src if os.path.exists(src) else None


def components(graph):
    """Strongly connected components of more than one node (iterative Tarjan)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            pushed = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                    pushed = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if pushed:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                c = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    c.append(w)
                    if w == v:
                        break
                if len(c) > 1:
                    out.append(sorted(c))
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check-calls.py OBJDIR")
    objdir = sys.argv[1]
    objs = sorted(os.path.join(d, f) for d, _, fs in os.walk(objdir) for f in fs
                  if f.endswith(".o") and os.sep + "tests" not in d[len(objdir):] + os.sep)
    defined_in, uses = {}, {}
    for o in objs:
        src = source_of(objdir, o)
        if not src:
            continue
        defined, used = symbols(o)
        for s in defined:
            defined_in[s] = src
        uses[src] = used
    graph = {f: set() for f in uses}
    calls = {}
    for f, used in uses.items():
        for s in used:
            g = defined_in.get(s)
            if g and g != f:
                graph[f].add(g)
                calls.setdefault((f, g), s)
    bad = []
    for (f, g), s in sorted(calls.items()):
        a, b = folder(f), folder(g)
        if b == "cli" and a != "cli":
            bad.append("%s: calls %s (%s): the library never calls cli/" % (f, s, g))
        elif a == "cli" and b not in ("cli", "base", "os", "api") and not s.startswith("atrc_"):
            bad.append("%s: calls %s (%s): cli/ calls the library through atrc.h" % (f, s, g))
        elif a != "cli" and (LEVELS[b] > LEVELS[a] or (LEVELS[b] == LEVELS[a] and a != b)):
            bad.append("%s: calls %s (%s): %s/ is %s %s/" % (
                f, s, g, b, "above" if LEVELS[b] > LEVELS[a] else "a sibling of", a))
    for c in components(graph):
        folders = sorted({folder(f) for f in c})
        if len(folders) > 1:
            bad.append("a cycle of calls across folders %s: %s" % (", ".join(folders), " ".join(c)))
        elif any(set(c) <= group for group, _ in GROUPS):
            continue
        elif not any(all(mine(f) for f in c) for mine in PRIVATE.values()):
            bad.append("files that call each other share no private header: %s" % " ".join(c))
    for b in bad:
        print(b)
    if bad:
        print("check-calls: %d breach%s of the call rule (README, \"Design\")" % (len(bad), "" if len(bad) == 1 else "es"))
        sys.exit(1)
    print("calls: every call points down; files that call each other share their module's private header")


if __name__ == "__main__":
    main()
