/* Fuzz harness 9: whole language-server sessions through lsp_serve, the
** function `atrc lsp` runs.  The input bytes decode into a session of
** framed messages -- initialize (encodings, formats, root, flags), then
** opens of the workspace's scripts and trees (their disk text, snippets or
** the input's own bytes), full and incremental changes with valid and
** invalid ranges and versions, every request at valid and invalid
** positions, closes, reopens, cancellations, watched-file changes, params
** of the wrong type, bad JSON and junk frames, and shutdown/exit or the end
** of the input -- written to a file that the server reads as its standard
** input, its output to another.  The workspace is a temporary directory made
** once per process and reset before each session (an atrc.flags at its root
** and in sub/ present or not, options only or naming a script, or bad); the
** harness writes nowhere else.
**
** Checked: every frame the server writes is a well-formed JSON-RPC message;
** no request is answered twice or answered with an id never sent; without
** junk that can swallow frames, every request gets exactly one answer when
** the session ends with exit. */
#include "fuzz_common.h"
#include "base/outbuf.h"
#include "base/arena.h"
#include "cli/lsp.h"
#include "cli/lsp_doc.h"
#include "cli/lsp_rpc.h"
#include "os/os.h"

#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef FUZZ_ENTRY
#define FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

/* The workspace's files, written afresh before each session. */
static const char *const lspf_files[][2] = {
    {"animtrees/human.atr",
     "// the sessions' tree\n"
     "idle\nalert\n"
     "walk : loopsync\n{\n\twalk_f\n\twalk_l\n}\n"
     "death : nonloopsync\n{\n\tdie_front\n}\n"},
    {"animtrees/broken.atr", "wave\nwave\n{\n"},
    {"maps/a.gsc",
     "// a.gsc\n#include common\\util;\n#using_animtree(\"human\");\n\n"
     "main()\n{\n\tself setanim(%idle, 1);\n\tself setanim(%walk, 1, 0.2);\n"
     "\tx = aim(%walk_f, 2);\n\tcommon\\util::helper();\n\tself setanim(%idel, 1);\n}\n\n"
     "aim(clip, rate)\n{\n\tself setanimknob(clip, 1, rate);\n\treturn clip;\n}\n"},
    {"maps/b.gsc",
     "#using_animtree(\"human\");\nrun()\n{\n\tmaps\\a::aim(%die_front, 1);\n\thelper();\n"
     "\tself getentbynum(1);\n}\n"},
    {"common/util.gsc", "#using_animtree(\"broken\");\nhelper()\n{\n\treturn %wave;\n}\n"},
    {"sub/c.gsc", "#using_animtree(\"human\");\nmain()\n{\n\tself setanim(%alert, 1);\n\t/* unclosed\n"},
};

/* What a session's documents are: paths below the workspace (a link to
** maps/ gives a.gsc a second name), or whole URIs of other kinds. */
static const char *const lspf_docs[] = {
    "maps/a.gsc", "maps/b.gsc", "common/util.gsc", "sub/c.gsc", "animtrees/human.atr",
    "animtrees/broken.atr", "link/a.gsc", "atrc.flags", "maps/new.gsc", "maps/./b.gsc",
    "sub/atrc.flags", "maps/../maps/a.gsc",
    "untitled:Untitled-1", "atrc-archive:file:///nowhere/z.pk3!/maps/a.gsc", "file:///", "file://host/x.gsc",
    "file:///%ZZ.gsc", "file:///nonexistent-atrc-fuzz/%E2%82%AC.gsc", "", "file:///nonexistent-atrc-fuzz/x.atr",
};
#define LSPF_DOC_FILES 12 /* the first ones are paths below the workspace */

static const char *const lspf_root_flags[] = {
    NULL, "-j\n1\n", "--profile cod2\n-j 1\nmaps/a.gsc\n", "--bogus\n", "@missing.rsp\n",
    "-j 1\n--extension zk_libcod\n", "-g .\n--profile cod4\n-j 1\n", "maps/b.gsc\n-j\n",
};
static const char *const lspf_sub_flags[] = {NULL, "-j 1\n--profile cod1\n", "c.gsc\n-j 1\n"};

