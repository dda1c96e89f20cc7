/* The command line of a compilation: cli/args.h. */
#include "cli/args.h"
#include "os/os.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char cli_usage_text[] =
    "usage: atrc [OPTIONS] SCRIPT...    (SCRIPT - reads standard input; a directory:\n"
    "                                   every .gsc below it, in the engine's path order)\n"
    "       atrc [OPTIONS] --map NAME (--gametype G | --sp)   level mode\n"
    "       atrc [OPTIONS] --entry SCRIPTNAME...               walk mode\n"
    "Compiles GSC scripts, resolves their %name animation references against the\n"
    "animation trees they select, and prints each packed value (tree << 16) | node.\n"
    "\n"
    "  -g, --game-dir DIR     add a game directory (animtrees/, xanim/); repeatable,\n"
    "                         later ones override earlier ones (default: .)\n"
    "      --install DIR      a game install: DIR/main (uo: and DIR/uo) with their\n"
    "                         .pk3/.iwd archives, below every -g directory\n"
    "      --fs-game MOD      the mod directory DIR/MOD on top of the install\n"
    "      --language L       also read the localized_L_* archives\n"
    "      --profile P        engine dialect: uo (default), cod1, cod2, cod4\n"
    "                         (any letter case)\n"
    "      --anim-check       keep every node of every tree (com_animCheck 1)\n"
    "      --engine-anim T:N  register tree T and reference N, as engine code does\n"
    "      --no-xanim         do not read xanim assets; skip the checks needing them\n"
    "      --syntax-only      lex and parse the scripts only\n"
    "      --format text|json|dot  output format (default text; dot: Graphviz)\n"
    "      --trees            text format: also list every tree with node numbers\n"
    "      --show-pruned      --trees, json, dot: also list the nodes pruning removed\n"
    "      --tree NAME        --trees, json, dot: only tree NAME (repeatable)\n"
    "      --rankdir TB|LR    dot: top to bottom or left to right (default: left\n"
    "                         to right when a tree has a level of over 12 nodes)\n"
    "      --explain VALUE    decode packed values (decimal or 0x hex; repeatable,\n"
    "                         or a comma-separated list); with scripts, also why\n"
    "                         the node has its index and which references have it\n"
    "  -o FILE                write the output to FILE atomically; never one of\n"
    "                         the inputs nor game content (archives, trees,\n"
    "                         xanims, scripts of the game directories), and\n"
    "                         kept as it was when an input cannot be read\n"
    "  -w                     report no warnings\n"
    "  -Werror                make every warning an error (exit status 1)\n"
    "  -Wno-runtime-anim      no run-time animation checks (-Wruntime-anim: on,\n"
    "                         the default; -Werror=runtime-anim: their warnings\n"
    "                         are errors)\n"
    "      --max-errors N     syntax errors reported per script before the rest\n"
    "                         of it is given up, and warnings shown per script\n"
    "                         (default 50; 0: no limit)\n"
    "      --color[=WHEN]     colour diagnostics: auto (default: on a terminal,\n"
    "                         unless NO_COLOR is set), always, never; colours\n"
    "                         from GCC_COLORS as GCC reads them\n"
    "  -q, --quiet            no summary line after the diagnostics\n"
    "  -j N                   parse scripts on N threads (default: online CPUs;\n"
    "                         1: no threads); the output is the same for any N\n"
    "      --dump-tokens      print each script's tokens (developer view)\n"
    "      --dump-ast         print each script's syntax tree (developer view)\n"
    "      --map NAME         level mode: what the game loads for map NAME\n"
    "      --gametype G       level mode, multiplayer with gametype G\n"
    "      --sp               level mode, single player\n"
    "      --entities FILE    single player: entity-driven scripts, one per line\n"
    "      --entry NAME       walk mode: the engine's load walk from script NAME\n"
    "      --developer-script compile /# #/ code as with developer_script 1\n"
    "      --extension NAME   also the builtins an engine extension registers for\n"
    "                         the profile's game (repeatable): uo codextended,\n"
    "                         libcoduo; cod1 codextended, libcod1; cod2 cod2x,\n"
    "                         libcod, libcod_voron, zk_libcod; cod4 cod4x\n"
    "      --builtins FILE    also the builtin names in FILE, one 'function NAME'\n"
    "                         or 'method NAME' a line, optionally 'dev' (repeatable)\n"
    "      --load-order       text format: also list the scripts in load order\n"
    "  @FILE                  the arguments in FILE, one a line ('#' comments);\n"
    "                         its relative paths are from FILE's directory\n"
    "                         (atrc @atrc.flags: a project, as editors see it)\n"
    "  -h, --help             show this help\n"
    "      --version          show the version\n"
    "\n"
    "  atrc diff [--format text|json] [-o FILE] OLD.json NEW.json\n"
    "                         compare two JSON runs and explain every change\n"
    "                         (exit 0 same, 1 different, 2 trouble)\n"
    "  atrc lsp               a language server (LSP) on standard input and output:\n"
    "                         configured by the nearest atrc.flags, else the\n"
    "                         client's initializationOptions.flags, else the\n"
    "                         open scripts (exit 0 after shutdown and exit)\n"
    "\n"
    "Exit status: 0 success (warnings allowed), 1 errors in the inputs,\n"
    "2 usage error, unreadable input or failed output.\n";

