/* `atrc lsp`: the server loop, the lifecycle, the documents and the
** compilation they configure (lsp.h).  The messages that ask about the
** compilation are answered in lsp_answer.c. */
#include "cli/lsp.h"
#include "cli/lsp_server.h"
#include "cli/project.h"
#include "os/os.h"
#include "base/vec.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* ---- configuration and compilation ---- */

static int is_script_path(const char *path)
{
    const char *dot = strrchr(path, '.');
    return dot && !os_last_path_sep(dot) && (strcasecmp(dot, ".gsc") == 0 || strcasecmp(dot, ".csc") == 0);
}

/* The directory of path (malloc'ed). */
static char *dir_of(const char *path)
{
    const char *sep = os_last_path_sep(path);
    if (!sep) return os_strndup(".", 1);
    return os_strndup(path, sep == path ? 1 : (size_t)(sep - path));
}

/* The open scripts below dir (all when dir is NULL) as operands: file-list
** mode on them.  Returns how many. */
static size_t add_open_scripts(lsp_server *s, const char *dir)
{
    size_t scripts = 0;
    for (size_t i = 0; i < s->docs.count; i++) {
        const lsp_doc *d = &s->docs.items[i];
        if (d->open && d->path && is_script_path(d->path) && (!dir || argfile_below(dir, d->path) == 1)) {
            arglist_add(&s->args, d->path, NULL);
            scripts++;
        }
    }
    return scripts;
}

/* The project file, read as data: only what shapes a compilation.  One
** that names no scripts, map or entry (options only, as people write
** compile_flags.txt) applies to the open scripts below it, its directory
** the game directory unless it names one. */
static int project_args(lsp_server *s, FILE *err)
{
    int rc = arglist_read_project(&s->args, s->project, err);
    project_scan scan;
    if (rc == 0) rc = project_check_args(&s->args, 1, &scan, err);
    if (rc != 0 || scan.has_inputs) return rc;
    char *dir = dir_of(s->project), *real = dir ? os_real_path(dir) : NULL;
    if (real && !scan.has_game_dir) {
        arglist_add(&s->args, "-g", NULL);
        arglist_add(&s->args, real, NULL);
    }
    size_t scripts = real ? add_open_scripts(s, real) : 0;
    free(dir);
    free(real);
    return scripts ? 0 : -1;
}

/* The arguments of the compilation into s->args; 0 or 2 (messages to err),
** -1 when there is nothing to compile. */
static int build_args(lsp_server *s, FILE *err)
{
    arglist_free(&s->args);
    arglist_add(&s->args, "atrc", NULL);
    if (s->project) return project_args(s, err);
    /* typed by the user in the client's settings: `@FILE` reads a response file */
    if (s->init_flags.argc > 0)
        return arglist_expand_list(&s->args, &s->init_flags, s->root, "initializationOptions.flags", err);
    /* file-list mode on the open scripts; the workspace root is the game directory */
    if (s->root) {
        arglist_add(&s->args, "-g", NULL);
        arglist_add(&s->args, s->root, NULL);
    }
    return add_open_scripts(s, NULL) ? 0 : -1;
}

void lsp_compile(lsp_server *s)
{
    s->dirty = 0;
    if (s->ctx) atrc_free(s->ctx);
    s->ctx = NULL;
    cli_free(&s->cli);
    char *text = NULL;
    size_t len = 0;
    FILE *err = os_memstream_open(&text, &len);
    if (!err) return;
    lsp_project_choose(s);
    int rc = build_args(s, err);
    if (rc == 0) rc = cli_parse(&s->cli, &s->args, err);
    if (rc == 0 && (s->cli.action != CLI_RUN || s->cli.dump || s->cli.explain)) {
        fputs("atrc: error: the language server compiles: --help, --version, --dump-*, --explain do not apply\n", err);
        rc = 2;
    }
    for (int i = 0; rc == 0 && i < s->cli.script_count; i++) {
        if (strcmp(s->cli.scripts[i], "-") == 0) {
            /* standard input is the protocol's */
            fputs("atrc: error: standard input ('-') cannot be a script of the language server\n", err);
            rc = 2;
        }
    }
    if (rc == 0) rc = cli_check_game_dirs(&s->cli);
    if (rc == 0) {
        if (s->cli.opts.jobs == 0) {
            int cpus = os_cpu_count();
            s->cli.opts.jobs = cpus > 64 ? 64 : cpus;
        }
        s->ctx = atrc_session_begin(s->session, &s->cli.opts);
        if (s->ctx && cli_configure(&s->cli, s->ctx) == 0) {
            atrc_build_trees(s->ctx);
        } else if (s->ctx) {
            atrc_free(s->ctx);
            s->ctx = NULL;
        }
    }
    os_memstream_close(err, &text, &len);
    free(s->config_error);
    s->config_error = text && len ? text : NULL;
    if (!s->config_error) free(text);
    s->compiles++;
    lsp_publish(s);
}