static const char *const lspf_snippets[] = {
    "", "\n", "%", "%idle", "\tself setanim(%", "}", "{", "(", ")", ";", "aim(", "main()\n{\n",
    "#include common\\util;\n", "#using_animtree(\"human\");\n", "/*", "\"", "x = ", "wait 0.05;", "\xc3\xa9",
    "\xf0\x9f\x98\x80", "\t", "thread ", "::", "common\\util::helper();", "%walk_f", "\r\n", "\xe9", "#/",
    "/#", "[[", "%nope", "self aim(%alert,", "#using_animtree(\"nope\");", "\\", "\x01",
};

static const char *const lspf_names[] = {"bar", "1x", "", "aim", "self", "x y", "helper", "%idle", "\xc3\xa9t\xc3\xa9"};

/* Diagnostics a client hands back to codeAction: the shapes the quick fixes read. */
static const char *const lspf_messages[] = {
    "unknown animation name 'idel' (did you mean 'idle'?)",
    "unknown function 'helpr' (did you mean 'helper'?)",
    "call of helper, which this file does not #include: add #include common\\util; or call it as common\\util::helper",
    "unknown function 'getentbynum': not one of the game's builtin methods",
    "did you mean ''", "'", "",
};

/* Whole frames whose bodies are not what a client should send; none can
** swallow another frame or carry a numeric id. */
static const char *const lspf_junk[] = {
    "{", "[]", "null", "\"x\"", "{\"jsonrpc\":\"2.0\"}", "{\"jsonrpc\":\"1.0\",\"id\":\"j\",\"method\":\"x\"}",
    "{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"textDocument/hover\"}",
    "{\"jsonrpc\":\"2.0\",\"id\":\"j\",\"method\":5}", "{\"jsonrpc\":\"2.0\",\"id\":\"j\",\"method\":\"\"}",
    "{\"jsonrpc\":\"2.0\",\"id\":\"j\",\"method\":\"textDocument/hover\",\"params\":[1]}",
    "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"shutdown\"}", "{\"jsonrpc\":\"2.0\",\"result\":null,\"id\":\"j\"}",
    "{\"jsonrpc\":\"2.0\",\"id\":\"atrc-watch-flags\",\"result\":null}",
    "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":null}",
    "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didChange\"}",
    "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didClose\",\"params\":{\"textDocument\":7}}",
    "{\"jsonrpc\":\"2.0\",\"method\":\"$/cancelRequest\",\"params\":{\"id\":null}}",
    ("{\"jsonrpc\":\"2.0\",\"id\":\"j\",\"method\":\"textDocument/hover\",\"params\":{\"textDocument\":{\"uri\":\"a\\u0000b\"},"
     "\"position\":{\"line\":0,\"character\":0}}}"),
    "{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":{\"a\":\"\\ud800\"}}",
    "{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":1e999}",
    "\xef\xbb\xbf{\"jsonrpc\":\"2.0\",\"method\":\"initialized\"}",
};

/* Bytes that break the framing itself: each may swallow the frames after it. */
static const char *const lspf_bad_frames[] = {
    "Content-Length: x\r\n\r\n", "Content-Type: a\r\n\r\n{}", "\r\n\r\n", "Content-Length: 3\r\n{}\r\n\r\n",
    "content-length:2\r\n\r\n{}", "Content-Length: 99999999999\r\n\r\n", "Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}",
    "garbage", "Content-Length: 5\n\n{}{}{", "Content-Length: -1\r\n\r\n",
};

static char lspf_dir[64];

#define LSPF_ARRAY(a) (sizeof(a) / sizeof *(a))

static void lspf_path(char *out, size_t size, const char *rel)
{
    snprintf(out, size, "%s/%s", lspf_dir, rel);
}

static void lspf_write(const char *rel, const char *text, size_t len)
{
    char path[256];
    lspf_path(path, sizeof path, rel);
    FILE *fp = fopen(path, "wb");
    if (!fp || (len && fwrite(text, 1, len, fp) != len) || fclose(fp) != 0) abort();
}

