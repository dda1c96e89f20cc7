#!/usr/bin/env python3
"""Protocol-level tests of `atrc lsp`: what an editor does not exercise.

Framed messages are written to the server's standard input as a client
would (or would not): malformed and oversized framing, bad JSON, invalid
requests, unknown methods, cancellation, the lifecycle (initialize twice,
requests before initialize and after shutdown, exit with and without
shutdown, the end of the input), and positions on non-ASCII lines in
UTF-16 and UTF-8, compared with the byte columns the command line prints.

    ATRC=build/atrc WORKSPACE=tests/lsp/workspace [INSTALL=build/samples/install] [LSP_DRIVE=z%3A] python3 tests/lsp/protocol.py
"""
import contextlib
import json
import os
import re
import select
import subprocess
import sys
import urllib.parse

ATRC = os.environ["ATRC"]
WORKSPACE = os.path.realpath(os.environ.get("WORKSPACE", os.path.join(os.path.dirname(__file__), "workspace")))
INSTALL = os.environ.get("INSTALL")
REPO = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))
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


# Under Wine (win/check.sh) the client is on Windows: its URIs name the drive
# Wine maps / to, spelt as VS Code does (LSP_DRIVE=z%3A: file:///z%3A/tmp/x)
# or as Neovim and Emacs do (LSP_DRIVE=Z:); the server's URIs must match.
DRIVE = os.environ.get("LSP_DRIVE", "")


def uri(path):
    return "file://" + ("/" + DRIVE if DRIVE else "") + urllib.parse.quote(os.path.realpath(path))


def path_of(file_uri):
    """The path of a file: URI of the server's (its drive, if any, dropped)."""
    return urllib.parse.unquote(file_uri[len("file://" + ("/" + DRIVE if DRIVE else "")):])


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


