/* The engine's generic space-delimited tokenizer (Com_Parse /
** Com_ParseOnLine, stock-behavior.md section 1), shared by the .atr reader
** and the mp/playeranim.script reader. */
#ifndef ATRC_COM_TOKEN_H
#define ATRC_COM_TOKEN_H
#include <stddef.h>
#include "base/diag.h"
#include "base/source.h"

#define MAX_TOKEN_CHARS 1024 /* engine buffer: tokens keep at most 1023 bytes */

typedef struct com_tokenizer {
    const char *data;      /* NUL-terminated; the first NUL ends the text */
    size_t pos;            /* cursor (byte offset) */
    int at_eof;            /* the engine's cursor became NULL */
    size_t last_tok;       /* offset of the last real token's first byte */
    char tok[MAX_TOKEN_CHARS];
    size_t tok_len;
    int escape_backslash;  /* cod2/cod4 also read \\ as \ inside quotes */
    source_file *src;
    diag_list *diags;
} com_tokenizer;

/* Com_ParseExt in space-delimited mode.  Returns 1 for a real token (possibly
** the empty quoted token ""), 0 for an empty result: end of line when
** line breaks are not allowed, or end of text (then at_eof is set). */
int com_next_token(com_tokenizer *tz, int allow_line_breaks);
int com_tok_is(const com_tokenizer *tz, const char *s);

#endif
