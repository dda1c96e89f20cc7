/* The command line of a compilation (`atrc [OPTIONS] SCRIPT...`, level and
** walk mode): parsed into a cli, then applied to a context.  One parser for
** the command line, response files, the project file and the language
** server, so that each configures a compilation with the same code. */
#ifndef ATRC_CLI_ARGS_H
#define ATRC_CLI_ARGS_H
#include "atrc.h"
#include "cli/argfile.h"

#include <stdint.h>
#include <stdio.h>

typedef enum { CLI_RUN = 0, CLI_HELP, CLI_VERSION } cli_action;

typedef struct cli {
    atrc_options opts;
    cli_action action;
    atrc_format format;
    int show_trees;
    const char *output;
    int color;       /* -1 auto, 0 never, 1 always */
    int quiet;
    int explain;
    uint32_t *explain_values;
    int explain_count;
    const char **trees; /* --tree */
    int tree_count;
    atrc_rankdir rankdir;
    int dump; /* 1 tokens, 2 AST */
    const char **scripts;
    const char **operands; /* the scripts as written: walk mode's names after --entry's first */
    int script_count;
    const char **game_dirs;
    int game_dir_count;
    const char **engine_anims;
    int engine_anim_count;
    const char *install, *fs_game, *language;
    char *mod_dir;   /* INSTALL/FS_GAME, checked like a -g directory */
    /* level and walk mode */
    const char *map, *gametype, *entities;
    int sp, load_order;
    const char **entries;
    int entry_count;
    const char **extensions, **builtin_files; /* --extension, --builtins */
    int extension_count, builtin_file_count;
    /* where messages go, and the argument being read (located errors) */
    FILE *err;
    arglist *args;
    int at;
} cli;

extern const char cli_usage_text[];

/* "atrc: error: MESSAGE" and the hint to --help; returns 2. */
int cli_usage_error(FILE *err, const char *fmt, const char *arg);
/* Matches "--name", "--name=value" and "--name value"; short "-x value" and
** "-xvalue".  1 when argv[*i] is the option (*value NULL when its value is
** missing; *i moves past a separate value), else 0. */
int cli_take_value(int argc, char **argv, int *i, const char *longname, char shortname, const char **value);

/* Parses args (argv[0] is the program) into c; messages to err.  0, or 2
** after a usage error.  c->action says whether --help or --version came
** first.  Paths of operands and path options given in a file are resolved
** against that file's directory.  args must outlive c. */
int cli_parse(cli *c, arglist *args, FILE *err);
void cli_free(cli *c);
/* Every game directory (-g, --install, the mod directory) is a directory:
** 0, or 2 after the error. */
int cli_check_game_dirs(cli *c);
/* Configures ctx as the command line says (install, game directories,
** extensions, builtins, engine animations, scripts, level or walk), up to
** but not including atrc_build_trees.  0, or 2 after a usage error. */
int cli_configure(const cli *c, atrc_ctx *ctx);
/* Only the options of cli_configure, no input: what the dumps read with. */
int cli_configure_options(const cli *c, atrc_ctx *ctx);

#endif
