#!/usr/bin/env python3
"""An independent model of the engine's animation-tree rules, written straight
from the behaviour specification (tokenizer, per-level parser with pruning,
numbering, binding, checksum), used to check atrc value by value.

It shares no code with atrc: it is a second, deliberately simple reading of
the same rules (recursive where atrc is iterative, dictionaries where atrc
hashes), so that a mistake has to be made twice to go unnoticed.

    atr_model.py check ATRC GAME_DIR SCRIPT...   compare atrc's JSON with the model
    atr_model.py random ATRC N                   N random trees and reference sets
"""
import json, os, random, subprocess, sys, tempfile

PROPS = {b"loopsync": 1, b"nonloopsync": 2, b"complete": 8}


class AtrError(Exception):
    def __init__(self, msg, pos):
        super().__init__(msg)
        self.msg, self.pos = msg, pos


def is_space(c):
    return c <= 0x20 or c >= 0x80  # signed-char test: every byte >= 0x80 too


class Tokenizer:
    def __init__(self, data):
        nul = data.find(b"\0")
        self.d = data if nul < 0 else data[:nul]
        self.p = 0
        self.eof = False
        self.last = 0

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
                if c == 92 and p < len(d) and d[p] == 34:
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


def parse_level(tz, cont, refs, add_ph, ph_loops, forced, anim_check):
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
                bit = PROPS.get(t.lower())
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
                            forced or (bool(flags & 8) and not missing), anim_check)
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


def parse_tree(data, refs, anim_check=False):
    root = Node(b"root", None)
    root.container = True
    tz = Tokenizer(data)
    if parse_level(tz, root, refs, True, False, False, anim_check) == "brace":
        raise AtrError("bad token", tz.last)
    return root


def build(root, refs):
    """Numbering (children in reverse declaration order, one block per parent,
    blocks depth-first), binding before recursion, checksum."""
    nodes, bound, dups = [None], {}, []
    state = {"c": 0, "next": 1}
    if b"root" in refs:
        bound[b"root"] = 0

    def fold(x):
        state["c"] = (state["c"] * 31 + x) & 0xFFFFFFFF

    def bind(name, index):
        if name in refs:
            if name in bound:
                dups.append((name, index))
            else:
                bound[name] = index

    def lay_out(node, index, parent):
        kids = list(reversed(list(node.children.values())))
        first = state["next"]
        fold(index); fold(first); fold(len(kids)); fold(node.flags)
        nodes[index] = (node.name, parent, len(kids), first, node.flags)
        state["next"] = first + len(kids)
        for i, k in enumerate(kids):
            ki = first + i
            while len(nodes) <= ki:
                nodes.append(None)
            bind(k.name, ki)
            if k.container and k.children:
                lay_out(k, ki, index)
            else:
                fold(ki)
                nodes[ki] = (k.name, index, 0, None, None)
    lay_out(root, 0, None)
    return nodes, state["c"], bound, dups


def model_tree(path, refs, anim_check=False):
    with open(path, "rb") as f:
        data = f.read()
    return build(parse_tree(data, refs, anim_check), refs)


def compare(doc, game_dirs_unused=None):
    """Checks every built tree and every reference of an atrc JSON document."""
    problems = 0
    refsets = {}
    for r in doc["references"]:
        if r["kind"] in ("anim", "engine") and r["tree"] is not None and r.get("in_set", True):
            refsets.setdefault(r["tree"], set())
    for t in doc["trees"]:
        if not t["nodes"]:
            continue
        # The reference set: every anim reference atrc counted for this tree.
        refs = {r["name"].encode() for r in doc["references"]
                if r["tree"] == t["name"] and r["kind"] in ("anim", "engine") and r.get("counted", True)}
        anim_check = doc.get("anim_check", False)
        nodes, checksum, bound, dups = model_tree(t["file"], refs, anim_check)
        got = [(n["name"].encode(), n["parent"], n["child_count"], n.get("first_child"),
                n.get("flags")) for n in t["nodes"]]
        want = [(n[0], n[1], n[2], n[3] if n[2] else (0 if n[1] is None else None),
                 n[4] if n[2] else (0 if n[1] is None else None)) for n in nodes]
        if got != want:
            problems += 1
            print("MISMATCH nodes of %s" % t["name"])
            for i, (g, w) in enumerate(zip(got, want)):
                if g != w:
                    print("  node %d: atrc %r model %r" % (i, g, w))
                    break
            if len(got) != len(want):
                print("  atrc %d nodes, model %d" % (len(got), len(want)))
        if checksum != t["checksum"]:
            problems += 1
            print("MISMATCH checksum of %s: atrc %d model %d" % (t["name"], t["checksum"], checksum))
        for r in doc["references"]:
            if r["tree"] != t["name"] or r["kind"] not in ("anim", "engine") or r["value"] is None:
                continue
            want_v = (t["index"] << 16) | bound[r["name"].encode()] if r["name"].encode() in bound else None
            if r["value"] != want_v:
                problems += 1
                print("MISMATCH value of %%%s in %s: atrc %r model %r" % (r["name"], t["name"], r["value"], want_v))
    return problems


