/* Diagnostics: collected in discovery order, printed GCC-style with a source
** excerpt and caret, and reported in JSON.  The list also carries the
** reporting policy (-w, -Werror, the per-file error cap). */
#ifndef ATRC_DIAG_H
#define ATRC_DIAG_H
#include <stdarg.h>
#include <stdio.h>
#include "atrc.h"
#include "base/source.h"
#include "base/vec.h"

/* A note is advice about the run (not counted, never made an error by
** -Werror; -w drops it with the warnings). */
typedef enum { DIAG_ERROR = 0, DIAG_WARNING, DIAG_NOTE } diag_severity;

/* Syntax errors reported per script before the rest of it is given up
** (binary junk): the default of --max-errors.  The script lexer applies it. */
#define DIAG_DEFAULT_MAX_ERRORS 50

typedef struct diag {
    diag_severity severity;
    int promoted;     /* a warning made an error by -Werror: printed "[-Werror]" */
    source_file *src; /* NULL: no source position ("atrc: error: ...") */
    int line, col;    /* 1-based; 0 when src is NULL */
    char *message;
} diag;

/* A VEC of diagnostics (VEC_PUSH(*d) grows it) with the counts and the policy. */
typedef struct diag_list {
    VEC_FIELDS(diag);
    int errors, warnings;
    int read_failures;      /* files that exist but could not be read */
    /* Policy, set after diag_init. */
    int no_warnings;        /* -w: warnings are not recorded */
    int warnings_as_errors; /* -Werror */
    int max_errors;         /* syntax errors per script, and warnings kept per list; 0: no limit */
    size_t kept_warnings;   /* warnings recorded by diag_add(v) */
    size_t hidden_warnings; /* past max_errors: counted in warnings (errors with -Werror), not kept */
} diag_list;

/* Empty list, default policy (warnings kept, DIAG_DEFAULT_MAX_ERRORS). */
void diag_init(diag_list *d);
/* The reporting policy of opts, the one way it is set: -w, -Werror and
** --max-errors (0 keeps the default cap, below 0 lifts it). */
void diag_set_policy(diag_list *d, const atrc_options *opts);
void diag_free(diag_list *d);
/* Records one diagnostic, after the policy: -w drops a warning, -Werror
** records it as an error. */
void diag_add(diag_list *d, diag_severity sev, source_file *src, int line, int col,
              const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 6, 7)))
#endif
    ;
void diag_addv(diag_list *d, diag_severity sev, source_file *src, int line, int col,
               const char *fmt, va_list ap);

/* Counts from's hidden warnings in d (a file's list joining the context's). */
void diag_take_hidden(diag_list *d, const diag_list *from);
/* Appends g, taking its message (g->message is left NULL): how a file's
** diagnostics recorded on a worker join the context's list (the policy was
** applied when g was recorded). */
void diag_take(diag_list *d, diag *g);
/* Moves every diagnostic of from (recorded with d's policy but no cap) to
** the end of d, in order, as if each were recorded in d now: a warning past
** d's cap is counted, not kept.  from is left empty, for reuse. */
void diag_move_all(diag_list *d, diag_list *from);
/* Calls fn(ud, i, has_text) for each diagnostic i in [from, to) of d (with
** released_only, only those whose file's text was dropped after parsing):
** first, in order, those whose text is at hand (has_text: the diagnostic has
** a file); then the released ones by file, each file read again once for all
** of its diagnostics and dropped again after them (has_text 0 when it cannot
** be read, or changed since). */
void diag_visit_texts(const diag_list *d, size_t from, size_t to, int released_only,
                      void (*fn)(void *ud, size_t index, int has_text), void *ud);
/* How diagnostics are printed: colours (GCC's SGR parameters) and whether the
** summary line ends the list. */
typedef struct diag_style {
    int color;
    char error[32], warning[32], note[32], locus[32], caret[32];
    int no_summary;
} diag_style;

/* color: use SGR escapes; gcc_colors: a GCC_COLORS value ("error=01;31:
** warning=01;35:note=01;36:locus=01:caret=01;32", the defaults; unknown keys ignored, an
** empty string turns colour off), NULL for the defaults. */
void diag_style_init(diag_style *s, int color, const char *gcc_colors, int no_summary);

/* Each diagnostic with its excerpt ("PATH:LINE:COL: error: MSG\n  line\n
** ^\n") is assembled in memory and written with one fwrite (on an unbuffered
** stderr: one write(2), so parallel runs never interleave inside it); then
** the summary ("1 error, 2 warnings") when there was any and the style does
** not suppress it.  A file whose text was dropped after parsing is read
** again (once) for its excerpts; a file changed since gets none.  style may be NULL (no colour).  Returns 0, or -1 on a
** write error. */
int diag_print(const diag_list *d, const diag_style *style, FILE *out);

/* s with every control byte (below 0x20, and 0x7F) written \xHH, as
** script excerpts in messages write them: a file name, an option or a
** response file's line reaches a terminal as text, never as an escape
** sequence.  Other bytes (UTF-8 names) are kept.  NULL when s holds no
** control byte, else a malloc'ed copy.  Every message goes through it. */
char *diag_escape_controls(const char *s);

/* Puts d's items from `first` on in source order (line, column, then
** discovery order), when all of them are located in src. */
void diag_sort_range(diag_list *d, size_t first, const source_file *src);

#endif
