/* JSON-RPC framing and messages for the language server: lsp_rpc.h; the
** server's writer (lsp_server.h). */
#include "cli/lsp_rpc.h"
#include "cli/lsp_server.h"
#include "base/vec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

void lsp_reader_feed(lsp_reader *r, const char *data, size_t n)
{
    if (r->start == r->buf.count) r->start = r->buf.count = 0;
    if (r->start > 0 && r->buf.count + n >= r->buf.cap) {
        memmove(r->buf.items, r->buf.items + r->start, r->buf.count - r->start);
        r->buf.count -= r->start;
        r->start = 0;
    }
    VEC_RESERVE(r->buf, r->buf.count + n + 1);
    memcpy(r->buf.items + r->buf.count, data, n);
    r->buf.count += n;
}

void lsp_reader_free(lsp_reader *r)
{
    VEC_FREE(r->buf);
    memset(r, 0, sizeof *r);
}

/* The offset of "\r\n\r\n" in p[0, n), or n. */
static size_t find_blank_line(const char *p, size_t n)
{
    for (size_t i = 0; i + 3 < n; i++) {
        const char *q = memchr(p + i, '\r', n - 3 - i);
        if (!q) break;
        i = (size_t)(q - p);
        if (q[1] == '\n' && q[2] == '\r' && q[3] == '\n') return i;
    }
    return n;
}

/* The header section p[0, n) ("Name: value" lines split by CRLF): the
** Content-Length in *length.  0, or -1 with the reason in why. */
static int parse_header(const char *p, size_t n, size_t *length, char *why, size_t why_size)
{
    int have = 0;
    for (size_t pos = 0; pos < n;) {
        const char *line = p + pos;
        const char *end = line;
        while (end < p + n && !(end[0] == '\r' && end + 1 < p + n && end[1] == '\n')) end++;
        size_t len = (size_t)(end - line);
        pos += len + 2;
        if (len == 0) continue;
        const char *colon = memchr(line, ':', len);
        if (!colon || colon == line) {
            snprintf(why, why_size, "malformed header line (no 'Name: value'): '%.*s'", (int)(len < 40 ? len : 40), line);
            for (char *c = why; *c; c++)
                if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f) *c = '?';
            return -1;
        }
        size_t name_len = (size_t)(colon - line);
        if (name_len != 14 || strncasecmp(line, "Content-Length", 14) != 0) continue; /* Content-Type and others */
        const char *v = colon + 1, *v_end = end;
        while (v < v_end && (*v == ' ' || *v == '\t')) v++;
        while (v_end > v && (v_end[-1] == ' ' || v_end[-1] == '\t')) v_end--;
        size_t value = 0;
        int digits = 0, overflow = 0;
        for (const char *d = v; d < v_end; d++) {
            if (*d < '0' || *d > '9') {
                digits = -1;
                break;
            }
            if (value > ((size_t)-1 - 9) / 10) overflow = 1;
            else value = value * 10 + (size_t)(*d - '0');
            digits++;
        }
        if (digits <= 0 || overflow) {
            snprintf(why, why_size, "Content-Length is not a number of bytes");
            return -1;
        }
        if (have && value != *length) {
            snprintf(why, why_size, "two different Content-Length headers");
            return -1;
        }
        have = 1;
        *length = value;
    }
    if (!have) {
        snprintf(why, why_size, "a header section without Content-Length");
        return -1;
    }
    return 0;
}

