/* atrc — the command-line client of the library in include/atrc.h. */
#include "atrc.h"
#include "cli/args.h"
#include "cli/lsp.h"
#include "os/os.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>


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
    fflush(stderr); /* the message (stderr is buffered on a Windows console) */
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
    err = os_write_errno(err);
    if (o->path)
        fprintf(stderr, "atrc: error: cannot write '%s': %s\n", o->path, err ? strerror(err) : "write error");
    else
        fprintf(stderr, "atrc: error: cannot write standard output: %s\n", err ? strerror(err) : "write error");
    return -1;
}

static int same_file_as(const char *a, const char *b);

static int usage_error(const char *fmt, const char *arg)
{
    return cli_usage_error(stderr, fmt, arg);
}

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
        } else if (!only_files && cli_take_value(argc, argv, &i, "--output", 'o', &v)) {
            if (!v || !*v) return usage_error("atrc diff: %s needs a file name", a);
            if (output_path) return usage_error("%s given more than once", "-o");
            output_path = v;
        } else if (!only_files && cli_take_value(argc, argv, &i, "--format", 0, &v)) {
            if (format_seen++) return usage_error("%s given more than once", "--format");
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

/* The first of names[0, n) that is the existing file out, or NULL. */
static const char *same_as_any(const char *const *names, size_t n, const char *out)
{
    for (size_t i = 0; i < n; i++)
        if (same_file_as(names[i], out)) return names[i];
    return NULL;
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
    /* the scripts, and the response files and lists the run reads */
    const char *in = same_as_any(c->scripts, (size_t)c->script_count, c->output);
    if (!in) in = same_as_any(c->args->read.items, c->args->read.count, c->output);
    if (!in) in = same_as_any(c->builtin_files, (size_t)c->builtin_file_count, c->output);
    if (!in) in = same_as_any(&c->entities, c->entities ? 1 : 0, c->output);
    if (in) {
        arg_print_escaped(stderr, "atrc: error: input file '%s' is the same as output file '%s'\n", in, c->output);
        return 2;
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

/* --dump-tokens, --dump-ast: each script's tokens or syntax tree. */
static int dump_scripts(const cli *c, const atrc_ctx *ctx)
{
    int status = 0;
    for (int i = 0; i < c->script_count; i++) {
        int rc = c->dump == 1 ? atrc_dump_tokens(ctx, c->scripts[i], stdout, stderr)
                              : atrc_dump_ast(ctx, c->scripts[i], stdout, stderr);
        if (rc > status) status = rc;
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "atrc: error: cannot write standard output: %s\n", strerror(os_write_errno(errno)));
        status = 2;
    }
    return status;
}

/* The compiled run's output (to stdout or -o FILE) and diagnostics; the exit status. */
static int finish_run(const cli *c, atrc_ctx *ctx)
{
    /* Every input has been read: only now may FILE be replaced.  A run that
    ** failed because an input could not be read keeps the previous FILE. */
    int failing = atrc_unreadable_count(ctx) > 0 || atrc_error_count(ctx) > 0;
    int keep_output = c->output && failing && atrc_read_failure_count(ctx) > 0;
    /* A tree file is known to be an input only now. */
    const char *same = c->output ? atrc_input_same_as(ctx, c->output) : NULL;
    if (same) {
        fprintf(stderr, "atrc: error: input file '%s' is the same as output file '%s'\n", same, c->output);
        keep_output = 1;
    } else if (c->output && (same = output_is_game_file(ctx, c->output)) != NULL) {
        keep_output = 1;
    }
    int bad_tree = unknown_tree(ctx, c->trees, c->tree_count);
    if (bad_tree) keep_output = 1;
    output o;
    int write_ok = 1;
    int explain_rc = 0;
    if (keep_output) {
        /* nothing written */
    } else if (open_output(&o, c->output) != 0) {
        write_ok = 0;
    } else {
        int rc = 0;
        errno = 0;
        if (c->explain) {
            explain_rc = atrc_explain_values(ctx, c->explain_values, (size_t)c->explain_count, c->format, o.fp, stderr);
            rc = explain_rc == -2 ? -1 : 0;
        } else if (!c->opts.syntax_only || c->format == ATRC_FORMAT_JSON) {
            atrc_emit_options eo = {c->show_trees, c->trees, (size_t)c->tree_count, c->rankdir};
            if (c->load_order && c->format == ATRC_FORMAT_TEXT) rc = atrc_emit_load_order(ctx, o.fp);
            if (rc == 0) rc = atrc_emit_with(ctx, c->format, &eo, o.fp);
        }
        int write_errno = rc != 0 ? (errno ? errno : EIO) : 0;
        if (close_output(&o, write_errno) != 0) write_ok = 0;
    }
    atrc_diag_style style = {use_color(c->color), getenv("GCC_COLORS"), c->quiet};
    int diag_rc = atrc_write_diagnostics(ctx, &style, stderr);
    if (keep_output && !same && !bad_tree)
        fprintf(stderr, "atrc: note: '%s' left unchanged: an input could not be read\n", c->output);
    int status = 0;
    if (!write_ok || same || bad_tree) status = 2;
    else if (atrc_unreadable_count(ctx) > 0) status = 2;
    else if (atrc_error_count(ctx) > 0 || explain_rc == -1) status = 1;
    if (diag_rc != 0 && status == 0) status = 2;
    return status;
}

/* --help, --version: 0, or 2 when standard output cannot take it. */
static int print_info(cli_action action)
{
    if (action == CLI_HELP) fputs(cli_usage_text, stdout);
    else printf("atrc %s\n"
                "Copyright (c) the atrc authors; MIT licence (the LICENSE file).\n"
                "This is free software: you may use, copy, change and redistribute it.\n"
                "There is NO WARRANTY, to the extent permitted by law.\n", ATRC_VERSION);
    return ferror(stdout) || fflush(stdout) ? 2 : 0;
}

int main(int argc, char **argv)
{
    os_process_start();
    atrc_set_out_of_memory_handler(exit_out_of_memory);
    for (int i = 1; i < argc; i++) {
        const char *why = os_argument_problem(argv[i]);
        if (why) {
            fprintf(stderr, "atrc: error: argument '%s' %s\n", argv[i], why);
            return 2;
        }
    }
    if (argc > 1 && strcmp(argv[1], "diff") == 0) return diff_main(argc, argv);
    if (argc > 1 && strcmp(argv[1], "lsp") == 0) return lsp_main(argc, argv);

    arglist args;
    memset(&args, 0, sizeof args);
    cli c;
    memset(&c, 0, sizeof c);
    int status = arglist_expand(&args, argc, argv, stderr);
    if (status == 0) status = cli_parse(&c, &args, stderr);
    if (status == 0 && c.action != CLI_RUN) status = print_info(c.action);
    if (status != 0 || c.action != CLI_RUN) goto done;
    if (c.opts.jobs == 0) {
        int cpus = os_cpu_count();
        c.opts.jobs = cpus > 64 ? 64 : cpus;
    }
    status = check_output_is_not_input(&c);
    if (status == 0 && !c.dump) status = cli_check_game_dirs(&c);
    if (status != 0) goto done;

    atrc_ctx *ctx = atrc_new(&c.opts);
    if (c.dump) {
        /* read as the run would read them: its profile and extensions */
        status = cli_configure_options(&c, ctx);
        if (status == 0) status = dump_scripts(&c, ctx);
    } else if ((status = cli_configure(&c, ctx)) == 0) {
        atrc_build_trees(ctx);
        status = finish_run(&c, ctx);
    }
    atrc_free(ctx);

done:
    cli_free(&c);
    arglist_free(&args);
    if (fflush(stderr) != 0 && status == 0) status = 2;
    return status;
}
