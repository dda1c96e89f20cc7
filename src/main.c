/* atrc — the command-line client of the library in include/atrc.h. */
#include "atrc.h"
#include "os.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

static const char usage_text[] =
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
    "  -h, --help             show this help\n"
    "      --version          show the version\n"
    "\n"
    "  atrc diff [--format text|json] [-o FILE] OLD.json NEW.json\n"
    "                         compare two JSON runs and explain every change\n"
    "                         (exit 0 same, 1 different, 2 trouble)\n"
    "\n"
    "Exit status: 0 success (warnings allowed), 1 errors in the inputs,\n"
    "2 usage error, unreadable input or failed output.\n";

static int usage_error(const char *fmt, const char *arg)
{
    fputs("atrc: error: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n(try 'atrc --help')\n", stderr);
    return 2;
}

typedef struct cli {
    atrc_options opts;
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
    int script_count;
    const char **game_dirs;
    int game_dir_count;
    const char **engine_anims;
    int engine_anim_count;
    const char *install, *fs_game, *language;
    /* level and walk mode */
    const char *map, *gametype, *entities;
    int sp, load_order;
    const char **entries;
    int entry_count;
    const char **extensions, **builtin_files; /* --extension, --builtins */
    int extension_count, builtin_file_count;
} cli;

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
static int once(const void *already, const char *opt)
{
    return already ? usage_error("%s given more than once", opt) : 0;
}

/* Matches "--name", "--name=value" and "--name value"; short "-x value" and "-xvalue". */
static int take_value(int argc, char **argv, int *i, const char *longname, char shortname,
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
        if (!c->gametype == !c->sp) return usage_error("%s", "--map needs exactly one of --gametype G and --sp");
        if (c->entry_count || c->script_count) return usage_error("%s", "--map takes no scripts and no --entry");
    } else if (c->gametype || c->sp) {
        return usage_error("%s", "--gametype and --sp need --map NAME");
    }
    if (c->entities && !c->sp) return usage_error("%s", "--entities needs --map NAME --sp");
    if (c->entry_count) {
        /* `--entry a b c`: the names after the first are entries too. */
        for (int i = 0; i < c->script_count; i++) c->entries[c->entry_count++] = c->scripts[i];
        c->script_count = 0;
    }
    if (c->script_count == 0 && !c->map && !c->entry_count && !c->explain)
        return usage_error("%s", "no input scripts");
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
        return usage_error("%s (--profile picks the game)", msg);
    }
    return 0;
}

/* "--format needs a value": an option given last, without its value. */
static int missing_value(const char *opt)
{
    return usage_error("%s needs a value", opt);
}

