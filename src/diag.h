/* Diagnostics: collected in discovery order, printed GCC-style with a source
** excerpt and caret, and reported in JSON. */
#ifndef ATRC_DIAG_H
#define ATRC_DIAG_H
#include <stdarg.h>
#include <stdio.h>
#include "source.h"

typedef enum { DIAG_ERROR = 0, DIAG_WARNING } diag_severity;

typedef struct diag {
    diag_severity severity;
    source_file *src; /* NULL: no source position ("atrc: error: ...") */
    int line, col;    /* 1-based; 0 when src is NULL */
    char *message;
} diag;

typedef struct diag_list {
    diag *items;
    size_t count, cap;
    int errors, warnings;
} diag_list;

void diag_init(diag_list *d);
void diag_free(diag_list *d);
void diag_add(diag_list *d, diag_severity sev, source_file *src, int line, int col,
              const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 6, 7)))
#endif
    ;
void diag_addv(diag_list *d, diag_severity sev, source_file *src, int line, int col,
               const char *fmt, va_list ap);
/* Appends g, taking its message (g->message is left NULL): how a file's
** diagnostics recorded on a worker join the context's list. */
void diag_take(diag_list *d, diag *g);
/* One diagnostic with its excerpt: "PATH:LINE:COL: error: MSG\n  line\n  ^\n". */
void diag_print_one(const diag *g, FILE *out);
/* All of them, then "N errors, M warnings" when there was any. */
void diag_print(const diag_list *d, FILE *out);

#endif
