#!/usr/bin/env python3
"""An independent model of the engine's animation-tree rules, written straight
from the behaviour specification (tokenizer, per-level parser with pruning,
numbering, binding, checksum, leaf assets and sync setup, for every profile),
used to check atrc value by value.

It shares no code with atrc: it is a second, deliberately simple reading of
the same rules (recursive where atrc is iterative, dictionaries where atrc
hashes), so that a mistake has to be made twice to go unnoticed.

    atr_model.py check ATRC GAME_DIR SCRIPT...   compare atrc's JSON with the model
    atr_model.py random ATRC N [SEED]            N random trees and reference sets
                                                 (--no-xanim, default profile)
    atr_model.py assets ATRC N [SEED]            N random trees under random profiles
                                                 with random xanim files: every .atr
                                                 diagnostic, looping bits
"""
import json, os, random, subprocess, sys, tempfile

PROPS = {b"loopsync": 1, b"nonloopsync": 2, b"complete": 8}
PROPS_COD4 = {b"loopsync": 1, b"nonloopsync": 2, b"complete": 8, b"additive": 16}
PROFILES = ("uo", "cod1", "cod2", "cod4")


def props_for(profile):
    return PROPS_COD4 if profile == "cod4" else PROPS


class AtrError(Exception):
    def __init__(self, msg, pos):
        super().__init__(msg)
        self.msg, self.pos = msg, pos


def is_space(c):
    return c <= 0x20 or c >= 0x80  # signed-char test: every byte >= 0x80 too


class Tokenizer:
    def __init__(self, data, backslash=False):
        nul = data.find(b"\0")
        self.d = data if nul < 0 else data[:nul]
        self.p = 0
        self.eof = False
        self.last = 0
        self.backslash = backslash  # cod2 (and cod4, as atrc reads it): \\ is \ in quotes

    def parse(self, allow_line_breaks):
        """Com_ParseExt: a token (bytes), or None for "empty" (end of line when
        line breaks are not allowed, or end of text — then eof is set)."""
        if self.eof:
            return None
        d, p, crossed = self.d, self.p, False
        while True:
            while p < len(d) and is_space(d[p]):
                if d[p] == 10:
                    crossed = True
                p += 1
            if p >= len(d):
                self.eof, self.p = True, p
                return None
            if crossed and not allow_line_breaks:
                self.p = p
                return None
            if d[p:p + 2] == b"//":
                while p < len(d) and d[p] != 10:
                    p += 1
            elif d[p:p + 2] == b"/*":
                p += 1
                while p < len(d) and d[p:p + 2] != b"*/":
                    p += 1
                if p < len(d):
                    p += 2
            else:
                break
        self.last = p
        tok = bytearray()
        if d[p] == 34:  # quoted
            p += 1
            while p < len(d):
                c = d[p]
                p += 1
                if c == 92 and p < len(d) and (d[p] == 34 or (self.backslash and d[p] == 92)):
                    c = d[p]
                    p += 1
                elif c == 34:
                    break
                if len(tok) < 1023:
                    tok.append(c)
        else:
            while p < len(d) and not is_space(d[p]):
                if len(tok) < 1023:
                    tok.append(d[p])
                p += 1
        self.p = p
        tok = bytes(tok)
        if not allow_line_breaks and tok == b"":
            return None  # Com_ParseOnLine's caller only sees an empty string
        return tok


def is_ident(t):
    return all(c == 95 or 48 <= c <= 57 or 65 <= c <= 90 or 97 <= c <= 122 for c in t)


class Node:
    def __init__(self, name, pos):
        self.name, self.pos = name, pos
        self.children = {}  # insertion order = declaration order
        self.container = False
        self.flags = 0
        self.placeholder = False