static int parse_args(int argc, char **argv, cli *c)
{
    int only_files = 0, stdin_seen = 0, format_seen = 0;
    c->color = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        if (only_files || a[0] != '-' || a[1] == 0) {
            if (strcmp(a, "-") == 0 && stdin_seen++)
                return usage_error("%s", "standard input ('-') named more than once: it can be read only once");
            c->scripts[c->script_count++] = a;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_files = 1;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage_text, stdout);
            exit(ferror(stdout) || fflush(stdout) ? 2 : 0);
        } else if (strcmp(a, "--version") == 0) {
            printf("atrc %s\n", ATRC_VERSION);
            exit(ferror(stdout) || fflush(stdout) ? 2 : 0);
        } else if (strcmp(a, "--anim-check") == 0) {
            c->opts.anim_check = 1;
        } else if (strcmp(a, "--no-xanim") == 0) {
            c->opts.no_xanim = 1;
        } else if (strcmp(a, "--syntax-only") == 0) {
            c->opts.syntax_only = 1;
        } else if (strcmp(a, "--dump-tokens") == 0) {
            c->dump = 1;
        } else if (strcmp(a, "--dump-ast") == 0) {
            c->dump = 2;
        } else if (strcmp(a, "--trees") == 0) {
            c->show_trees = 1;
        } else if (strcmp(a, "--sp") == 0) {
            c->sp = 1;
        } else if (strcmp(a, "--developer-script") == 0) {
            c->opts.developer_script = 1;
        } else if (strcmp(a, "--load-order") == 0) {
            c->load_order = 1;
        } else if (take_value(argc, argv, &i, "--map", 0, &v)) {
            if (!v || !*v) return usage_error("%s needs a map name", a);
            if (once(c->map, "--map")) return 2;
            c->map = v;
        } else if (take_value(argc, argv, &i, "--gametype", 0, &v)) {
            if (!v || !*v) return usage_error("%s needs a gametype", a);
            c->gametype = v;
        } else if (take_value(argc, argv, &i, "--entities", 0, &v)) {
            if (!v || !*v) return usage_error("%s needs a file", a);
            c->entities = v;
        } else if (take_value(argc, argv, &i, "--extension", 0, &v)) {
            if (!v || !*v) return usage_error("%s needs an extension name", a);
            c->extensions[c->extension_count++] = v;
        } else if (take_value(argc, argv, &i, "--builtins", 0, &v)) {
            if (!v || !*v) return usage_error("%s needs a file", a);
            c->builtin_files[c->builtin_file_count++] = v;
        } else if (take_value(argc, argv, &i, "--entry", 0, &v)) {
            if (!v || !*v) return usage_error("%s needs a script name", a);
            c->entries[c->entry_count++] = v;
        } else if (strcmp(a, "--show-pruned") == 0) {
            c->opts.show_pruned = 1;
        } else if (strcmp(a, "-w") == 0) {
            c->opts.no_warnings = 1;
        } else if (strcmp(a, "-Werror") == 0) {
            c->opts.warnings_as_errors = 1;
        } else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
            c->quiet = 1;
        } else if (strncmp(a, "--color", 7) == 0 && (a[7] == 0 || a[7] == '=')) {
            /* The value is optional, so only "--color=WHEN" takes one. */
            const char *when = a[7] ? a + 8 : "always";
            if (strcmp(when, "always") == 0) c->color = 1;
            else if (strcmp(when, "never") == 0) c->color = 0;
            else if (strcmp(when, "auto") == 0) c->color = -1;
            else return usage_error("--color takes auto, always or never, not '%s'", when);
        } else if (take_value(argc, argv, &i, "--max-errors", 0, &v)) {
            uint32_t n;
            if (!v) return missing_value(a);
            if (parse_u32(v, 0, &n) != 0 || n > 1000000000u)
                return usage_error("--max-errors takes a number of errors (0: no limit), not '%s'", v);
            c->opts.max_errors = n == 0 ? -1 : (int)n;
        } else if (take_value(argc, argv, &i, "--game-dir", 'g', &v)) {
            if (!v) return usage_error("%s needs a directory", a);
            c->game_dirs[c->game_dir_count++] = v;
        } else if (take_value(argc, argv, &i, "--install", 0, &v)) {
            if (!v || !*v) return usage_error("%s needs a directory", a);
            if (once(c->install, "--install")) return 2;
            c->install = v;
        } else if (take_value(argc, argv, &i, "--fs-game", 0, &v)) {
            if (!v || !*v) return usage_error("%s needs a directory", a);
            c->fs_game = v;
        } else if (take_value(argc, argv, &i, "--language", 0, &v)) {
            if (!v || !*v) return usage_error("%s needs a language name", a);
            c->language = v;
        } else if (take_value(argc, argv, &i, "--profile", 0, &v)) {
            if (!v) return missing_value(a);
            if (atrc_profile_parse(v, &c->opts.profile) != 0)
                return usage_error("unknown profile '%s' (uo, cod1, cod2, cod4)", v);
        } else if (take_value(argc, argv, &i, "--engine-anim", 0, &v)) {
            if (!v) return missing_value(a);
            if (!strchr(v, ':')) return usage_error("--engine-anim takes TREE:NAME, not '%s'", v);
            c->engine_anims[c->engine_anim_count++] = v;
        } else if (take_value(argc, argv, &i, "--format", 0, &v)) {
            if (!v) return missing_value(a);
            if (format_seen++) return once(a, "--format");
            if (strcmp(v, "text") == 0) c->format = ATRC_FORMAT_TEXT;
            else if (strcmp(v, "json") == 0) c->format = ATRC_FORMAT_JSON;
            else if (strcmp(v, "dot") == 0) c->format = ATRC_FORMAT_DOT;
            else return usage_error("unknown format '%s' (text, json, dot)", v);
        } else if (take_value(argc, argv, &i, "--jobs", 'j', &v)) {
            char *end;
            long n = v && isdigit((unsigned char)*v) ? strtol(v, &end, 10) : 0;
            if (!v || !*v || n == 0 || *end || n < 1 || n > 1024) return usage_error("-j takes a thread count (1 to 1024), not '%s'", v ? v : "");
            c->opts.jobs = (int)n;
        } else if (take_value(argc, argv, &i, "--output", 'o', &v)) {
            if (!v || !*v) return usage_error("%s needs a file name", a);
            if (once(c->output, "-o")) return 2;
            c->output = v;
        } else if (take_value(argc, argv, &i, "--explain", 0, &v)) {
            if (!v) return missing_value(a);
            /* "V1,V2": each value is explained; one that does not parse is an error, never dropped. */
            for (const char *p = v;; p++) {
                char num[32];
                size_t n = strcspn(p, ",");
                int bad = n >= sizeof num;
                if (!bad) {
                    memcpy(num, p, n);
                    num[n] = 0;
                    bad = parse_u32(num, 1, &c->explain_values[c->explain_count]) != 0;
                }
                if (bad) return usage_error("--explain takes packed values (0 to 0xffffffff, comma-separated), not '%s'", v);
                c->explain_count++;
                p += n;
                if (!*p) break;
            }
            c->explain = 1;
        } else if (take_value(argc, argv, &i, "--tree", 0, &v)) {
            if (!v || !*v) return usage_error("%s needs a tree name", a);
            c->trees[c->tree_count++] = v;
        } else if (take_value(argc, argv, &i, "--rankdir", 0, &v)) {
            if (!v) return missing_value(a);
            if (strcasecmp(v, "TB") == 0) c->rankdir = ATRC_RANKDIR_TB;
            else if (strcasecmp(v, "LR") == 0) c->rankdir = ATRC_RANKDIR_LR;
            else if (strcasecmp(v, "auto") == 0) c->rankdir = ATRC_RANKDIR_AUTO;
            else return usage_error("--rankdir takes TB, LR or auto, not '%s'", v);
        } else {
            return usage_error("unknown option '%s'", a);
        }
    }
    if (c->fs_game && !c->install) return usage_error("%s", "--fs-game needs --install");
    int rc = check_extensions(c);
    return rc ? rc : check_modes(c);
}