static void lspf_unlink(const char *rel)
{
    char path[256];
    lspf_path(path, sizeof path, rel);
    unlink(path);
}

static const char *const lspf_dirs[] = {"animtrees", "maps", "common", "sub"};
static const char *const lspf_scratch[] = {"atrc.flags", "sub/atrc.flags", "link", "session.in", "session.out"};

static void lspf_cleanup(void)
{
    for (size_t i = 0; i < LSPF_ARRAY(lspf_files); i++) lspf_unlink(lspf_files[i][0]);
    for (size_t i = 0; i < LSPF_ARRAY(lspf_scratch); i++) lspf_unlink(lspf_scratch[i]);
    for (size_t i = LSPF_ARRAY(lspf_dirs); i-- > 0;) {
        char path[256];
        lspf_path(path, sizeof path, lspf_dirs[i]);
        rmdir(path);
    }
    rmdir(lspf_dir);
}

/* The workspace as every session starts it: its files, the project files
** the options byte asks for. */
static void lspf_reset(unsigned flags_choice)
{
    if (!lspf_dir[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(lspf_dir, sizeof lspf_dir, "%s/atrc-fuzz-lsp-XXXXXX", tmp && *tmp && strlen(tmp) < 30 ? tmp : "/tmp");
        if (!os_make_temp_dir(lspf_dir)) abort();
        atexit(lspf_cleanup);
        for (size_t i = 0; i < LSPF_ARRAY(lspf_dirs); i++) {
            char path[256];
            lspf_path(path, sizeof path, lspf_dirs[i]);
            if (os_mkdir(path, 0777) != 0) abort();
        }
        char link[256];
        lspf_path(link, sizeof link, "link");
        if (symlink("maps", link) != 0) abort();
    }
    for (size_t i = 0; i < LSPF_ARRAY(lspf_files); i++)
        lspf_write(lspf_files[i][0], lspf_files[i][1], strlen(lspf_files[i][1]));
    const char *root = lspf_root_flags[flags_choice % LSPF_ARRAY(lspf_root_flags)];
    const char *sub = lspf_sub_flags[(flags_choice / LSPF_ARRAY(lspf_root_flags)) % LSPF_ARRAY(lspf_sub_flags)];
    if (root) lspf_write("atrc.flags", root, strlen(root));
    else lspf_unlink("atrc.flags");
    if (sub) lspf_write("sub/atrc.flags", sub, strlen(sub));
    else lspf_unlink("sub/atrc.flags");
}

/* ---- decoding the input into a session ---- */

typedef struct lspf_session {
    const uint8_t *data;
    size_t size, pos;
    outbuf in;         /* the framed messages */
    outbuf msg;        /* the message being written */
    int64_t next_id;   /* requests are numbered from 1 */
    int lossy;         /* a frame that may swallow others, or the input's own bytes as a body */
} lspf_session;

static unsigned lspf_take(lspf_session *f)
{
    return f->pos < f->size ? f->data[f->pos++] : 0;
}

static void lspf_frame(lspf_session *f)
{
    lsp_frame_message(&f->in, f->msg.s ? f->msg.s : "", f->msg.len);
    outbuf_flush(&f->msg);
}

/* Up to max bytes of the input itself. */
static const char *lspf_bytes(lspf_session *f, size_t max, size_t *len)
{
    size_t n = lspf_take(f) % (max + 1);
    if (n > f->size - f->pos) n = f->size - f->pos;
    const char *s = (const char *)f->data + f->pos;
    f->pos += n;
    *len = n;
    return s;
}

static void lspf_uri(lspf_session *f, outbuf *b)
{
    unsigned k = lspf_take(f) % LSPF_ARRAY(lspf_docs);
    outbuf u = {0};
    if (k < LSPF_DOC_FILES) {
        char path[256];
        lspf_path(path, sizeof path, lspf_docs[k]);
        lsp_path_to_uri(&u, path, NULL, LSP_WINDOWS_PATHS);
    } else {
        outbuf_str(&u, lspf_docs[k]);
    }
    outbuf_json_string(b, u.s ? u.s : "", u.len);
    outbuf_free(&u);
}

/* A line or character: mostly small (below `small`), sometimes out of any
** range or not an integer. */
static void lspf_number(lspf_session *f, outbuf *b, unsigned small)
{
    unsigned k = lspf_take(f);
    if (k < 0xF8) {
        outbuf_printf(b, "%u", k % small);
        return;
    }
    static const char *const odd[] = {"-1", "2147483647", "9007199254740993", "1.5", "\"3\"", "4294967296", "1e3", "-2147483649"};
    outbuf_str(b, odd[k & 7]);
}

static void lspf_position(lspf_session *f, outbuf *b)
{
    outbuf_str(b, "{\"line\":");
    lspf_number(f, b, 20);
    outbuf_str(b, ",\"character\":");
    lspf_number(f, b, 30);
    outbuf_char(b, '}');
}

static void lspf_range(lspf_session *f, outbuf *b)
{
    outbuf_str(b, "{\"start\":");
    lspf_position(f, b);
    outbuf_str(b, ",\"end\":");
    lspf_position(f, b);
    outbuf_char(b, '}');
}

/* A text: a workspace file's, snippets, or the input's own bytes. */
static void lspf_text(lspf_session *f, outbuf *b)
{
    unsigned k = lspf_take(f);
    outbuf t = {0};
    if (k % 4 == 0) {
        const char *s = lspf_files[(k / 4) % LSPF_ARRAY(lspf_files)][1];
        outbuf_str(&t, s);
    } else if (k % 4 == 1) {
        size_t len;
        const char *s = lspf_bytes(f, 255, &len);
        outbuf_put(&t, s, len);
    } else {
        for (unsigned n = k / 4 % 6; n-- > 0;) outbuf_str(&t, lspf_snippets[lspf_take(f) % LSPF_ARRAY(lspf_snippets)]);
    }
    outbuf_json_string(b, t.s ? t.s : "", t.len);
    outbuf_free(&t);
}

static void lspf_text_document(lspf_session *f, outbuf *b)
{
    outbuf_str(b, "\"textDocument\":{\"uri\":");
    lspf_uri(f, b);
    outbuf_char(b, '}');
}

static void lspf_begin(lspf_session *f, const char *method, int request)
{
    outbuf_str(&f->msg, "{\"jsonrpc\":\"2.0\",");
    if (request) outbuf_printf(&f->msg, "\"id\":%lld,", (long long)f->next_id++);
    outbuf_str(&f->msg, "\"method\":");
    outbuf_json_string(&f->msg, method, strlen(method));
    outbuf_str(&f->msg, ",\"params\":");
}

static void lspf_initialize(lspf_session *f, unsigned opt)
{
    lspf_begin(f, "initialize", 1);
    outbuf *b = &f->msg;
    outbuf_str(b, "{\"processId\":null,\"capabilities\":{");
    outbuf_printf(b, "\"general\":{\"positionEncodings\":[%s\"utf-16\"]},", opt & 1 ? "\"utf-8\"," : "");
    outbuf_printf(b, "\"textDocument\":{\"hover\":{\"contentFormat\":[\"%s\"]},"
                     "\"completion\":{\"completionList\":{\"itemDefaults\":[%s]}}},",
                  opt & 2 ? "plaintext" : "markdown", opt & 4 ? "\"editRange\"" : "");
    outbuf_printf(b, "\"workspace\":{\"didChangeWatchedFiles\":{\"dynamicRegistration\":%s}}}",
                  opt & 8 ? "true" : "false");
    outbuf root = {0};
    lsp_path_to_uri(&root, lspf_dir, NULL, LSP_WINDOWS_PATHS);
    switch ((opt >> 4) & 3) {
    case 0:
        outbuf_str(b, ",\"rootUri\":");
        outbuf_json_string(b, root.s, root.len);
        break;
    case 1:
        outbuf_str(b, ",\"rootUri\":null,\"workspaceFolders\":[{\"name\":\"w\",\"uri\":");
        outbuf_json_string(b, root.s, root.len);
        outbuf_str(b, "}]");
        break;
    case 2:
        outbuf_str(b, ",\"rootPath\":");
        outbuf_json_string(b, lspf_dir, strlen(lspf_dir));
        break;
    default: break; /* no workspace */
    }
    outbuf_free(&root);
    switch ((opt >> 6) & 3) {
    case 1: outbuf_str(b, ",\"initializationOptions\":{\"flags\":[\"-j\",\"1\",\"--profile\",\"cod2\"],\"inlayHints\":false}"); break;
    case 2: outbuf_str(b, ",\"initializationOptions\":{\"flags\":[\"@atrc.flags\"]}"); break;
    case 3: outbuf_str(b, ",\"initializationOptions\":{\"flags\":[\"-j\",1]}"); break;
    default: break;
    }
    outbuf_str(b, "}}");
    lspf_frame(f);
}

static void lspf_did_change(lspf_session *f)
{
    outbuf *b = &f->msg;
    lspf_begin(f, "textDocument/didChange", 0);
    outbuf_str(b, "{\"textDocument\":{\"uri\":");
    lspf_uri(f, b);
    outbuf_str(b, ",\"version\":");
    lspf_number(f, b, 50);
    outbuf_str(b, "},\"contentChanges\":[");
    for (unsigned n = 1 + lspf_take(f) % 3, i = 0; i < n; i++) {
        unsigned k = lspf_take(f);
        outbuf_str(b, i ? ",{" : "{");
        if (k % 4 != 0) {
            outbuf_str(b, "\"range\":");
            lspf_range(f, b);
            outbuf_char(b, ',');
        }
        outbuf_str(b, "\"text\":");
        if (k % 16 == 15) outbuf_str(b, "null");
        else lspf_text(f, b);
        outbuf_char(b, '}');
    }
    outbuf_str(b, "]}}");
    lspf_frame(f);
}

/* A request about a document: its params, as each method takes them. */
static void lspf_request(lspf_session *f, unsigned k)
{
    static const char *const methods[] = {
        "textDocument/hover", "textDocument/definition", "textDocument/completion", "textDocument/references",
        "textDocument/signatureHelp", "textDocument/prepareRename", "textDocument/rename",
        "textDocument/documentSymbol", "textDocument/foldingRange", "textDocument/semanticTokens/full",
        "textDocument/inlayHint", "textDocument/codeAction", "workspace/symbol", "atrc/archiveEntry",
    };
    unsigned which = k % LSPF_ARRAY(methods);
    outbuf *b = &f->msg;
    lspf_begin(f, methods[which], 1);
    unsigned shape = lspf_take(f);
    if (shape % 32 == 31) { /* params of the wrong kind */
        outbuf_str(b, shape & 32 ? "null}" : "[]}");
        lspf_frame(f);
        return;
    }
    outbuf_char(b, '{');
    if (which <= 11) lspf_text_document(f, b);
    else if (which == 12) {
        outbuf_str(b, "\"query\":");
        lspf_text(f, b);
    } else {
        outbuf_str(b, "\"uri\":");
        lspf_uri(f, b);
    }
    if (which <= 6) {
        outbuf_str(b, ",\"position\":");
        lspf_position(f, b);
    }
    if (which == 3) outbuf_printf(b, ",\"context\":{\"includeDeclaration\":%s}", shape & 1 ? "true" : "false");
    if (which == 6) {
        outbuf_str(b, ",\"newName\":");
        const char *name = lspf_names[lspf_take(f) % LSPF_ARRAY(lspf_names)];
        outbuf_json_string(b, name, strlen(name));
    }
    if (which == 10 || which == 11) {
        outbuf_str(b, ",\"range\":");
        lspf_range(f, b);
    }
    if (which == 11) {
        outbuf_str(b, ",\"context\":{\"diagnostics\":[");
        for (unsigned n = lspf_take(f) % 3, i = 0; i < n; i++) {
            const char *msg = lspf_messages[lspf_take(f) % LSPF_ARRAY(lspf_messages)];
            outbuf_str(b, i ? ",{\"range\":" : "{\"range\":");
            lspf_range(f, b);
            outbuf_str(b, ",\"source\":\"atrc\",\"code\":");
            outbuf_str(b, shape & 2 ? "\"unknown-function\"" : "\"E1\"");
            outbuf_str(b, ",\"message\":");
            outbuf_json_string(b, msg, strlen(msg));
            outbuf_char(b, '}');
        }
        outbuf_str(b, "]}");
    }
    outbuf_str(b, "}}");
    lspf_frame(f);
}

/* One step of the session; 0 when it ended it (exit, or the input is used up). */
static int lspf_step(lspf_session *f)
{
    if (f->pos >= f->size) return 0;
    unsigned op = lspf_take(f);
    outbuf *b = &f->msg;
    switch (op % 24) {
    case 0: case 1: case 2: /* open (or reopen) */
        lspf_begin(f, "textDocument/didOpen", 0);
        outbuf_str(b, "{\"textDocument\":{\"uri\":");
        lspf_uri(f, b);
        outbuf_str(b, op & 32 ? ",\"languageId\":\"gsc\",\"version\":" : ",\"version\":");
        lspf_number(f, b, 9);
        outbuf_str(b, ",\"text\":");
        lspf_text(f, b);
        outbuf_str(b, "}}}");
        lspf_frame(f);
        break;
    case 3: case 4: case 5:
        lspf_did_change(f);
        break;
    case 6:
        lspf_begin(f, "textDocument/didClose", 0);
        outbuf_char(b, '{');
        lspf_text_document(f, b);
        outbuf_str(b, "}}");
        lspf_frame(f);
        break;
    case 7:
        lspf_begin(f, op & 32 ? "textDocument/didSave" : "workspace/didChangeWatchedFiles", 0);
        if (op & 32) {
            outbuf_char(b, '{');
            lspf_text_document(f, b);
            outbuf_str(b, "}}");
        } else {
            outbuf_str(b, "{\"changes\":[{\"uri\":");
            lspf_uri(f, b);
            outbuf_printf(b, ",\"type\":%u}]}}", lspf_take(f) % 4);
        }
        lspf_frame(f);
        break;
    case 8: { /* a cancellation: of the next request, the last, or one never sent */
        unsigned k = lspf_take(f);
        lspf_begin(f, "$/cancelRequest", 0);
        int64_t id = k % 3 == 0 ? f->next_id : k % 3 == 1 ? f->next_id - 1 : 1000 + k;
        outbuf_printf(b, k & 64 ? "{\"id\":\"%lld\"}}" : "{\"id\":%lld}}", (long long)id);
        lspf_frame(f);
        break;
    }
    case 9: /* a frame of well-framed junk */
        outbuf_str(b, lspf_junk[lspf_take(f) % LSPF_ARRAY(lspf_junk)]);
        lspf_frame(f);
        break;
    case 10: { /* the input's own bytes: a body, or the stream itself */
        size_t len;
        const char *s = lspf_bytes(f, 200, &len);
        if (op & 32) outbuf_put(&f->in, s, len);
        else {
            outbuf_put(b, s, len);
            lspf_frame(f);
        }
        f->lossy = 1;
        break;
    }
    case 11:
        outbuf_str(&f->in, lspf_bad_frames[lspf_take(f) % LSPF_ARRAY(lspf_bad_frames)]);
        f->lossy = 1;
        break;
    case 12: /* the rest of the lifecycle, mid-session */
        switch (lspf_take(f) % 5) {
        case 0: lspf_begin(f, "shutdown", 1); outbuf_str(b, "null}"); break;
        case 1: lspf_initialize(f, lspf_take(f)); return 1;
        case 2: lspf_begin(f, "initialized", 0); outbuf_str(b, "{}}"); break;
        case 3: lspf_begin(f, "$/setTrace", 0); outbuf_str(b, "{\"value\":\"verbose\"}}"); break;
        default: lspf_begin(f, "textDocument/unknown", 1); outbuf_str(b, "{}}"); break;
        }
        lspf_frame(f);
        break;
    case 13:
        return 0;
    default:
        lspf_request(f, lspf_take(f));
        break;
    }
    return 1;
}

/* ---- checking what the server wrote ---- */

static unsigned char *lspf_read_file(const char *path, size_t *len)
{
    outbuf b = {0};
    FILE *fp = fopen(path, "rb");
    if (!fp) abort();
    char buf[65536];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, fp)) > 0) outbuf_put(&b, buf, k);
    fclose(fp);
    *len = b.len;
    return (unsigned char *)b.s;
}

