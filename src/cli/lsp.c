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

/* A script by its name: .gsc, .csc, and CoD4x's .gsx when gsx (--extension cod4x). */
static int is_script_path(const char *path, int gsx)
{
    const char *dot = strrchr(path, '.');
    return dot && !os_last_path_sep(dot) &&
           (strcasecmp(dot, ".gsc") == 0 || strcasecmp(dot, ".csc") == 0 || (gsx && strcasecmp(dot, ".gsx") == 0));
}

/* The directory of path (malloc'ed). */
static char *dir_of(const char *path)
{
    const char *sep = os_last_path_sep(path);
    if (!sep) return os_strndup(".", 1);
    return os_strndup(path, sep == path ? 1 : (size_t)(sep - path));
}

/* The project's open scripts (below dir when it is not NULL: not a game
** file it reached) as operands: file-list mode on them (.gsx ones too when
** gsx).  Returns how many. */
static size_t add_open_scripts(lsp_server *s, const char *dir, int gsx)
{
    size_t scripts = 0;
    for (size_t i = 0; i < s->docs.list.count; i++) {
        const lsp_doc *d = &s->docs.list.items[i];
        if (d->open && d->project == s->pj && d->path && is_script_path(d->path, gsx) &&
            (!dir || argfile_below(dir, d->path) == 1)) {
            arglist_add(&s->pj->args, d->path, NULL);
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
    arglist *args = &s->pj->args;
    int rc = arglist_read_project(args, s->pj->flags, err);
    project_scan scan;
    if (rc == 0) rc = project_check_args(args, 1, &scan, err);
    if (rc != 0 || scan.has_inputs) return rc;
    char *dir = dir_of(s->pj->flags), *real = dir ? os_real_path(dir) : NULL;
    if (real && !scan.has_game_dir) {
        arglist_add(args, "-g", NULL);
        arglist_add(args, real, NULL);
    }
    size_t scripts = real ? add_open_scripts(s, real, scan.gsx) : 0;
    free(dir);
    free(real);
    return scripts ? 0 : -1;
}

/* The arguments of s->pj's compilation into its args; 0 or 2 (messages to
** err), -1 when there is nothing to compile. */
static int build_args(lsp_server *s, FILE *err)
{
    arglist *args = &s->pj->args;
    arglist_free(args);
    arglist_add(args, "atrc", NULL);
    if (s->pj->flags) return project_args(s, err);
    /* outside any project, typed by the user in the client's settings: `@FILE` reads a response file */
    if (s->init_flags.argc > 0)
        return arglist_expand_list(args, &s->init_flags, s->root, "initializationOptions.flags", err);
    /* file-list mode on the open scripts; the workspace root is the game directory */
    if (s->root) {
        arglist_add(args, "-g", NULL);
        arglist_add(args, s->root, NULL);
    }
    return add_open_scripts(s, NULL, 0) ? 0 : -1;
}

void lsp_compile(lsp_server *s, lsp_project *p)
{
    s->pj = p;
    p->dirty = 0;
    if (p->ctx) atrc_free(p->ctx);
    p->ctx = NULL;
    cli_free(&p->cli);
    char *text = NULL;
    size_t len = 0;
    FILE *err = os_memstream_open(&text, &len);
    if (!err) return;
    int rc = build_args(s, err);
    if (rc == 0) rc = cli_parse(&p->cli, &p->args, err);
    if (rc == 0 && (p->cli.action != CLI_RUN || p->cli.dump || p->cli.explain)) {
        fputs("atrc: error: the language server compiles: --help, --version, --dump-*, --explain do not apply\n", err);
        rc = 2;
    }
    for (int i = 0; rc == 0 && i < p->cli.script_count; i++) {
        if (strcmp(p->cli.scripts[i], "-") == 0) {
            /* standard input is the protocol's */
            fputs("atrc: error: standard input ('-') cannot be a script of the language server\n", err);
            rc = 2;
        }
    }
    if (rc == 0) rc = cli_check_game_dirs(&p->cli);
    if (rc == 0) {
        if (p->cli.opts.jobs == 0) {
            int cpus = os_cpu_count();
            p->cli.opts.jobs = cpus > 64 ? 64 : cpus;
        }
        p->ctx = atrc_session_begin(p->session, &p->cli.opts);
        if (p->ctx && cli_configure(&p->cli, p->ctx) == 0) {
            atrc_build_trees(p->ctx);
        } else if (p->ctx) {
            atrc_free(p->ctx);
            p->ctx = NULL;
        }
    }
    os_memstream_close(err, &text, &len);
    free(p->config_error);
    p->config_error = text && len ? text : NULL;
    if (!p->config_error) free(text);
    s->compiles++;
    if (s->answering_stale) return; /* a last good text, for one answer (lsp_stale.c) */
    lsp_stale_compiled(s);
    lsp_publish(s);
}

/* ---- documents ---- */

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
    lsp_stale_forget(s, doc);
    lsp_project_attach(s, doc);
    lsp_project_buffer(s, doc);
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
            lsp_stale_forget(s, doc);
            continue;
        }
        int64_t sl, sc, el, ec;
        const json_value *a = json_get(range, "start"), *b = json_get(range, "end");
        if (lsp_int(a, "line", &sl) || lsp_int(a, "character", &sc) || lsp_int(b, "line", &el) ||
            lsp_int(b, "character", &ec) || sl < 0 || el < 0 || sc < 0 || ec < 0 || sl > INT32_MAX || el > INT32_MAX ||
            lsp_doc_edit(doc, (int)sl, sc, (int)el, ec, text->u.string.s, text->u.string.len, s->utf8) != 0) {
            lsp_log(s, 1, "didChange: a range that is not in the document (the edit is ignored)");
            continue;
        }
        lsp_stale_edit(s, doc, (int)sl, sc, (int)el, ec, text->u.string.s, text->u.string.len);
    }
    lsp_project_buffer(s, doc);
}