def initialize(s, utf8=False, flags=None, root=WORKSPACE, caps=None, options=None):
    caps = dict(caps or {})
    if utf8:
        caps["general"] = {"positionEncodings": ["utf-8", "utf-16"]}
    params = {"processId": None, "rootUri": uri(root), "capabilities": caps}
    if flags is not None or options:
        params["initializationOptions"] = dict(options or {})
        if flags is not None:
            params["initializationOptions"]["flags"] = flags
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
    got_refs = [(os.path.relpath(path_of(x["uri"]), WORKSPACE), x["range"]["start"]["line"] + 1)
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
    # every script of the level is in an archive: a document outside any
    # project (a project lives while one of its documents is open) gets the
    # level compiled; then the entry is asked for
    open_doc(s, os.path.join(WORKSPACE, "tank.gsc"))
    s.call("textDocument/hover", {"textDocument": {"uri": uri(os.path.join(WORKSPACE, "tank.gsc"))},
                                  "position": {"line": 0, "character": 0}})
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


def archive_uri(archive, entry):
    """The atrc-archive: URI of an entry, the archive spelt as the client spells its files."""
    return "atrc-archive://" + ("/" + DRIVE if DRIVE else "") + urllib.parse.quote(os.path.realpath(archive)) + "!/" + entry


def test_archive_uris():
    """A tree inside an .iwd in the project's game directory: definition
    names it by one URI, the archive spelt as the client spells its own
    files (on Windows its drive so, forward slashes: never %5C); that URI
    serves the entry, opened it answers hover and references (back to the
    script under the client's own URI), and the hover shows the archive's
    path in the project with forward slashes."""
    import zipfile
    with temp_dir() as tmp:
        tmp = os.path.realpath(tmp)
        gsc = write_lines(os.path.join(tmp, "t.gsc"), ['#using_animtree("t");', "main()", "{", "\tself setanim(%b);", "}", ""])
        with zipfile.ZipFile(os.path.join(tmp, "pak0.iwd"), "w") as z:
            z.writestr("animtrees/t.atr", "a\nb\n")
        want = archive_uri(os.path.join(tmp, "pak0.iwd"), "animtrees/t.atr")
        # the game directory relative to the project, and (on Windows) as
        # its users write it there: C:\x\y
        for game in (".", ("Z:" + tmp.replace("/", "\\")) if DRIVE else tmp):
            write_lines(os.path.join(tmp, "atrc.flags"), ["--profile", "cod2", "--no-xanim", "-g", game, "t.gsc", ""])
            archive_case(tmp, gsc, want, game)


def archive_case(tmp, gsc, want, game):
    """test_archive_uris with the game directory game."""
    s = Server(cwd=tmp)
    initialize(s, root=tmp)
    open_doc(s, gsc)
    s.diagnostics_for(uri(gsc))
    r = s.call("textDocument/definition", {"textDocument": {"uri": uri(gsc)}, "position": {"line": 3, "character": 15}})
    loc = (r or {}).get("result") or {}
    check(loc.get("uri") == want, "-g %s: the tree in the archive: %r, want %r" % (game, loc.get("uri"), want))
    r = s.call("atrc/archiveEntry", {"uri": want})
    text = ((r or {}).get("result") or {}).get("text")
    check(text == "a\nb\n", "-g %s: atrc/archiveEntry of %r: %r" % (game, want, r))
    h = hover_text(s, gsc, 0, 3)
    check("pak0.iwd:animtrees/t.atr" in h and "\\" not in h, "-g %s: the hover names the archive's tree: %r" % (game, h))
    s.notify("textDocument/didOpen", {"textDocument": {"uri": want, "languageId": "atr", "version": 1,
                                                       "text": text or ""}})
    r = s.call("textDocument/hover", {"textDocument": {"uri": want}, "position": {"line": 1, "character": 0}})
    h = ((r or {}).get("result") or {}).get("contents", {}).get("value", "")
    check("node" in h and "root/b" in h, "-g %s: hover in the opened archive entry: %r" % (game, r))
    r = s.call("textDocument/references", {"textDocument": {"uri": want}, "position": {"line": 1, "character": 0},
                                           "context": {"includeDeclaration": True}})
    uris = sorted(l["uri"] for l in (r or {}).get("result") or [])
    check(uris == sorted([want, uri(gsc)]), "-g %s: references of b from the archive entry: %r" % (game, uris))
    shut_down(s)


def test_arguments():
    r = subprocess.run([ATRC, "lsp", "--stdio-please"], stdin=subprocess.DEVNULL, capture_output=True)
    check(r.returncode == 2 and b"atrc lsp takes no arguments, not '--stdio-please'" in r.stderr,
          "atrc lsp with an argument: status 2 and why: %r" % (r,))
    r = subprocess.run([ATRC, "lsp", "--help"], stdin=subprocess.DEVNULL, capture_output=True)
    check(r.returncode == 0 and r.stdout.startswith(b"usage: atrc lsp"), "atrc lsp --help: %r" % (r,))


def test_no_params():
    """Messages whose params are null or missing, where the protocol allows
    none (eglot sends shutdown with "params": null), and exit, which always
    ends the process: whatever params it carries, it is never answered with
    an error that leaves the server running."""
    def raw(method, params, id=None):
        m = {"jsonrpc": "2.0", "method": method, "params": params}
        if id is not None:
            m["id"] = id
        return frame(m)
    s = Server()
    initialize(s)
    s.send(raw("initialized", None))
    s.send(raw("$/setTrace", None))
    s.send(frame({"jsonrpc": "2.0", "method": "workspace/didChangeWatchedFiles"}))
    s.send(raw("textDocument/hover", None, id=5))
    r = s.response(5)
    check(r and r.get("error", {}).get("code") == -32602,
          "hover with null params: InvalidParams (hover needs them), got %r" % r)
    s.send(raw("shutdown", None, id=6))
    r = s.response(6)
    check(r and "result" in r and r["result"] is None and "error" not in r,
          "shutdown with null params: null, got %r" % r)
    s.send(raw("exit", None))
    check(s.wait() == 0, "exit with null params after shutdown: status 0")
    s.close()
    for what, params, status in (("null params without shutdown", None, 1), ("params that are a string", "x", 1),
                                 ("params that are a number", 3, 1)):
        s = Server()
        initialize(s)
        s.send(raw("exit", params))
        check(s.wait() == status, "exit with %s: status %d" % (what, status))
        s.close()
    s = Server()
    initialize(s)
    s.send(frame({"jsonrpc": "2.0", "id": 9, "method": "shutdown"}))
    r = s.response(9)
    check(r and r.get("result", 1) is None, "shutdown without params: null, got %r" % r)
    s.send(raw("exit", "junk"))
    check(s.wait() == 0, "exit with junk params after shutdown: status 0")
    s.close()


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


@contextlib.contextmanager
def temp_dir():
    """A directory of the test's own, removed after it."""
    import shutil
    import tempfile
    tmp = tempfile.mkdtemp()
    try:
        yield tmp
    finally:
        shutil.rmtree(tmp)


def write_lines(path, lines):
    """Writes the lines joined by newlines to path; returns path."""
    with open(path, "w") as f:
        f.write("\n".join(lines))
    return path


def test_notetracks():
    """Hover on a %name leaf gives its length and notetracks (its xanim read
    whole); completion inside the note of waittillmatch(notify, " offers the
    notetracks of the leaves flagged with that notify above, and inside
    animhasnotetrack(%x, " / getnotetracktimes(%x, " those of %x; the E11
    warning is published like the command line's."""
    import shutil
    with temp_dir() as tmp:
        ws = os.path.join(tmp, "ws")
        shutil.copytree(os.path.join(REPO, "tests/golden/notetracks/game"), os.path.join(ws, "game"))
        lines = ['#using_animtree("notes");',
                 'f()',
                 '{',
                 '\tself setflaggedanimknob("shoot", %fire_a, 1, 0.2, 1);',
                 '\tself waittillmatch("shoot", "fier");',
                 '\tif (animhasnotetrack(%reload_a, "clip_in"))',
                 '\t\ttimes = getnotetracktimes(%pose_a, "bodyfall large");',
                 '}',
                 '']
        script = write_lines(os.path.join(ws, "notes.gsc"), lines)
        write_lines(os.path.join(ws, "atrc.flags"), ["--profile", "cod4", "-g", "game", "notes.gsc", ""])
        s = Server(cwd=ws)
        initialize(s, root=ws)
        open_doc(s, script)
        got = s.diagnostics_for(uri(script))
        diags = (got or {}).get("diagnostics", [])
        check(len(diags) == 1 and diags[0].get("code") == "waittillmatch-never-ends"
              and diags[0]["range"]["start"] == {"line": 4, "character": lines[4].index("\"fier\"")},
              "the E11 warning at the note of line 5: %r" % diags)
        # hover on %fire_a: 40 frames at 30 fps, non-looping: 39/30 s
        pos = {"line": 3, "character": lines[3].index("%fire_a") + 2}
        r = s.call("textDocument/hover", {"textDocument": {"uri": uri(script)}, "position": pos})
        text = ((r or {}).get("result") or {}).get("contents", {}).get("value", "")
        check("1.300 s" in text and "notetracks: `fire` (frame 10), `shell_eject` (frame 12), `fire` (frame 30), `end` (frame 39)" in text,
              "hover on %%fire_a: its length and notetracks: %r" % text)

        def labels(line, col):
            r = s.call("textDocument/completion", {"textDocument": {"uri": uri(script)},
                                                   "position": {"line": line, "character": col}})
            res = (r or {}).get("result") or []
            items = res.get("items", []) if isinstance(res, dict) else res
            return [x["label"] for x in items]
        got = labels(4, lines[4].index('"fier"') + 1)
        check(got == ["fire", "shell_eject", "end"], "completion in waittillmatch(\"shoot\", \": %r" % got)
        got = labels(5, lines[5].index('"clip_in"') + 3)
        check(got == ["clip_out", "clip_in", "reload_done", "end"], "completion in animhasnotetrack(%%reload_a, \": %r" % got)
        got = labels(6, lines[6].index('"bodyfall') + 10)
        check(got == ['anim_pose = "crouch"', "bodyfall large", "end"], "completion in getnotetracktimes(%%pose_a, \": %r" % got)
        shut_down(s)


def test_cod4x_preprocessor():
    """Under --extension cod4x the server compiles the branches CoD4x's
    preprocessor keeps, as the command line does: an inactive branch reports
    nothing, everything else keeps its position, and an unclosed #if is a
    diagnostic at the directive; without the extension the directives are
    the stock game's errors."""
    with temp_dir() as tmp:
        lines = ['#if isSyscallDefined exec',
                 'f() { exec("x"); }',
                 '#else',
                 'f() { notCompiled(); }',
                 '#endif',
                 'g() { takenBranchOnly(); }',
                 '#if isSyscallDefined noSuchSyscall',
                 'h() {}',
                 '']
        script = write_lines(os.path.join(tmp, "pp.gsc"), lines)
        for ext, want in ((["--extension", "cod4x"], [((5, 6), "unknown-function"), ((6, 0), "preprocessor-directive")]),
                          ([], None)):
            write_lines(os.path.join(tmp, "atrc.flags"), ["--profile", "cod4", "--no-xanim"] + ext + ["pp.gsc", ""])
            s = Server(cwd=tmp)
            initialize(s, root=tmp)
            open_doc(s, script)
            got = s.diagnostics_for(uri(script))
            diags = (got or {}).get("diagnostics", [])
            places = [((d["range"]["start"]["line"], d["range"]["start"]["character"]), d.get("code")) for d in diags]
            if want is not None:
                check(places == want, "CoD4x's preprocessor in the server: %r" % places)
            else:
                check(((0, 0), "unknown-directive") in places and ((3, 6), "unknown-function") in places,
                      "without --extension cod4x: the stock game's errors: %r" % places)
            shut_down(s)


def test_several_projects():
    """One server, two projects and a loose file (as Neovim runs one server
    for all): a/ (--profile cod2) and b/ (--profile cod4), each with its own
    atrc.flags and tree, where the same %walk packs differently and %extra
    exists only in a's; loose/ below no atrc.flags (the default profile, the
    workspace root's tree).  Each document is answered from its own
    project; each project is said once; workspace symbols ask every
    project; closing all of a project's documents drops it; an atrc.flags
    created mid-session moves the loose file into a project of its own."""
    with temp_dir() as tmp:
        tmp = os.path.realpath(tmp)
        trees = {"a": ["walk", "run", "extra"], "b": ["moves", "{", "\tstep", "\t{", "\t\twalk", "\t}", "}"],
                 ".": ["stand", "{", "\tcrouch", "\t{", "\t\tlow", "\t\t{", "\t\t\twalk", "\t\t}", "\t}", "}"]}
        # abs() is a builtin of CoD4's, not of CoD2's (nor of the default profile's)
        script = ["#using_animtree(\"human\");", "main()", "{", "\tself setanim(%walk, 1);", "\tx = abs(-1);",
                  "\tself setanim(%extra, 1);", "}", ""]
        for d, names in trees.items():
            os.makedirs(os.path.join(tmp, d, "animtrees"), exist_ok=True)
            write_lines(os.path.join(tmp, d, "animtrees", "human.atr"), names + [""])
        for d, profile in (("a", "cod2"), ("b", "cod4")):
            os.makedirs(os.path.join(tmp, d, "maps"))
            write_lines(os.path.join(tmp, d, "atrc.flags"), ["--profile", profile, "--no-xanim", ""])
            write_lines(os.path.join(tmp, d, "maps", "x.gsc"), script)
        os.makedirs(os.path.join(tmp, "loose"))
        loose = write_lines(os.path.join(tmp, "loose", "loose.gsc"), script[:5] + ["}", ""])
        xa, xb = os.path.join(tmp, "a", "maps", "x.gsc"), os.path.join(tmp, "b", "maps", "x.gsc")
        s = Server(cwd=tmp)
        initialize(s, root=tmp)
        for path in (xa, xb, loose):
            open_doc(s, path)
        diags = {path: s.diagnostics_for(uri(path)) for path in (xa, xb, loose)}
        codes = {path: [d.get("code") for d in (diags[path] or {}).get("diagnostics", [])] for path in diags}
        check(codes[xa] == ["maybe-sp-builtin"] and "known cod2 builtin" in diags[xa]["diagnostics"][0]["message"],
              "a's script (cod2): abs is unknown, %%extra in a's tree: %r" % diags[xa])
        check(codes[xb] == ["undefined-animation"], "b's script (cod4): abs known, %%extra not in b's tree: %r" % diags[xb])
        check(codes[loose] == ["maybe-sp-builtin"] and "known uo builtin" in diags[loose]["diagnostics"][0]["message"],
              "the loose file: the default profile (uo), the root's tree: %r" % diags[loose])

        def hover(path, line, character):
            r = s.call("textDocument/hover", {"textDocument": {"uri": uri(path)}, "position": {"line": line, "character": character}})
            return (((r or {}).get("result") or {}).get("contents") or {}).get("value", "")
        # %walk: node 2 of a's tree (root, extra, walk), 3 of b's (root, moves, step, walk), 4 of the root's
        for path, node in ((xa, 2), (xb, 3), (loose, 4)):
            text = hover(path, 3, 16)
            check("= `0x0001000%d`" % node in text, "hover on %%walk in %s: node %d: %r" % (path, node, text))
        text = hover(xb, 4, 6)
        check("builtin (stock cod4" in text, "hover on abs in b: CoD4's builtin: %r" % text)
        for path, d in ((xa, "a"), (xb, "b")):
            r = s.call("textDocument/definition", {"textDocument": {"uri": uri(path)}, "position": {"line": 3, "character": 16}})
            got = (r or {}).get("result") or {}
            check(got.get("uri") == uri(os.path.join(tmp, d, "animtrees", "human.atr")),
                  "definition of %%walk in %s: its own project's tree: %r" % (path, got))
        def said(method):
            """The texts of the method's notifications, paths as this system writes them (under
            Wine the server's are Z:\\tmp\\...: the drive dropped, separators made '/')."""
            texts = [n["params"]["message"].replace("\\", "/") for n in s.notes if n["method"] == method]
            return [re.sub(r"\b[A-Za-z]:/", "/", t) if DRIVE else t for t in texts]
        shown = said("window/showMessage")
        check(len(shown) == 3 and "configured by " + os.path.join(tmp, "a", "atrc.flags") in shown[0]
              and "configured by " + os.path.join(tmp, "b", "atrc.flags") in shown[1]
              and "loose.gsc has no atrc.flags above it" in shown[2] and "default profile" in shown[2],
              "one window/showMessage per project, naming its configuration: %r" % shown)
        r = s.call("workspace/symbol", {"query": "main"})
        got = sorted(y["location"]["uri"] for y in (r or {}).get("result") or [])
        check(got == sorted(uri(p) for p in (xa, xb, loose)), "workspace symbols from every project: %r" % got)
        # a second document of a project, and typing: no more messages
        s.notes = []
        xa2 = write_lines(os.path.join(tmp, "a", "maps", "y.gsc"), script)
        open_doc(s, xa2)
        s.notify("textDocument/didChange", {"textDocument": {"uri": uri(xa), "version": 2},
                                            "contentChanges": [{"text": "\n".join(script)}]})
        check("= `0x00010002`" in hover(xa2, 3, 16), "a second document of a joins its project")
        shown = said("window/showMessage")
        check(shown == [], "a second document and an edit of a known project: no message: %r" % shown)
        # every document of a closed: the project is dropped; b and the loose file still answer
        s.notes = []
        for path in (xa, xa2):
            s.notify("textDocument/didClose", {"textDocument": {"uri": uri(path)}})
        check("= `0x00010003`" in hover(xb, 3, 16), "after a is closed b answers")
        logged = said("window/logMessage")
        check(any("dropped" in t and os.path.join(tmp, "a", "atrc.flags") in t for t in logged),
              "closing all of a's documents drops its project: %r" % logged)
        # an atrc.flags created above the loose file: it moves into a project of its own
        s.notes = []
        write_lines(os.path.join(tmp, "loose", "atrc.flags"), ["--profile", "cod4", "--no-xanim", "-g", "..", ""])
        s.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": uri(os.path.join(tmp, "loose", "atrc.flags")), "type": 1}]})
        text = hover(loose, 4, 6)
        check("builtin (stock cod4" in text, "the loose file after an atrc.flags is created above it: cod4's builtin: %r" % text)
        shown = said("window/showMessage")
        check(len(shown) == 1 and "configured by " + os.path.join(tmp, "loose", "atrc.flags") in shown[0],
              "the loose file's new project is said: %r" % shown)
        check(shut_down(s) == 0, "several projects: exit status 0")


def test_game_file_joins_project():
    """A game file below no atrc.flags, opened from a definition (the tree in
    a game directory outside the project), belongs to the project whose
    compilation read it: its hover answers from that compilation, and no
    second configuration is said."""
    with temp_dir() as tmp:
        tmp = os.path.realpath(tmp)
        os.makedirs(os.path.join(tmp, "game", "animtrees"))
        os.makedirs(os.path.join(tmp, "mod"))
        write_lines(os.path.join(tmp, "game", "animtrees", "human.atr"), ["stand", "{", "\twalk", "}", ""])
        write_lines(os.path.join(tmp, "mod", "atrc.flags"), ["--no-xanim", "-g", "../game", "-g", ".", ""])
        x = write_lines(os.path.join(tmp, "mod", "x.gsc"),
                        ["#using_animtree(\"human\");", "main()", "{", "\tself setanim(%walk, 1);", "}", ""])
        s = Server(cwd=tmp)
        initialize(s, root=tmp)
        open_doc(s, x)
        r = s.call("textDocument/definition", {"textDocument": {"uri": uri(x)}, "position": {"line": 3, "character": 16}})
        loc = (r or {}).get("result") or {}
        atr = os.path.join(tmp, "game", "animtrees", "human.atr")
        check(loc.get("uri") == uri(atr), "definition of %%walk: the game directory's tree: %r" % loc)
        open_doc(s, atr)
        r = s.call("textDocument/hover", {"textDocument": {"uri": uri(atr)}, "position": {"line": 2, "character": 2}})
        text = (((r or {}).get("result") or {}).get("contents") or {}).get("value", "")
        check("= `0x00010002`" in text, "hover in the game's tree opened from the definition: the project's value: %r" % text)
        shown = [n["params"]["message"] for n in s.notes if n["method"] == "window/showMessage"]
        check(len(shown) == 1 and "x.gsc is configured by" in shown[0], "one configuration said, the project's: %r" % shown)
        check(shut_down(s) == 0, "a game file in a project: exit status 0")


def test_workspace_configures_outside_files():
    """A stock file outside the workspace, opened directly before anything
    read it (as a modder opens a game script beside the mod), is configured
    by the workspace root's atrc.flags: its hover packs the value the
    workspace's command line gives.  When that atrc.flags is deleted, the
    file goes to the documents outside any project (the default profile)."""
    with temp_dir() as tmp:
        tmp = os.path.realpath(tmp)
        os.makedirs(os.path.join(tmp, "game", "animtrees"))
        os.makedirs(os.path.join(tmp, "game", "maps"))
        os.makedirs(os.path.join(tmp, "mod"))
        write_lines(os.path.join(tmp, "game", "animtrees", "human.atr"), ["stand", "{", "\twalk", "}", ""])
        x = write_lines(os.path.join(tmp, "game", "maps", "x.gsc"),
                        ["#using_animtree(\"human\");", "main()", "{", "\tself setanim(%walk, 1);", "\tx = abs(-1);", "}", ""])
        flags = write_lines(os.path.join(tmp, "mod", "atrc.flags"),
                            ["--profile", "cod4", "--no-xanim", "-g", "../game", "../game/maps/x.gsc", ""])
        want = cli_json(["@atrc.flags"], cwd=os.path.join(tmp, "mod"))
        value = [r["value"] for r in want["references"] if r.get("name") == "walk"]
        s = Server(cwd=tmp)
        initialize(s, root=os.path.join(tmp, "mod"))
        open_doc(s, x)
        r = s.call("textDocument/hover", {"textDocument": {"uri": uri(x)}, "position": {"line": 3, "character": 16}})
        text = (((r or {}).get("result") or {}).get("contents") or {}).get("value", "")
        check(value and "= `0x%08x`" % value[0] in text,
              "a game file outside the workspace: the workspace's atrc.flags configures it: %r (want %r)" % (text, value))
        r = s.call("textDocument/hover", {"textDocument": {"uri": uri(x)}, "position": {"line": 4, "character": 6}})
        text = (((r or {}).get("result") or {}).get("contents") or {}).get("value", "")
        check("builtin (stock cod4" in text, "the workspace's --profile cod4 applies to it: %r" % text)
        shown = [n["params"]["message"] for n in s.notes if n["method"] == "window/showMessage"]
        check(len(shown) == 1 and "x.gsc is configured by " in shown[0] and shown[0].replace("\\", "/").endswith("mod/atrc.flags"),
              "its configuration said once: the workspace's atrc.flags: %r" % shown)
        os.remove(flags)
        s.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": uri(flags), "type": 3}]})
        r = s.call("textDocument/hover", {"textDocument": {"uri": uri(x)}, "position": {"line": 4, "character": 6}})
        text = (((r or {}).get("result") or {}).get("contents") or {}).get("value", "")
        check("builtin (stock cod4" not in text, "the workspace's atrc.flags deleted: the default profile: %r" % text)
        check(shut_down(s) == 0, "a file outside the workspace: exit status 0")

def test_gsx():
    """A CoD4x .gsx document under an options-only atrc.flags that says
    --extension cod4x is one of the open scripts the server compiles (its
    diagnostics as the command line's); without the extension it is no
    script (an empty list)."""
    with temp_dir() as tmp:
        script = write_lines(os.path.join(tmp, "x.gsx"), ["main()", "{", "\tnotAFunction();", "}", ""])
        for ext in (["--extension", "cod4x"], []):
            write_lines(os.path.join(tmp, "atrc.flags"), ["--profile", "cod4", "--no-xanim"] + ext + [""])
            cli = cli_json(["--profile", "cod4", "--no-xanim"] + ext + ["-g", ".", "x.gsx"], cwd=tmp)
            want = [((d["line"] - 1, d["column"] - 1), d["code"]) for d in cli["diagnostics"]] if ext else []
            s = Server(cwd=tmp)
            initialize(s, root=tmp)
            open_doc(s, script)
            got = s.diagnostics_for(uri(script))
            places = [((d["range"]["start"]["line"], d["range"]["start"]["character"]), d.get("code"))
                      for d in (got or {}).get("diagnostics", [])]
            check(got is not None and places == want and (want or not ext),
                  "a .gsx document %s --extension cod4x: %r (the command line: %r)"
                  % ("with" if ext else "without", places, want))
            shut_down(s)


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


def hover_text(s, path, line, character):
    r = s.call("textDocument/hover", {"textDocument": {"uri": uri(path)}, "position": {"line": line, "character": character}})
    return ((r or {}).get("result") or {}).get("contents", {}).get("value", "")


def completion_items(s, path, line, character):
    r = s.call("textDocument/completion", {"textDocument": {"uri": uri(path)},
                                           "position": {"line": line, "character": character}})
    res = (r or {}).get("result") or {}
    return res.get("items", res if isinstance(res, list) else [])


def test_typing():
    """A line being typed (`self setanim(%`) above finished ones: hover and
    completion answer for the finished lines as before; completion after '%'
    offers every name of the tree, on an unfinished line at the end of a
    function and inside an unclosed call too; the syntax error is published
    as the command line prints it."""
    import shutil
    import tempfile
    tmp = os.path.realpath(tempfile.mkdtemp())
    try:
        os.mkdir(os.path.join(tmp, "animtrees"))
        with open(os.path.join(tmp, "animtrees/t.atr"), "w") as f:
            f.write("a\nb\nc\nd\nEee\n")
        gsc = os.path.join(tmp, "t.gsc")
        text = '#using_animtree("t");\nmain()\n{\n\tself setanim(%b);\n\tself setanim(%d);\n}\n'
        with open(gsc, "w") as f:
            f.write(text)
        flags = ["--no-xanim", "-g", ".", "t.gsc"]
        doc = cli_json(flags, cwd=tmp)
        value = {r["name"]: r["value"] for r in doc["references"] if r["kind"] == "anim"}
        s = Server(cwd=tmp)
        initialize(s, flags=flags, root=tmp)
        open_doc(s, gsc, text)
        s.diagnostics_for(uri(gsc))
        check("0x%08x" % value["d"] in hover_text(s, gsc, 4, 15), "hover on %%d before the edit (%r)" % value)
        # type `\tself setanim(%` on a new line 4
        s.notify("textDocument/didChange", {"textDocument": {"uri": uri(gsc), "version": 2}, "contentChanges": [
            {"range": {"start": {"line": 3, "character": 0}, "end": {"line": 3, "character": 0}},
             "text": "\tself setanim(%\n"}]})
        typed = text.replace("{\n", "{\n\tself setanim(%\n", 1)
        got = s.diagnostics_for(uri(gsc))
        with open(gsc, "w") as f:
            f.write(typed)
        cli = subprocess.run([ATRC] + flags, cwd=tmp, capture_output=True, text=True).stderr.split("\n")[0]
        msg = next((d for d in (got or {}).get("diagnostics", []) if d["severity"] == 1), None)
        check(msg and cli == "t.gsc:%d:%d: error: %s" % (msg["range"]["start"]["line"] + 1,
                                                         msg["range"]["start"]["character"] + 1, msg["message"]),
              "the unfinished line's error as the command line prints it (%r): %r" % (cli, got))
        for name, line in (("b", 4), ("d", 5)):
            h = hover_text(s, gsc, line, 15)
            check("0x%08x" % value[name] in h, "hover on %%%s below the unfinished line keeps its value 0x%08x: %r"
                  % (name, value[name], h))
        items = completion_items(s, gsc, 3, 15)
        labels = [i["label"] for i in items]
        check(labels[:2] == sorted(labels[:2], key=lambda n: value[n]) and set(labels[:2]) == {"b", "d"}
              and labels[2:] == ["a", "c", "Eee"],
              "completion on the unfinished line: kept names first (by index), then the others as declared: %r" % labels)
        check(all("0x%08x" % value[i["label"]] in i.get("detail", "") for i in items[:2])
              and all(i.get("detail") == "not referenced yet: adding it keeps it" for i in items[2:]),
              "completion details: the kept nodes' values, the others marked: %r" % items)
        # at the end of a function, and inside an unclosed call
        for n, (line_text, col) in enumerate((("\tself setanim(%", 15), ("\tfoo(1, %E", 10))):
            edited = typed.replace("\tself setanim(%d);\n", "\tself setanim(%d);\n" + line_text + "\n", 1)
            s.notify("textDocument/didChange", {"textDocument": {"uri": uri(gsc), "version": 3 + n},
                                                "contentChanges": [{"text": edited}]})
            labels = [i["label"] for i in completion_items(s, gsc, 6, col)]
            check(sorted(labels) == ["Eee", "a", "b", "c", "d"], "completion after %r: %r" % (line_text, labels))
        shut_down(s)
    finally:
        shutil.rmtree(tmp)


def test_typing_an_argument_line():
    """`self setanim(` typed (no '%', its '(' open) above a line that reads
    as arguments up to its ';' or '=' (`self setanim(%b, 1);`, `x = %b;`):
    hover on that line's %b answers as with the unfinished line removed,
    and so does %d below it."""
    with temp_dir() as tmp:
        os.mkdir(os.path.join(tmp, "animtrees"))
        write_lines(os.path.join(tmp, "animtrees/t.atr"), ["a", "b", "c", "d", "Eee", ""])
        gsc = os.path.join(tmp, "t.gsc")
        flags = ["--no-xanim", "-g", ".", "t.gsc"]
        for line in ("\tself setanim(%b, 1);", "\tx = %b;", "\tx[0] = %b;", "\tfoo(%b);"):
            text = '#using_animtree("t");\nmain()\n{\n' + line + '\n\tself setanim(%d);\n}\n'
            write_lines(gsc, [text])
            b = line.index("%b") + 1
            s = Server(cwd=tmp)
            initialize(s, flags=flags, root=tmp)
            open_doc(s, gsc, text)
            s.diagnostics_for(uri(gsc))
            before = (hover_text(s, gsc, 3, b), hover_text(s, gsc, 4, 15))
            s.notify("textDocument/didChange", {"textDocument": {"uri": uri(gsc), "version": 2}, "contentChanges": [
                {"range": {"start": {"line": 3, "character": 0}, "end": {"line": 3, "character": 0}},
                 "text": "\tself setanim(\n"}]})
            got = s.diagnostics_for(uri(gsc))
            errors = [(d["range"]["start"], d["message"]) for d in (got or {}).get("diagnostics", []) if d["severity"] == 1]
            check(len(errors) == 1 and errors[0][0] == {"line": 3, "character": 14}
                  and errors[0][1].startswith("expected ')' before '"),
                  "after %r: one error, at the end of the unfinished line: %r" % (line, errors))
            after = (hover_text(s, gsc, 4, b), hover_text(s, gsc, 5, 15))
            check(before[0] and after == before, "after %r: hover on %%b and %%d as without the unfinished line: %r, %r"
                  % (line, before, after))
            shut_down(s)


def test_older_state():
    """While a document does not parse and the current compilation has
    nothing at the cursor (the statement being edited is an error), hover and
    definition answer from the last text that parsed, the position mapped
    back through the edits since and the range forward; the hover says so in
    its first line, in the client's format.  Where the recovery keeps the
    statement, and once the text parses again, the current state answers
    with no note."""
    with temp_dir() as tmp:
        os.mkdir(os.path.join(tmp, "animtrees"))
        write_lines(os.path.join(tmp, "animtrees/t.atr"), ["a", "b", "c", "d", "Eee", ""])
        gsc = os.path.join(tmp, "t.gsc")
        text = '#using_animtree("t");\nmain()\n{\n\tself setanim(%b);\n\tself setanim(%d);\n}\n'
        write_lines(gsc, [text])
        flags = ["--no-xanim", "-g", ".", "t.gsc"]
        value = {r["name"]: r["value"] for r in cli_json(flags, cwd=tmp)["references"] if r["kind"] == "anim"}
        for fmt, note in (("markdown", "*from the last version that parsed (%d edit%s ago)*\n\n"),
                          ("plaintext", "from the last version that parsed (%d edit%s ago)\n\n")):
            s = Server(cwd=tmp)
            initialize(s, flags=flags, root=tmp, caps={"textDocument": {"hover": {"contentFormat": [fmt]}}})
            open_doc(s, gsc, text)
            s.diagnostics_for(uri(gsc))

            def hover(line, character):
                r = s.call("textDocument/hover", {"textDocument": {"uri": uri(gsc)},
                                                  "position": {"line": line, "character": character}})
                return (r or {}).get("result") or {}

            def change(version, sl, sc, el, ec, new):
                s.notify("textDocument/didChange", {"textDocument": {"uri": uri(gsc), "version": version},
                                                    "contentChanges": [{"range": {"start": {"line": sl, "character": sc},
                                                                                  "end": {"line": el, "character": ec}},
                                                                        "text": new}]})

            check(not hover(3, 15)["contents"]["value"].startswith(note[:10]), "%s: the current state, no note" % fmt)
            change(2, 3, 16, 3, 18, "")  # `\tself setanim(%b` left unfinished
            h = hover(3, 15)
            v = h.get("contents", {}).get("value", "")
            check(v.startswith(note % (1, "")) and "0x%08x" % value["b"] in v
                  and h.get("range", {}).get("start") == {"line": 3, "character": 14},
                  "%s: hover on %%b of the unfinished line, from the last version that parsed: %r" % (fmt, h))
            h = hover(4, 15)
            check("0x%08x" % value["d"] in h.get("contents", {}).get("value", "")
                  and not h["contents"]["value"].startswith(note[:10]),
                  "%s: %%d below, kept by the recovery: the current state: %r" % (fmt, h))
            change(3, 0, 0, 0, 0, "// a line above\n")
            h = hover(4, 15)
            v = h.get("contents", {}).get("value", "")
            check(v.startswith(note % (2, "s")) and h.get("range", {}).get("start") == {"line": 4, "character": 14},
                  "%s: after a line inserted above, the position and range mapped: %r" % (fmt, h))
            r = s.call("textDocument/definition", {"textDocument": {"uri": uri(gsc)},
                                                   "position": {"line": 4, "character": 15}})
            loc = (r or {}).get("result") or {}
            check(loc.get("uri") == uri(os.path.join(tmp, "animtrees/t.atr")) and loc["range"]["start"]["line"] == 1,
                  "%s: definition of %%b from the last version that parsed: %r" % (fmt, r))
            check(hover(4, 1) == {}, "%s: nothing older where the current text has nothing either" % fmt)
            change(4, 4, 16, 4, 16, ");")
            h = hover(4, 15)
            v = h.get("contents", {}).get("value", "")
            check("0x%08x" % value["b"] in v and not v.startswith(note[:10]),
                  "%s: parsed again: the current state, no note: %r" % (fmt, h))
            shut_down(s)


def test_hover_format():
    """Hover in the format the client prefers (hover.contentFormat), paths in
    hovers and completion details relative to the project, never `/./`."""
    flags = ["--no-xanim", "-g", ".", "tank.gsc", "util.gsc"]
    tank = os.path.join(WORKSPACE, "tank.gsc")
    lines = open(tank, "rb").read().split(b"\n")
    using = next(i for i, l in enumerate(lines) if l.startswith(b"#using_animtree"))
    call = next(i for i, l in enumerate(lines) if l.lstrip().startswith(b"aim("))
    for fmt in (["plaintext", "markdown"], ["markdown", "plaintext"], None):
        s = Server()
        caps = {"textDocument": {"hover": {"contentFormat": fmt}}} if fmt else {}
        initialize(s, flags=flags, caps=caps)
        open_doc(s, tank)
        s.diagnostics_for(uri(tank))
        kind = fmt[0] if fmt else "markdown"
        r = s.call("textDocument/hover", {"textDocument": {"uri": uri(tank)}, "position": {"line": using, "character": 3}})
        contents = ((r or {}).get("result") or {}).get("contents", {})
        value = contents.get("value", "")
        check(contents.get("kind") == kind, "contentFormat %r: hover kind %s: %r" % (fmt, kind, r))
        check("\nanimtrees/tank.atr" in value.replace("`", "") and "/./" not in value and WORKSPACE not in value,
              "contentFormat %r: the tree's path relative to the project: %r" % (fmt, value))
        check(("**" in value) == (kind == "markdown") and ("`" in value) == (kind == "markdown"),
              "contentFormat %r: Markdown marks only in Markdown: %r" % (fmt, value))
        value = hover_text(s, tank, call, 2)
        check(value.endswith("defined at tank.gsc:%d" % (next(i for i, l in enumerate(lines) if l.startswith(b"aim(")) + 1)),
              "contentFormat %r: a function's place relative to the project: %r" % (fmt, value))
        details = [i.get("detail") for i in completion_items(s, tank, call, 1) if i["label"] == "aim"]
        check(details == ["tank.gsc:%d" % (lines.index(b"aim(clip)") + 1)], "completion detail of aim: %r" % details)
        shut_down(s)


def decode_tokens(data):
    """semanticTokens data -> [(line, character, length, type)]."""
    out, line, char = [], 0, 0
    for i in range(0, len(data), 5):
        dl, dc, n, t, _ = data[i:i + 5]
        line += dl
        char = char + dc if dl == 0 else dc
        out.append((line, char, n, t))
    return out


def test_names():
    """Functions: references (every call), rename across files (refused for
    builtins); parameters: hover, completion, rename; workspace symbols,
    folding ranges, signature help, inlay hints, semantic tokens."""
    flags = ["--no-xanim", "-g", ".", "tank.gsc", "util.gsc"]
    tank = os.path.join(WORKSPACE, "tank.gsc")
    lines = open(tank, "rb").read().split(b"\n")
    s = Server()
    r = initialize(s, flags=flags)
    caps = r["result"]["capabilities"]
    for cap in ("renameProvider", "workspaceSymbolProvider", "foldingRangeProvider", "signatureHelpProvider",
                "inlayHintProvider", "semanticTokensProvider"):
        check(cap in caps, "initialize advertises %s: %r" % (cap, caps))
    open_doc(s, tank)
    s.diagnostics_for(uri(tank))
    td = {"uri": uri(tank)}
    call = next(i for i, l in enumerate(lines) if l.lstrip().startswith(b"aim("))
    defn = lines.index(b"aim(clip)")
    use = next(i for i, l in enumerate(lines) if b"setAnimKnob(clip" in l)
    ccol = lines[call].index(b"aim")
    r = s.call("textDocument/references", {"textDocument": td, "position": {"line": call, "character": ccol + 1},
                                           "context": {"includeDeclaration": True}})
    got = sorted((x["range"]["start"]["line"], x["range"]["start"]["character"]) for x in (r or {}).get("result") or [])
    check(got == sorted([(call, ccol), (defn, 0)]), "references of aim: the definition and the call: %r" % r)
    # rename of the function, from its definition
    r = s.call("textDocument/prepareRename", {"textDocument": td, "position": {"line": defn, "character": 1}})
    check(r and r.get("result") == {"start": {"line": defn, "character": 0}, "end": {"line": defn, "character": 3}},
          "prepareRename of aim: its range: %r" % r)
    r = s.call("textDocument/rename", {"textDocument": td, "position": {"line": defn, "character": 1}, "newName": "aimAt"})
    edits = ((r or {}).get("result") or {}).get("changes", {}).get(uri(tank), [])
    check(sorted((e["range"]["start"]["line"], e["range"]["start"]["character"], e["newText"]) for e in edits)
          == sorted([(call, ccol, "aimAt"), (defn, 0, "aimAt")]), "rename aim -> aimAt: %r" % r)
    # a parameter: hover, completion in its function, rename
    ucol = lines[use].index(b"clip")
    h = hover_text(s, tank, use, ucol + 1)
    check("clip" in h and "parameter of" in h and "aim(clip)" in h, "hover on the parameter clip: %r" % h)
    r = s.call("textDocument/definition", {"textDocument": td, "position": {"line": use, "character": ucol + 1}})
    check(((r or {}).get("result") or {}).get("range", {}).get("start") == {"line": defn, "character": 4},
          "definition of clip: the parameter: %r" % r)
    items = completion_items(s, tank, use, 1)
    check(items and items[0]["label"] == "clip" and items[0]["kind"] == 6, "completion in aim: clip first: %r" % items[:2])
    r = s.call("textDocument/rename", {"textDocument": td, "position": {"line": use, "character": ucol}, "newName": "anim"})
    edits = ((r or {}).get("result") or {}).get("changes", {}).get(uri(tank), [])
    check(sorted(e["range"]["start"]["line"] for e in edits) == [defn, use], "rename of the parameter: %r" % r)
    # refused: a builtin, a name that is no identifier
    bcol = lines[use].index(b"setAnimKnob")
    r = s.call("textDocument/rename", {"textDocument": td, "position": {"line": use, "character": bcol + 1}, "newName": "x"})
    check(r and r.get("error", {}).get("code") == -32803 and "builtin" in r["error"]["message"], "rename of a builtin: %r" % r)
    r = s.call("textDocument/rename", {"textDocument": td, "position": {"line": defn, "character": 1}, "newName": "1x"})
    check(r and r.get("error", {}).get("code") == -32803, "rename to 1x: %r" % r)
    # workspace symbols, folding
    r = s.call("workspace/symbol", {"query": ""})
    names = sorted(x["name"] for x in (r or {}).get("result") or [])
    check(names == ["aim", "helper", "main"], "workspace symbols: %r" % r)
    r = s.call("workspace/symbol", {"query": "HEL"})
    res = (r or {}).get("result") or []
    check([x["name"] for x in res] == ["helper"] and res[0]["location"]["uri"] == uri(os.path.join(WORKSPACE, "util.gsc")),
          "workspace symbols 'HEL': %r" % r)
    r = s.call("textDocument/foldingRange", {"textDocument": td})
    opens = [i for i, l in enumerate(lines) if l == b"{"]
    closes = [i for i, l in enumerate(lines) if l == b"}"]
    check([(x["startLine"], x["endLine"]) for x in (r or {}).get("result") or []] == list(zip(opens, closes)),
          "folding ranges: the functions' bodies: %r" % r)
    # signature help: a script function, an animation builtin
    r = s.call("textDocument/signatureHelp", {"textDocument": td, "position": {"line": call, "character": ccol + 4}})
    sig = (((r or {}).get("result") or {}).get("signatures") or [{}])[0]
    check(sig.get("label") == "aim(clip)" and sig.get("parameters") == [{"label": [4, 8]}]
          and r["result"]["activeParameter"] == 0, "signature help of aim: %r" % r)
    k = lines[use].index(b", 1")
    r = s.call("textDocument/signatureHelp", {"textDocument": td, "position": {"line": use, "character": k + 2}})
    sig = (((r or {}).get("result") or {}).get("signatures") or [{}])[0]
    check(sig.get("label") == "setAnimKnob(anim, weight, goaltime, rate)" and r["result"]["activeParameter"] == 1
          and sig["parameters"][0].get("documentation") == "an anim (%name) of the receiver's tree",
          "signature help of setAnimKnob: %r" % r)
    # inlay hints and semantic tokens against the command line's values
    doc = cli_json(flags)
    refs = [x for x in doc["references"] if x["file"] == "tank.gsc" and x["kind"] == "anim"]
    r = s.call("textDocument/inlayHint", {"textDocument": td, "range": {"start": {"line": 0, "character": 0},
                                                                        "end": {"line": len(lines), "character": 0}}})
    hints = sorted((x["position"]["line"], x["label"]) for x in (r or {}).get("result") or [])
    check(hints == sorted((x["line"] - 1, "= 0x%08x" % x["value"]) for x in refs if x["value"] is not None),
          "inlay hints: the packed values: %r, the command line: %r" % (hints, refs))
    for h in (r or {}).get("result") or []:
        ref = next(x for x in refs if x["line"] - 1 == h["position"]["line"])
        end = character(tank, ref["line"], ref["column"] + 1 + len(ref["name"]), False)
        check(h["position"]["character"] == end, "inlay hint of %%%s just after the name: %r" % (ref["name"], h))
    r = s.call("textDocument/semanticTokens/full", {"textDocument": td})
    toks = decode_tokens(((r or {}).get("result") or {}).get("data", []))
    want = []
    for x in refs:
        t = 2 if x["value"] is None else 1 if x["name"] == "turret" else 0
        want.append((x["line"] - 1, character(tank, x["line"], x["column"], False), 1 + len(x["name"]), t))
    check(toks == sorted(want), "semantic tokens: leaf, group, unresolved: %r, want %r" % (toks, sorted(want)))
    # an edit: the names and places kept from the last compilation (the
    # scripts' sites, the list of functions, the files' line indexes) follow it
    text = open(tank, "rb").read().decode("latin-1")
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri(tank), "version": 2},
                                        "contentChanges": [{"text": "added()\n{\n}\n\n" + text}]})
    s.diagnostics_for(uri(tank))
    r = s.call("workspace/symbol", {"query": ""})
    got = sorted((x["name"], x["location"]["range"]["start"]["line"]) for x in (r or {}).get("result") or []
                 if x["location"]["uri"] == uri(tank))
    check(("added", 0) in got and ("aim", defn + 4) in got, "workspace symbols after an edit: %r" % r)
    r = s.call("textDocument/references", {"textDocument": td, "position": {"line": call + 4, "character": ccol + 1},
                                           "context": {"includeDeclaration": True}})
    got = sorted(x["range"]["start"]["line"] for x in (r or {}).get("result") or [])
    check(got == sorted([call + 4, defn + 4]), "references of aim after an edit: %r" % r)
    shut_down(s)
    # inlay hints turned off by the client
    s = Server()
    r = initialize(s, flags=flags, options={"inlayHints": False})
    check("inlayHintProvider" not in r["result"]["capabilities"], "inlayHints false: not advertised: %r" % r)
    open_doc(s, tank)
    r = s.call("textDocument/inlayHint", {"textDocument": td, "range": {"start": {"line": 0, "character": 0},
                                                                        "end": {"line": 20, "character": 0}}})
    check(r and r.get("result") == [], "inlayHints false: none given: %r" % r)
    shut_down(s)


