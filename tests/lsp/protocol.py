#!/usr/bin/env python3
"""Protocol-level tests of `atrc lsp`: what an editor does not exercise.

Framed messages are written to the server's standard input as a client
would (or would not): malformed and oversized framing, bad JSON, invalid
requests, unknown methods, cancellation, the lifecycle (initialize twice,
requests before initialize and after shutdown, exit with and without
shutdown, the end of the input), and positions on non-ASCII lines in
UTF-16 and UTF-8, compared with the byte columns the command line prints.

    ATRC=build/atrc WORKSPACE=tests/lsp/workspace [INSTALL=build/samples/install] python3 tests/lsp/protocol.py
"""
import json
import os
import select
import subprocess
import sys
import urllib.parse

ATRC = os.environ["ATRC"]
WORKSPACE = os.path.realpath(os.environ.get("WORKSPACE", os.path.join(os.path.dirname(__file__), "workspace")))
INSTALL = os.environ.get("INSTALL")
failures = 0
checks = 0
NAME = "lsp protocol"   # the prefix of a failure's line (tests/lsp/corpus.py sets its own)


def check(cond, msg):
    global failures, checks
    checks += 1
    if not cond:
        failures += 1
        print("FAIL %s: %s" % (NAME, msg), file=sys.stderr)
    return cond


def frame(obj):
    body = json.dumps(obj).encode() if not isinstance(obj, bytes) else obj
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def uri(path):
    return "file://" + urllib.parse.quote(os.path.realpath(path))


class Server:
    def __init__(self, cwd=WORKSPACE):
        self.p = subprocess.Popen([ATRC, "lsp"], cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL)
        self.buf = b""
        self.notes = []   # notifications received, in order
        self.next_id = 1

    def send(self, raw):
        self.p.stdin.write(raw)
        self.p.stdin.flush()

    def notify(self, method, params=None):
        m = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            m["params"] = params
        self.send(frame(m))

    def request(self, method, params=None, id=None, send=True):
        if id is None:
            id = self.next_id
            self.next_id += 1
        m = {"jsonrpc": "2.0", "id": id, "method": method}
        if params is not None:
            m["params"] = params
        if send:
            self.send(frame(m))
        return id, frame(m)

    def read_message(self, timeout=20.0):
        while True:
            head, sep, rest = self.buf.partition(b"\r\n\r\n")
            if sep:
                length = None
                for line in head.split(b"\r\n"):
                    k, _, v = line.partition(b":")
                    if k.strip().lower() == b"content-length":
                        length = int(v)
                if length is not None and len(rest) >= length:
                    self.buf = rest[length:]
                    return json.loads(rest[:length])
            r, _, _ = select.select([self.p.stdout], [], [], timeout)
            if not r:
                return None
            chunk = os.read(self.p.stdout.fileno(), 65536)
            if not chunk:
                return None
            self.buf += chunk

    def response(self, id=None, timeout=20.0):
        """The next response (to id, when given); notifications are kept."""
        while True:
            m = self.read_message(timeout)
            if m is None:
                return None
            if "method" in m and "id" not in m:
                self.notes.append(m)
                continue
            if id is None or m.get("id") == id:
                return m

    def call(self, method, params=None):
        id, _ = self.request(method, params)
        return self.response(id)

    def diagnostics_for(self, file_uri, timeout=20.0):
        """The next publishDiagnostics for file_uri (one already received first)."""
        for i, n in enumerate(self.notes):
            if n["method"] == "textDocument/publishDiagnostics" and n["params"]["uri"] == file_uri:
                del self.notes[i]
                return n["params"]
        while True:
            m = self.read_message(timeout)
            if m is None:
                return None
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == file_uri:
                return m["params"]
            if "method" in m:
                self.notes.append(m)

    def wait(self, timeout=20):
        try:
            return self.p.wait(timeout)
        except subprocess.TimeoutExpired:
            self.p.kill()
            return None

    def close(self):
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait()
        self.p.stdin.close()
        self.p.stdout.close()