/* ---- documents ---- */

static void set_buffer(lsp_server *s, const lsp_doc *doc)
{
    if (doc->path) atrc_session_set_buffer(s->session, doc->path, doc->text, doc->len);
    s->dirty = 1;
}

/* The open document params name, or NULL: a closed one keeps its slot but
** has no text to edit or buffer to drop. */
static lsp_doc *param_doc(lsp_server *s, const json_value *params)
{
    const char *uri = lsp_str(json_get(params, "textDocument"), "uri");
    lsp_doc *doc = uri ? lsp_docs_find(&s->docs, uri) : NULL;
    return doc && doc->open ? doc : NULL;
}

static void did_open(lsp_server *s, const json_value *params)
{
    const json_value *td = json_get(params, "textDocument");
    const char *uri = lsp_str(td, "uri");
    const json_value *text = json_get(td, "text");
    int64_t version = 0;
    lsp_int(td, "version", &version);
    if (!uri || !text || text->type != JSON_STRING) return;
    lsp_uri_style_learn(&s->uri_style, uri);
    lsp_doc *doc = lsp_docs_open(&s->docs, uri, text->u.string.s, text->u.string.len, version);
    lsp_project_focus(s, doc);
    lsp_project_say(s, doc);
    set_buffer(s, doc);
}

/* contentChanges: whole texts, or ranges in the negotiated encoding, in order. */
static void did_change(lsp_server *s, const json_value *params)
{
    lsp_doc *doc = param_doc(s, params);
    const json_value *changes = json_get(params, "contentChanges");
    if (!doc || !changes || changes->type != JSON_ARRAY) return;
    int64_t version;
    if (lsp_int(json_get(params, "textDocument"), "version", &version) == 0) doc->version = version;
    for (size_t i = 0; i < changes->u.array.count; i++) {
        const json_value *c = changes->u.array.items[i];
        const json_value *text = json_get(c, "text");
        const json_value *range = json_get(c, "range");
        if (!text || text->type != JSON_STRING) continue;
        if (!range) {
            lsp_docs_open(&s->docs, doc->uri, text->u.string.s, text->u.string.len, doc->version);
            continue;
        }
        int64_t sl, sc, el, ec;
        const json_value *a = json_get(range, "start"), *b = json_get(range, "end");
        if (lsp_int(a, "line", &sl) || lsp_int(a, "character", &sc) || lsp_int(b, "line", &el) ||
            lsp_int(b, "character", &ec) || sl < 0 || el < 0 || sc < 0 || ec < 0 || sl > INT32_MAX || el > INT32_MAX ||
            lsp_doc_edit(doc, (int)sl, sc, (int)el, ec, text->u.string.s, text->u.string.len, s->utf8) != 0) {
            lsp_log(s, 1, "didChange: a range that is not in the document (the edit is ignored)");
        }
    }
    lsp_project_focus(s, doc);
    set_buffer(s, doc);
}

static void did_close(lsp_server *s, const json_value *params)
{
    lsp_doc *doc = param_doc(s, params);
    if (!doc) return;
    if (doc->path) atrc_session_drop_buffer(s->session, doc->path);
    lsp_docs_close(&s->docs, doc);
    /* the same file still open under another URI (a directory link): its
    ** unsaved text is the file's, not the disk's */
    lsp_doc *other = doc->real ? lsp_docs_find_path(&s->docs, doc->real) : NULL;
    if (other) atrc_session_set_buffer(s->session, other->path, other->text, other->len);
    s->dirty = 1;
}

/* ---- lifecycle ---- */