/* --tree NAME that names no tree of the run: an error listing the trees
** there are (1), else 0. */
static int unknown_tree(const atrc_ctx *ctx, const char *const *names, int count)
{
    for (int k = 0; k < count; k++) {
        int found = 0;
        for (int i = 1; i <= atrc_tree_count(ctx) && !found; i++) found = strcasecmp(atrc_tree_name(ctx, i), names[k]) == 0;
        if (found) continue;
        fprintf(stderr, "atrc: error: --tree %s: no such tree in this run (", names[k]);
        if (atrc_tree_count(ctx) == 0) fputs("it registers no tree", stderr);
        for (int i = 1; i <= atrc_tree_count(ctx); i++)
            fprintf(stderr, "%s%s", i == 1 ? "the trees are: " : ", ", atrc_tree_name(ctx, i));
        fputs(")\n", stderr);
        return 1;
    }
    return 0;
}

/* ---- output: stdout, or FILE written atomically ---- */

typedef struct output {
    FILE *fp;
    char *tmp_path;   /* non-NULL while writing a temporary to rename */
    const char *path; /* as given: named in messages */
    char *target;     /* the file actually replaced (a symlink's target) */
} output;

/* A run stopped by a signal (Windows: Ctrl+C, a closed console) while
** writing the temporary leaves nothing behind: os_remove_on_termination()
** removes it, then the process ends as it would have.  FILE itself is
** untouched. */

/* Out of memory (the library has written its message): no temporary left
** behind, exit status 2 as for any failed run, no core dump. */
static void exit_out_of_memory(void)
{
    os_remove_armed_temporary();
    _exit(2);
}