def initialize(s, utf8=False, flags=None, root=WORKSPACE):
    caps = {"general": {"positionEncodings": ["utf-8", "utf-16"]}} if utf8 else {}
    params = {"processId": None, "rootUri": uri(root), "capabilities": caps}
    if flags is not None:
        params["initializationOptions"] = {"flags": flags}
    r = s.call("initialize", params)
    s.notify("initialized", {})
    return r


def cli_json(args, cwd=WORKSPACE):
    out = subprocess.run([ATRC, "--format", "json"] + args, cwd=cwd, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL).stdout
    return json.loads(out)


def shut_down(s):
    """shutdown, then exit, as a client ends a session; the server's exit status."""
    s.call("shutdown")
    s.notify("exit")
    status = s.wait()
    s.close()
    return status


def utf16_units(text_bytes):
    return len(text_bytes.decode("utf-8", "replace").encode("utf-16-le")) // 2


def character(path, line, column, utf8):
    """The LSP character of a byte column (a byte order mark is no part of the text)."""
    data = open(path, "rb").read().split(b"\n")[line - 1][:column - 1]
    if line == 1 and data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return len(data) if utf8 else utf16_units(data)


def open_doc(s, path, text=None):
    if text is None:
        text = open(path, encoding="utf-8").read()
    s.notify("textDocument/didOpen", {"textDocument": {"uri": uri(path), "languageId": "gsc", "version": 1,
                                                       "text": text}})


