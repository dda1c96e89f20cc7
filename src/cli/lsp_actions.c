/* The language server's code actions: quick fixes for the diagnostics the
** client sends back (context.diagnostics), read from their words as the
** command line prints them -- apply a "did you mean 'X'" (the name under
** the diagnostic replaced, nothing else), add the #include an
** unknown-function message names, and add to the project's atrc.flags the
** --extension of the profile's game that registers an unknown name. */
#include "cli/lsp_server.h"
#include "os/os.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The text between the first pair of single quotes after marker in msg
** (malloc'ed), or NULL. */
static char *quoted_after(const char *msg, const char *marker)
{
    const char *at = marker ? strstr(msg, marker) : msg;
    if (!at) return NULL;
    const char *a = strchr(at + (marker ? strlen(marker) : 0), '\'');
    const char *z = a ? strchr(a + 1, '\'') : NULL;
    return z && z > a + 1 ? os_strndup(a + 1, (size_t)(z - a - 1)) : NULL;
}

/* The words between marker and the next ';' (malloc'ed): "#include maps\_x". */
static char *clause_after(const char *msg, const char *marker)
{
    const char *at = strstr(msg, marker);
    if (!at) return NULL;
    at += strlen(marker);
    const char *z = strchr(at, ';');
    return z && z > at ? os_strndup(at, (size_t)(z - at)) : NULL;
}

/* A diagnostic's range in the document as byte offsets [*a, *z). */
static int range_offsets(lsp_server *s, const lsp_lines *lines, const json_value *range, size_t *a, size_t *z)
{
    int64_t sl, sc, el, ec;
    const json_value *b = json_get(range, "start"), *e = json_get(range, "end");
    if (lsp_int(b, "line", &sl) || lsp_int(b, "character", &sc) || lsp_int(e, "line", &el) ||
        lsp_int(e, "character", &ec) || sl < 0 || el < sl || el >= (int64_t)lines->starts.count || sc < 0 || ec < 0)
        return -1;
    *a = lines->starts.items[sl] + (size_t)lsp_to_column(lines, (int)sl, sc, s->utf8) - 1;
    *z = lines->starts.items[el] + (size_t)lsp_to_column(lines, (int)el, ec, s->utf8) - 1;
    return *z >= *a ? 0 : -1;
}

static int same_name(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char x = a[i] == '\\' ? '/' : a[i], y = b[i] == '\\' ? '/' : b[i];
        if ((x | (x >= 'A' && x <= 'Z' ? 0x20 : 0)) != (y | (y >= 'A' && y <= 'Z' ? 0x20 : 0))) return 0;
    }
    return 1;
}

/* The diagnostic an action fixes, as the server published it: its range,
** severity, code, source and message (what identifies it to the client). */
static void write_diagnostic(outbuf *b, const json_value *d)
{
    int64_t v[4], severity;
    const json_value *r = json_get(d, "range");
    const char *code = lsp_str(d, "code"), *message = lsp_str(d, "message");
    if (lsp_int(json_get(r, "start"), "line", &v[0]) || lsp_int(json_get(r, "start"), "character", &v[1]) ||
        lsp_int(json_get(r, "end"), "line", &v[2]) || lsp_int(json_get(r, "end"), "character", &v[3]))
        v[0] = v[1] = v[2] = v[3] = 0;
    outbuf_printf(b, "{\"range\":{\"start\":{\"line\":%lld,\"character\":%lld},\"end\":{\"line\":%lld,"
                     "\"character\":%lld}}",
                  (long long)v[0], (long long)v[1], (long long)v[2], (long long)v[3]);
    if (lsp_int(d, "severity", &severity) == 0) outbuf_printf(b, ",\"severity\":%lld", (long long)severity);
    if (code) {
        outbuf_str(b, ",\"code\":");
        outbuf_json_string(b, code, strlen(code));
    }
    outbuf_str(b, ",\"source\":\"atrc\",\"message\":");
    outbuf_json_string(b, message ? message : "", message ? strlen(message) : 0);
    outbuf_char(b, '}');
}

