#!/usr/bin/env python3
"""make bench, editor section: `atrc lsp` on a real level.

One-line edits of a script of the level until the server has published its
diagnostics (the whole level recompiled from the session), hover,
definition, completion and references on a %name, references and rename of
the script's first function (every call in the level's scripts), workspace
symbols (every function of the level), and the server's resident memory over
the edits.
    ATRC=build/atrc python3 scripts/lsp-bench.py GAME_DIR PROFILE MAP SCRIPT [EDITS]
e.g. ../shared/corpus/cod4-game cod4 killhouse animscripts/combat.gsc 1000
"""
import json
import os
import select
import statistics
import subprocess
import sys
import time
import urllib.parse

atrc = os.environ["ATRC"]
game, profile, level, script = sys.argv[1:5]
edits = int(sys.argv[5]) if len(sys.argv) > 5 else 1000
game = os.path.realpath(game)
path = os.path.join(game, script)
flags = ["--profile", profile, "-g", game, "--map", level, "--sp"]


def frame(obj):
    body = json.dumps(obj).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


p = subprocess.Popen([atrc, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
buf = b""


def send(obj):
    p.stdin.write(frame(obj))
    p.stdin.flush()


def read():
    global buf
    while True:
        head, sep, rest = buf.partition(b"\r\n\r\n")
        if sep:
            n = int(head.split(b":")[1])
            if len(rest) >= n:
                buf = rest[n:]
                return json.loads(rest[:n])
        r, _, _ = select.select([p.stdout], [], [], 60)
        if not r:
            sys.exit("lsp-bench: the server stopped answering")
        chunk = os.read(p.stdout.fileno(), 1 << 20)
        if not chunk:
            sys.exit("lsp-bench: the server exited")
        buf += chunk


def until(pred):
    while True:
        m = read()
        if pred(m):
            return m


def cpu_ms():
    """The server's CPU time so far (user + system): what a loaded machine's wall times hide."""
    with open("/proc/%d/stat" % p.pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000.0 / os.sysconf("SC_CLK_TCK")


def rss_kb():
    with open("/proc/%d/status" % p.pid) as f:
        v = {l.split(":")[0]: l.split(":")[1].strip() for l in f}
    return int(v["VmRSS"].split()[0]), int(v["VmHWM"].split()[0])


uri = "file://" + urllib.parse.quote(path)
send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
      "params": {"rootUri": "file://" + urllib.parse.quote(game),
                 "capabilities": {"textDocument": {"completion": {"completionList": {"itemDefaults": ["editRange"]}}}},
                 "initializationOptions": {"flags": flags}}})
until(lambda m: m.get("id") == 1)
send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
text = open(path, encoding="utf-8", errors="replace").read()
lines = text.split("\n")
t0 = time.perf_counter()
send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
      "params": {"textDocument": {"uri": uri, "languageId": "gsc", "version": 1, "text": text}}})
until(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri)
first = (time.perf_counter() - t0) * 1000

# the first %name of the script the command line lists, for hover and definition
cli = json.loads(subprocess.run([atrc, "--format", "json"] + flags, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL).stdout)
ref = next(r for r in cli["references"] if r["kind"] == "anim" and r["value"] is not None and r["file"]
           and os.path.realpath(r["file"]) == path)
ln = ref["line"] - 1
col = len(lines[ln].encode("utf-8")[:ref["column"]].decode("utf-8", "replace").encode("utf-16-le")) // 2
pos = {"textDocument": {"uri": uri}, "position": {"line": ln, "character": col}}

rid = 10


def timed(method, n, params=None):
    global rid
    out = []
    for _ in range(n):
        rid += 1
        t = time.perf_counter()
        send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params or pos})
        r = until(lambda m: m.get("id") == rid)
        out.append((time.perf_counter() - t) * 1000)
    return out, r