/* Why writing into the directory of dest failed: the directory, not the
** file, when it cannot take new files. */
static void report_cannot_write(const char *path, const char *dest, int err)
{
    const char *slash = os_last_path_sep(dest);
    char *dir = slash ? os_strndup(dest, slash == dest ? 1 : (size_t)(slash - dest)) : os_strndup(".", 1);
    if ((err == EACCES || err == EPERM || err == EROFS) && dir && access(dir, W_OK) != 0)
        fprintf(stderr, "atrc: error: cannot write '%s': the directory '%s' does not allow creating files: %s\n", path,
                dir, strerror(err));
    else
        fprintf(stderr, "atrc: error: cannot write '%s': %s\n", path, strerror(err));
    free(dir);
}

static int open_output(output *o, const char *path)
{
    memset(o, 0, sizeof *o);
    o->path = path;
    if (!path) {
        o->fp = stdout;
        return 0;
    }
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        /* A device, FIFO or /dev/stdout: never rename over it. */
        o->fp = fopen(path, "w");
        if (!o->fp) {
            fprintf(stderr, "atrc: error: cannot write '%s': %s\n", path, strerror(errno));
            return -1;
        }
        return 0;
    }
    /* -o through a symlink replaces the file it points to, not the link. */
    o->target = os_output_target(path);
    if (!o->target) {
        fprintf(stderr, "atrc: error: cannot write '%s': %s\n", path, strerror(errno));
        return -1;
    }
    const char *dest = o->target;
    size_t n = strlen(dest);
    const char *slash = os_last_path_sep(dest);
    size_t dir_len = slash ? (size_t)(slash - dest) + 1 : 0;
    o->tmp_path = malloc(n + 16);
    int fd = -1;
    if (o->tmp_path) {
        /* Same directory, so the rename cannot cross file systems. */
        snprintf(o->tmp_path, n + 16, "%.*s.%s.XXXXXX", (int)dir_len, dest, dest + dir_len);
        os_block_termination();
        fd = os_create_temporary(o->tmp_path);
        int saved = errno;
        if (fd >= 0) os_remove_on_termination(o->tmp_path);
        os_unblock_termination();
        errno = saved;
    }
    if (fd >= 0) {
        os_set_new_file_mode(fd, dest);
        o->fp = fdopen(fd, "w");
        if (o->fp) return 0;
    }
    int err = errno;
    if (fd >= 0) {
        close(fd);
        unlink(o->tmp_path);
        os_keep_on_termination();
    }
    report_cannot_write(path, dest, err);
    free(o->tmp_path);
    free(o->target);
    memset(o, 0, sizeof *o);
    return -1;
}

/* Finishes the output; `write_errno` is the error of a failed write while
** emitting (0 if none).  Returns 0, or -1 after reporting the failure; on
** failure the previous FILE is untouched and no temporary is left behind. */
static int close_output(output *o, int write_errno)
{
    int err = write_errno;
    int failed = err != 0 || ferror(o->fp);
    errno = 0;
    if (fflush(o->fp) != 0 && !failed) {
        failed = 1;
        err = errno;
    }
    if (o->tmp_path && !failed && os_sync(fileno(o->fp)) != 0) {
        failed = 1;
        err = errno;
    }
    if (o->fp != stdout) {
        errno = 0;
        if (fclose(o->fp) != 0 && !failed) {
            failed = 1;
            err = errno;
        }
    }
    if (o->tmp_path) {
        if (!failed && os_replace_file(o->tmp_path, o->target ? o->target : o->path) != 0) {
            failed = 1;
            err = errno;
        }
        if (failed) unlink(o->tmp_path);
        os_keep_on_termination(); /* renamed or removed */
        free(o->tmp_path);
        o->tmp_path = NULL;
    }
    free(o->target);
    o->target = NULL;
    if (!failed) return 0;
    if (o->path)
        fprintf(stderr, "atrc: error: cannot write '%s': %s\n", o->path, err ? strerror(err) : "write error");
    else
        fprintf(stderr, "atrc: error: cannot write standard output: %s\n", err ? strerror(err) : "write error");
    return -1;
}

static int same_file_as(const char *a, const char *b);

