/* `atrc lsp`: the Language Server Protocol on standard input and output
** (spec: interface.md, "Language server").  Exit status: 0 after shutdown
** and exit, 1 when the input ends or exit comes without shutdown, 2 for a
** usage error. */
#ifndef ATRC_CLI_LSP_H
#define ATRC_CLI_LSP_H

int lsp_main(int argc, char **argv);

#endif
