/* The engine's Com_Parse tokenizer: see com_token.h. */
#include "tree/com_token.h"

#include <string.h>

/* Signed-char test of the engine: every byte <= 0x20 and every byte >= 0x80. */
static int is_space_byte(unsigned char c)
{
    return c <= 0x20 || c >= 0x80;
}

static void put_tok_byte(com_tokenizer *tz, char c, size_t *raw)
{
    if (tz->tok_len < MAX_TOKEN_CHARS - 1) tz->tok[tz->tok_len++] = c;
    (*raw)++;
}

int com_next_token(com_tokenizer *tz, int allow_line_breaks)
{
    tz->tok_len = 0;
    tz->tok[0] = 0;
    if (tz->at_eof) return 0;
    const char *d = tz->data + tz->pos;
    int crossed_line = 0;
    for (;;) {
        while (is_space_byte((unsigned char)*d)) {
            if (*d == 0) {
                tz->at_eof = 1;
                return 0;
            }
            if (*d == '\n') crossed_line = 1;
            d++;
        }
        if (crossed_line && !allow_line_breaks) {
            tz->pos = (size_t)(d - tz->data);
            return 0;
        }
        if (d[0] == '/' && d[1] == '/') {
            d += 2;
            while (*d && *d != '\n') d++;
        } else if (d[0] == '/' && d[1] == '*') {
            /* The scan starts at the '/', so a slash-star-slash already closes; newlines
            ** inside do not count as crossing a line (1.3). */
            d++;
            while (*d && !(d[0] == '*' && d[1] == '/')) d++;
            if (*d) d += 2;
        } else {
            break;
        }
    }
    tz->last_tok = (size_t)(d - tz->data);
    size_t raw = 0;
    if (*d == '"') {
        d++;
        for (;;) {
            char c = *d;
            if (c == 0) break; /* unterminated: the token runs to the end of the text */
            d++;
            if (c == '\\' && (*d == '"' || (tz->escape_backslash && *d == '\\'))) {
                c = *d++;
            } else if (c == '"') {
                break;
            }
            put_tok_byte(tz, c, &raw);
        }
    } else {
        while (!is_space_byte((unsigned char)*d)) put_tok_byte(tz, *d++, &raw);
    }
    tz->tok[tz->tok_len] = 0;
    tz->pos = (size_t)(d - tz->data);
    if (raw > tz->tok_len) {
        int line, col;
        source_position(tz->src, tz->last_tok, &line, &col);
        diag_add(tz->diags, DIAG_WARNING, tz->src, line, col,
                 "token longer than %d bytes truncated", MAX_TOKEN_CHARS - 1);
    }
    /* The engine's callers of Com_ParseOnLine test the token's text, so an
    ** empty quoted token "" reads as the end of the line there (Com_Parse's
    ** callers test the cursor instead: there "" is a token). */
    if (!allow_line_breaks && tz->tok_len == 0) return 0;
    return 1;
}

int com_tok_is(const com_tokenizer *tz, const char *s)
{
    return strcmp(tz->tok, s) == 0;
}