static void did_close(lsp_server *s, const json_value *params)
{
    lsp_doc *doc = param_doc(s, params);
    if (!doc) return;
    for (size_t i = 0; doc->path && i < s->projects.count; i++)
        atrc_session_drop_buffer(s->projects.items[i]->session, doc->path);
    lsp_docs_close(&s->docs, doc);
    lsp_project_detach(s, doc);
    /* the same file still open under another URI (a directory link): its
    ** unsaved text is the file's, not the disk's */
    lsp_doc *other = doc->real ? lsp_docs_find_path(&s->docs, doc->real) : NULL;
    if (other) lsp_project_buffer(s, other);
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

/* s->pj for a request: its document's project, compiled first when a
** change is pending (workspace symbols: every project's); the empty one
** when it names no open document. */
static void use_project(lsp_server *s, const lsp_message *m)
{
    s->pj = &s->none;
    if (strcmp(m->method, "workspace/symbol") == 0) {
        lsp_project_compile_dirty(s);
        s->pj = &s->none;
        return;
    }
    const char *uri = lsp_str(json_get(m->params, "textDocument"), "uri");
    lsp_doc *doc = uri ? lsp_docs_find(&s->docs, uri) : NULL;
    if (!doc || !doc->open || !doc->project) return;
    if (doc->project->dirty) {
        lsp_project_route(s); /* an atrc.flags created or deleted moves it first */
        if (doc->project->dirty) lsp_compile(s, doc->project);
    }
    s->pj = doc->project;
}

/* One message.  Returns -1 to go on, else the exit status. */
static int handle(lsp_server *s, const lsp_message *m, int cancelled)
{
    const char *method = m->method;
    if (!method) return -1; /* a response to nothing the server asked */
    if (strcmp(method, "exit") == 0) return s->shutdown ? 0 : 1;
    if (!m->id) {
        if (!s->initialized || s->shutdown) return -1;
        /* what the open documents are: the places of answers follow it */
        if (strncmp(method, "textDocument/did", 16) == 0) s->docs_changes++;
        if (strcmp(method, "textDocument/didOpen") == 0) did_open(s, m->params);
        else if (strcmp(method, "textDocument/didChange") == 0) did_change(s, m->params);
        else if (strcmp(method, "textDocument/didClose") == 0) did_close(s, m->params);
        else if (strcmp(method, "textDocument/didSave") == 0) lsp_project_touch_all(s);
        else if (strcmp(method, "workspace/didChangeWatchedFiles") == 0) lsp_project_touch_all(s);
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
        use_project(s, m);
        answers[i].answer(s, m);
        s->pj = &s->none;
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
          "Configuration: each document's project is the nearest atrc.flags above it;\n"
          "below none, the project that read it, else the workspace root's atrc.flags,\n"
          "else initializationOptions.flags, else the open scripts.\n",
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
    s.pj = &s.none;
    os_pipe_capacity(s.out_fd, (size_t)1 << 20); /* a large answer in one write (os.h) */
    VEC(queued) q = {0}; /* the messages that arrived together */
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
            queued *e = VEC_PUSH(q);
            e->body = xmalloc(len + 1);
            memcpy(e->body, body, len);
            e->body[len] = 0;
            e->len = len;
        }
        if (q.count > 0) {
            status = handle_batch(&s, q.items, q.count);
            for (size_t i = 0; i < q.count; i++) free(q.items[i].body);
            q.count = 0;
            continue;
        }
        if (s.initialized && !s.shutdown) lsp_project_compile_dirty(&s);
        ssize_t got = read(in_fd, buf, sizeof buf);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) {
            status = 1; /* the input ended without exit */
            break;
        }
        lsp_reader_feed(&s.in, buf, (size_t)got);
    }
    for (size_t i = 0; i < q.count; i++) free(q.items[i].body);
    VEC_FREE(q);
    lsp_server_free(&s);
    return status;
}

void lsp_server_free(lsp_server *s)
{
    lsp_projects_free(s);
    arglist_free(&s->init_flags);
    lsp_stale_free(s);
    lsp_docs_free(&s->docs);
    lsp_reader_free(&s->in);
    lsp_places_free(s);
    outbuf_free(&s->msg);
    free(s->root);
}