def test_framing():
    s = Server()
    r = s.call("textDocument/hover", {})
    check(r and r.get("error", {}).get("code") == -32002, "a request before initialize: ServerNotInitialized, got %r" % r)
    r = initialize(s)
    check(r and r["result"]["capabilities"]["positionEncoding"] == "utf-16", "default position encoding: %r" % r)
    r = s.call("initialize", {"capabilities": {}})
    check(r and r.get("error", {}).get("code") == -32600, "initialize twice: InvalidRequest, got %r" % r)

    def goes_on(what):
        r = s.call("atrc/noSuchRequest", {})
        check(r and r.get("error", {}).get("code") == -32601, "after %s the server answers: %r" % (what, r))

    cases = [
        ("a misspelt header name", b"Content-Lenght: 5\r\n\r\nhello", -32700),
        ("a length that is no number", b"Content-Length: 12x\r\n\r\n{}", -32700),
        ("two different lengths", b"Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}", -32700),
        ("a header line without a colon", b"Content-Length 2\r\n\r\n{}", -32700),
        ("bad JSON", frame(b'{"jsonrpc": "2.0", "id": 1, "method": '), -32700),
        ("not UTF-8", frame(b'{"jsonrpc": "2.0", "method": "\xff"}'), -32700),
        ("a batch (an array)", frame(b'[{"jsonrpc": "2.0", "id": 1, "method": "shutdown"}]'), -32600),
        ("no jsonrpc member", frame({"id": 1, "method": "shutdown"}), -32600),
        ("a method that is no string", frame({"jsonrpc": "2.0", "id": 1, "method": 3}), -32600),
        ("an id that is an object", frame({"jsonrpc": "2.0", "id": {}, "method": "shutdown"}), -32600),
        ("params that are a string", frame({"jsonrpc": "2.0", "id": 1, "method": "shutdown", "params": "x"}), -32600),
    ]
    for what, raw, code in cases:
        s.send(raw)
        r = s.response()
        check(r and r.get("error", {}).get("code") == code and r.get("id", 0) in (None, 1),
              "%s: error %d expected, got %r" % (what, code, r))
        goes_on(what)
    # a header section over the limit, then one over the body limit: each an error, then on
    s.send(b"X-Junk: " + b"a" * 9000 + b"\r\n\r\n")
    r = s.response()
    check(r and r.get("error", {}).get("code") == -32700 and "header" in r["error"]["message"], "an 9 KB header: %r" % r)
    goes_on("an oversized header")
    big = 70 << 20
    s.send(b"Content-Length: %d\r\n\r\n" % big)
    chunk = b" " * (1 << 20)
    for _ in range(big // len(chunk)):
        s.send(chunk)
    r = s.response()
    check(r and r.get("error", {}).get("code") == -32700 and "limit" in r["error"]["message"],
          "a 70 MB body: %r" % r)
    goes_on("an oversized body")
    # a string id comes back as a string; an unknown notification gets no answer
    s.notify("$/somethingNew", {"x": 1})
    id, _ = s.request("no/such/method", {}, id="abc")
    r = s.response()
    check(r and r.get("id") == "abc" and r["error"]["code"] == -32601,
          "unknown method with a string id (after an unknown notification): %r" % r)
    # cancellation: a request and its $/cancelRequest arriving together
    hover = {"textDocument": {"uri": uri(os.path.join(WORKSPACE, "tank.gsc"))}, "position": {"line": 0, "character": 0}}
    _, raw = s.request("textDocument/hover", hover, id=77, send=False)
    s.send(raw + frame({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 77}}))
    r = s.response(77)
    check(r and r.get("error", {}).get("code") == -32800, "a cancelled request: RequestCancelled, got %r" % r)
    # a request on a document the compilation did not reach: an empty answer
    r = s.call("textDocument/hover", {"textDocument": {"uri": "file:///nowhere/x.gsc"}, "position": {"line": 0, "character": 0}})
    check(r and "result" in r and r["result"] is None, "hover on an unknown document: null, got %r" % r)
    r = s.call("textDocument/references", {"textDocument": {"uri": "file:///nowhere/x.gsc"},
                                           "position": {"line": 0, "character": 0}, "context": {"includeDeclaration": True}})
    check(r and r.get("result") == [], "references on an unknown document: [], got %r" % r)
    # shutdown, then only exit
    r = s.call("shutdown")
    check(r and "result" in r and r["result"] is None, "shutdown: null, got %r" % r)
    r = s.call("textDocument/hover", hover)
    check(r and r.get("error", {}).get("code") == -32600, "a request after shutdown: InvalidRequest, got %r" % r)
    s.notify("exit")
    check(s.wait() == 0, "exit after shutdown: status 0")
    s.close()

    s = Server()
    initialize(s)
    s.notify("exit")
    check(s.wait() == 1, "exit without shutdown: status 1")
    s.close()
    s = Server()
    initialize(s)
    s.p.stdin.close()
    check(s.wait() == 1, "the input ends without exit: status 1")
    s.p.stdin = open(os.devnull, "wb")
    s.close()


