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
    outbuf msg;             /* the message being written */
    int initialized, shutdown;
    int utf8;               /* positions in UTF-8 bytes (else UTF-16 units) */
    char *root;             /* the workspace root's path, or NULL */
    arglist init_flags;     /* initializationOptions.flags */
    char *project;          /* the atrc.flags in use, or NULL */
    lsp_docs docs;
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
/* window/logMessage of the given type (1 error ... 4 log), and stderr. */
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

/* Requests (params is an object; s->ctx may be NULL). */
void lsp_hover(lsp_server *s, const lsp_message *m);
void lsp_definition(lsp_server *s, const lsp_message *m);
void lsp_completion(lsp_server *s, const lsp_message *m);
void lsp_references(lsp_server *s, const lsp_message *m);
void lsp_document_symbols(lsp_server *s, const lsp_message *m);
/* atrc/archiveEntry {uri}: {text} of an archive entry the compilation read, or null. */
void lsp_archive_entry(lsp_server *s, const lsp_message *m);

void lsp_server_free(lsp_server *s);

#endif
