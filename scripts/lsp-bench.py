#!/usr/bin/env python3
"""make bench, editor section: `atrc lsp` on a real level.

One-line edits of a script of the level until the server has published its
diagnostics (the whole level recompiled from the session), hover,
definition, completion and references on a %name, references and rename of
the script's first function (every call in the level's scripts), workspace
symbols (every function of the level), the last two also just after an edit
(the first question about functions in a new compilation), and the server's
resident memory over the edits.  Each request is timed from its sending
until its answer's last byte is read (the client's parsing of the JSON not
included), with the server's CPU time per request beside it (user + system:
what a loaded machine inflates least), and checked against its budget.
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


last_byte = 0.0  # when the last message read was complete (before its parsing)


def read():
    global buf, last_byte
    while True:
        head, sep, rest = buf.partition(b"\r\n\r\n")
        if sep:
            n = int(head.split(b":")[1])
            if len(rest) >= n:
                last_byte = time.perf_counter()
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


cpu_of = {}  # a row's label -> the server's CPU ms per request


def timed(method, n, params=None):
    """n requests; their times (ms) with the server's CPU per request as .cpu, and the last answer."""
    global rid
    out = Times()
    c0 = cpu_ms()
    for _ in range(n):
        rid += 1
        t = time.perf_counter()
        send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params or pos})
        r = until(lambda m: m.get("id") == rid)
        out.append((last_byte - t) * 1000)
    out.cpu = (cpu_ms() - c0) / n
    return out, r


class Times(list):
    cpu = None


edits_sent = 0


def edit_line():
    """The next one-line edit: a trailing comment added, then removed, and so on."""
    global edits_sent
    k = edits_sent
    edits_sent += 1
    version = k + 2
    new = original + ("" if k % 2 else " // edit %d" % k)
    old_len = len(lines[ln].encode("utf-16-le")) // 2
    lines[ln] = new
    send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
        "textDocument": {"uri": uri, "version": version},
        "contentChanges": [{"range": {"start": {"line": ln, "character": 0}, "end": {"line": ln, "character": old_len}},
                            "text": new}]}})
    until(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
          and m["params"].get("version") == version)


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
original = lines[ln]
# references of the function and workspace symbols, each asked once just
# after an edit: the new compilation's first questions about functions
after = max(2, min(50, edits // 4))
fn_refs_after, symbols_after = Times(), Times()
cpu_after = {"refs": 0.0, "symbols": 0.0}
for k in range(after):
    # each after an edit of its own: a compilation nothing was asked of yet
    for name, method, params, into in (("refs", "textDocument/references", dict(fpos, context={"includeDeclaration": True}), fn_refs_after),
                                       ("symbols", "workspace/symbol", {"query": ""}, symbols_after)):
        edit_line()
        t_ms, _ = timed(method, 1, params)
        into.extend(t_ms)
        cpu_after[name] += t_ms.cpu
fn_refs_after.cpu = cpu_after["refs"] / after
symbols_after.cpu = cpu_after["symbols"] / after
cpu0 = cpu_ms()
times = Times()
rss_at = {}
for k in range(edits):
    t = time.perf_counter()
    edit_line()
    times.append((last_byte - t) * 1000)
    if k + 1 in (10, 100, 1000) or k + 1 == edits:
        rss_at[k + 1] = rss_kb()[0]
times.cpu = (cpu_ms() - cpu0) / edits
send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
until(lambda m: m.get("id") == 2)
send({"jsonrpc": "2.0", "method": "exit"})
p.wait()


over = []


def row(label, xs, budget):
    """A row: median, p90, max, the server's CPU per request, and the median against its budget."""
    cpu = xs.cpu
    xs = sorted(xs)
    med = statistics.median(xs)
    ok = med < budget
    if not ok:
        over.append(label)
    print("  %-40s median %7.2f   p90 %7.2f   max %7.2f   CPU %6.2f ms   budget %3d ms %s" % (
        label, med, xs[int(len(xs) * 0.9) - 1 if len(xs) > 1 else 0], xs[-1], cpu, budget, "ok" if ok else "OVER"))


print("== editor: atrc lsp, --profile %s -g %s --map %s --sp, %d one-line edits of %s (load average %.1f)" % (
    profile, sys.argv[1], level, edits, script, os.getloadavg()[0]))
print("  times in ms from the request (or didChange) until the last byte of its answer (or its diagnostics)")
print("  %-40s %7.1f ms" % ("open until diagnostics", first))
row("one-line edit until diagnostics", times, 50)
row("hover on %%name (line %d)" % (ln + 1), hover, 5)
row("definition of %name", definition, 5)
row("completion after %% (%d items)" % len(cr["result"]["items"]), completion, 5)
row("references of %%name (%d)" % len(ar["result"]), anim_refs, 5)
row("references of %s() (%d)" % (fn["name"], len(fr["result"])), fn_refs, 5)
row("  the same just after an edit", fn_refs_after, 5)
row("rename of %s() (%d edits)" % (fn["name"], edits_made), rename, 50)
row("workspace symbols (%d functions)" % len(wr["result"]), symbols, 50)
row("  the same just after an edit", symbols_after, 50)
print("  %-40s %s" % ("resident memory (MiB)", "after open %.1f; " % (rss_after_open / 1024) +
                      "; ".join("after %d edits %.1f" % (k, v / 1024) for k, v in sorted(rss_at.items()))))
if over:
    print("  over budget (median): %s -- at a load average of %.1f on %d CPUs" % (
        ", ".join(over), os.getloadavg()[0], os.cpu_count() or 1))
