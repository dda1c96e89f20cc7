/* The structured form of a context's diagnostics (atrc_get_diagnostic, JSON
** "code"/"end_line"/"end_column", the language server): codes, end
** positions and related places, worked out when first asked for — never
** while diagnostics are recorded — and kept with the context. */
#ifndef ATRC_DIAG_VIEW_H
#define ATRC_DIAG_VIEW_H
#include <stddef.h>
#include "atrc.h"
#include "base/source.h"

struct atrc_ctx;
typedef struct diag_view diag_view;

/* The view of every diagnostic recorded so far (brought up to date when more
** were recorded since): codes and positions; the related places are filled
** in by atrc_get_diagnostic only (JSON does not show them).  The context is
** logically const: the view is a cache. */
const atrc_diagnostic *diag_view_items(const struct atrc_ctx *ctx, size_t *count);
void diag_view_free(diag_view *v);

/* End (exclusive byte offset) of the token or construct starting at off of
** text[0, len): a name (with its '%' or '#'), a path, a string, '/#' or
** '#/', else one character; off itself at the end of a line or the text. */
size_t token_end(const char *text, size_t len, size_t off);

/* A location for src:line:col (src NULL: none), its end found in src's text
** when that is at hand (else one byte on). */
void location_of(const struct atrc_ctx *ctx, source_file *src, int line, int col, atrc_location *out);

#endif