def parse_level(tz, cont, refs, add_ph, ph_loops, forced, anim_check, props):
    last = current = None
    flags, missing = 0, False
    result = "eof"
    while True:
        t = tz.parse(True)
        if t is None:
            break
        if is_ident(t):
            if missing:
                del cont.children[last]
            last = t.lower()
            if last in cont.children:
                raise AtrError("duplicate animation", tz.last)
            node = Node(last, tz.last)
            cont.children[last] = node
            current = node
            missing = not forced and last not in refs and not anim_check
            flags = 0
            t = tz.parse(False)
            if t is None:
                continue
            if is_ident(t):
                raise AtrError("FIXME: aliases not yet implemented", tz.last)
            if t != b":":
                raise AtrError("bad token", tz.last)
            while True:
                t = tz.parse(False)
                if t is None:
                    break
                bit = props.get(t.lower())
                if not bit:
                    raise AtrError("unknown anim property", tz.last)
                flags |= bit
            t = tz.parse(True)
            if t != b"{":
                raise AtrError("properties cannot be applied to primitive animations", tz.last)
        if t[:1] == b"{":
            if len(t) > 1:
                raise AtrError("bad token", tz.last)
            if tz.parse(False) is not None:
                raise AtrError("token not allowed after '{'", tz.last)
            if current is None:
                raise AtrError("no animation specified for this block", tz.last)
            current.container = True
            r = parse_level(tz, current, refs, not missing, bool(flags & 1),
                            forced or (bool(flags & 8) and not missing), anim_check, props)
            if r == "eof":
                raise AtrError("unexpected end of file", tz.last)
            if not current.children:
                del cont.children[current.name]
            else:
                current.flags = flags
            current, missing = None, False
            continue
        if t[:1] == b"}":
            if len(t) > 1:
                raise AtrError("bad token", tz.last)
            if tz.parse(False) is not None:
                raise AtrError("token not allowed after '}'", tz.last)
            result = "brace"
            break
        raise AtrError("bad token", tz.last)
    if missing:
        del cont.children[last]
    if add_ph and not cont.children:
        ph = Node(b"void_loop" if ph_loops else b"void", None)
        ph.placeholder = True
        cont.children[ph.name] = ph
    return result


def parse_tree(data, refs, anim_check=False, profile="uo"):
    root = Node(b"root", None)
    root.container = True
    tz = Tokenizer(data, backslash=profile in ("cod2", "cod4"))
    if parse_level(tz, root, refs, True, False, False, anim_check, props_for(profile)) == "brace":
        raise AtrError("bad token", tz.last)
    return root


class Tree:
    """The compact tree: per index a Node (name, position, flags) plus its parent,
    child count and first child; the checksum; bindings; build diagnostics as
    (node index, message)."""


def build(root, refs, profile="uo", tree_name="t"):
    """Numbering (children in reverse declaration order, one block per parent,
    blocks depth-first; cod4: additive containers after the others), binding
    (before recursion; cod4 after), checksum, the cod4 nested-additive check."""
    cod4 = profile == "cod4"
    t = Tree()
    t.obj, t.parent, t.count, t.first = {0: root}, {0: None}, {}, {}
    t.bound, t.diags, t.c, t.next = {}, [], 0, 1
    if b"root" in refs:
        t.bound[b"root"] = 0

    def fold(x):
        t.c = (t.c * 31 + x) & 0xFFFFFFFF

    def bind(name, index):
        if name in refs:
            if name in t.bound:
                t.diags.append((index, "duplicate animation '%s' in 'animtrees/%s.atr'"
                                % (name.decode(), tree_name)))
            else:
                t.bound[name] = index

    def additive(k):
        return cod4 and k.container and bool(k.children) and bool(k.flags & 16)

    def lay_out(node, index, in_additive):
        kids = list(reversed(list(node.children.values())))
        kids = [k for k in kids if not additive(k)] + [k for k in kids if additive(k)]
        first = t.next
        fold(index); fold(first); fold(len(kids)); fold(node.flags)
        t.count[index], t.first[index] = len(kids), first
        t.next = first + len(kids)
        for i, k in enumerate(kids):
            ki = first + i
            t.obj[ki], t.parent[ki] = k, index
            if not cod4:
                bind(k.name, ki)
            if k.container and k.children:
                if additive(k) and in_additive:
                    t.diags.append((ki, "Do not nest additives"))
                lay_out(k, ki, in_additive or additive(k))
            else:
                fold(ki)
                t.count[ki], t.first[ki] = 0, None
            if cod4:
                bind(k.name, ki)
    lay_out(root, 0, False)
    t.size = t.next
    t.checksum = t.c
    return t


