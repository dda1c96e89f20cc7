/* The language server's project files as data (project.h).  A repository's
** atrc.flags is read when a document below it is opened: it must not make
** the server write a file, read its own protocol stream, block on a FIFO or
** send an outside file's content to the editor. */
#include "cli/project.h"
#include "cli/args.h"
#include "os/os.h"

#include <string.h>
#include <strings.h>

typedef enum { TAKES_NONE, TAKES_VALUE, TAKES_LIST } takes;

typedef struct option_rule {
    const char *name;
    char shortname;
    takes value;
} option_rule;

/* The options that shape a compilation: the game and its directories,
** the mod and language, what the level or walk loads, extensions and
** builtin lists, xanims, developer code, and the diagnostics' policy. */
static const option_rule allowed[] = {
    {"--profile", 0, TAKES_VALUE},     {"--game-dir", 'g', TAKES_VALUE}, {"--install", 0, TAKES_VALUE},
    {"--fs-game", 0, TAKES_VALUE},     {"--language", 0, TAKES_VALUE},   {"--map", 0, TAKES_VALUE},
    {"--gametype", 0, TAKES_VALUE},    {"--entities", 0, TAKES_LIST},    {"--entry", 0, TAKES_VALUE},
    {"--extension", 0, TAKES_VALUE},   {"--builtins", 0, TAKES_LIST},    {"--engine-anim", 0, TAKES_VALUE},
    {"--max-errors", 0, TAKES_VALUE},  {"--sp", 0, TAKES_NONE},          {"--no-xanim", 0, TAKES_NONE},
    {"--anim-check", 0, TAKES_NONE},   {"--developer-script", 0, TAKES_NONE}, {"--syntax-only", 0, TAKES_NONE},
    {"-w", 0, TAKES_NONE},             {"-Werror", 0, TAKES_NONE},
};

/* Options of the command line that are about its output, never the
** compilation: refused by name.  Anything else unknown is cli_parse's to
** report. */
static const option_rule refused[] = {
    {"--output", 'o', TAKES_VALUE}, {"--format", 0, TAKES_VALUE},  {"--trees", 0, TAKES_NONE},
    {"--tree", 0, TAKES_VALUE},     {"--rankdir", 0, TAKES_VALUE}, {"--color", 0, TAKES_NONE},
    {"--quiet", 'q', TAKES_NONE},   {"--load-order", 0, TAKES_NONE}, {"--dump-tokens", 0, TAKES_NONE},
    {"--dump-ast", 0, TAKES_NONE},  {"--explain", 0, TAKES_VALUE}, {"--help", 'h', TAKES_NONE},
    {"--version", 0, TAKES_NONE},   {"--jobs", 'j', TAKES_VALUE},  {"--show-pruned", 0, TAKES_NONE},
};

/* Does a name the rule's option ("--name", "--name=v", "-x", "-xv")? */
static int names(const option_rule *r, const char *a)
{
    size_t n = strlen(r->name);
    if (strncmp(a, r->name, n) == 0 && (a[n] == 0 || (a[n] == '=' && r->value != TAKES_NONE))) return 1;
    return r->shortname && a[0] == '-' && a[1] == r->shortname && (a[2] == 0 || r->value != TAKES_NONE);
}

static const option_rule *find(const option_rule *rules, size_t n, const char *a)
{
    for (size_t i = 0; i < n; i++)
        if (names(&rules[i], a)) return &rules[i];
    return NULL;
}

static int error_at(const arglist *args, int i, FILE *err, const char *fmt, const char *arg, const char *detail)
{
    arg_print_error_start(err, &args->origin.items[i]);
    arg_print_escaped(err, fmt, arg, detail);
    fputc('\n', err);
    return 2;
}

/* An operand or list named in the file: a regular file or a directory
** (operands), or one that does not exist (the compilation says so). */
static int check_file(const arglist *args, int i, const char *value, int directory_ok, FILE *err)
{
    if (strcmp(value, "-") == 0)
        return error_at(args, i, err, "standard input ('%s') cannot be read by the language server%s", value,
                        ": it is the protocol's");
    os_file_id id;
    const char *path = arglist_resolve((arglist *)args, args->origin.items[i].dir, value);
    if (os_path_id(path, &id) != 0 || id.regular || (directory_ok && id.directory)) return 0;
    return error_at(args, i, err, "'%s' is %s: the language server reads only regular files", value,
                    id.directory ? "a directory" : "not a regular file (a FIFO, a device or standard input)");
}

int project_check_args(const arglist *args, int from, project_scan *scan, FILE *err)
{
    memset(scan, 0, sizeof *scan);
    /* walk mode (`--entry a b`): the operands are the game's script names,
    ** found through its directories, not files of the project's */
    int walk = 0;
    static const option_rule entry = {"--entry", 0, TAKES_VALUE};
    for (int i = from; i < args->argc && !walk; i++) walk = names(&entry, args->argv.items[i]);
    int only_operands = 0;
    for (int i = from; i < args->argc; i++) {
        const char *a = args->argv.items[i];
        if (!args->origin.items[i].file) continue; /* typed by the user */
        if (only_operands || a[0] != '-' || a[1] == 0) {
            scan->has_inputs = 1;
            if (!walk && check_file(args, i, a, 1, err)) return 2;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_operands = 1;
            continue;
        }
        const option_rule *r = find(refused, sizeof refused / sizeof *refused, a);
        if (r)
            return error_at(args, i, err,
                            "'%s' is not for a project file: the language server takes from it only what shapes %s",
                            a, "a compilation (profile, game directories, install, mod, language, level or walk, "
                               "extensions, builtins, xanim and developer switches, scripts)");
        r = find(allowed, sizeof allowed / sizeof *allowed, a);
        if (!r) return 0; /* unknown: cli_parse says so at its line */
        if (strcmp(r->name, "--map") == 0 || strcmp(r->name, "--entry") == 0) scan->has_inputs = 1;
        if (strcmp(r->name, "--game-dir") == 0 || strcmp(r->name, "--install") == 0) scan->has_game_dir = 1;
        if (r->value == TAKES_NONE) continue;
        const char *v;
        int at = i;
        cli_take_value(args->argc, args->argv.items, &i, r->name, r->shortname, &v);
        if (v && strcmp(r->name, "--extension") == 0 && strcasecmp(v, "cod4x") == 0) scan->gsx = 1;
        if (v && r->value == TAKES_LIST && check_file(args, at, v, 0, err)) return 2;
    }
    return 0;
}
