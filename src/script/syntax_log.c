/* A script's syntax-error log (see syntax_log.h). */
#include "script/syntax_log.h"
#include "base/vec.h"

#include <stdlib.h>
#include <string.h>

void syntax_log_init(syntax_log *log, source_file *src, diag_list *diags)
{
    memset(log, 0, sizeof *log);
    log->src = src;
    log->diags = diags;
}

void syntax_log_free(syntax_log *log)
{
    VEC_FREE(log->reported);
}

int syntax_log_reportv(syntax_log *log, int line, int col, const char *fmt, va_list ap)
{
    if (log->stopped) return 0;
    if (log->diags->max_errors > 0 && log->errors == log->diags->max_errors) {
        diag_add(log->diags, DIAG_ERROR, log->src, line, col, "too many errors in this file; stopping");
        log->stopped = 1;
        return 0;
    }
    log->errors++;
    log->error_line = line;
    log->error_col = col;
    size_t before = log->diags->count;
    diag_addv(log->diags, DIAG_ERROR, log->src, line, col, fmt, ap);
    if (log->diags->count > before) *VEC_PUSH(log->reported) = before;
    return 1;
}