int cli_usage_error(FILE *err, const char *fmt, const char *arg)
{
    fputs("atrc: error: ", err);
    arg_print_escaped(err, fmt, arg, NULL);
    fputs("\n(try 'atrc --help')\n", err);
    return 2;
}

/* A usage error at the argument being read: "FILE:LINE: error: ..." when
** it came from a response or project file. */
static int usage_error(const cli *c, const char *fmt, const char *arg)
{
    const arg_origin *o = c->at > 0 && c->at < c->args->argc ? &c->args->origin.items[c->at] : NULL;
    arg_print_error_start(c->err, o);
    arg_print_escaped(c->err, fmt, arg, NULL);
    fputs("\n(try 'atrc --help')\n", c->err);
    return 2;
}

/* A number as the interface writes them: decimal digits, or with `hex` also
** 0x and hex digits; nothing before or after (no blanks, no sign, no octal:
** "010" is ten). */
static int parse_u32(const char *s, int hex, uint32_t *out)
{
    int base = 10;
    if (hex && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    if (!(base == 16 ? isxdigit((unsigned char)*s) : isdigit((unsigned char)*s))) return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, base);
    if (errno || *end || v > 0xFFFFFFFFull) return -1;
    *out = (uint32_t)v;
    return 0;
}

/* An option that takes one value, given twice: a usage error, not "the last wins". */
static int once(const cli *c, const void *already, const char *opt)
{
    return already ? usage_error(c, "%s given more than once", opt) : 0;
}

/* Matches "--name", "--name=value" and "--name value"; short "-x value" and "-xvalue". */
int cli_take_value(int argc, char **argv, int *i, const char *longname, char shortname,
                      const char **value)
{
    const char *a = argv[*i];
    size_t n = strlen(longname);
    if (strncmp(a, longname, n) == 0 && (a[n] == 0 || a[n] == '=')) {
        if (a[n] == '=') {
            *value = a + n + 1;
            return 1;
        }
    } else if (shortname && a[0] == '-' && a[1] == shortname) {
        if (a[2]) {
            *value = a + 2;
            return 1;
        }
    } else {
        return 0;
    }
    if (*i + 1 >= argc) {
        *value = NULL;
        return 1;
    }
    *value = argv[++*i];
    return 1;
}

/* Level mode (--map), walk mode (--entry) or file-list mode. */
static int check_modes(cli *c)
{
    if (c->map) {
        if (!c->gametype == !c->sp) return usage_error(c, "%s", "--map needs exactly one of --gametype G and --sp");
        if (c->entry_count || c->script_count) return usage_error(c, "%s", "--map takes no scripts and no --entry");
    } else if (c->gametype || c->sp) {
        return usage_error(c, "%s", "--gametype and --sp need --map NAME");
    }
    if (c->entities && !c->sp) return usage_error(c, "%s", "--entities needs --map NAME --sp");
    if (c->entry_count) {
        /* `--entry a b c`: the names after the first are entries too, as
        ** written (game-relative names, not paths of a file's directory) */
        for (int i = 0; i < c->script_count; i++) c->entries[c->entry_count++] = c->operands[i];
        c->script_count = 0;
    }
    if (c->script_count == 0 && !c->map && !c->entry_count && !c->explain)
        return usage_error(c, "%s", "no input scripts");
    return 0;
}