lsp_frame lsp_reader_next(lsp_reader *r, char **body, size_t *n, char *why, size_t why_size)
{
    for (;;) {
        size_t avail = r->buf.count - r->start;
        char *p = r->buf.items ? r->buf.items + r->start : NULL;
        if (r->skip) {
            size_t k = r->skip < avail ? r->skip : avail;
            r->start += k;
            r->skip -= k;
            if (r->skip) return LSP_FRAME_MORE;
            continue;
        }
        if (avail == 0) return LSP_FRAME_MORE;
        if (r->resync) {
            /* After a bad header the body's length is unknown: the next
            ** message starts at the next "Content-Length" (keep 13 bytes:
            ** the start of one split across reads). */
            size_t k = 0;
            while (k + 14 <= avail && strncasecmp(p + k, "Content-Length", 14) != 0) k++;
            if (k + 14 > avail) {
                if (avail > 13) r->start += avail - 13;
                return LSP_FRAME_MORE;
            }
            r->start += k;
            r->resync = 0;
            continue;
        }
        /* A header section is looked for in its first LSP_MAX_HEADER bytes;
        ** the end of one too long, in everything there is (then dropped). */
        size_t scan = r->in_garbage || avail < LSP_MAX_HEADER + 4 ? avail : LSP_MAX_HEADER + 4;
        size_t blank = find_blank_line(p, scan);
        if (blank == scan) {
            if (!r->in_garbage) {
                if (avail < LSP_MAX_HEADER + 4) return LSP_FRAME_MORE;
                r->in_garbage = 1;
                snprintf(why, why_size, "a header section over %d bytes", LSP_MAX_HEADER);
                return LSP_FRAME_ERROR;
            }
            /* keep 3 bytes: the start of a "\r\n\r\n" split across reads */
            if (avail > 3) r->start += avail - 3;
            return LSP_FRAME_MORE;
        }
        size_t header_len = blank + 4;
        if (r->in_garbage) {
            /* the end of the section that was too long */
            r->start += header_len;
            r->in_garbage = 0;
            r->resync = 1;
            continue;
        }
        size_t length = 0;
        if (parse_header(p, blank, &length, why, why_size) != 0) {
            r->start += header_len;
            r->resync = 1;
            return LSP_FRAME_ERROR;
        }
        if (length > LSP_MAX_BODY) {
            r->start += header_len;
            r->skip = length;
            snprintf(why, why_size, "a message of %zu bytes (the limit is %zu)", length, LSP_MAX_BODY);
            return LSP_FRAME_ERROR;
        }
        if (avail - header_len < length) return LSP_FRAME_MORE;
        *body = p + header_len;
        *n = length;
        r->start += header_len + length;
        return LSP_FRAME_MESSAGE;
    }
}

int lsp_message_parse(char *body, size_t n, arena *a, lsp_message *msg, char *why, size_t why_size)
{
    memset(msg, 0, sizeof *msg);
    json_error err;
    json_value *v = json_parse(body, n, a, &err);
    if (!v) {
        snprintf(why, why_size, "not JSON (at byte %zu: %s)", err.offset, err.message);
        return LSP_PARSE_ERROR;
    }
    if (v->type != JSON_OBJECT) {
        snprintf(why, why_size, "a message must be a JSON object");
        return LSP_INVALID_REQUEST;
    }
    const json_value *id = json_get(v, "id");
    if (id && !(id->type == JSON_STRING || (id->type == JSON_NUMBER && id->u.number.is_int) || id->type == JSON_NULL)) {
        snprintf(why, why_size, "\"id\" must be an integer or a string");
        return LSP_INVALID_REQUEST;
    }
    msg->id = id && id->type != JSON_NULL ? id : NULL;
    const json_value *version = json_get(v, "jsonrpc");
    if (!version || version->type != JSON_STRING || strcmp(version->u.string.s, "2.0") != 0) {
        snprintf(why, why_size, "\"jsonrpc\" must be \"2.0\"");
        return LSP_INVALID_REQUEST;
    }
    const json_value *method = json_get(v, "method");
    if (!method) {
        if (json_get(v, "result") || json_get(v, "error")) return 0; /* a response */
        snprintf(why, why_size, "a request needs a \"method\"");
        return LSP_INVALID_REQUEST;
    }
    if (method->type != JSON_STRING || strlen(method->u.string.s) != method->u.string.len) {
        snprintf(why, why_size, "\"method\" must be a string");
        return LSP_INVALID_REQUEST;
    }
    msg->method = method->u.string.s;
    /* "params": null is how some clients (eglot) write "no params", which
    ** the protocol allows for shutdown, exit and every notification without
    ** any; exit takes none, and whatever it carries it must end the server
    ** (an exit answered with an error would leave it running for good). */
    const json_value *params = json_get(v, "params");
    if (params && params->type == JSON_NULL) params = NULL;
    if (params && params->type != JSON_OBJECT && params->type != JSON_ARRAY) {
        if (strcmp(msg->method, "exit") == 0) return 0;
        snprintf(why, why_size, "\"params\" must be an object or an array");
        return LSP_INVALID_REQUEST;
    }
    msg->params = params;
    return 0;
}

