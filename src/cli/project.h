/* What a project file (`atrc.flags`) may say when the language server reads
** it on its own, no user having typed it: only the options that shape a
** compilation, and operands and lists that are regular files. */
#ifndef ATRC_CLI_PROJECT_H
#define ATRC_CLI_PROJECT_H
#include "cli/argfile.h"

#include <stdio.h>

typedef struct project_scan {
    int has_inputs;     /* a script operand, --map or --entry: the project names what to compile */
    int has_game_dir;   /* -g or --install */
    int gsx;            /* --extension cod4x: CoD4x's .gsx files are scripts too */
} project_scan;

/* Checks the arguments args->argv[from..] that came from a file: an output
** or presentation option (-o, --format, --trees, ...), or an operand or
** list (--builtins, --entities) that exists and is no regular file (a
** FIFO, a device, standard input under any spelling or link), is one
** located error ("FILE:LINE: error: ...") on err.  0 (what the project
** names in *scan), or 2. */
int project_check_args(const arglist *args, int from, project_scan *scan, FILE *err);

#endif