/* Every --extension names one of the profile's game (any case). */
static int check_extensions(const cli *c)
{
    const char *mine = atrc_profile_name(c->opts.profile);
    for (int i = 0; i < c->extension_count; i++) {
        const char *name = c->extensions[i];
        int found = 0;
        for (size_t k = 0; atrc_extension_name(c->opts.profile, k); k++)
            found |= strcasecmp(atrc_extension_name(c->opts.profile, k), name) == 0;
        if (found) continue;
        const char *game = atrc_extension_game(name);
        char msg[512];
        int n = game ? snprintf(msg, sizeof msg, "extension '%.100s' is for %s, not %s; %s has", name, game, mine, mine)
                     : snprintf(msg, sizeof msg, "unknown extension '%.100s'; %s has", name, mine);
        for (size_t k = 0; atrc_extension_name(c->opts.profile, k) && n > 0 && (size_t)n < sizeof msg; k++)
            n += snprintf(msg + n, sizeof msg - (size_t)n, "%s %s", k ? "," : "", atrc_extension_name(c->opts.profile, k));
        return usage_error(c, "%s (--profile picks the game)", msg);
    }
    return 0;
}

/* "--format needs a value": an option given last, without its value. */
static int missing_value(const cli *c, const char *opt)
{
    return usage_error(c, "%s needs a value", opt);
}

/* A path given in a file is relative to that file's directory. */
static const char *path_arg(cli *c, int i, const char *v)
{
    return arglist_resolve(c->args, c->args->origin.items[i].dir, v);
}

/* An option without a value: 1 when a is one (and is recorded), else 0. */
static int take_switch(cli *c, const char *a)
{
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) c->action = CLI_HELP;
    else if (strcmp(a, "--version") == 0) c->action = CLI_VERSION;
    else if (strcmp(a, "--anim-check") == 0) c->opts.anim_check = 1;
    else if (strcmp(a, "--no-xanim") == 0) c->opts.no_xanim = 1;
    else if (strcmp(a, "--syntax-only") == 0) c->opts.syntax_only = 1;
    else if (strcmp(a, "--dump-tokens") == 0) c->dump = 1;
    else if (strcmp(a, "--dump-ast") == 0) c->dump = 2;
    else if (strcmp(a, "--trees") == 0) c->show_trees = 1;
    else if (strcmp(a, "--sp") == 0) c->sp = 1;
    else if (strcmp(a, "--developer-script") == 0) c->opts.developer_script = 1;
    else if (strcmp(a, "--load-order") == 0) c->load_order = 1;
    else if (strcmp(a, "--show-pruned") == 0) c->opts.show_pruned = 1;
    else if (strcmp(a, "-w") == 0) c->opts.no_warnings = 1;
    else if (strcmp(a, "-Werror") == 0) c->opts.warnings_as_errors = 1;
    else if (strcmp(a, "-Wruntime-anim") == 0) c->opts.runtime_anim = ATRC_RUNTIME_ANIM_WARN;
    else if (strcmp(a, "-Wno-runtime-anim") == 0) c->opts.runtime_anim = ATRC_RUNTIME_ANIM_OFF;
    else if (strcmp(a, "-Werror=runtime-anim") == 0) c->opts.runtime_anim = ATRC_RUNTIME_ANIM_ERROR;
    else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) c->quiet = 1;
    else return 0;
    return 1;
}

/* --explain V1,V2: each value is explained; one that does not parse is an error, never dropped. */
static int take_explain(cli *c, const char *v)
{
    for (const char *p = v;; p++) {
        char num[32];
        size_t n = strcspn(p, ",");
        int bad = n >= sizeof num;
        if (!bad) {
            memcpy(num, p, n);
            num[n] = 0;
            bad = parse_u32(num, 1, &c->explain_values[c->explain_count]) != 0;
        }
        if (bad) return usage_error(c, "--explain takes packed values (0 to 0xffffffff, comma-separated), not '%s'", v);
        c->explain_count++;
        p += n;
        if (!*p) break;
    }
    c->explain = 1;
    return 0;
}