def test_positions(utf8):
    """Diagnostics, hover, definition and edits on a line with non-ASCII text
    before the error, in the negotiated encoding."""
    flags = ["--no-xanim", "-g", ".", "tank.gsc", "util.gsc"]
    s = Server()
    r = initialize(s, utf8=utf8, flags=flags)
    enc = "utf-8" if utf8 else "utf-16"
    check(r and r["result"]["capabilities"]["positionEncoding"] == enc, "%s offered: %r" % (enc, r))
    tank = os.path.join(WORKSPACE, "tank.gsc")
    open_doc(s, tank)
    got = s.diagnostics_for(uri(tank))
    doc = cli_json(flags)
    mine = [d for d in doc["diagnostics"] if d.get("file") == "tank.gsc"]
    check(got is not None and len(got["diagnostics"]) == len(mine),
          "%s: tank.gsc diagnostics %r, the command line has %r" % (enc, got, mine))
    for d in mine:
        ch = character(tank, d["line"], d["column"], utf8)
        end = character(tank, d["end_line"], d["end_column"], utf8) if d.get("end_line") else None
        ok = any(g["range"]["start"] == {"line": d["line"] - 1, "character": ch} and g["message"] == d["message"]
                 and (end is None or g["range"]["end"] == {"line": d["end_line"] - 1, "character": end})
                 and g.get("code") == d.get("code") for g in (got or {}).get("diagnostics", []))
        check(ok, "%s: %s:%d:%d '%s' at character %d: %r" % (enc, d["file"], d["line"], d["column"], d["message"], ch, got))
    # hover after the non-ASCII comment: the reference the command line places there
    for ref in doc["references"]:
        if ref["file"] == "tank.gsc" and ref["kind"] == "anim" and ref["value"] is not None:
            pos = {"line": ref["line"] - 1, "character": character(tank, ref["line"], ref["column"], utf8) + 1}
            r = s.call("textDocument/hover", {"textDocument": {"uri": uri(tank)}, "position": pos})
            text = ((r or {}).get("result") or {}).get("contents", {}).get("value", "")
            check("0x%08x" % ref["value"] in text, "%s: hover on %%%s: %r" % (enc, ref["name"], r))
            # what the run-time checks know: turret is a loopsync group, so it has time
            if ref["name"] == "turret":
                check("has time" in text and "no time" not in text, "%s: hover on %%turret: time: %r" % (enc, text))
    # an incremental edit after the non-ASCII text: "tank_missing" -> "tank_drive"; the error goes
    lines = open(tank, "rb").read().split(b"\n")
    n = next(i for i, l in enumerate(lines) if b"tank_missing" in l)
    col = lines[n].index(b"tank_missing")
    a = len(lines[n][:col]) if utf8 else utf16_units(lines[n][:col])
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri(tank), "version": 2}, "contentChanges": [
        {"range": {"start": {"line": n, "character": a}, "end": {"line": n, "character": a + len("tank_missing")}},
         "text": "tank_drive"}]})
    got = s.diagnostics_for(uri(tank))
    check(got and got.get("version") == 2 and got["diagnostics"] == [],
          "%s: after the edit tank.gsc's list is emptied: %r" % (enc, got))
    # a full-text change brings it back
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri(tank), "version": 3},
                                        "contentChanges": [{"text": open(tank, encoding="utf-8").read()}]})
    got = s.diagnostics_for(uri(tank))
    check(got and got.get("version") == 3 and len(got["diagnostics"]) == len(mine),
          "%s: a full change restores the diagnostics: %r" % (enc, got))
    # the file no editor opened: its diagnostics are there too
    util_diags = [d for d in doc["diagnostics"] if d.get("file") and d["file"].startswith("animtrees/broken")]
    broken = s.diagnostics_for(uri(os.path.join(WORKSPACE, "animtrees/broken.atr")))
    check(broken and len(broken["diagnostics"]) == len(util_diags) and len(util_diags) > 0,
          "%s: the unopened broken.atr: %r, the command line has %r" % (enc, broken, util_diags))
    # an undefined %name's related place: the #using_animtree in effect (tank.gsc line 2)
    using = next(i for i, l in enumerate(open(tank, "rb").read().split(b"\n")) if l.startswith(b"#using_animtree"))
    rel = [r for g in got["diagnostics"] if g.get("code") == "undefined-animation" for r in g.get("relatedInformation", [])]
    check(rel and rel[0]["location"]["uri"] == uri(tank) and rel[0]["location"]["range"]["start"] == {"line": using, "character": 0},
          "%s: the undefined animation's related #using_animtree: %r" % (enc, got["diagnostics"]))
    # document symbols of the script: its functions
    r = s.call("textDocument/documentSymbol", {"textDocument": {"uri": uri(tank)}})
    names = [x["name"] for x in (r or {}).get("result") or []]
    check(names == ["main", "aim"], "%s: symbols of tank.gsc: %r" % (enc, r))
    # references of %turret_left: the command line's references with its value
    ref = next(x for x in doc["references"] if x.get("name") == "turret_left")
    same = [(x["file"], x["line"], x["column"]) for x in doc["references"] if x.get("value") == ref["value"]]
    pos = {"line": ref["line"] - 1, "character": character(tank, ref["line"], ref["column"], utf8) + 1}
    r = s.call("textDocument/references", {"textDocument": {"uri": uri(tank)}, "position": pos,
                                          "context": {"includeDeclaration": False}})
    got_refs = [(os.path.relpath(urllib.parse.unquote(x["uri"][7:]), WORKSPACE), x["range"]["start"]["line"] + 1)
                for x in (r or {}).get("result") or []]
    check(sorted(got_refs) == sorted((f, l) for f, l, _ in same), "%s: references %r, want %r" % (enc, got_refs, same))
    check(shut_down(s) == 0, "%s: exit status 0" % enc)