/* atrc diff [--format text|json] [-o FILE] OLD.json NEW.json: exit status as diff(1). */
static int diff_main(int argc, char **argv)
{
    atrc_format format = ATRC_FORMAT_TEXT;
    const char *files[2], *output_path = NULL;
    int n = 0, only_files = 0, format_seen = 0;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v;
        if (!only_files && strcmp(a, "--") == 0) {
            only_files = 1;
        } else if (!only_files && take_value(argc, argv, &i, "--output", 'o', &v)) {
            if (!v || !*v) return usage_error("atrc diff: %s needs a file name", a);
            if (once(output_path, "-o")) return 2;
            output_path = v;
        } else if (!only_files && take_value(argc, argv, &i, "--format", 0, &v)) {
            if (format_seen++) return once(a, "--format");
            if (v && strcmp(v, "text") == 0) format = ATRC_FORMAT_TEXT;
            else if (v && strcmp(v, "json") == 0) format = ATRC_FORMAT_JSON;
            else return usage_error("atrc diff: unknown format '%s' (text, json)", v ? v : "");
        } else if (!only_files && a[0] == '-' && a[1]) {
            return usage_error("atrc diff: unknown option '%s' (usage: atrc diff [--format text|json] OLD.json NEW.json)", a);
        } else if (n == 2) {
            return usage_error("atrc diff: more than two files ('%s'); usage: atrc diff OLD.json NEW.json", a);
        } else {
            files[n++] = a;
        }
    }
    if (n != 2) return usage_error("%s", "atrc diff needs two files: atrc diff OLD.json NEW.json");
    if (strcmp(files[0], "-") == 0 && strcmp(files[1], "-") == 0)
        return usage_error("%s", "atrc diff: standard input ('-') named twice: it can be read only once");
    for (int k = 0; output_path && k < 2; k++)
        if (same_file_as(files[k], output_path)) {
            fprintf(stderr, "atrc: error: input file '%s' is the same as output file '%s'\n", files[k], output_path);
            return 2;
        }
    output o;
    if (open_output(&o, output_path) != 0) return 2;
    errno = 0;
    int rc = atrc_diff_files(files[0], files[1], format, o.fp, stderr);
    int write_errno = ferror(o.fp) ? (errno ? errno : EIO) : 0;
    if (rc == 2 && o.tmp_path) {
        /* trouble reading: FILE keeps what it held */
        fclose(o.fp);
        unlink(o.tmp_path);
        os_keep_on_termination();
        free(o.tmp_path);
        free(o.target);
        return 2;
    }
    if (close_output(&o, write_errno) != 0) rc = 2;
    return rc;
}

/* Are the existing files a and b one file (any path, link or hard link)? */
static int same_file_as(const char *a, const char *b)
{
    os_file_id x, y;
    return strcmp(a, "-") != 0 && os_path_id(a, &x) == 0 && os_path_id(b, &y) == 0 && y.regular && os_same_id(&x, &y);
}

/* -o naming an input would destroy it (gcc refuses the same way).  The same
** file through any path, link or hard link is caught by its identity
** (device and inode; on Windows volume and file index).
** A wildcard after -o (`-o maps/STAR.gsc`) expands to "-o maps/a.gsc
** maps/b.gsc ...", so an existing script or tree file is refused too: it is
** never atrc's output. */
static int check_output_is_not_input(const cli *c)
{
    os_file_id out;
    if (!c->output || os_path_id(c->output, &out) != 0 || !out.regular) return 0;
    for (int i = 0; i < c->script_count; i++) {
        if (same_file_as(c->scripts[i], c->output)) {
            fprintf(stderr, "atrc: error: input file '%s' is the same as output file '%s'\n", c->scripts[i],
                    c->output);
            return 2;
        }
    }
    const char *dot = strrchr(c->output, '.');
    if (dot && !os_last_path_sep(dot) &&
        (strcasecmp(dot, ".gsc") == 0 || strcasecmp(dot, ".csc") == 0 || strcasecmp(dot, ".atr") == 0)) {
        fprintf(stderr, "atrc: error: output file '%s' is an existing script or tree: not overwriting it "
                        "(did a wildcard expand after -o?)\n", c->output);
        return 2;
    }
    return 0;
}