def rows(t):
    """(name, parent, child count, first child, flags) per index, as atrc's JSON
    gives them (the root always has first_child and flags)."""
    out = []
    for i in range(t.size):
        n = t.obj[i]
        if t.count[i] or i == 0:
            out.append((n.name, t.parent[i], t.count[i], t.first[i], n.flags))
        else:
            out.append((n.name, t.parent[i], 0, None, None))
    return out


def model_tree(path, refs, anim_check=False, profile="uo"):
    with open(path, "rb") as f:
        data = f.read()
    return build(parse_tree(data, refs, anim_check, profile), refs, profile)


# ---- leaf assets (stock-behavior.md 4.8, 7) and sync setup (6.1) ----

def node_pos(t, i):
    """A node's name position; a placeholder (no position) is placed at its
    parent, and at the start of the file (None) when that is the root."""
    if t.obj[i].pos is None and t.parent[i] is not None:
        return t.obj[t.parent[i]].pos
    return t.obj[i].pos


LISTINGS = {}


def listing(xdir):
    """The xanim directory's file names by lower-cased name (read once)."""
    if xdir not in LISTINGS:
        LISTINGS[xdir] = {}
        for f in sorted(os.listdir(xdir) if os.path.isdir(xdir) else []):
            LISTINGS[xdir].setdefault(f.lower(), f)
    return LISTINGS[xdir]


def load_xanim(xdir, name, profile):
    """('ok', looping) | ('missing',) | ('failed', message): the file xanim/<name>
    (names are case-insensitive), read for its header: version first (2 bytes),
    then the header size (v14: 9 bytes; cod4 v17: 10)."""
    hit = listing(xdir).get(name.decode())
    if hit is None:
        return ("missing",)
    with open(os.path.join(xdir, hit), "rb") as f:
        data = f.read()
    need, want = (10, 17) if profile == "cod4" else (9, 14)
    if len(data) >= 2:
        version = int.from_bytes(data[:2], "little", signed=True)
        if version != want:
            return ("failed", "xanim '%s' out of date (version %d, expecting %d)" % (name.decode(), version, want))
    if len(data) == 0 and profile in ("cod2", "cod4"):
        return ("failed", "xanim '%s' has 0 length" % name.decode())
    if len(data) < need:
        return ("failed", "malformed xanim '%s' (file is %d bytes, header needs %d)" % (name.decode(), len(data), need))
    return ("ok", bool(data[6] & 1))


def stand_in(xdir, name, profile):
    """`void` / `void_loop` as a substitute: the game's file when it loads, else
    the built-in one (non-looping / looping)."""
    r = load_xanim(xdir, name, profile)
    return r[1] if r[0] == "ok" else name == b"void_loop"


def resolve_assets(t, xdir, profile):
    """Per leaf in node-index order: looping (None when unknown), whether it is a
    default (missing-file) copy of void, and the diagnostics (index, severity, text)."""
    lenient = profile in ("cod2", "cod4")
    looping, default, diags = {}, {}, []
    for i in range(t.size):
        if t.count[i]:
            continue
        name = t.obj[i].name
        r = load_xanim(xdir, name, profile)
        default[i] = False
        if r[0] == "ok":
            looping[i] = r[1]
        elif r[0] == "missing" and name in (b"void", b"void_loop"):
            looping[i] = name == b"void_loop"
        elif not lenient:
            looping[i] = None
            diags.append((i, "error", "Cannot find 'xanim/%s'" % name.decode() if r[0] == "missing" else r[1]))
        else:
            # cod2/cod4 precache: a file that fails to load (not found, or its
            # load reported why) gets the warning and a default copy of void.
            if r[0] == "failed":
                diags.append((i, "warning", r[1]))
            diags.append((i, "warning", "Couldn't find xanim '%s', using default xanim 'void' instead" % name.decode()))
            looping[i] = stand_in(xdir, b"void", profile)
            default[i] = True
    return looping, default, diags


