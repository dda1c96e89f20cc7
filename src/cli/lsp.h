/* `atrc lsp`: the Language Server Protocol on standard input and output
** (spec: interface.md, "Language server").  Exit status: 0 after shutdown
** and exit, 1 when the input ends or exit comes without shutdown, 2 for a
** usage error. */
#ifndef ATRC_CLI_LSP_H
#define ATRC_CLI_LSP_H
#include <stdio.h>

int lsp_main(int argc, char **argv);
/* The server on in_fd and out_fd until exit or the end of the input, its
** log lines also written to log: what `atrc lsp` runs on standard input,
** output and error, and the session fuzzer on files.  Returns the exit
** status. */
int lsp_serve(int in_fd, int out_fd, FILE *log);

#endif