static void lspf_check_output(const lspf_session *f, int status, int ended_with_exit)
{
    char path[256];
    lspf_path(path, sizeof path, "session.out");
    size_t len;
    unsigned char *out = lspf_read_file(path, &len);
    unsigned char *answered = xcalloc((size_t)f->next_id, 1);
    lsp_reader r = {0};
    if (len) lsp_reader_feed(&r, (const char *)out, len); /* nothing written: out is NULL */
    char *body, why[200];
    size_t n;
    lsp_frame fr;
    while ((fr = lsp_reader_next(&r, &body, &n, why, sizeof why)) != LSP_FRAME_MORE) {
        if (fr != LSP_FRAME_MESSAGE) abort(); /* the server frames what it writes */
        arena a;
        arena_init(&a);
        lsp_message m;
        if (lsp_message_parse(body, n, &a, &m, why, sizeof why) != 0) abort(); /* and writes JSON-RPC */
        if (!m.method && m.id && m.id->type == JSON_NUMBER) {
            int64_t id = m.id->u.number.i;
            if (id < 1 || id >= f->next_id || answered[id]) abort(); /* one answer per request sent */
            answered[id] = 1;
        }
        arena_free_all(&a);
    }
    if (r.buf.count != r.start) abort(); /* no partial frame at the end */
    lsp_reader_free(&r);
    /* after exit (shutdown or not) every request before it was answered */
    if (!f->lossy && ended_with_exit) {
        if (status != 0 && status != 1) abort();
        for (int64_t id = 1; id < f->next_id; id++)
            if (!answered[id]) abort();
    }
    free(answered);
    free(out);
}