def sync_setup(t, looping, default, xdir, profile, tree_name="t"):
    """6.1: find sync roots depth-first in child-index order, fill their groups.
    Returns the diagnostics (index, text); a swapped default leaf changes looping."""
    diags = []

    def kids(i):
        return range(t.first[i], t.first[i] + t.count[i])

    def fill(i, req):
        if t.count[i]:
            if t.obj[i].flags & 3:
                steps, leaf = 0, i
                while t.count[leaf]:
                    leaf = t.first[leaf]
                    steps += 1
                what = t.obj[leaf].name if profile in ("uo", "cod1") else t.obj[i].name
                diags.append((i, "duplicate specification of animation sync in '%s', %d nodes above '%s'"
                              % (tree_name, steps, what.decode())))
                return
            for k in kids(i):
                fill(k, req)
            return
        if looping.get(i) is None or looping[i] == req:
            return
        if default.get(i) and profile in ("cod2", "cod4"):
            looping[i] = stand_in(xdir, b"void_loop", profile)
            return
        diags.append((i, "animation '%s' in '%s' cannot be sync %s"
                      % (t.obj[i].name.decode(), tree_name,
                         "looping and nonlooping" if req else "nonlooping and looping")))

    def search(i):
        if not t.count[i]:
            return
        kind = t.obj[i].flags & 3
        if kind == 3:
            diags.append((i, "animation cannot be sync looping and sync nonlooping"))
        elif kind:
            for k in kids(i):
                fill(k, kind == 1)
        else:
            for k in kids(i):
                search(k)
    search(0)
    return diags


def comparable(diags):
    """A tree's diagnostics as compared with atrc: in line order (atrc sorts a
    tree's diagnostics by position) and with names folded (atrc writes them as
    spelled in the .atr; the model keeps only the folded name)."""
    return sorted((l, c, sev, msg.lower()) for (l, c, sev, msg) in diags)


def tree_diagnostics(t, text, xdir, profile, tree_name):
    """What atrc reports about a built tree, in its order: the build's
    diagnostics, then (unless xdir is None: --no-xanim) the assets' in node
    order, then sync setup's in walk order; and each leaf's looping bit."""
    want = [line_col(text, node_pos(t, k)) + ("error", msg) for k, msg in t.diags]
    looping, default = {}, {}
    if xdir is not None:
        looping, default, adiags = resolve_assets(t, xdir, profile)
        want += [line_col(text, node_pos(t, k)) + (sev, msg) for k, sev, msg in adiags]
    want += [line_col(text, node_pos(t, k)) + ("error", msg)
             for k, msg in sync_setup(t, looping, default, xdir, profile, tree_name)]
    return want, [looping.get(k) for k in range(t.size) if not t.count[k] and k]


def line_col(text, pos):
    if pos is None:
        return 1, 1
    return text.count(b"\n", 0, pos) + 1, pos - (text.rfind(b"\n", 0, pos) + 1) + 1


def compare(doc, game_dirs_unused=None):
    """Checks every built tree and every reference of an atrc JSON document."""
    problems = 0
    profile = doc.get("profile", "uo")
    for t in doc["trees"]:
        if not t["nodes"]:
            continue
        # The reference set: every anim reference atrc counted for this tree.
        refs = {r["name"].encode() for r in doc["references"]
                if r["tree"] == t["name"] and r["kind"] in ("anim", "engine") and r.get("counted", True)}
        anim_check = doc.get("anim_check", False)
        m = model_tree(t["file"], refs, anim_check, profile)
        got = [(n["name"].encode(), n["parent"], n["child_count"], n.get("first_child"),
                n.get("flags")) for n in t["nodes"]]
        want = rows(m)
        if got != want:
            problems += 1
            print("MISMATCH nodes of %s" % t["name"])
            for i, (g, w) in enumerate(zip(got, want)):
                if g != w:
                    print("  node %d: atrc %r model %r" % (i, g, w))
                    break
            if len(got) != len(want):
                print("  atrc %d nodes, model %d" % (len(got), len(want)))
        if "xdir" in doc:
            # the tree's own diagnostics (build, assets unless --no-xanim, sync)
            # and looping bits
            with open(t["file"], "rb") as f:
                text = f.read()
            want, leaves = tree_diagnostics(m, text, doc["xdir"], profile, t["name"])
            got = [(d["line"], d["column"], d["severity"], d["message"]) for d in doc["diagnostics"]
                   if d["file"] == t["file"]]
            if comparable(got) != comparable(want):
                problems += 1
                print("MISMATCH diagnostics of %s (%s): atrc %r model %r" % (t["name"], profile, got, want))
            got_l = [n.get("looping") for n in t["nodes"] if n["child_count"] == 0 and n["index"]]
            if got_l != leaves:
                problems += 1
                print("MISMATCH looping of %s (%s): atrc %r model %r" % (t["name"], profile, got_l, leaves))
        if m.checksum != t["checksum"]:
            problems += 1
            print("MISMATCH checksum of %s: atrc %d model %d" % (t["name"], t["checksum"], m.checksum))
        for r in doc["references"]:
            if r["tree"] != t["name"] or r["kind"] not in ("anim", "engine") or r["value"] is None:
                continue
            name = r["name"].encode()
            want_v = (t["index"] << 16) | m.bound[name] if name in m.bound else None
            if r["value"] != want_v:
                problems += 1
                print("MISMATCH value of %%%s in %s: atrc %r model %r" % (r["name"], t["name"], r["value"], want_v))
    return problems