/* --format, --color, --max-errors, -j, --rankdir: options whose value is one of a set. */
static int take_setting(cli *c, int argc, char **argv, int *i, int *format_seen)
{
    const char *a = argv[*i], *v;
    if (strncmp(a, "--color", 7) == 0 && (a[7] == 0 || a[7] == '=')) {
        /* The value is optional, so only "--color=WHEN" takes one. */
        const char *when = a[7] ? a + 8 : "always";
        if (strcmp(when, "always") == 0) c->color = 1;
        else if (strcmp(when, "never") == 0) c->color = 0;
        else if (strcmp(when, "auto") == 0) c->color = -1;
        else return usage_error(c, "--color takes auto, always or never, not '%s'", when);
    } else if (cli_take_value(argc, argv, i, "--max-errors", 0, &v)) {
        uint32_t n;
        if (!v) return missing_value(c, a);
        if (parse_u32(v, 0, &n) != 0 || n > 1000000000u)
            return usage_error(c, "--max-errors takes a number of errors (0: no limit), not '%s'", v);
        c->opts.max_errors = n == 0 ? -1 : (int)n;
    } else if (cli_take_value(argc, argv, i, "--format", 0, &v)) {
        if (!v) return missing_value(c, a);
        if ((*format_seen)++) return once(c, a, "--format");
        if (strcmp(v, "text") == 0) c->format = ATRC_FORMAT_TEXT;
        else if (strcmp(v, "json") == 0) c->format = ATRC_FORMAT_JSON;
        else if (strcmp(v, "dot") == 0) c->format = ATRC_FORMAT_DOT;
        else return usage_error(c, "unknown format '%s' (text, json, dot)", v);
        /* JSON lists every leaf's notetracks: read when the trees are built */
        c->opts.notetracks = c->format == ATRC_FORMAT_JSON;
    } else if (cli_take_value(argc, argv, i, "--jobs", 'j', &v)) {
        char *end;
        long n = v && isdigit((unsigned char)*v) ? strtol(v, &end, 10) : 0;
        if (!v || !*v || n == 0 || *end || n < 1 || n > 1024) return usage_error(c, "-j takes a thread count (1 to 1024), not '%s'", v ? v : "");
        c->opts.jobs = (int)n;
    } else if (cli_take_value(argc, argv, i, "--rankdir", 0, &v)) {
        if (!v) return missing_value(c, a);
        if (strcasecmp(v, "TB") == 0) c->rankdir = ATRC_RANKDIR_TB;
        else if (strcasecmp(v, "LR") == 0) c->rankdir = ATRC_RANKDIR_LR;
        else if (strcasecmp(v, "auto") == 0) c->rankdir = ATRC_RANKDIR_AUTO;
        else return usage_error(c, "--rankdir takes TB, LR or auto, not '%s'", v);
    } else if (cli_take_value(argc, argv, i, "--profile", 0, &v)) {
        if (!v) return missing_value(c, a);
        if (atrc_profile_parse(v, &c->opts.profile) != 0)
            return usage_error(c, "unknown profile '%s' (uo, cod1, cod2, cod4)", v);
    } else if (cli_take_value(argc, argv, i, "--explain", 0, &v)) {
        if (!v) return missing_value(c, a);
        return take_explain(c, v);
    } else {
        return -1;
    }
    return 0;
}