/* -o FILE inside the game content the run reads or could read (an archive,
** a tree, an xanim, the player animation script, a script: any spelling,
** path or link): refused with the reason.  Returns the reason or NULL. */
static const char *output_is_game_file(atrc_ctx *ctx, const char *path)
{
    char *target = os_output_target(path);
    const char *why = target ? atrc_output_conflict(ctx, target) : NULL;
    if (why) fprintf(stderr, "atrc: error: output file '%s' %s: not overwriting it\n", path, why);
    free(target);
    return why;
}

/* --color=auto: a terminal, unless NO_COLOR (https://no-color.org) or TERM=dumb. */
static int use_color(int setting)
{
    if (setting >= 0) return setting;
    const char *no_color = getenv("NO_COLOR");
    if (no_color && *no_color) return 0;
    return os_color_terminal(STDERR_FILENO);
}

int main(int argc, char **argv)
{
    os_process_start();
    atrc_set_out_of_memory_handler(exit_out_of_memory);
    if (argc > 1 && strcmp(argv[1], "diff") == 0) return diff_main(argc, argv);

    cli c;
    memset(&c, 0, sizeof c);
    char *mod_dir = NULL; /* INSTALL/FS_GAME, checked like a -g directory */
    size_t slots = (size_t)argc + 1;
    c.scripts = calloc(slots, sizeof *c.scripts);
    c.game_dirs = calloc(slots, sizeof *c.game_dirs);
    c.engine_anims = calloc(slots, sizeof *c.engine_anims);
    c.entries = calloc(slots, sizeof *c.entries);
    c.extensions = calloc(slots, sizeof *c.extensions);
    c.builtin_files = calloc(slots, sizeof *c.builtin_files);
    c.trees = calloc(slots, sizeof *c.trees);
    /* each argument holds at most (length + 1) / 2 comma-separated values */
    size_t values = 0;
    for (int i = 1; i < argc; i++) values += strlen(argv[i]) / 2 + 1;
    c.explain_values = calloc(values, sizeof *c.explain_values);
    if (!c.scripts || !c.game_dirs || !c.engine_anims || !c.entries || !c.extensions || !c.builtin_files ||
        !c.trees || !c.explain_values) {
        fputs("atrc: out of memory\n", stderr);
        return 2;
    }
    int status = parse_args(argc, argv, &c);
    if (c.opts.jobs == 0) {
        int cpus = os_cpu_count();
        c.opts.jobs = cpus > 64 ? 64 : cpus;
    }
    if (status == 0) status = check_output_is_not_input(&c);
    if (status != 0) goto done_args;

    if (c.dump) {
        for (int i = 0; i < c.script_count; i++) {
            int rc = c.dump == 1 ? atrc_dump_tokens(c.scripts[i], c.opts.profile, stdout, stderr)
                                 : atrc_dump_ast(c.scripts[i], c.opts.profile, stdout, stderr);
            if (rc > status) status = rc;
        }
        if (fflush(stdout) != 0 || ferror(stdout)) {
            fprintf(stderr, "atrc: error: cannot write standard output: %s\n", strerror(errno));
            status = 2;
        }
        goto done_args;
    }

    if (c.install) {
        c.game_dirs[c.game_dir_count] = c.install;
        if (c.fs_game && (mod_dir = malloc(strlen(c.install) + strlen(c.fs_game) + 2)) != NULL) {
            sprintf(mod_dir, "%s/%s", c.install, c.fs_game);
            c.game_dirs[c.game_dir_count + 1] = mod_dir;
        }
    }
    int dirs_to_check = c.game_dir_count + (c.install ? 1 : 0) + (mod_dir ? 1 : 0);
    for (int i = 0; i < dirs_to_check; i++) {
        os_file_id st;
        if (os_path_id(c.game_dirs[i], &st) != 0 || !st.directory) {
            fprintf(stderr, "atrc: error: cannot read game directory '%s': %s\n", c.game_dirs[i],
                    os_path_id(c.game_dirs[i], &st) != 0 ? strerror(errno) : "not a directory");
            status = 2;
            goto done_args;
        }
    }

    atrc_ctx *ctx = atrc_new(&c.opts);
    if (c.install) atrc_set_install(ctx, c.install, c.fs_game);
    if (c.language && atrc_set_language(ctx, c.language) != 0) {
        status = usage_error("--language takes a name of letters, digits and '_', not '%s'", c.language);
        atrc_free(ctx);
        goto done_args;
    }
    for (int i = 0; i < c.game_dir_count; i++) atrc_add_game_dir(ctx, c.game_dirs[i]);
    for (int i = 0; i < c.extension_count; i++) atrc_add_extension(ctx, c.extensions[i]);
    for (int i = 0; i < c.builtin_file_count; i++) atrc_add_builtins_file(ctx, c.builtin_files[i]);
    for (int i = 0; i < c.engine_anim_count; i++) {
        const char *spec = c.engine_anims[i];
        const char *colon = strchr(spec, ':');
        char *tree = os_strndup(spec, (size_t)(colon - spec));
        if (!tree || atrc_add_engine_anim(ctx, tree, colon + 1) != 0) {
            status = usage_error("--engine-anim takes TREE:NAME with identifiers, not '%s'", spec);
            free(tree);
            atrc_free(ctx);
            goto done_args;
        }
        free(tree);
    }
    atrc_add_scripts(ctx, c.scripts, (size_t)c.script_count);
    if (c.map) atrc_load_level(ctx, c.map, c.gametype, c.entities);
    for (int i = 0; i < c.entry_count; i++) atrc_walk_script(ctx, c.entries[i]);
    atrc_build_trees(ctx);

    /* Every input has been read: only now may FILE be replaced.  A run that
    ** failed because an input could not be read keeps the previous FILE. */
    int failing = atrc_unreadable_count(ctx) > 0 || atrc_error_count(ctx) > 0;
    int keep_output = c.output && failing && atrc_read_failure_count(ctx) > 0;
    /* A tree file is known to be an input only now. */
    const char *same = c.output ? atrc_input_same_as(ctx, c.output) : NULL;
    if (same) {
        fprintf(stderr, "atrc: error: input file '%s' is the same as output file '%s'\n", same, c.output);
        keep_output = 1;
    } else if (c.output && (same = output_is_game_file(ctx, c.output)) != NULL) {
        keep_output = 1;
    }
    int bad_tree = unknown_tree(ctx, c.trees, c.tree_count);
    if (bad_tree) keep_output = 1;
    output o;
    int write_ok = 1;
    int explain_rc = 0;
    if (keep_output) {
        /* nothing written */
    } else if (open_output(&o, c.output) != 0) {
        write_ok = 0;
    } else {
        int rc = 0;
        errno = 0;
        if (c.explain) {
            explain_rc = atrc_explain_values(ctx, c.explain_values, (size_t)c.explain_count, c.format, o.fp, stderr);
            rc = explain_rc == -2 ? -1 : 0;
        } else if (!c.opts.syntax_only || c.format == ATRC_FORMAT_JSON) {
            atrc_emit_options eo = {c.show_trees, c.trees, (size_t)c.tree_count, c.rankdir};
            if (c.load_order && c.format == ATRC_FORMAT_TEXT) rc = atrc_emit_load_order(ctx, o.fp);
            if (rc == 0) rc = atrc_emit_with(ctx, c.format, &eo, o.fp);
        }
        int write_errno = rc != 0 ? (errno ? errno : EIO) : 0;
        if (close_output(&o, write_errno) != 0) write_ok = 0;
    }
    atrc_diag_style style = {use_color(c.color), getenv("GCC_COLORS"), c.quiet};
    int diag_rc = atrc_write_diagnostics(ctx, &style, stderr);
    if (keep_output && !same && !bad_tree)
        fprintf(stderr, "atrc: note: '%s' left unchanged: an input could not be read\n", c.output);
    if (!write_ok || same || bad_tree) status = 2;
    else if (atrc_unreadable_count(ctx) > 0) status = 2;
    else if (atrc_error_count(ctx) > 0 || explain_rc == -1) status = 1;
    if (diag_rc != 0 && status == 0) status = 2;
    atrc_free(ctx);

done_args:
    free(mod_dir);
    free(c.scripts);
    free(c.game_dirs);
    free(c.engine_anims);
    free(c.entries);
    free(c.extensions);
    free(c.builtin_files);
    free(c.trees);
    free(c.explain_values);
    if (fflush(stderr) != 0 && status == 0) status = 2;
    return status;
}
