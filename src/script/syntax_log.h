/* A script's syntax-error log: the per-file error cap (diag_list's
** max_errors, --max-errors) and what the lexer, the parser and the recovery
** in src/script/syntax_recovery.c note about the errors made, so that one mistake
** gives one message.  The driver owns one per file and hands it to the lexer;
** nothing here is per token on the common path. */
#ifndef ATRC_SYNTAX_LOG_H
#define ATRC_SYNTAX_LOG_H
#include <stdarg.h>
#include <stddef.h>
#include "base/diag.h"
#include "base/source.h"
#include "base/vec.h"

typedef struct syntax_log {
    source_file *src;
    diag_list *diags;
    int errors;          /* errors reported for this file */
    int stopped;         /* too many errors or too deep: stop the file */
    int error_line, error_col; /* position of the last error */
    int lexical_errors;  /* errors the lexer itself reported (stray bytes...) */
    int lexical_error_token; /* the lexer's token count at the last of those */
    int unterminated_string; /* set when a string ran to the end of its line */
    /* Brackets: '(' and '[' abandoned in this block and not yet answered, the
    ** token count of the closer that answered the last one, and that of the
    ** last '#/' that closed no '/#' (see gsc_lexer_abandon_brackets). */
    int abandoned, abandoned_closer, stray_devclose;
    VEC(size_t) reported; /* indices in diags of the syntax errors reported (not the cap's) */
} syntax_log;

void syntax_log_init(syntax_log *log, source_file *src, diag_list *diags);
void syntax_log_free(syntax_log *log);
/* Reports a located error, counting toward the cap; the report that exceeds
** the cap says so and sets stopped.  Returns 1 when the error was counted
** (not stopped). */
int syntax_log_reportv(syntax_log *log, int line, int col, const char *fmt, va_list ap);

#endif