/* An action's start: {"title":..,"kind":"quickfix","diagnostics":[d],"edit":{"changes":{uri:[ */
static void begin_action(lsp_server *s, int *any, const char *title, const json_value *diag, const char *uri_json)
{
    if (*any) outbuf_char(&s->msg, ',');
    *any = 1;
    outbuf_str(&s->msg, "{\"title\":");
    outbuf_json_string(&s->msg, title, strlen(title));
    outbuf_str(&s->msg, ",\"kind\":\"quickfix\",\"diagnostics\":[");
    write_diagnostic(&s->msg, diag);
    outbuf_str(&s->msg, "],\"edit\":{\"changes\":{");
    outbuf_str(&s->msg, uri_json);
    outbuf_str(&s->msg, ":[");
}

static void text_edit(lsp_server *s, int line, int64_t a, int end_line, int64_t z, const char *text)
{
    outbuf_printf(&s->msg, "{\"range\":{\"start\":{\"line\":%d,\"character\":%lld},\"end\":{\"line\":%d,"
                           "\"character\":%lld}},\"newText\":",
                  line, (long long)a, end_line, (long long)z);
    outbuf_json_string(&s->msg, text, strlen(text));
    outbuf_char(&s->msg, '}');
}

/* "did you mean 'X'": the wrong name (the message's first quoted one)
** inside the diagnostic's range replaced by X ('/' written '\' where the
** range has '\', as #include paths are). */
static void did_you_mean(lsp_server *s, const lsp_position *p, const json_value *d, const char *uri_json, int *any)
{
    const char *msg = lsp_str(d, "message");
    char *wrong = msg ? quoted_after(msg, NULL) : NULL;
    char *right = msg ? quoted_after(msg, "did you mean ") : NULL;
    size_t a, z;
    if (wrong && right && range_offsets(s, &p->lines, json_get(d, "range"), &a, &z) == 0) {
        const char *text = p->doc->text;
        size_t n = strlen(wrong);
        for (size_t i = a; i + n <= z; i++) {
            if (!same_name(text + i, wrong, n)) continue;
            if (memchr(text + i, '\\', n))
                for (char *c = right; *c; c++)
                    if (*c == '/') *c = '\\';
            int line = 0;
            while ((size_t)line + 1 < p->lines.starts.count && p->lines.starts.items[line + 1] <= i) line++;
            int col = (int)(i - p->lines.starts.items[line]) + 1;
            char title[300];
            snprintf(title, sizeof title, "Change '%.120s' to '%.120s'", wrong, right);
            begin_action(s, any, title, d, uri_json);
            text_edit(s, line, lsp_from_column(&p->lines, line, col, s->utf8), line,
                      lsp_from_column(&p->lines, line, col + (int)n, s->utf8), right);
            outbuf_str(&s->msg, "]}}}");
            break;
        }
    }
    free(wrong);
    free(right);
}

/* "... which this file does not #include: add #include maps\_x; or ...":
** the line added after the document's last #include, else at its top. */
static void add_include(lsp_server *s, const lsp_position *p, const json_value *d, const char *uri_json, int *any)
{
    const char *msg = lsp_str(d, "message");
    char *directive = msg ? clause_after(msg, ": add ") : NULL;
    if (directive && strncmp(directive, "#include ", 9) == 0) {
        int after = 0;
        for (size_t i = 0; i < p->lines.starts.count; i++) {
            const char *l = p->doc->text + p->lines.starts.items[i];
            size_t len = (i + 1 < p->lines.starts.count ? p->lines.starts.items[i + 1] : p->doc->len) - p->lines.starts.items[i];
            if (len >= 8 && strncasecmp(l, "#include", 8) == 0) after = (int)i + 1;
        }
        char title[300], line[300];
        snprintf(title, sizeof title, "Add %.200s;", directive);
        snprintf(line, sizeof line, "%.200s;\n", directive);
        begin_action(s, any, title, d, uri_json);
        text_edit(s, after, 0, after, 0, line);
        outbuf_str(&s->msg, "]}}}");
    }
    free(directive);
}