def run_atrc(atrc, args, xanim=False):
    p = subprocess.run([atrc, "--format", "json", "--max-errors", "0"] + ([] if xanim else ["--no-xanim"]) + args,
                       capture_output=True)
    return json.loads(p.stdout.decode("utf-8"))


def cmd_check(atrc, game, scripts):
    """Every profile, --no-xanim on the game as it is, then with random xanim
    files for every leaf name (a copy of the game's trees beside them)."""
    n = 0
    for profile in PROFILES:
        doc = run_atrc(atrc, ["--profile", profile, "-g", game] + scripts)
        doc["xdir"] = None
        # References inside developer blocks under uo are not counted: atrc reports
        # them with an error; the corpus has none, so every anim reference counts.
        n += compare(doc)
    trees = sum(1 for t in doc["trees"] if t["nodes"])
    refs = sum(1 for r in doc["references"] if r["kind"] == "anim")
    leaves = sorted({nd["name"].encode() for t in doc["trees"] for nd in t["nodes"] if not nd["child_count"]})
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as tmp:
        os.symlink(os.path.abspath(os.path.join(game, "animtrees")), os.path.join(tmp, "animtrees"))
        xdir = os.path.join(tmp, "xanim")
        os.makedirs(xdir)
        for profile in PROFILES:
            random_assets(rng, xdir, profile, leaves)
            doc = run_atrc(atrc, ["--profile", profile, "-g", tmp] + scripts, xanim=True)
            doc["xdir"] = xdir
            n += compare(doc)
    print("model: %d trees, %d references compared under %d profiles, with and without assets, %d mismatches"
          % (trees, refs, len(PROFILES), n))
    return 1 if n else 0


WORDS = [b"a", b"b", b"c", b"d", b"e", b"f", b"g", b"h", b"root", b"void", b"void_loop", b"A", b"B"]


def random_tree(rng, depth=0, additive=0.0):
    lines = []
    for _ in range(rng.randint(0 if depth else 1, 4)):
        name = rng.choice(WORDS)
        if depth < 3 and rng.random() < 0.35:
            props = b""
            if rng.random() < 0.4:
                props = b" : " + b" ".join(rng.sample([b"complete", b"loopsync", b"nonloopsync", b"Complete"],
                                                      rng.randint(0, 2)))
            if rng.random() < additive:
                props = (props or b" :") + rng.choice([b" additive", b" Additive"])
            lines.append(name + props)
            lines.append(b"{")
            lines.extend(b"\t" + l for l in random_tree(rng, depth + 1, additive))
            lines.append(b"}")
        else:
            lines.append(name + (b" // note" if rng.random() < 0.1 else b""))
    return lines


NOISE = [b" ", b"\t", b"\r", b"\n", b"\xef\xbb\xbf", b"\x80", b"//c", b"/*c*/", b"/*\n*/", b"/*/",
         b'"a"', b'""', b'"{"', b'"a b"', b":", b"{", b"}", b"{x", b"}x", b"a:", b"a-b", b"complete",
         b"loopsync", b"a\\\"b", b'"q\\"', b"\x00", b"x//y", b"\x7f",
         b'"a\\\\"', b'"\\\\"', b'"c\\\\" d', b'"\\\\\\"x"', b"additive"]


def mutate(rng, text):
    """Token-level noise: the engine's tokenizer corners and every error path."""
    out = bytearray(text)
    for _ in range(rng.randint(1, 3)):
        at = rng.randint(0, len(out))
        if rng.random() < 0.3 and len(out) > 1:
            del out[at:at + rng.randint(1, 3)]
        else:
            out[at:at] = rng.choice(NOISE)
    return bytes(out)


