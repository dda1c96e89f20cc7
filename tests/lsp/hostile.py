#!/usr/bin/env python3
"""The language server under hostile or unusual input, and configured as
people write project files: framing that holds NUL bytes, edits to closed
documents, project files (atrc.flags) that try to read or write what is not
theirs (outside files, devices, FIFOs, standard input, links and /proc
spellings of them, huge lists), options-only project files, several projects
in one server, project files created and deleted during a session, and
response files in initializationOptions.flags.  Each case states what the
client must (and must not) see; the server must never hang, crash, write a
file or send an outside file's content.

    ATRC=build/atrc WORKSPACE=tests/lsp/workspace python3 tests/lsp/hostile.py
"""
import os
import shutil
import stat
import sys
import tempfile
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import protocol  # noqa: E402
from protocol import ATRC, WORKSPACE, Server, check, frame, initialize, open_doc, shut_down, uri  # noqa: E402,F401

protocol.NAME = "lsp hostile"


def workspace():
    """A writable copy of the test workspace (its real path)."""
    tmp = os.path.realpath(tempfile.mkdtemp())
    shutil.copytree(WORKSPACE, os.path.join(tmp, "ws"))
    return tmp, os.path.join(tmp, "ws")


def diagnostics_now(s, file_uri, timeout=20.0):
    """The last publishDiagnostics for file_uri once a request has been
    answered (the request makes the server compile what is pending)."""
    s.call("textDocument/hover", {"textDocument": {"uri": file_uri}, "position": {"line": 0, "character": 0}})
    last = None
    keep = []
    for n in s.notes:
        if n["method"] == "textDocument/publishDiagnostics" and n["params"]["uri"] == file_uri:
            last = n["params"]
        else:
            keep.append(n)
    s.notes = keep
    return last


def messages(s):
    """The diagnostics' messages and showMessage/logMessage texts received so far."""
    out = []
    for n in s.notes:
        if n["method"] == "textDocument/publishDiagnostics":
            out += [d["message"] for d in n["params"]["diagnostics"]]
        elif n["method"] in ("window/showMessage", "window/logMessage"):
            out.append(n["params"]["message"])
    return out


def test_nul_body():
    """A body of NUL bytes is a parse error (the whole body is parsed, not a
    copy cut at the first NUL), and the server goes on."""
    s = Server()
    initialize(s)
    s.send(b"Content-Length: 4\r\n\r\n\0\0\0\0")
    r = s.response()
    check(r and r.get("error", {}).get("code") == -32700, "a body of 4 NUL bytes: a parse error, got %r" % r)
    s.send(frame(b'{"jsonrpc":"2.0","id":9,"method":"x"}\0\0'))
    r = s.response()
    check(r and r.get("error", {}).get("code") == -32700, "a JSON body followed by NUL bytes: a parse error, got %r" % r)
    r = s.call("atrc/noSuchRequest", {})
    check(r and r.get("error", {}).get("code") == -32601, "after NUL bodies the server answers: %r" % r)
    check(shut_down(s) == 0, "NUL bodies: exit status 0")