/* Input: byte 0 = the project files, byte 1 = initialize's options, the
** rest = the session's steps. */
int FUZZ_ENTRY(const uint8_t *data, size_t size);
int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    if (size < 2) return 0;
    lspf_reset(data[0]);
    lspf_session f;
    memset(&f, 0, sizeof f);
    f.data = data;
    f.size = size;
    f.pos = 2;
    f.next_id = 1;
    if (!(data[1] & 0x80) || (data[0] & 0x80)) lspf_initialize(&f, data[1] << 1 | (data[0] >> 7));
    for (int steps = 0; steps < 300 && lspf_step(&f); steps++) {
    }
    /* the end: shutdown and exit, exit alone, or the input just ends */
    unsigned end = f.pos < f.size ? f.data[f.size - 1] % 4 : 0;
    if (end < 2) {
        if (end) outbuf_printf(&f.msg, "{\"jsonrpc\":\"2.0\",\"id\":%lld,\"method\":\"shutdown\"}", (long long)f.next_id++);
        else {
            lspf_begin(&f, "shutdown", 1);
            outbuf_str(&f.msg, "null}");
        }
        lspf_frame(&f);
    }
    if (end < 3) {
        lspf_begin(&f, "exit", 0);
        outbuf_str(&f.msg, "null}");
        lspf_frame(&f);
    }
    char in_path[256], out_path[256];
    lspf_path(in_path, sizeof in_path, "session.in");
    lspf_path(out_path, sizeof out_path, "session.out");
    lspf_write("session.in", f.in.s ? f.in.s : "", f.in.len);
    int in = open(in_path, O_RDONLY), out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (in < 0 || out < 0) abort();
    int status = lsp_serve(in, out, fuzz_sink());
    close(in);
    close(out);
    if (status != 0 && status != 1) abort();
    lspf_check_output(&f, status, end < 3);
    outbuf_free(&f.in);
    outbuf_free(&f.msg);
    return 0;
}