def test_archive():
    """Level mode on the sample install packed in archives: a script inside
    pak0.iwd is served read-only and answers as the command line says."""
    flags = ["--profile", "cod2", "--no-xanim", "--install", INSTALL, "--map", "mp_harbour", "--gametype", "tdm"]
    s = Server()
    initialize(s, flags=flags)
    doc = cli_json(flags)
    refs = [r for r in doc["references"] if r["file"] and r["file"].endswith("pak0.iwd:maps/mp/mp_harbour.gsc")]
    check(refs, "the command line lists references in pak0.iwd:maps/mp/mp_harbour.gsc")
    archive = os.path.realpath(os.path.join(INSTALL, "main/pak0.iwd"))
    entry_uri = "atrc-archive://" + urllib.parse.quote(archive) + "!/maps/mp/mp_harbour.gsc"
    # a file of the level to compile: open a loose one? none; ask for the entry (compiles first)
    s.notify("workspace/didChangeWatchedFiles", {"changes": []})
    r = s.call("atrc/archiveEntry", {"uri": entry_uri})
    text = ((r or {}).get("result") or {}).get("text")
    check(text and "crane_swing" in text, "atrc/archiveEntry serves the entry: %r" % r)
    if text:
        s.notify("textDocument/didOpen", {"textDocument": {
            "uri": entry_uri, "languageId": "gsc", "version": 1, "text": text}})
        for ref in refs:
            if ref["kind"] != "anim" or ref["value"] is None:
                continue
            pos = {"line": ref["line"] - 1, "character": ref["column"]}
            r = s.call("textDocument/hover", {"textDocument": {"uri": entry_uri}, "position": pos})
            value = ((r or {}).get("result") or {}).get("contents", {}).get("value", "")
            check("0x%08x" % ref["value"] in value, "hover in the archive entry on %%%s: %r" % (ref["name"], r))
            r = s.call("textDocument/definition", {"textDocument": {"uri": entry_uri}, "position": pos})
            loc = (r or {}).get("result") or {}
            if isinstance(loc, list):
                loc = loc[0] if loc else {}
            check(loc.get("uri", "").startswith("atrc-archive://") and loc["uri"].endswith("!/animtrees/crane.atr"),
                  "definition of %%%s in an archive: %r" % (ref["name"], r))
            if loc.get("uri"):
                r = s.call("atrc/archiveEntry", {"uri": loc["uri"]})
                atr = ((r or {}).get("result") or {}).get("text", "")
                line = atr.split("\n")[loc["range"]["start"]["line"]] if atr else ""
                check(ref["name"] in line.lower(), "the definition's line in crane.atr: %r" % line)
    shut_down(s)


def test_arguments():
    r = subprocess.run([ATRC, "lsp", "--stdio-please"], stdin=subprocess.DEVNULL, capture_output=True)
    check(r.returncode == 2 and b"atrc lsp takes no arguments, not '--stdio-please'" in r.stderr,
          "atrc lsp with an argument: status 2 and why: %r" % (r,))
    r = subprocess.run([ATRC, "lsp", "--help"], stdin=subprocess.DEVNULL, capture_output=True)
    check(r.returncode == 0 and r.stdout.startswith(b"usage: atrc lsp"), "atrc lsp --help: %r" % (r,))