def apply_edits(text, edits):
    """The text after a list of TextEdits (UTF-16 positions, ASCII text here)."""
    lines = text.split("\n")
    offsets = [0]
    for l in lines:
        offsets.append(offsets[-1] + len(l) + 1)
    pos = lambda p: offsets[p["line"]] + p["character"]
    for e in sorted(edits, key=lambda e: pos(e["range"]["start"]), reverse=True):
        text = text[:pos(e["range"]["start"])] + e["newText"] + text[pos(e["range"]["end"]):]
    return text


def test_code_actions():
    """Quick fixes for the published diagnostics: a "did you mean", the
    missing #include, the --extension that registers an unknown name (into
    atrc.flags); each makes its diagnostic go once applied."""
    import shutil
    import tempfile
    tmp = os.path.realpath(tempfile.mkdtemp())
    try:
        os.mkdir(os.path.join(tmp, "maps"))
        files = {"maps/a.gsc": '#include maps\\_lib;\nmain()\n{\n\twindmil();\n\tfromElsewhere();\n\thelper();\n'
                               '\tx = base64decode("x");\n}\nwindmill()\n{\n}\n',
                 "maps/_lib.gsc": "helper()\n{\n}\n", "maps/_other.gsc": "fromElsewhere()\n{\n}\n",
                 "maps/b.gsc": "f()\n{\n\tmaps\\_other::fromElsewhere();\n}\n",
                 "atrc.flags": "--profile\ncod4\n--no-xanim\n-g\n.\n--entry\nmaps/b\n--entry\nmaps/a\n"}
        for name, text in files.items():
            with open(os.path.join(tmp, name), "w") as f:
                f.write(text)
        a = os.path.join(tmp, "maps/a.gsc")
        s = Server(cwd=tmp)
        r = initialize(s, root=tmp)
        check("codeActionProvider" in r["result"]["capabilities"], "codeActionProvider advertised: %r" % r)
        open_doc(s, a, files["maps/a.gsc"])
        diags = s.diagnostics_for(uri(a))["diagnostics"]
        check(len(diags) == 3, "three unknown functions in a.gsc: %r" % diags)
        text = files["maps/a.gsc"]
        for d in diags:
            r = s.call("textDocument/codeAction", {"textDocument": {"uri": uri(a)}, "range": d["range"],
                                                   "context": {"diagnostics": [d]}})
            acts = (r or {}).get("result") or []
            check(len(acts) == 1 and acts[0]["kind"] == "quickfix" and acts[0]["diagnostics"][0]["message"] == d["message"],
                  "one quick fix for %r: %r" % (d["message"], acts))
            if not acts:
                continue
            changes = acts[0]["edit"]["changes"]
            if "windmil'" in d["message"]:
                check(acts[0]["title"] == "Change 'windmil' to 'windmill'", "the did-you-mean fix: %r" % acts)
                text = apply_edits(text, changes[uri(a)])
            elif "fromElsewhere" in d["message"]:
                check(acts[0]["title"] == "Add #include maps\\_other;", "the #include fix: %r" % acts)
                text = apply_edits(text, changes[uri(a)])
            else:
                flags = os.path.join(tmp, "atrc.flags")
                check(acts[0]["title"] == "Add --extension cod4x to atrc.flags" and list(changes) == [uri(flags)],
                      "the --extension fix: %r" % acts)
                with open(flags, "w") as f:
                    f.write(apply_edits(files["atrc.flags"], changes[uri(flags)]))
        check(text.startswith("#include maps\\_lib;\n#include maps\\_other;\nmain()") and "\twindmill();" in text,
              "the fixes applied: %r" % text)
        s.notify("textDocument/didChange", {"textDocument": {"uri": uri(a), "version": 2}, "contentChanges": [{"text": text}]})
        got = s.diagnostics_for(uri(a))
        check(got and got["diagnostics"] == [], "after the fixes a.gsc has no diagnostics: %r" % got)
        shut_down(s)
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    test_arguments()
    test_atr_and_config()
    test_bom()
    test_several_projects()
    test_game_file_joins_project()
    test_workspace_configures_outside_files()
    test_cod4x_preprocessor()
    test_gsx()
    test_typing()
    test_typing_an_argument_line()
    test_older_state()
    test_hover_format()
    test_names()
    test_code_actions()
    test_framing()
    test_no_params()
    test_notetracks()
    test_positions(utf8=False)
    test_positions(utf8=True)
    test_archive_uris()
    if INSTALL:
        test_archive()
    print("lsp protocol: %d checks, %d failed" % (checks, failures), file=sys.stderr)
    sys.exit(1 if failures else 0)
