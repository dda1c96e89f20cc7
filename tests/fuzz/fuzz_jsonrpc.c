/* Fuzz harness 8: the language server's JSON-RPC reader (src/cli/lsp_rpc.c):
** Content-Length framing and the message parser, on bytes as a client
** might send them.  The input is read twice, whole and in chunks of
** varying size: the two give the same frames (a message's bytes, or a
** framing error), every message is at most LSP_MAX_BODY bytes, and each
** parses to a JSON-RPC message or a located error code. */
#include "fuzz_common.h"
#include "cli/lsp_rpc.h"

#include <stdlib.h>
#include <string.h>

#ifndef FUZZ_ENTRY
#define FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

/* Frames of the input fed in chunks of `chunk` bytes (0: whole): their
** count, and a hash of their kinds and bodies. */
static uint64_t jsonrpc_frames(const uint8_t *data, size_t size, size_t chunk, size_t *count)
{
    lsp_reader r = {0};
    uint64_t h = 1469598103934665603ull;
    *count = 0;
    for (size_t pos = 0; pos < size || pos == 0;) {
        size_t n = chunk ? chunk + pos % 13 : size;
        if (n > size - pos) n = size - pos;
        lsp_reader_feed(&r, (const char *)data + pos, n);
        pos += n;
        char *body, why[200];
        size_t len;
        lsp_frame f;
        while ((f = lsp_reader_next(&r, &body, &len, why, sizeof why)) != LSP_FRAME_MORE) {
            (*count)++;
            h = (h ^ (uint64_t)f) * 1099511628211ull;
            if (f == LSP_FRAME_ERROR) {
                if (!why[0]) abort(); /* an error says why */
                continue;
            }
            if (len > LSP_MAX_BODY) abort();
            for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)body[i]) * 1099511628211ull;
            arena a;
            arena_init(&a);
            lsp_message m;
            int rc = lsp_message_parse(body, len, &a, &m, why, sizeof why);
            if (rc != 0 && rc != LSP_PARSE_ERROR && rc != LSP_INVALID_REQUEST) abort();
            if (rc != 0 && !why[0]) abort();
            if (rc == 0 && m.method && strlen(m.method) > len) abort();
            outbuf b = {0};
            lsp_write_id(&b, m.id);
            if (!b.s || !b.len) abort();
            outbuf_free(&b);
            arena_free_all(&a);
        }
        if (size == 0) break;
    }
    lsp_reader_free(&r);
    return h;
}

int FUZZ_ENTRY(const uint8_t *data, size_t size);
int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    size_t whole_count, chunked_count;
    uint64_t whole = jsonrpc_frames(data, size, 0, &whole_count);
    uint64_t chunked = jsonrpc_frames(data, size, 1 + (size ? data[0] % 64 : 0), &chunked_count);
    if (whole != chunked || whole_count != chunked_count) abort(); /* the framing does not depend on how bytes arrive */
    return 0;
}