def write_script(tmp, names):
    script = "#using_animtree(\"t\");\nf()\n{\n" + "".join("\tx = %%%s;\n" % n.decode() for n in names) + "}\n"
    with open(os.path.join(tmp, "s.gsc"), "w") as f:
        f.write(script)


def cmd_random(atrc, count, seed=1):
    rng = random.Random(seed)
    problems = compared = 0
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "animtrees"))
        for i in range(count):
            text = b"\n".join(random_tree(rng)) + b"\n"
            if rng.random() < 0.5:
                text = mutate(rng, text)
            with open(os.path.join(tmp, "animtrees", "t.atr"), "wb") as f:
                f.write(text)
            names = rng.sample(WORDS, rng.randint(0, len(WORDS)))
            write_script(tmp, names)
            anim_check = rng.random() < 0.15
            doc = run_atrc(atrc, ["-g", tmp, os.path.join(tmp, "s.gsc")] + (["--anim-check"] if anim_check else []))
            doc["anim_check"] = anim_check
            if b"\0" not in text:  # (the NUL warning is the assets mode's)
                doc["xdir"] = None
            refs = {n.lower() for n in names}
            try:
                model = model_tree(os.path.join(tmp, "animtrees", "t.atr"), refs, anim_check)
            except AtrError as e:
                line, col = line_col(text, e.pos)
                want = "%d:%d: %s" % (line, col, e.msg)
                errs = ["%d:%d: %s" % (d["line"], d["column"], d["message"]) for d in doc["diagnostics"]
                        if d["severity"] == "error" and d["file"] and d["file"].endswith(".atr")]
                if errs != [want]:
                    problems += 1
                    print("MISMATCH parse error on case %d: atrc %r model %r\n%r" % (i, errs, want, text))
                continue
            compared += 1
            n = compare(doc)
            if n:
                problems += 1
                print("case %d:\n%r\nrefs %r" % (i, text, sorted(refs)))
            # every duplicate the model finds, atrc reports
            want_dups = sum(1 for _, msg in model.diags if msg.startswith("duplicate animation '"))
            got_dups = sum(1 for d in doc["diagnostics"] if d["message"].startswith("duplicate animation '"))
            if want_dups != got_dups:
                problems += 1
                print("MISMATCH duplicates on case %d: atrc %d model %d\n%r" % (i, got_dups, want_dups, text))
    print("model: %d random trees compared (%d were parse errors), %d mismatches" % (count, count - compared, problems))
    return 1 if problems else 0


ASSET_NAMES = [b"a", b"b", b"c", b"d", b"e", b"f", b"g", b"h", b"root", b"void", b"void_loop"]


def xanim_bytes(version, looping, frames, rate):
    """A header-only xanim (7.1): v14 9 bytes, v17 10 bytes (asset type after the flags)."""
    h = version.to_bytes(2, "little", signed=True) + frames.to_bytes(2, "little") + (1).to_bytes(2, "little")
    h += bytes([1 if looping else 0])
    if version == 17:
        h += b"\0"
    return h + rate.to_bytes(2, "little", signed=True)


def random_assets(rng, xdir, profile, names=ASSET_NAMES):
    """Per asset name: a good file (looping bit random, sometimes other flag bits),
    none, the other game's version, a random version, or a truncated header; the
    file name's case varies."""
    LISTINGS.pop(xdir, None)
    for f in os.listdir(xdir):
        os.unlink(os.path.join(xdir, f))
    good = 17 if profile == "cod4" else 14
    missing_rate = rng.choice([0.0, 0.15, 0.5])
    for name in names:
        r = rng.random()
        flags_extra = rng.choice([0, 0, 2])
        if r < missing_rate:
            continue
        if r < missing_rate + 0.08:
            data = xanim_bytes(31 - good, rng.random() < 0.5, 10, 30)
        elif r < missing_rate + 0.11:
            data = rng.choice([b"", b"\x0e", b"\xff\xff\x00", bytes([rng.randrange(256), rng.randrange(256)])])
        elif r < missing_rate + 0.16:
            data = xanim_bytes(good, rng.random() < 0.5, 10, 30)[:rng.randint(0, 9 if good == 17 else 8)]
        else:
            data = bytearray(xanim_bytes(good, rng.random() < 0.5, rng.randint(0, 70000) % 65536, 30))
            data[6] |= flags_extra
            data = bytes(data) + (b"\0" * rng.randint(0, 3))
        fname = name.decode()
        if rng.random() < 0.2:
            fname = fname.upper()
        with open(os.path.join(xdir, fname), "wb") as f:
            f.write(data)


