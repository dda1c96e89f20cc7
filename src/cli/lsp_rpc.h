/* JSON-RPC 2.0 with the Language Server Protocol's framing
** ("Content-Length: N\r\n" ... "\r\n\r\n" then N bytes of JSON): a reader
** that takes bytes as they come and hands out whole messages, bounded in
** header and body size, and recovering from malformed framing; a parser of
** one message into its JSON-RPC parts; and the writer's framing. */
#ifndef ATRC_CLI_LSP_RPC_H
#define ATRC_CLI_LSP_RPC_H
#include "base/vec.h"
#include "base/arena.h"
#include "base/json_read.h"
#include "base/outbuf.h"

#include <stddef.h>

#define LSP_MAX_HEADER 8192              /* bytes of one header section */
#define LSP_MAX_BODY ((size_t)64 << 20)  /* bytes of one message */

/* JSON-RPC and LSP error codes. */
enum {
    LSP_PARSE_ERROR = -32700,
    LSP_INVALID_REQUEST = -32600,
    LSP_METHOD_NOT_FOUND = -32601,
    LSP_INVALID_PARAMS = -32602,
    LSP_INTERNAL_ERROR = -32603,
    LSP_SERVER_NOT_INITIALIZED = -32002,
    LSP_REQUEST_CANCELLED = -32800,
    LSP_REQUEST_FAILED = -32803         /* a valid request the server refuses (a rename it cannot make) */
};

typedef struct lsp_reader {
    VEC(char) buf;          /* the bytes read; unread: items[start, count) */
    size_t start;
    size_t skip;            /* body bytes of an oversized message still to discard */
    int in_garbage;         /* a header section too long: discarding up to its blank line */
    int resync;             /* after a bad header: discarding up to the next "Content-Length" */
} lsp_reader;

typedef enum { LSP_FRAME_MORE = 0, LSP_FRAME_MESSAGE, LSP_FRAME_ERROR } lsp_frame;

/* Appends n bytes read from the stream. */
void lsp_reader_feed(lsp_reader *r, const char *data, size_t n);
/* The next message: LSP_FRAME_MESSAGE with its body in *body (n bytes,
** writable and valid until the next call), LSP_FRAME_ERROR with a reason
** in why (the bad framing is skipped: the next call goes on at the next
** "Content-Length" header), or
** LSP_FRAME_MORE when the bytes so far hold no whole message. */
lsp_frame lsp_reader_next(lsp_reader *r, char **body, size_t *n, char *why, size_t why_size);
void lsp_reader_free(lsp_reader *r);

/* One JSON-RPC message, its parts pointing into the parsed JSON. */
typedef struct lsp_message {
    const char *method;        /* NULL: a response (which a server ignores) */
    const json_value *id;      /* NULL: a notification */
    const json_value *params;  /* NULL when absent */
} lsp_message;

/* Parses body (modified in place; the values are allocated in a) as one
** JSON-RPC message.  0, or the error code (LSP_PARSE_ERROR,
** LSP_INVALID_REQUEST) with a reason in why; msg->id is then the request's
** id when it could be read, else NULL. */
int lsp_message_parse(char *body, size_t n, arena *a, lsp_message *msg, char *why, size_t why_size);

/* Writes id (as the request had it: number or string; NULL: null). */
void lsp_write_id(outbuf *b, const json_value *id);
/* A response's frame: "Content-Length: N\r\n\r\n" then the n bytes of json,
** into out. */
void lsp_frame_message(outbuf *out, const char *json, size_t n);

#endif
