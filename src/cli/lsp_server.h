/* The language server's state, shared by its loop (lsp.c) and its answers
** (lsp_answer.c, lsp_publish.c). */
#ifndef ATRC_CLI_LSP_SERVER_H
#define ATRC_CLI_LSP_SERVER_H
#include "atrc.h"
#include "cli/args.h"
#include "cli/lsp_doc.h"
#include "cli/lsp_rpc.h"
#include "base/hashtab.h"
#include "base/vec.h"

/* A project: the open documents below one atrc.flags (or, flags NULL, the
** documents below none), compiled together in a session of their own.
** Created for its first document, freed when its last one closes. */
typedef struct lsp_project {
    char *flags;            /* its atrc.flags (real path), NULL: documents outside any project */
    atrc_session *session;  /* every open document's text as its buffer */
    atrc_ctx *ctx;          /* the last compilation (NULL: none) */
    arglist args;           /* its arguments and command line, alive as long as ctx */
    cli cli;
    char *config_error;     /* what reading the configuration said, or NULL */
    int dirty;              /* a document or file changed since ctx was compiled */
    size_t docs;            /* open documents in it */
    /* URIs given a non-empty diagnostic list by its last publish */
    VEC(char *) published;
    hashtab published_index;
} lsp_project;

/* A document's last good state (lsp_stale.c): its text in the last
** compilation where it had no syntax error, and the edits made since
** (positions in the negotiated encoding: the range replaced, and where the
** inserted text ends in the text after). */
typedef struct lsp_stale_edit_rec {
    int start_line, end_line, new_line;
    int64_t start_char, end_char, new_char;
} lsp_stale_edit_rec;
typedef struct lsp_stale_doc {
    char *good;             /* NULL: none kept (or reset by a whole-text change) */
    size_t good_len;
    VEC(lsp_stale_edit_rec) edits;
    int broken;             /* the current compilation has a syntax error in it */
} lsp_stale_doc;

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
    /* lsp_write_location's files (lsp_answer.c): each one's URI, text and
    ** line index, found once per compilation and state of the open
    ** documents (docs_changes: opens, edits and closes so far). */
    struct lsp_places *places;
    unsigned long docs_changes;
    char *root;             /* the workspace root's path, or NULL */
    arglist init_flags;     /* initializationOptions.flags */
    lsp_docs docs;
    lsp_uri_style uri_style; /* how the client spells a drive in a URI */
    VEC(lsp_project *) projects; /* in the order created */
    lsp_project *pj;        /* the project being compiled or answered (never NULL while answering) */
    lsp_project none;       /* an empty one: the project of a request about no open document */
    unsigned long compiles;
    VEC(lsp_stale_doc) stale; /* per document (its index in docs) */
    int answering_stale;    /* lsp_compile of a last good text: nothing published */
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

/* Compiles p as its configuration says, with the open documents' texts,
** then publishes its diagnostics. */
void lsp_compile(lsp_server *s, lsp_project *p);
/* textDocument/publishDiagnostics for every file of s->pj's compilation with
** diagnostics, its open documents, and (emptied) every file that had some;
** a file another project has open or published is that project's. */
void lsp_publish(lsp_server *s);
/* Empties every list p published that no other project publishes. */
void lsp_publish_withdraw(lsp_server *s, lsp_project *p);
void lsp_published_free(lsp_project *p);

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
void lsp_places_free(lsp_server *s);
/* A response of null, or of []. */
void lsp_null_result(lsp_server *s, const lsp_message *m);
void lsp_empty_list(lsp_server *s, const lsp_message *m);

/* Requests (params is an object; s->pj is the project of the request's
** document, its ctx may be NULL). */
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

/* The projects (lsp_project.c).  A document belongs to the project of the
** nearest atrc.flags above it; one below none to the project whose last
** compilation read it (a game file opened from a definition), else to the
** project of the documents outside any project (initializationOptions.flags,
** else file-list mode with the default profile).  lsp_project_attach puts a
** newly opened document in its project (created, and said to the user in one
** window/showMessage, when it is the first); lsp_project_detach takes a
** closed one out (a project left without documents is freed);
** lsp_project_route looks for every open document's atrc.flags again before
** a compilation (one created or deleted moves documents between projects);
** lsp_project_buffer gives every project's session a document's text;
** lsp_project_watch asks a client that can register watchers dynamically
** for workspace/didChangeWatchedFiles on every atrc.flags. */
void lsp_project_attach(lsp_server *s, lsp_doc *doc);
void lsp_project_detach(lsp_server *s, lsp_doc *doc);
void lsp_project_route(lsp_server *s);
void lsp_project_buffer(lsp_server *s, const lsp_doc *doc);
/* Every project to be compiled again (a file on disk changed). */
void lsp_project_touch_all(lsp_server *s);
/* Compiles the projects with pending changes (routed first). */
void lsp_project_compile_dirty(lsp_server *s);
void lsp_project_watch(lsp_server *s, const json_value *capabilities);
void lsp_projects_free(lsp_server *s);

/* Answers from the last good state (lsp_stale.c).  lsp_stale_edit records
** a range change of doc (before its text changes is no matter: positions
** only), lsp_stale_forget drops what is kept (a whole-text change),
** lsp_stale_compiled keeps each open document's text that parses after a
** compilation.  lsp_stale_begin: when p's document does not parse now and
** p maps back into its last good text, compiles that text (nothing
** published), moves p there and returns the number of edits since (then
** lsp_stale_end once answered; the current text is compiled before the next
** answer); else 0.  lsp_stale_write_range writes a range of that text in
** the current one (-1, nothing written, when an edit replaced it). */
void lsp_stale_edit(lsp_server *s, const lsp_doc *doc, int start_line, int64_t start_char, int end_line,
                    int64_t end_char, const char *text, size_t n);
void lsp_stale_forget(lsp_server *s, const lsp_doc *doc);
void lsp_stale_compiled(lsp_server *s);
int lsp_stale_begin(lsp_server *s, const lsp_message *m, lsp_position *p);
void lsp_stale_end(const lsp_position *p);
int lsp_stale_write_range(lsp_server *s, const lsp_position *p, const atrc_location *where);
void lsp_stale_free(lsp_server *s);

void lsp_server_free(lsp_server *s);

#endif