static void initialize(lsp_server *s, const lsp_message *m)
{
    const json_value *p = m->params;
    const json_value *encodings = json_get(json_get(json_get(p, "capabilities"), "general"), "positionEncodings");
    s->utf8 = 0;
    for (size_t i = 0; encodings && encodings->type == JSON_ARRAY && i < encodings->u.array.count; i++) {
        const json_value *e = encodings->u.array.items[i];
        if (e->type == JSON_STRING && strcmp(e->u.string.s, "utf-8") == 0) s->utf8 = 1;
    }
    /* hover.contentFormat lists the formats the client takes, preferred first */
    const json_value *formats =
        json_get(json_get(json_get(json_get(p, "capabilities"), "textDocument"), "hover"), "contentFormat");
    s->hover_plain = formats && formats->type == JSON_ARRAY && formats->u.array.count > 0 &&
                     formats->u.array.items[0]->type == JSON_STRING &&
                     strcmp(formats->u.array.items[0]->u.string.s, "plaintext") == 0;
    /* completion.completionList.itemDefaults: "editRange" spares each item its textEdit */
    const json_value *defaults = json_get(json_get(json_get(json_get(json_get(p, "capabilities"), "textDocument"),
                                                            "completion"), "completionList"), "itemDefaults");
    s->edit_range_default = 0;
    for (size_t i = 0; defaults && defaults->type == JSON_ARRAY && i < defaults->u.array.count; i++) {
        const json_value *d = defaults->u.array.items[i];
        if (d->type == JSON_STRING && strcmp(d->u.string.s, "editRange") == 0) s->edit_range_default = 1;
    }
    const char *root_uri = lsp_str(p, "rootUri");
    const json_value *folders = json_get(p, "workspaceFolders");
    if (!root_uri && folders && folders->type == JSON_ARRAY && folders->u.array.count > 0)
        root_uri = lsp_str(folders->u.array.items[0], "uri");
    if (root_uri) lsp_uri_style_learn(&s->uri_style, root_uri);
    free(s->root);
    s->root = root_uri ? lsp_uri_to_path(root_uri) : NULL;
    if (!s->root && lsp_str(p, "rootPath")) s->root = os_strndup(lsp_str(p, "rootPath"), strlen(lsp_str(p, "rootPath")));
    /* initializationOptions.inlayHints: false turns the packed values after the %names off */
    const json_value *hints = json_get(json_get(p, "initializationOptions"), "inlayHints");
    s->no_inlay_hints = hints && hints->type == JSON_FALSE;
    const json_value *flags = json_get(json_get(p, "initializationOptions"), "flags");
    arglist_free(&s->init_flags);
    if (flags && flags->type == JSON_ARRAY) {
        for (size_t i = 0; i < flags->u.array.count; i++) {
            const json_value *f = flags->u.array.items[i];
            if (f->type != JSON_STRING || strlen(f->u.string.s) != f->u.string.len) {
                lsp_send_error(s, m->id, LSP_INVALID_PARAMS, "initializationOptions.flags must be an array of strings");
                arglist_free(&s->init_flags);
                return;
            }
            arglist_add(&s->init_flags, f->u.string.s, NULL);
        }
    }
    s->initialized = 1;
    lsp_begin_result(s, m->id);
    outbuf_printf(&s->msg,
                  "{\"capabilities\":{\"positionEncoding\":\"%s\","
                  "\"textDocumentSync\":{\"openClose\":true,\"change\":2,\"save\":{\"includeText\":false}},"
                  "\"hoverProvider\":true,\"definitionProvider\":true,\"referencesProvider\":true,"
                  "\"documentSymbolProvider\":true,"
                  "\"completionProvider\":{\"triggerCharacters\":[\"%%\",\"\\\"\",\":\"]},"
                  "\"renameProvider\":{\"prepareProvider\":true},\"workspaceSymbolProvider\":true,"
                  "\"foldingRangeProvider\":true,\"codeActionProvider\":{\"codeActionKinds\":[\"quickfix\"]},"
                  "\"signatureHelpProvider\":{\"triggerCharacters\":[\"(\",\",\"]},%s"
                  "\"semanticTokensProvider\":{\"legend\":{\"tokenTypes\":[\"enumMember\",\"enum\",\"variable\"],"
                  "\"tokenModifiers\":[]},\"full\":true}},"
                  "\"serverInfo\":{\"name\":\"atrc\",\"version\":\"%s\"}}",
                  s->utf8 ? "utf-8" : "utf-16", s->no_inlay_hints ? "" : "\"inlayHintProvider\":true,",
                  ATRC_VERSION);
    lsp_end_result(s);
    lsp_project_watch(s, json_get(p, "capabilities"));
}