void lsp_write_id(outbuf *b, const json_value *id)
{
    if (id && id->type == JSON_NUMBER) outbuf_int(b, id->u.number.i);
    else if (id && id->type == JSON_STRING) outbuf_json_string(b, id->u.string.s, id->u.string.len);
    else outbuf_str(b, "null");
}

void lsp_frame_message(outbuf *out, const char *json, size_t n)
{
    outbuf_printf(out, "Content-Length: %zu\r\n\r\n", n);
    outbuf_put(out, json, n);
}

/* ---- the server's writer: responses, errors, notifications (lsp_server.h) ----
** Here, beside the framing, so that the answers (lsp_answer.c,
** lsp_publish.c) and the loop (lsp.c) write through one module and call
** each other only loop to answer. */

static void write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return; /* the client is gone: its end of the pipe will say so */
        p += k;
        n -= (size_t)k;
    }
}

void lsp_send(lsp_server *s)
{
    outbuf frame = {0};
    lsp_frame_message(&frame, s->msg.s ? s->msg.s : "", s->msg.len);
    write_all(s->out_fd, frame.s, frame.len);
    outbuf_free(&frame);
    outbuf_flush(&s->msg);
}

void lsp_begin_result(lsp_server *s, const json_value *id)
{
    outbuf_flush(&s->msg);
    outbuf_str(&s->msg, "{\"jsonrpc\":\"2.0\",\"id\":");
    lsp_write_id(&s->msg, id);
    outbuf_str(&s->msg, ",\"result\":");
}

void lsp_end_result(lsp_server *s)
{
    outbuf_char(&s->msg, '}');
    lsp_send(s);
}

void lsp_send_error(lsp_server *s, const json_value *id, int code, const char *message)
{
    outbuf_flush(&s->msg);
    outbuf_str(&s->msg, "{\"jsonrpc\":\"2.0\",\"id\":");
    lsp_write_id(&s->msg, id);
    outbuf_printf(&s->msg, ",\"error\":{\"code\":%d,\"message\":", code);
    outbuf_json_string(&s->msg, message, strlen(message));
    outbuf_str(&s->msg, "}}");
    lsp_send(s);
}

void lsp_begin_notification(lsp_server *s, const char *method)
{
    outbuf_flush(&s->msg);
    outbuf_str(&s->msg, "{\"jsonrpc\":\"2.0\",\"method\":");
    outbuf_json_string(&s->msg, method, strlen(method));
    outbuf_str(&s->msg, ",\"params\":");
}

/* window/logMessage: what the server says about itself (also on s->log). */
void lsp_log(lsp_server *s, int type, const char *text)
{
    fprintf(s->log, "atrc lsp: %s\n", text);
    lsp_begin_notification(s, "window/logMessage");
    outbuf_printf(&s->msg, "{\"type\":%d,\"message\":", type);
    outbuf_json_string(&s->msg, text, strlen(text));
    outbuf_str(&s->msg, "}}");
    lsp_send(s);
}

/* ---- reading a message's parameters ---- */

const char *lsp_str(const json_value *o, const char *key)
{
    const json_value *v = json_get(o, key);
    return v && v->type == JSON_STRING && strlen(v->u.string.s) == v->u.string.len ? v->u.string.s : NULL;
}

int lsp_int(const json_value *o, const char *key, int64_t *out)
{
    const json_value *v = json_get(o, key);
    if (!v || v->type != JSON_NUMBER || !v->u.number.is_int) return -1;
    *out = v->u.number.i;
    return 0;
}