hover, hr = timed("textDocument/hover", 200)
definition, dr = timed("textDocument/definition", 200)
if not (hr.get("result") and dr.get("result")) or "0x%08x" % ref["value"] not in hr["result"]["contents"]["value"]:
    sys.exit("lsp-bench: no hover or definition at %s:%d:%d: %r %r" % (script, ln + 1, col, hr, dr))

# completion after the '%' of that name, its references
at_name = {"textDocument": {"uri": uri}, "position": {"line": ln, "character": col + 1}}
completion, cr = timed("textDocument/completion", 200, at_name)
anim_refs, ar = timed("textDocument/references", 200, dict(pos, context={"includeDeclaration": False}))
if not cr.get("result", {}).get("items") or not ar.get("result"):
    sys.exit("lsp-bench: no completion or references at %s:%d:%d: %r %r" % (script, ln + 1, col, cr, ar))
# the script's first function: its calls across the level, a rename of it
_, sr = timed("textDocument/documentSymbol", 1, {"textDocument": {"uri": uri}})
fn = sr["result"][0]
fpos = {"textDocument": {"uri": uri}, "position": fn["selectionRange"]["start"]}
fn_refs, fr = timed("textDocument/references", 50, dict(fpos, context={"includeDeclaration": True}))
rename, rr = timed("textDocument/rename", 50, dict(fpos, newName=fn["name"] + "_renamed"))
symbols, wr = timed("workspace/symbol", 50, {"query": ""})
edits_made = sum(len(v) for v in (rr.get("result") or {}).get("changes", {}).values())
if not fr.get("result") or not edits_made or not wr.get("result"):
    sys.exit("lsp-bench: no references, rename or symbols of %s: %r %r" % (fn["name"], fr, rr))

rss_after_open = rss_kb()[0]
cpu0 = cpu_ms()
times = []
rss_at = {}
original = lines[ln]
for k in range(edits):
    version = k + 2
    new = original + ("" if k % 2 else " // edit %d" % k)
    old_len = len(lines[ln].encode("utf-16-le")) // 2
    lines[ln] = new
    t = time.perf_counter()
    send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
        "textDocument": {"uri": uri, "version": version},
        "contentChanges": [{"range": {"start": {"line": ln, "character": 0}, "end": {"line": ln, "character": old_len}},
                            "text": new}]}})
    until(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
          and m["params"].get("version") == version)
    times.append((time.perf_counter() - t) * 1000)
    if k + 1 in (10, 100, 1000) or k + 1 == edits:
        rss_at[k + 1] = rss_kb()[0]
cpu_per_edit = (cpu_ms() - cpu0) / edits
send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
until(lambda m: m.get("id") == 2)
send({"jsonrpc": "2.0", "method": "exit"})
p.wait()


def row(label, xs):
    xs = sorted(xs)
    print("  %-34s median %7.2f ms   p90 %7.2f ms   max %7.2f ms" % (
        label, statistics.median(xs), xs[int(len(xs) * 0.9) - 1 if len(xs) > 1 else 0], xs[-1]))


print("== editor: atrc lsp, --profile %s -g %s --map %s --sp, %d one-line edits of %s (load average %.1f)" % (
    profile, sys.argv[1], level, edits, script, os.getloadavg()[0]))
print("  %-34s %7.1f ms" % ("open until diagnostics", first))
row("one-line edit until diagnostics", times)
print("  %-34s %7.2f ms (the server's user + system time / edits)" % ("CPU per edit", cpu_per_edit))
row("hover on %%name (line %d)" % (ln + 1), hover)
row("definition of %name", definition)
row("completion after %", completion)
row("references of %%name (%d)" % len(ar["result"]), anim_refs)
row("references of %s() (%d)" % (fn["name"], len(fr["result"])), fn_refs)
row("rename of %s() (%d edits)" % (fn["name"], edits_made), rename)
row("workspace symbols (%d functions)" % len(wr["result"]), symbols)
print("  %-34s %s" % ("resident memory (MiB)", "after open %.1f; " % (rss_after_open / 1024) +
                      "; ".join("after %d edits %.1f" % (k, v / 1024) for k, v in sorted(rss_at.items()))))