def run_atrc(atrc, args):
    p = subprocess.run([atrc, "--format", "json", "--no-xanim"] + args, capture_output=True)
    return json.loads(p.stdout.decode("utf-8"))


def cmd_check(atrc, game, scripts):
    doc = run_atrc(atrc, ["-g", game] + scripts)
    # References inside developer blocks under uo are not counted: atrc reports
    # them with an error; the corpus has none, so every anim reference counts.
    n = compare(doc)
    trees = sum(1 for t in doc["trees"] if t["nodes"])
    refs = sum(1 for r in doc["references"] if r["kind"] == "anim")
    print("model: %d trees, %d references compared, %d mismatches" % (trees, refs, n))
    return 1 if n else 0


WORDS = [b"a", b"b", b"c", b"d", b"e", b"f", b"g", b"h", b"root", b"void", b"void_loop", b"A", b"B"]


def random_tree(rng, depth=0):
    lines = []
    for _ in range(rng.randint(0 if depth else 1, 4)):
        name = rng.choice(WORDS)
        if depth < 3 and rng.random() < 0.35:
            props = b""
            if rng.random() < 0.4:
                props = b" : " + b" ".join(rng.sample([b"complete", b"loopsync", b"nonloopsync", b"Complete"], rng.randint(0, 2)))
            lines.append(name + props)
            lines.append(b"{")
            lines.extend(b"\t" + l for l in random_tree(rng, depth + 1))
            lines.append(b"}")
        else:
            lines.append(name + (b" // note" if rng.random() < 0.1 else b""))
    return lines


NOISE = [b" ", b"\t", b"\r", b"\n", b"\xef\xbb\xbf", b"\x80", b"//c", b"/*c*/", b"/*\n*/", b"/*/",
         b'"a"', b'""', b'"{"', b'"a b"', b":", b"{", b"}", b"{x", b"}x", b"a:", b"a-b", b"complete",
         b"loopsync", b"a\\\"b", b'"q\\"', b"\x00", b"x//y", b"\x7f"]


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
            script = "#using_animtree(\"t\");\nf()\n{\n" + "".join("\tx = %%%s;\n" % n.decode() for n in names) + "}\n"
            with open(os.path.join(tmp, "s.gsc"), "w") as f:
                f.write(script)
            anim_check = rng.random() < 0.15
            doc = run_atrc(atrc, ["-g", tmp, os.path.join(tmp, "s.gsc")] + (["--anim-check"] if anim_check else []))
            doc["anim_check"] = anim_check
            refs = {n.lower() for n in names}
            try:
                model = model_tree(os.path.join(tmp, "animtrees", "t.atr"), refs, anim_check)
            except AtrError as e:
                line = text.count(b"\n", 0, e.pos) + 1
                col = e.pos - (text.rfind(b"\n", 0, e.pos) + 1) + 1
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
            want_dups = len(model[3])
            got_dups = sum(1 for d in doc["diagnostics"] if d["message"].startswith("duplicate animation '"))
            if want_dups != got_dups:
                problems += 1
                print("MISMATCH duplicates on case %d: atrc %d model %d\n%r" % (i, got_dups, want_dups, text))
    print("model: %d random trees compared (%d were parse errors), %d mismatches" % (count, count - compared, problems))
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "check":
        sys.exit(cmd_check(sys.argv[2], sys.argv[3], sys.argv[4:]))
    if len(sys.argv) >= 4 and sys.argv[1] == "random":
        sys.exit(cmd_random(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]) if len(sys.argv) > 4 else 1))
    print(__doc__)
    sys.exit(2)