def test_atr_and_config():
    """An .atr opened in the editor answers for its nodes; a bad atrc.flags
    is a diagnostic on its line; #using_animtree leads to its tree."""
    import shutil
    import tempfile
    tmp = tempfile.mkdtemp()
    try:
        ws = os.path.join(tmp, "ws")
        shutil.copytree(WORKSPACE, ws)
        flags = os.path.join(ws, "atrc.flags")
        with open(flags, "w") as f:
            f.write("# project\n--frobnicate\ntank.gsc\n")
        s = Server(cwd=ws)
        initialize(s, root=ws)
        tank = os.path.join(ws, "tank.gsc")
        open_doc(s, tank)
        got = s.diagnostics_for(uri(flags))
        r = subprocess.run([ATRC, "@atrc.flags"], cwd=ws, capture_output=True, text=True)
        first = r.stderr.split("\n")[0]
        check(r.returncode == 2 and first.startswith(os.path.realpath(flags) + ":2: error: ") is False
              and first.startswith("atrc.flags:2: error: "), "the command line on the bad project file: %r" % first)
        check(got and len(got["diagnostics"]) == 1 and got["diagnostics"][0]["range"]["start"]["line"] == 1
              and "unknown option '--frobnicate'" in got["diagnostics"][0]["message"]
              and got["diagnostics"][0].get("code") == "usage",
              "a bad atrc.flags: a diagnostic on its line 2: %r" % got)
        # standard input as a script: refused (it is the protocol's), the server goes on
        with open(flags, "w") as f:
            f.write("# project\n-\n")
        s.notify("textDocument/didSave", {"textDocument": {"uri": uri(tank)}})
        got = s.diagnostics_for(uri(flags))
        check(got and len(got["diagnostics"]) == 1 and "standard input ('-')" in got["diagnostics"][0]["message"],
              "'-' in atrc.flags: a configuration error: %r" % got)
        # fixed on disk and saved: the project compiles; the flags file's list is emptied
        with open(flags, "w") as f:
            f.write("# project\n--no-xanim\ntank.gsc\n")
        s.notify("textDocument/didSave", {"textDocument": {"uri": uri(tank)}})
        got = s.diagnostics_for(uri(flags))
        check(got and got["diagnostics"] == [], "the fixed atrc.flags: an emptied list: %r" % got)
        # the tree: hover and definition on a node of tank.atr, #using_animtree -> the file
        atr = os.path.join(ws, "animtrees/tank.atr")
        open_doc(s, atr)
        doc = cli_json(["--show-pruned", "@atrc.flags"], cwd=ws)
        ref = next(x for x in doc["references"] if x.get("name") == "turret_left")
        lines = open(atr, "rb").read().split(b"\n")
        n = next(i for i, l in enumerate(lines) if l.strip() == b"turret_left")
        pos = {"line": n, "character": lines[n].index(b"turret_left") + 2}
        r = s.call("textDocument/hover", {"textDocument": {"uri": uri(atr)}, "position": pos})
        text = ((r or {}).get("result") or {}).get("contents", {}).get("value", "")
        check("0x%08x" % ref["value"] in text, "hover on the .atr node turret_left: %r" % r)
        tree = next(t for t in doc["trees"] if t["name"] == "tank")
        parent = next(nd for nd in tree["nodes"] if nd["index"] == next(
            x for x in tree["nodes"] if x["name"] == "turret_left")["parent"])
        check(parent["flags"] & 1 and "in a loopsync group" in text,
              "hover on turret_left names its parent's loopsync group (flags %r): %r" % (parent["flags"], text))
        r = s.call("textDocument/references", {"textDocument": {"uri": uri(atr)}, "position": pos,
                                              "context": {"includeDeclaration": False}})
        got_refs = [x["range"]["start"]["line"] + 1 for x in (r or {}).get("result") or []]
        check(got_refs == [ref["line"]], "references of the .atr node: %r, want line %d" % (r, ref["line"]))
        # the outline: the tree's nodes the command line lists, nested, in file order
        r = s.call("textDocument/documentSymbol", {"textDocument": {"uri": uri(atr)}})
        got_outline = []

        def walk(items, parent):
            for x in items:
                got_outline.append((x["name"], parent, x["selectionRange"]["start"]["line"]))
                walk(x.get("children", []), x["name"])
        walk((r or {}).get("result") or [], None)
        # every declared node (pruned ones too: --show-pruned), at its line
        by_index = {nd["index"]: nd for nd in tree["nodes"] if nd["index"] is not None}
        text_lines = [l.strip().split(b" ")[0].decode() for l in lines]
        want = sorted(((nd["name"], None if nd["parent"] == 0 else by_index[nd["parent"]]["name"], text_lines.index(nd["name"]))
                       for nd in tree["nodes"] if nd["index"] != 0), key=lambda x: x[2])
        check(got_outline == want and len(want) >= 2, "the .atr's outline %r, the command line's nodes %r" % (got_outline, want))
        tl = open(tank, "rb").read().split(b"\n")
        u = next(i for i, l in enumerate(tl) if l.startswith(b"#using_animtree"))
        r = s.call("textDocument/definition", {"textDocument": {"uri": uri(tank)},
                                              "position": {"line": u, "character": tl[u].index(b"tank") + 1}})
        loc = (r or {}).get("result") or {}
        check(loc.get("uri") == uri(atr), "#using_animtree(\"tank\") leads to tank.atr: %r" % r)
        shut_down(s)
    finally:
        shutil.rmtree(tmp)