/* An option with a name or path as its value: 0, 2 after a usage error, -1 when a is none. */
static int take_named(cli *c, int argc, char **argv, int *i)
{
    const char *a = argv[*i], *v;
    if (cli_take_value(argc, argv, i, "--map", 0, &v)) {
        if (!v || !*v) return usage_error(c, "%s needs a map name", a);
        if (once(c, c->map, "--map")) return 2;
        c->map = v;
    } else if (cli_take_value(argc, argv, i, "--gametype", 0, &v)) {
        if (!v || !*v) return usage_error(c, "%s needs a gametype", a);
        c->gametype = v;
    } else if (cli_take_value(argc, argv, i, "--entities", 0, &v)) {
        if (!v || !*v) return usage_error(c, "%s needs a file", a);
        c->entities = path_arg(c, *i, v);
    } else if (cli_take_value(argc, argv, i, "--extension", 0, &v)) {
        if (!v || !*v) return usage_error(c, "%s needs an extension name", a);
        c->extensions[c->extension_count++] = v;
    } else if (cli_take_value(argc, argv, i, "--builtins", 0, &v)) {
        if (!v || !*v) return usage_error(c, "%s needs a file", a);
        c->builtin_files[c->builtin_file_count++] = path_arg(c, *i, v);
    } else if (cli_take_value(argc, argv, i, "--entry", 0, &v)) {
        if (!v || !*v) return usage_error(c, "%s needs a script name", a);
        c->entries[c->entry_count++] = v;
    } else if (cli_take_value(argc, argv, i, "--game-dir", 'g', &v)) {
        if (!v) return usage_error(c, "%s needs a directory", a);
        c->game_dirs[c->game_dir_count++] = path_arg(c, *i, v);
    } else if (cli_take_value(argc, argv, i, "--install", 0, &v)) {
        if (!v || !*v) return usage_error(c, "%s needs a directory", a);
        if (once(c, c->install, "--install")) return 2;
        c->install = path_arg(c, *i, v);
    } else if (cli_take_value(argc, argv, i, "--fs-game", 0, &v)) {
        if (!v || !*v) return usage_error(c, "%s needs a directory", a);
        c->fs_game = v;
    } else if (cli_take_value(argc, argv, i, "--language", 0, &v)) {
        if (!v || !*v) return usage_error(c, "%s needs a language name", a);
        c->language = v;
    } else if (cli_take_value(argc, argv, i, "--engine-anim", 0, &v)) {
        if (!v) return missing_value(c, a);
        if (!strchr(v, ':')) return usage_error(c, "--engine-anim takes TREE:NAME, not '%s'", v);
        c->engine_anims[c->engine_anim_count++] = v;
    } else if (cli_take_value(argc, argv, i, "--output", 'o', &v)) {
        if (!v || !*v) return usage_error(c, "%s needs a file name", a);
        if (once(c, c->output, "-o")) return 2;
        c->output = path_arg(c, *i, v);
    } else if (cli_take_value(argc, argv, i, "--tree", 0, &v)) {
        if (!v || !*v) return usage_error(c, "%s needs a tree name", a);
        c->trees[c->tree_count++] = v;
    } else {
        return -1;
    }
    return 0;
}

static int alloc_slots(cli *c, int argc, char **argv)
{
    size_t slots = (size_t)argc + 1;
    c->scripts = calloc(slots, sizeof *c->scripts);
    c->operands = calloc(slots, sizeof *c->operands);
    c->game_dirs = calloc(slots, sizeof *c->game_dirs);
    c->engine_anims = calloc(slots, sizeof *c->engine_anims);
    c->entries = calloc(slots, sizeof *c->entries);
    c->extensions = calloc(slots, sizeof *c->extensions);
    c->builtin_files = calloc(slots, sizeof *c->builtin_files);
    c->trees = calloc(slots, sizeof *c->trees);
    /* each argument holds at most (length + 1) / 2 comma-separated values */
    size_t values = 0;
    for (int i = 1; i < argc; i++) values += strlen(argv[i]) / 2 + 1;
    c->explain_values = calloc(values, sizeof *c->explain_values);
    if (!c->scripts || !c->operands || !c->game_dirs || !c->engine_anims || !c->entries || !c->extensions || !c->builtin_files ||
        !c->trees || !c->explain_values) {
        fputs("atrc: out of memory\n", c->err);
        return 2;
    }
    return 0;
}