def cmd_assets(atrc, count, seed=1):
    """Random trees under random profiles, with and without assets: the tree,
    the checksum, the values, every .atr diagnostic in order, and per-leaf looping."""
    rng = random.Random(seed)
    problems = compared = 0
    seen = {}  # message kind -> count, to show what the cases covered
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "animtrees"))
        xdir = os.path.join(tmp, "xanim")
        os.makedirs(xdir)
        for i in range(count):
            profile = rng.choice(PROFILES)
            text = b"\n".join(random_tree(rng, additive=0.3 if profile == "cod4" else 0.02)) + b"\n"
            if rng.random() < 0.3:
                text = mutate(rng, text)
            with open(os.path.join(tmp, "animtrees", "t.atr"), "wb") as f:
                f.write(text)
            names = rng.sample(WORDS, rng.randint(0, len(WORDS)))
            write_script(tmp, names)
            anim_check = rng.random() < 0.15
            xanim = rng.random() < 0.85
            random_assets(rng, xdir, profile)
            args = ["--profile", profile, "-g", tmp, os.path.join(tmp, "s.gsc")]
            doc = run_atrc(atrc, args + (["--anim-check"] if anim_check else []), xanim)
            doc["anim_check"] = anim_check
            refs = {n.lower() for n in names}
            got = [(d["line"], d["column"], d["severity"], d["message"]) for d in doc["diagnostics"]
                   if d["file"] and d["file"].endswith(".atr")]
            want = []
            nul = text.find(b"\0")
            if nul >= 0:
                want.append(line_col(text, nul) + ("warning", "NUL byte ends the animation tree "
                                                   "(the engine ignores the rest of the file)"))
            leaves = None
            try:
                t = build(parse_tree(text, refs, anim_check, profile), refs, profile)
            except AtrError as e:
                want.append(line_col(text, e.pos) + ("error", e.msg))
                t = None
            if t is not None:
                compared += 1
                problems += 1 if compare(doc) else 0
                tdiags, leaves = tree_diagnostics(t, text, xdir if xanim else None, profile, "t")
                want += tdiags
            for w in want:
                kind = w[3].split("'")[0].split("(")[0].strip()
                seen[kind] = seen.get(kind, 0) + 1
            bad = comparable(got) != comparable(want)
            if bad:
                print("MISMATCH diagnostics on case %d (%s%s):" % (i, profile, "" if xanim else ", --no-xanim"))
                for g in got:
                    print("  atrc  %r%s" % (g, "" if g in want else "   <-- not in model"))
                for w in want:
                    if w not in got:
                        print("  model %r   <-- not in atrc" % (w,))
            if leaves is not None and doc["trees"] and doc["trees"][0]["nodes"]:
                got_l = [n.get("looping") for n in doc["trees"][0]["nodes"] if n["child_count"] == 0 and n["index"]]
                if got_l != leaves:
                    bad = True
                    print("MISMATCH looping on case %d (%s): atrc %r model %r" % (i, profile, got_l, leaves))
            if bad:
                problems += 1
                print("  tree %r\n  refs %r\n  xanim %r" % (text, sorted(refs), sorted(
                    (f, open(os.path.join(xdir, f), "rb").read()) for f in os.listdir(xdir))))
    if os.environ.get("MODEL_COVERAGE"):
        for kind, n in sorted(seen.items()):
            print("  %6d  %s" % (n, kind))
    print("model: %d random trees with assets and profiles compared (%d were parse errors), %d mismatches"
          % (count, count - compared, problems))
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "check":
        sys.exit(cmd_check(sys.argv[2], sys.argv[3], sys.argv[4:]))
    if len(sys.argv) >= 4 and sys.argv[1] in ("random", "assets"):
        cmd = cmd_random if sys.argv[1] == "random" else cmd_assets
        sys.exit(cmd(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]) if len(sys.argv) > 4 else 1))
    print(__doc__)
    sys.exit(2)