def test_change_closed():
    """didChange for a document that was closed changes nothing: the file is
    compiled from the disk, not as an empty (or edited) text (util.gsc
    stays open: a project lives while one of its documents is open)."""
    tmp, ws = workspace()
    try:
        tank = os.path.join(ws, "tank.gsc")
        s = Server(cwd=ws)
        initialize(s, flags=["--no-xanim", "-g", ".", "tank.gsc"], root=ws)
        open_doc(s, tank)
        open_doc(s, os.path.join(ws, "util.gsc"))
        first = s.diagnostics_for(uri(tank))
        check(first and len(first["diagnostics"]) == 1, "tank.gsc has its one error: %r" % first)
        s.notify("textDocument/didClose", {"textDocument": {"uri": uri(tank)}})
        s.notify("textDocument/didChange", {"textDocument": {"uri": uri(tank), "version": 5}, "contentChanges": [
            {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": ""}]})
        # a request about the project's open document compiles it
        s.call("textDocument/hover", {"textDocument": {"uri": uri(os.path.join(ws, "util.gsc"))},
                                      "position": {"line": 0, "character": 0}})
        got = diagnostics_now(s, uri(tank))
        check(got and len(got["diagnostics"]) == 1 and got.get("version") is None,
              "after didChange of a closed document the disk's diagnostics stay: %r" % got)
        check(shut_down(s) == 0, "didChange of a closed document: exit status 0")
    finally:
        shutil.rmtree(tmp)


PASSWD_MARKS = ("root:", "/bin/sh", "/usr/sbin/nologin", "daemon:")


def project_session(ws, flags_text, open_files=("tank.gsc",)):
    """A server on the workspace ws whose atrc.flags holds flags_text; the
    documents open; the atrc.flags diagnostics after a compilation."""
    flags = os.path.join(ws, "atrc.flags")
    with open(flags, "w") as f:
        f.write(flags_text)
    s = Server(cwd=ws)
    initialize(s, root=ws)
    for name in open_files:
        open_doc(s, os.path.join(ws, name))
    got = diagnostics_now(s, uri(os.path.join(ws, open_files[0])), timeout=30)
    return s, got


def flags_diagnostics(s, ws):
    """The diagnostics published on atrc.flags so far (the last list)."""
    last = None
    for n in s.notes:
        if n["method"] == "textDocument/publishDiagnostics" and n["params"]["uri"] == uri(os.path.join(ws, "atrc.flags")):
            last = n["params"]["diagnostics"]
    return last


def refused(name, flags_text, line, words, setup=None, extra_check=None):
    """A project file the server must refuse at line (0-based) with words in
    the one diagnostic; no outside content anywhere, the server answering."""
    tmp, ws = workspace()
    try:
        if setup:
            setup(ws)
        started = time.time()
        s, _ = project_session(ws, flags_text)
        d = flags_diagnostics(s, ws)
        check(d is not None and len(d) == 1 and d[0]["range"]["start"]["line"] == line and words in d[0]["message"],
              "%s: one diagnostic on atrc.flags line %d with %r: %r" % (name, line + 1, words, d))
        said = " ".join(messages(s))
        check(not any(m in said for m in PASSWD_MARKS), "%s: no outside content reaches the client: %r" % (name, said[:300]))
        check(time.time() - started < 15, "%s: answered in %.1f s" % (name, time.time() - started))
        if extra_check:
            extra_check(ws)
        check(shut_down(s) == 0, "%s: the server ends normally" % name)
    finally:
        shutil.rmtree(tmp)


def test_project_output_options():
    """Output options in a project file are refused on their line; nothing is written."""
    def nothing_written(ws):
        check(not os.path.exists(os.path.join(ws, "out.txt")), "-o in atrc.flags: out.txt was written")
    refused("-o", "--no-xanim\n-o\nout.txt\n-g\n.\ntank.gsc\n", 1, "'-o' is not for a project file",
            extra_check=nothing_written)
    refused("--output=", "--no-xanim\n--output=out.txt\ntank.gsc\n", 1, "'--output=out.txt' is not for a project file",
            extra_check=nothing_written)
    refused("--format", "-g\n.\n--format=json\ntank.gsc\n", 2, "'--format=json' is not for a project file")
    refused("--trees", "--trees\n-g\n.\ntank.gsc\n", 0, "'--trees' is not for a project file")


def test_project_outside_files():
    """@FILE outside the project's directory (a path, a link, /proc, /dev)
    is refused, and nothing of it is read."""
    refused("@/etc/passwd", "-g\n.\n@/etc/passwd\ntank.gsc\n", 2, "'@/etc/passwd' is outside the project's directory")
    refused("@../outside", "@../../../../../../../../etc/passwd\n", 0, "is outside the project's directory")

    def link(ws):
        os.symlink("/etc/passwd", os.path.join(ws, "inner.flags"))
    refused("@link to /etc/passwd", "-g\n.\n@inner.flags\ntank.gsc\n", 2, "'@inner.flags' is outside the project's directory",
            setup=link)
    refused("@/dev/stdin", "@/dev/stdin\n", 0, "cannot read '/dev/stdin': not a regular file")
    refused("@/proc/self/fd/0", "@/proc/self/fd/0\n", 0, "cannot read '/proc/self/fd/0': not a regular file")

    def fifo(ws):
        os.mkfifo(os.path.join(ws, "pipe.flags"))
    refused("@FIFO", "-g\n.\n@pipe.flags\n", 2, "cannot read 'pipe.flags': not a regular file", setup=fifo)


def test_project_irregular_operands():
    """Operands and lists must be regular files: standard input under any
    spelling, a link to it, a FIFO, a device are refused, never read."""
    refused("/dev/stdin", "-g\n.\n/dev/stdin\n", 2, "'/dev/stdin' is not a regular file")
    refused("/proc/self/fd/0", "-g\n.\n/proc/self/fd/0\n", 2, "'/proc/self/fd/0' is not a regular file")
    refused("-", "-g\n.\n-\n", 2, "standard input ('-') cannot be read by the language server")

    def links(ws):
        os.symlink("/dev/stdin", os.path.join(ws, "in.gsc"))
        os.mkfifo(os.path.join(ws, "fifo.gsc"))
        os.mkfifo(os.path.join(ws, "fifo.txt"))
    refused("a link to /dev/stdin", "-g\n.\nin.gsc\n", 2, "'in.gsc' is not a regular file", setup=links)
    refused("a FIFO script", "-g\n.\nfifo.gsc\n", 2, "'fifo.gsc' is not a regular file", setup=links)
    refused("a FIFO --builtins", "-g\n.\n--builtins\nfifo.txt\ntank.gsc\n", 2, "'fifo.txt' is not a regular file",
            setup=links)
    refused("--builtins=/dev/zero", "-g\n.\n--builtins=/dev/zero\ntank.gsc\n", 2, "'/dev/zero' is not a regular file")
    refused("--entities /dev/stdin", "-g\n.\n--map\nm\n--sp\n--entities\n/dev/stdin\n", 5,
            "'/dev/stdin' is not a regular file")

    def directory_of_links(ws):
        os.mkdir(os.path.join(ws, "d"))
        os.symlink("/dev/stdin", os.path.join(ws, "d", "in.gsc"))
        os.mkfifo(os.path.join(ws, "d", "f.gsc"))
    tmp, ws = workspace()
    try:
        directory_of_links(ws)
        started = time.time()
        s, _ = project_session(ws, "-g\n.\nd\ntank.gsc\n")
        said = " ".join(messages(s))
        check("not a regular file" in said and time.time() - started < 15,
              "a directory operand holding links to standard input and a FIFO: said, not read: %r" % said[:400])
        check(shut_down(s) == 0, "a directory of links: the server ends normally")
    finally:
        shutil.rmtree(tmp)


def test_project_huge_list():
    """A 2-million-line --builtins list: one bounded error, a small message."""
    def big(ws):
        with open(os.path.join(ws, "huge.txt"), "w") as f:
            f.write("".join("nonsense %d\n" % i for i in range(2000000)))
    tmp, ws = workspace()
    try:
        big(ws)
        started = time.time()
        s, _ = project_session(ws, "-g\n.\n--builtins\nhuge.txt\ntank.gsc\n")
        said = messages(s)
        size = sum(len(m) for m in said)
        check(any("larger than the 4 MiB a list may hold" in m for m in said) and size < 20000,
              "a 2-million-line list: one error, %d bytes of messages: %r" % (size, said[:3]))
        check(time.time() - started < 15, "a 2-million-line list: answered in %.1f s" % (time.time() - started))
        check(shut_down(s) == 0, "a huge list: the server ends normally")
    finally:
        shutil.rmtree(tmp)


def test_options_only_project():
    """An atrc.flags with options and no scripts applies them to the open
    scripts below it; no error on the unopened atrc.flags."""
    tmp, ws = workspace()
    try:
        s, got = project_session(ws, "# options only, as people write them\n--profile\ncod2\n--no-xanim\n-g\n.\n")
        check(got and len(got["diagnostics"]) == 1 and got["diagnostics"][0].get("code") == "undefined-animation",
              "options-only atrc.flags: tank.gsc gets its error: %r" % got)
        d = flags_diagnostics(s, ws)
        check(not d, "options-only atrc.flags: no error on it: %r" % d)
        check(shut_down(s) == 0, "options-only: exit status 0")
        # without a game directory: the project's directory is it
        s, got = project_session(ws, "--no-xanim\n")
        check(got and len(got["diagnostics"]) == 1, "options-only without -g: tank.gsc gets its error: %r" % got)
        check(shut_down(s) == 0, "options-only without -g: exit status 0")
    finally:
        shutil.rmtree(tmp)


def test_project_walk_entries():
    """`--entry a b` in atrc.flags: the names after the first are the game's
    script names as written, never paths of the file's directory; the
    second entry's script is compiled and answers."""
    tmp, ws = workspace()
    try:
        os.makedirs(os.path.join(ws, "maps"))
        for name in ("first", "second"):
            shutil.copy(os.path.join(ws, "tank.gsc"), os.path.join(ws, "maps", name + ".gsc"))
        s, got = project_session(ws, "--no-xanim\n-g\n.\n--entry\nmaps/first\nmaps/second\n",
                                 open_files=(os.path.join("maps", "second.gsc"),))
        d = flags_diagnostics(s, ws)
        check(not d, "--entry a b in atrc.flags: no error on it: %r" % d)
        check(got and len(got["diagnostics"]) == 1 and got["diagnostics"][0].get("code") == "undefined-animation",
              "--entry a b: the second entry's script gets its error: %r" % got)
        second = uri(os.path.join(ws, "maps", "second.gsc"))
        r = s.call("textDocument/hover", {"textDocument": {"uri": second}, "position": {"line": 5, "character": 16}})
        text = ((r or {}).get("result") or {}).get("contents", {}).get("value", "")
        check("tank_idle" in text and "0x0001" in text, "--entry a b: hover in the second entry's script: %r" % text)
        check(shut_down(s) == 0, "--entry a b: exit status 0")
    finally:
        shutil.rmtree(tmp)


def test_init_flags_response_file():
    """@FILE in initializationOptions.flags is a response file, relative to the root."""
    tmp, ws = workspace()
    try:
        with open(os.path.join(ws, "editor.args"), "w") as f:
            f.write("--no-xanim\n-g\n.\ntank.gsc\n")
        s = Server(cwd=tmp)
        initialize(s, flags=["@editor.args"], root=ws)
        tank = os.path.join(ws, "tank.gsc")
        open_doc(s, tank)
        got = diagnostics_now(s, uri(tank))
        check(got and len(got["diagnostics"]) == 1 and got["diagnostics"][0].get("code") == "undefined-animation",
              "@editor.args in initializationOptions.flags: tank.gsc gets its error: %r" % got)
        check(shut_down(s) == 0, "init flags @FILE: exit status 0")
    finally:
        shutil.rmtree(tmp)


def read_big_response(s, id, timeout=60.0):
    """The response to id, read in chunks joined once (the protocol
    client's reader copies its buffer per chunk: quadratic in a 4 MB
    answer, which would time the client, not the server)."""
    import json
    import select
    chunks, have, need, head = [s.buf], len(s.buf), None, b""
    while True:
        if need is None:
            data = b"".join(chunks)
            chunks, have = [data], len(data)
            h, sep, rest = data.partition(b"\r\n\r\n")
            if sep:
                head = h
                need = len(h) + 4 + int(h.split(b":")[1])
        if need is not None and have >= need:
            data = b"".join(chunks)
            body, s.buf = data[len(head) + 4:need], data[need:]
            m = json.loads(body)
            if m.get("id") == id:
                return m
            if "method" in m:
                s.notes.append(m)
            chunks, have, need = [s.buf], len(s.buf), None
            continue
        r, _, _ = select.select([s.p.stdout], [], [], timeout)
        if not r:
            return None
        chunk = os.read(s.p.stdout.fileno(), 1 << 20)
        if not chunk:
            return None
        chunks.append(chunk)
        have += len(chunk)


def test_references_linear():
    """references of a %name used 40,000 times in one script is linear in
    the uses (each location once; the file's lines indexed once)."""
    tmp, ws = workspace()
    try:
        big = os.path.join(ws, "many.gsc")
        with open(big, "w") as f:
            f.write('#using_animtree("tank");\nmain()\n{\n')
            f.write("\tx = %turret_left;\n" * 40000)
            f.write("}\n")
        s = Server(cwd=ws)
        initialize(s, flags=["--no-xanim", "-g", ".", "many.gsc"], root=ws)
        open_doc(s, big)
        diagnostics_now(s, uri(big), timeout=60)
        started = time.time()
        id, _ = s.request("textDocument/references", {"textDocument": {"uri": uri(big)},
                                                     "position": {"line": 3, "character": 7},
                                                     "context": {"includeDeclaration": False}})
        r = read_big_response(s, id)
        took = time.time() - started
        got = (r or {}).get("result") or []
        check(len(got) == 40000 and got[-1]["range"]["start"] == {"line": 40002, "character": 5},
              "references of a %%name used 40,000 times: %d locations, last %r" % (len(got), got[-1:] if got else None))
        check(took < 2.0, "references of a %%name used 40,000 times: %.2f s (linear is well under 2 s)" % took)
        check(shut_down(s) == 0, "references: exit status 0")
    finally:
        shutil.rmtree(tmp)


def test_project_created_and_deleted():
    """An atrc.flags created or deleted during a session is noticed: with
    workspace/didChangeWatchedFiles (registered when the client can), and
    on the next compilation without it.  Opening a document says which
    configuration it got."""
    tmp, ws = workspace()
    try:
        tank = os.path.join(ws, "tank.gsc")
        flags = os.path.join(ws, "atrc.flags")
        s = Server(cwd=ws)
        caps = {"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": True}}}
        r = s.call("initialize", {"processId": None, "rootUri": uri(ws), "capabilities": caps})
        check(r and "result" in r, "initialize: %r" % r)
        reg = s.read_message()
        watchers = ((reg or {}).get("params") or {}).get("registrations", [{}])[0].get("registerOptions", {})
        check(reg and reg.get("method") == "client/registerCapability" and "id" in reg
              and watchers.get("watchers") == [{"globPattern": "**/atrc.flags"}],
              "a client that registers dynamically is asked to watch atrc.flags: %r" % reg)
        if reg and "id" in reg:
            s.send(frame({"jsonrpc": "2.0", "id": reg["id"], "result": None}))
        s.notify("initialized", {})
        open_doc(s, tank)
        diagnostics_now(s, uri(tank))
        shown = [n["params"]["message"] for n in s.notes if n["method"] == "window/showMessage"]
        check(len(shown) == 1 and "tank.gsc has no atrc.flags above it" in shown[0] and "default profile" in shown[0],
              "opening a document outside any project says so once: %r" % shown)
        # created, and announced by the client's watcher
        with open(flags, "w") as f:
            f.write("--frobnicate\n")
        s.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": uri(flags), "type": 1}]})
        diagnostics_now(s, uri(tank))
        d = flags_diagnostics(s, ws)
        check(d and len(d) == 1 and "unknown option '--frobnicate'" in d[0]["message"],
              "an atrc.flags created during the session is read: %r" % d)
        # deleted, with no word from the client: noticed on the next compilation
        os.unlink(flags)
        s.notes = []
        s.notify("textDocument/didChange", {"textDocument": {"uri": uri(tank), "version": 2}, "contentChanges": []})
        diagnostics_now(s, uri(tank))
        d = flags_diagnostics(s, ws)
        check(d == [], "an atrc.flags deleted during the session: its diagnostics are emptied: %r" % d)
        # opened again: a second document in the same configuration says nothing more
        s.notes = []
        open_doc(s, os.path.join(ws, "util.gsc"))
        diagnostics_now(s, uri(tank))
        shown = [n["params"]["message"] for n in s.notes if n["method"] == "window/showMessage"]
        check(shown == [], "a second document with the same configuration: no second message: %r" % shown)
        check(shut_down(s) == 0, "created and deleted: exit status 0")
    finally:
        shutil.rmtree(tmp)


def test_archive_paths_canonical():
    """An archive found through a game directory spelled '.' (relative to the
    root): its atrc-archive: URI names it by its real path, the hover by its
    path in the project, neither with '/./'."""
    import zipfile
    tmp, ws = workspace()
    try:
        os.rename(os.path.join(ws, "animtrees"), os.path.join(tmp, "trees"))
        with zipfile.ZipFile(os.path.join(ws, "pak0.pk3"), "w") as z:
            z.write(os.path.join(tmp, "trees", "tank.atr"), "animtrees/tank.atr")
        s = Server(cwd=tmp)
        initialize(s, flags=["--no-xanim", "-g", ".", "tank.gsc"], root=ws)
        tank = os.path.join(ws, "tank.gsc")
        open_doc(s, tank)
        r = s.call("textDocument/definition", {"textDocument": {"uri": uri(tank)}, "position": {"line": 7, "character": 8}})
        got = ((r or {}).get("result") or {}).get("uri", "")
        want = "atrc-archive://" + urllib.parse.quote(os.path.join(ws, "pak0.pk3")) + "!/animtrees/tank.atr"
        check(got == want, "the archive entry's URI is its real path's: %r, want %r" % (got, want))
        r = s.call("atrc/archiveEntry", {"uri": got})
        check("turret_left" in (((r or {}).get("result") or {}).get("text") or ""),
              "atrc/archiveEntry serves the entry of that URI: %r" % r)
        r = s.call("textDocument/hover", {"textDocument": {"uri": uri(tank)}, "position": {"line": 1, "character": 18}})
        text = ((r or {}).get("result") or {}).get("contents", {}).get("value", "")
        # hover paths are relative to the project (here the workspace root)
        check("/./" not in text and "`pak0.pk3:animtrees/tank.atr`" in text,
              "the hover names the tree's archive by its path in the project: %r" % text)
        check(shut_down(s) == 0, "archive paths: exit status 0")
    finally:
        shutil.rmtree(tmp)


def test_one_file_two_uris():
    """One file open under two URIs (a directory link): closing one keeps
    the other's unsaved text in the compilation."""
    tmp, ws = workspace()
    try:
        os.symlink(ws, os.path.join(tmp, "alias"))
        tank = os.path.join(ws, "tank.gsc")
        alias_uri = "file://" + urllib.parse.quote(os.path.join(tmp, "alias", "tank.gsc"))
        s = Server(cwd=ws)
        initialize(s, flags=["--no-xanim", "-g", ".", "tank.gsc"], root=ws)
        text = open(tank, encoding="utf-8").read()
        open_doc(s, tank)
        s.notify("textDocument/didOpen", {"textDocument": {"uri": alias_uri, "languageId": "gsc", "version": 1,
                                                           "text": text.replace("tank_missing", "tank_drive")}})
        got = diagnostics_now(s, alias_uri)
        check(got is not None and got["diagnostics"] == [], "the unsaved fix under the second URI is compiled: %r" % got)
        s.notify("textDocument/didClose", {"textDocument": {"uri": uri(tank)}})
        got = diagnostics_now(s, alias_uri)
        check(got is not None and got["diagnostics"] == [] and got.get("version") == 1,
              "after the first URI is closed the second's unsaved text stays in effect: %r" % got)
        check(shut_down(s) == 0, "two URIs: exit status 0")
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    tests = [v for k, v in sorted(globals().items()) if k.startswith("test_")]
    only = sys.argv[1:]
    for t in tests:
        if not only or t.__name__ in only:
            t()
    print("lsp hostile: %d checks, %d failed" % (protocol.checks, protocol.failures), file=sys.stderr)
    sys.exit(1 if protocol.failures else 0)
