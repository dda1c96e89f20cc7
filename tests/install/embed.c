/* A program that embeds atrc through the installed header and library:
** compiles a script held in memory against a tree given on the command line
** and prints one packed value and the diagnostics. */
#include <atrc.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc != 2) return 2;
    atrc_options opts;
    memset(&opts, 0, sizeof opts);
    opts.no_xanim = 1;
    atrc_ctx *ctx = atrc_new(&opts);
    atrc_add_game_dir(ctx, argv[1]);
    const char *script = "#using_animtree(\"t\");\nf() { a = %b; c = %nope; }\n";
    atrc_add_script_buffer(ctx, "embed.gsc", script, strlen(script));
    atrc_build_trees(ctx);
    const atrc_tree *t = atrc_get_tree(ctx, 1);
    printf("atrc %s: tree %s, %d nodes, checksum %u\n", ATRC_VERSION, t ? t->name : "?", t ? t->node_count : 0,
           t ? (unsigned)t->checksum : 0u);
    if (atrc_emit(ctx, ATRC_FORMAT_TEXT, 0, stdout) != 0) return 2;
    atrc_print_diagnostics(ctx, stdout);
    int errors = atrc_error_count(ctx);
    atrc_free(ctx);
    return errors == 1 ? 0 : 1;
}