/* Requests about the compilation: compiled first when an edit is pending. */
static const struct {
    const char *method;
    void (*answer)(lsp_server *, const lsp_message *);
} answers[] = {
    {"textDocument/hover", lsp_hover},
    {"textDocument/definition", lsp_definition},
    {"textDocument/completion", lsp_completion},
    {"textDocument/references", lsp_references},
    {"textDocument/documentSymbol", lsp_document_symbols},
    {"textDocument/prepareRename", lsp_prepare_rename},
    {"textDocument/rename", lsp_rename},
    {"workspace/symbol", lsp_workspace_symbols},
    {"textDocument/foldingRange", lsp_folding_ranges},
    {"textDocument/signatureHelp", lsp_signature_help},
    {"textDocument/inlayHint", lsp_inlay_hints},
    {"textDocument/semanticTokens/full", lsp_semantic_tokens},
    {"textDocument/codeAction", lsp_code_actions},
    {"atrc/archiveEntry", lsp_archive_entry},
};

/* One message.  Returns -1 to go on, else the exit status. */
static int handle(lsp_server *s, const lsp_message *m, int cancelled)
{
    const char *method = m->method;
    if (!method) return -1; /* a response to nothing the server asked */
    if (strcmp(method, "exit") == 0) return s->shutdown ? 0 : 1;
    if (!m->id) {
        if (!s->initialized || s->shutdown) return -1;
        if (strcmp(method, "textDocument/didOpen") == 0) did_open(s, m->params);
        else if (strcmp(method, "textDocument/didChange") == 0) did_change(s, m->params);
        else if (strcmp(method, "textDocument/didClose") == 0) did_close(s, m->params);
        else if (strcmp(method, "textDocument/didSave") == 0) s->dirty = 1;
        else if (strcmp(method, "workspace/didChangeWatchedFiles") == 0) s->dirty = 1;
        return -1; /* initialized, $/cancelRequest, $/setTrace and the rest need nothing */
    }
    if (strcmp(method, "initialize") == 0) {
        if (s->initialized) lsp_send_error(s, m->id, LSP_INVALID_REQUEST, "initialize was already received");
        else initialize(s, m);
        return -1;
    }
    if (!s->initialized) {
        lsp_send_error(s, m->id, LSP_SERVER_NOT_INITIALIZED, "the first request must be initialize");
        return -1;
    }
    if (s->shutdown) {
        lsp_send_error(s, m->id, LSP_INVALID_REQUEST, "the server is shutting down: only exit is expected");
        return -1;
    }
    if (cancelled) {
        lsp_send_error(s, m->id, LSP_REQUEST_CANCELLED, "cancelled");
        return -1;
    }
    if (strcmp(method, "shutdown") == 0) {
        s->shutdown = 1;
        lsp_begin_result(s, m->id);
        outbuf_str(&s->msg, "null");
        lsp_end_result(s);
        return -1;
    }
    for (size_t i = 0; i < sizeof answers / sizeof answers[0]; i++) {
        if (strcmp(method, answers[i].method) != 0) continue;
        if (!m->params || m->params->type != JSON_OBJECT) {
            lsp_send_error(s, m->id, LSP_INVALID_PARAMS, "params must be an object");
            return -1;
        }
        if (s->dirty) lsp_compile(s);
        s->loc_valid = 0;
        answers[i].answer(s, m);
        s->loc_valid = 0;
        return -1;
    }
    char why[200];
    snprintf(why, sizeof why, "unknown method '%.100s'", method);
    lsp_send_error(s, m->id, LSP_METHOD_NOT_FOUND, why);
    return -1;
}

/* ---- the loop ---- */

typedef struct queued {
    char *body;
    size_t len;
} queued;

static int same_id(const json_value *a, const json_value *b)
{
    if (!a || !b || a->type != b->type) return 0;
    if (a->type == JSON_NUMBER) return a->u.number.i == b->u.number.i;
    return a->u.string.len == b->u.string.len && memcmp(a->u.string.s, b->u.string.s, a->u.string.len) == 0;
}

