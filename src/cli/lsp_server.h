/* The language server's state, shared by its loop (lsp.c) and its answers
** (lsp_answer.c, lsp_publish.c). */
#ifndef ATRC_CLI_LSP_SERVER_H
#define ATRC_CLI_LSP_SERVER_H
#include "atrc.h"
#include "cli/args.h"
#include "cli/lsp_doc.h"
#include "cli/lsp_rpc.h"
#include "base/hashtab.h"

typedef struct lsp_server {
    lsp_reader in;
    int out_fd;
    FILE *log;              /* lsp_log's lines also go here (standard error) */
    outbuf msg;             /* the message being written */
    int initialized, shutdown;
    int utf8;               /* positions in UTF-8 bytes (else UTF-16 units) */
    int hover_plain;        /* the client prefers plain text hovers to Markdown */
    int no_inlay_hints;     /* initializationOptions.inlayHints is false */
    int edit_range_default; /* the client takes a completion list's itemDefaults.editRange */
    /* lsp_write_location's file of the location it wrote last, for the
    ** request being answered (loc_valid cleared before each request): the
    ** strings naming it, its URI (a JSON string), text and line index */
    int loc_valid;
    const char *loc_path, *loc_file, *loc_entry;
    outbuf loc_uri;
    const char *lines_text;
    lsp_lines lines;
    char *root;             /* the workspace root's path, or NULL */
    arglist init_flags;     /* initializationOptions.flags */
    char *project;          /* the atrc.flags in use, or NULL */
    char *focus;            /* the path of the document opened or changed last: its project is used */
    char *said;             /* the configuration the last window/showMessage named */
    lsp_docs docs;
    lsp_uri_style uri_style; /* how the client spells a drive in a URI */
    atrc_session *session;
    atrc_ctx *ctx;          /* the last compilation (NULL: none) */
    arglist args;           /* its arguments and command line, alive as long as ctx */
    cli cli;
    char *config_error;     /* what reading the configuration said, or NULL */
    int dirty;              /* a document changed since ctx was compiled */
    unsigned long compiles;
    /* URIs given a non-empty diagnostic list by the last publish */
    char **published;
    size_t published_count, published_cap;
    hashtab published_index;
} lsp_server;

/* Output (lsp_rpc.c): a response is begun, its result written to s->msg,
** then ended; lsp_send frames s->msg and writes it. */
void lsp_begin_result(lsp_server *s, const json_value *id);
void lsp_end_result(lsp_server *s);
void lsp_send_error(lsp_server *s, const json_value *id, int code, const char *message);
void lsp_begin_notification(lsp_server *s, const char *method);
void lsp_send(lsp_server *s);
/* window/logMessage of the given type (1 error ... 4 log), and s->log. */
void lsp_log(lsp_server *s, int type, const char *text);

/* A message's parameters (lsp_rpc.c): o's string member key (NULL when
** absent, not a string or holding a NUL), its integer member (0, or -1). */
const char *lsp_str(const json_value *o, const char *key);
int lsp_int(const json_value *o, const char *key, int64_t *out);

/* Compiles what the configuration says, with the open documents' texts,
** then publishes the diagnostics. */
void lsp_compile(lsp_server *s);
/* textDocument/publishDiagnostics for every file of the compilation with
** diagnostics, every open document, and (emptied) every file that had some. */
void lsp_publish(lsp_server *s);
void lsp_published_free(lsp_server *s);

/* Writes a location's URI (an open document's own, a file: URI, or an
** archive entry's atrc-archive: URI) as a JSON string. */
void lsp_write_uri(lsp_server *s, outbuf *b, const atrc_location *where);
/* The text of a file of the compilation: the open document's, or what the
** compilation read.  NULL when neither. */
const char *lsp_file_text(lsp_server *s, const atrc_location *where, size_t *len);
/* Writes {"start":..,"end":..} of where within text (positions in the
** negotiated encoding); no end position: the start. */
void lsp_write_range(lsp_server *s, outbuf *b, const lsp_lines *lines, const atrc_location *where);

/* path (a file as the compilation names it) as hovers and details show it:
** relative to the project when below it, without `/./` segments. */
void lsp_display_path(lsp_server *s, const char *path, outbuf *b);

/* A request's document and position as atrc's file, line and byte column. */
typedef struct lsp_position {
    lsp_doc *doc;
    const char *file;   /* the document's path, or ARCHIVE:ENTRY */
    lsp_lines lines;
    int line, column;   /* 1-based, bytes */
} lsp_position;
/* 0, or -1 when the document is not open or the position not in it (a
** request without "position": its document only). */
int lsp_get_position(lsp_server *s, const lsp_message *m, lsp_position *p);
/* {"uri":..,"range":..} of a place of the compilation. */
void lsp_write_location(lsp_server *s, const atrc_location *where);
/* A response of null, or of []. */
void lsp_null_result(lsp_server *s, const lsp_message *m);
void lsp_empty_list(lsp_server *s, const lsp_message *m);

/* Requests (params is an object; s->ctx may be NULL). */
void lsp_hover(lsp_server *s, const lsp_message *m);
void lsp_definition(lsp_server *s, const lsp_message *m);
void lsp_completion(lsp_server *s, const lsp_message *m);
void lsp_references(lsp_server *s, const lsp_message *m);
void lsp_document_symbols(lsp_server *s, const lsp_message *m);
/* lsp_names.c: rename (and prepareRename) of functions and locals,
** workspace symbols, folding ranges, signature help, inlay hints (the packed
** value after each %name) and semantic tokens (%names: leaf, group,
** unresolved). */
void lsp_prepare_rename(lsp_server *s, const lsp_message *m);
void lsp_rename(lsp_server *s, const lsp_message *m);
void lsp_workspace_symbols(lsp_server *s, const lsp_message *m);
void lsp_folding_ranges(lsp_server *s, const lsp_message *m);
void lsp_signature_help(lsp_server *s, const lsp_message *m);
void lsp_inlay_hints(lsp_server *s, const lsp_message *m);
void lsp_semantic_tokens(lsp_server *s, const lsp_message *m);
/* lsp_actions.c: quick fixes for the diagnostics a client sends back. */
void lsp_code_actions(lsp_server *s, const lsp_message *m);
/* atrc/archiveEntry {uri}: {text} of an archive entry the compilation read, or null. */
void lsp_archive_entry(lsp_server *s, const lsp_message *m);

/* The project (lsp_project.c).  The document opened or changed last
** decides which atrc.flags configures the compilation; lsp_project_choose
** looks for it again before each compilation (a project file created or
** deleted is noticed) and logs a change; lsp_project_say sends one
** window/showMessage per configuration a newly opened document gets;
** lsp_project_watch asks a client that can register watchers dynamically
** for workspace/didChangeWatchedFiles on every atrc.flags. */
void lsp_project_focus(lsp_server *s, const lsp_doc *doc);
void lsp_project_choose(lsp_server *s);
void lsp_project_say(lsp_server *s, const lsp_doc *doc);
void lsp_project_watch(lsp_server *s, const json_value *capabilities);

void lsp_server_free(lsp_server *s);

#endif