def test_bom():
    """A tree file saved with a UTF-8 byte order mark (as the stock
    flakpanzer.atr of every game): editors keep the mark out of the text, so
    a node on its first line starts at character 0, whether the server read
    the file from disk or the editor sent it."""
    import shutil
    import tempfile
    tmp = os.path.realpath(tempfile.mkdtemp())
    try:
        os.mkdir(os.path.join(tmp, "animtrees"))
        atr = os.path.join(tmp, "animtrees/b.atr")
        with open(atr, "wb") as f:
            f.write(b"\xef\xbb\xbffirst_node\nsecond_node\n")
        gsc = os.path.join(tmp, "b.gsc")
        with open(gsc, "w") as f:
            f.write('#using_animtree("b");\nf() { x = %first_node; y = %second_node; }\n')
        s = Server(cwd=tmp)
        initialize(s, flags=["--no-xanim", "-g", ".", "b.gsc"], root=tmp)
        open_doc(s, gsc)
        pos = {"textDocument": {"uri": uri(gsc)}, "position": {"line": 1, "character": 12}}
        for how in ("read from disk", "open in the editor"):
            if how == "open in the editor":
                open_doc(s, atr, "first_node\nsecond_node\n")
            r = s.call("textDocument/definition", pos)
            loc = (r or {}).get("result") or {}
            check(loc.get("uri") == uri(atr) and loc["range"] == {"start": {"line": 0, "character": 0},
                                                                  "end": {"line": 0, "character": 10}},
                  "the first node of a tree with a byte order mark, %s: %r" % (how, r))
        shut_down(s)
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    test_arguments()
    test_atr_and_config()
    test_bom()
    test_framing()
    test_positions(utf8=False)
    test_positions(utf8=True)
    if INSTALL:
        test_archive()
    print("lsp protocol: %d checks, %d failed" % (checks, failures), file=sys.stderr)
    sys.exit(1 if failures else 0)