/* Handles the messages that arrived together: cancellations first (a
** request cancelled before it was answered gets RequestCancelled), then
** each in order.  Returns -1 to go on, or the exit status. */
static int handle_batch(lsp_server *s, queued *q, size_t n)
{
    arena a;
    arena_init(&a);
    lsp_message *msgs = xcalloc(n ? n : 1, sizeof *msgs);
    int *ok = xcalloc(n ? n : 1, sizeof *ok);
    const json_value **cancel = xcalloc(n ? n : 1, sizeof *cancel);
    size_t cancel_count = 0;
    int status = -1;
    for (size_t i = 0; i < n; i++) {
        char why[200];
        int rc = lsp_message_parse(q[i].body, q[i].len, &a, &msgs[i], why, sizeof why);
        if (rc != 0) {
            lsp_send_error(s, msgs[i].id, rc, why);
            continue;
        }
        ok[i] = 1;
        if (msgs[i].method && !msgs[i].id && strcmp(msgs[i].method, "$/cancelRequest") == 0) {
            const json_value *id = json_get(msgs[i].params, "id");
            if (id) cancel[cancel_count++] = id;
        }
    }
    for (size_t i = 0; i < n && status < 0; i++) {
        if (!ok[i]) continue;
        int cancelled = 0;
        for (size_t k = 0; k < cancel_count && msgs[i].id && !cancelled; k++) cancelled = same_id(msgs[i].id, cancel[k]);
        status = handle(s, &msgs[i], cancelled);
    }
    free(msgs);
    free(ok);
    free(cancel);
    arena_free_all(&a);
    return status;
}

static void usage(void)
{
    fputs("usage: atrc lsp\n"
          "Speaks the Language Server Protocol on standard input and output.\n"
          "Configuration: the nearest atrc.flags above a document (or the workspace\n"
          "root's), else initializationOptions.flags, else the open scripts.\n",
          stdout);
}

int lsp_main(int argc, char **argv)
{
    if (argc > 2 && (strcmp(argv[2], "-h") == 0 || strcmp(argv[2], "--help") == 0)) {
        usage();
        return ferror(stdout) || fflush(stdout) ? 2 : 0;
    }
    if (argc > 2) return cli_usage_error(stderr, "atrc lsp takes no arguments, not '%s'", argv[2]);
    return lsp_serve(STDIN_FILENO, STDOUT_FILENO, stderr);
}

int lsp_serve(int in_fd, int out_fd, FILE *log)
{
    lsp_server s;
    memset(&s, 0, sizeof s);
    s.out_fd = out_fd;
    s.log = log;
    s.session = atrc_session_new();
    queued *q = NULL;
    size_t qn = 0, qcap = 0;
    char buf[65536];
    int status = -1;
    while (status < 0) {
        char *body;
        size_t len;
        char why[200];
        lsp_frame f;
        while ((f = lsp_reader_next(&s.in, &body, &len, why, sizeof why)) != LSP_FRAME_MORE) {
            if (f == LSP_FRAME_ERROR) {
                lsp_send_error(&s, NULL, LSP_PARSE_ERROR, why);
                continue;
            }
            /* the whole body, NUL bytes and all: the parser reads len bytes */
            queued *e = vec_push(q, qn, qcap);
            e->body = xmalloc(len + 1);
            memcpy(e->body, body, len);
            e->body[len] = 0;
            e->len = len;
        }
        if (qn > 0) {
            status = handle_batch(&s, q, qn);
            for (size_t i = 0; i < qn; i++) free(q[i].body);
            qn = 0;
            continue;
        }
        if (s.dirty && s.initialized && !s.shutdown) lsp_compile(&s);
        ssize_t got = read(in_fd, buf, sizeof buf);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) {
            status = 1; /* the input ended without exit */
            break;
        }
        lsp_reader_feed(&s.in, buf, (size_t)got);
    }
    for (size_t i = 0; i < qn; i++) free(q[i].body);
    free(q);
    lsp_server_free(&s);
    return status;
}

void lsp_server_free(lsp_server *s)
{
    if (s->ctx) atrc_free(s->ctx);
    atrc_session_free(s->session);
    cli_free(&s->cli);
    arglist_free(&s->args);
    arglist_free(&s->init_flags);
    lsp_docs_free(&s->docs);
    lsp_reader_free(&s->in);
    lsp_published_free(s);
    lsp_lines_free(&s->lines);
    outbuf_free(&s->loc_uri);
    outbuf_free(&s->msg);
    free(s->root);
    free(s->project);
    free(s->focus);
    free(s->said);
    free(s->config_error);
}
