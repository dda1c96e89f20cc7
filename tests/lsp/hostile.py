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
    compiled from the disk, not as an empty (or edited) text."""
    tmp, ws = workspace()
    try:
        tank = os.path.join(ws, "tank.gsc")
        s = Server(cwd=ws)
        initialize(s, flags=["--no-xanim", "-g", ".", "tank.gsc"], root=ws)
        open_doc(s, tank)
        first = s.diagnostics_for(uri(tank))
        check(first and len(first["diagnostics"]) == 1, "tank.gsc has its one error: %r" % first)
        s.notify("textDocument/didClose", {"textDocument": {"uri": uri(tank)}})
        s.notify("textDocument/didChange", {"textDocument": {"uri": uri(tank), "version": 5}, "contentChanges": [
            {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": ""}]})
        got = diagnostics_now(s, uri(tank))
        check(got and len(got["diagnostics"]) == 1 and got.get("version") is None,
              "after didChange of a closed document the disk's diagnostics stay: %r" % got)
        check(shut_down(s) == 0, "didChange of a closed document: exit status 0")
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