int cli_parse(cli *c, arglist *args, FILE *err)
{
    memset(c, 0, sizeof *c);
    c->err = err;
    c->args = args;
    c->color = -1;
    int argc = args->argc;
    char **argv = args->argv.items;
    if (alloc_slots(c, argc, argv)) return 2;
    int only_files = 0, stdin_seen = 0, format_seen = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        c->at = i;
        if (only_files || a[0] != '-' || a[1] == 0) {
            if (strcmp(a, "-") == 0 && stdin_seen++)
                return usage_error(c, "%s", "standard input ('-') named more than once: it can be read only once");
            c->operands[c->script_count] = a;
            c->scripts[c->script_count++] = path_arg(c, i, a);
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_files = 1;
            continue;
        }
        if (take_switch(c, a)) {
            if (c->action != CLI_RUN) return 0;
            continue;
        }
        int rc = take_named(c, argc, argv, &i);
        if (rc < 0) rc = take_setting(c, argc, argv, &i, &format_seen);
        if (rc < 0) return usage_error(c, "unknown option '%s'", a);
        if (rc) return rc;
    }
    c->at = 0;
    if (c->fs_game && !c->install) return usage_error(c, "%s", "--fs-game needs --install");
    int rc = check_extensions(c);
    return rc ? rc : check_modes(c);
}

void cli_free(cli *c)
{
    free(c->mod_dir);
    free(c->scripts);
    free(c->operands);
    free(c->game_dirs);
    free(c->engine_anims);
    free(c->entries);
    free(c->extensions);
    free(c->builtin_files);
    free(c->trees);
    free(c->explain_values);
    memset(c, 0, sizeof *c);
}

int cli_check_game_dirs(cli *c)
{
    if (c->install) {
        c->game_dirs[c->game_dir_count] = c->install;
        if (c->fs_game && (c->mod_dir = malloc(strlen(c->install) + strlen(c->fs_game) + 2)) != NULL) {
            sprintf(c->mod_dir, "%s/%s", c->install, c->fs_game);
            c->game_dirs[c->game_dir_count + 1] = c->mod_dir;
        }
    }
    int dirs_to_check = c->game_dir_count + (c->install ? 1 : 0) + (c->mod_dir ? 1 : 0);
    for (int i = 0; i < dirs_to_check; i++) {
        os_file_id st;
        if (os_path_id(c->game_dirs[i], &st) != 0 || !st.directory) {
            arg_print_escaped(c->err, "atrc: error: cannot read game directory '%s': %s\n", c->game_dirs[i],
                              os_path_id(c->game_dirs[i], &st) != 0 ? strerror(errno) : "not a directory");
            return 2;
        }
    }
    return 0;
}

int cli_configure_options(const cli *c, atrc_ctx *ctx)
{
    if (c->install) atrc_set_install(ctx, c->install, c->fs_game);
    if (c->language && atrc_set_language(ctx, c->language) != 0)
        return usage_error(c, "--language takes a name of letters, digits and '_', not '%s'", c->language);
    for (int i = 0; i < c->game_dir_count; i++) atrc_add_game_dir(ctx, c->game_dirs[i]);
    for (int i = 0; i < c->extension_count; i++) atrc_add_extension(ctx, c->extensions[i]);
    for (int i = 0; i < c->builtin_file_count; i++) atrc_add_builtins_file(ctx, c->builtin_files[i]);
    for (int i = 0; i < c->engine_anim_count; i++) {
        const char *spec = c->engine_anims[i];
        const char *colon = strchr(spec, ':');
        char *tree = os_strndup(spec, (size_t)(colon - spec));
        int bad = !tree || atrc_add_engine_anim(ctx, tree, colon + 1) != 0;
        free(tree);
        if (bad) return usage_error(c, "--engine-anim takes TREE:NAME with identifiers, not '%s'", spec);
    }
    return 0;
}

int cli_configure(const cli *c, atrc_ctx *ctx)
{
    int status = cli_configure_options(c, ctx);
    if (status != 0) return status;
    atrc_add_scripts(ctx, c->scripts, (size_t)c->script_count);
    if (c->map) atrc_load_level(ctx, c->map, c->gametype, c->entities);
    for (int i = 0; i < c->entry_count; i++) atrc_walk_script(ctx, c->entries[i]);
    return 0;
}