/* An unknown function another extension of the game registers: its
** --extension added at the end of the project's atrc.flags. */
static void add_extension(lsp_server *s, const json_value *d, int *any)
{
    const char *msg = lsp_str(d, "message");
    const char *code = lsp_str(d, "code");
    if (!msg || !code || strcmp(code, "unknown-function") != 0 || !s->pj->flags) return;
    char *name = quoted_after(msg, NULL);
    int method = strstr(msg, "builtin methods") != NULL;
    const char *ext = name ? atrc_extension_defining(s->pj->cli.opts.profile, name, method) : NULL;
    free(name);
    if (!ext) return;
    lsp_doc *open = lsp_docs_find_path(&s->docs, s->pj->flags);
    char *text = NULL;
    size_t len = 0;
    if (open) {
        text = os_strndup(open->text, open->len);
        len = open->len;
    } else {
        FILE *f = fopen(s->pj->flags, "rb");
        if (!f) return;
        outbuf b = {0};
        char buf[4096];
        size_t k;
        while ((k = fread(buf, 1, sizeof buf, f)) > 0 && b.len < ((size_t)16 << 20)) outbuf_put(&b, buf, k);
        fclose(f);
        len = b.len;
        text = b.s ? b.s : os_strndup("", 0);
    }
    if (!text) out_of_memory();
    lsp_lines lines = {0};
    lsp_lines_index(&lines, text, len);
    int last = (int)lines.starts.count - 1;
    int ends_line = len == 0 || text[len - 1] == '\n';
    outbuf uri = {0};
    lsp_path_to_uri(&uri, s->pj->flags, &s->uri_style, LSP_WINDOWS_PATHS);
    outbuf uri_json = {0};
    outbuf_json_string(&uri_json, uri.s ? uri.s : "", uri.len);
    char title[200], add[200];
    snprintf(title, sizeof title, "Add --extension %s to atrc.flags", ext);
    snprintf(add, sizeof add, "%s--extension\n%s\n", ends_line ? "" : "\n", ext);
    begin_action(s, any, title, d, uri_json.s);
    int64_t end = lsp_from_column(&lines, last, (int)(len - lines.starts.items[last]) + 1, s->utf8);
    text_edit(s, last, end, last, end, add);
    outbuf_str(&s->msg, "]}}}");
    outbuf_free(&uri);
    outbuf_free(&uri_json);
    lsp_lines_free(&lines);
    free(text);
}

void lsp_code_actions(lsp_server *s, const lsp_message *m)
{
    lsp_position p;
    const json_value *diags = json_get(json_get(m->params, "context"), "diagnostics");
    if (lsp_get_position(s, m, &p) != 0 || !diags || diags->type != JSON_ARRAY) {
        lsp_empty_list(s, m);
        return;
    }
    outbuf uri_json = {0};
    outbuf_json_string(&uri_json, p.doc->uri, strlen(p.doc->uri));
    lsp_begin_result(s, m->id);
    outbuf_char(&s->msg, '[');
    int any = 0;
    for (size_t i = 0; i < diags->u.array.count; i++) {
        const json_value *d = diags->u.array.items[i];
        const char *source = lsp_str(d, "source");
        if (d->type != JSON_OBJECT || !lsp_str(d, "message") || (source && strcmp(source, "atrc") != 0)) continue;
        did_you_mean(s, &p, d, uri_json.s, &any);
        add_include(s, &p, d, uri_json.s, &any);
        add_extension(s, d, &any);
    }
    outbuf_char(&s->msg, ']');
    lsp_end_result(s);
    outbuf_free(&uri_json);
    lsp_lines_free(&p.lines);
}
