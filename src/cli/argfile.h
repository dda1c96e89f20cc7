/* Command-line arguments with where each came from: the command line, or a
** line of a response file (`@FILE`) or project file (`atrc.flags`).  A file
** holds one argument per line, verbatim (a trailing CR of a CRLF line
** excepted); blank lines and lines starting with '#' are skipped; `@FILE`
** lines nest (relative to the including file's directory), bounded in depth
** and size, and a file that includes itself is an error.  A UTF-8 byte
** order mark opening a file is no part of its first line. */
#ifndef ATRC_CLI_ARGFILE_H
#define ATRC_CLI_ARGFILE_H
#include "base/vec.h"

#include <stddef.h>
#include <stdio.h>

#define ARGFILE_MAX_DEPTH 16        /* files open inside each other */
#define ARGFILE_MAX_ARGS 100000     /* arguments after expansion */
#define ARGFILE_MAX_LINES 1000000   /* lines read in all, over every inclusion */
#define ARGFILE_MAX_FILES 10000     /* files read in all (a file read twice counts twice) */
#define ARGFILE_MAX_BYTES (16u << 20) /* one file */

/* Where an argument came from.  file NULL: the command line (or a caller's
** list).  dir: the directory relative paths in it are relative to ("" for
** the current one). */
typedef struct arg_origin {
    const char *file;
    int line;
    const char *dir;
} arg_origin;

typedef struct arglist {
    int argc;              /* argv.count as main's argc (cli_take_value's) */
    VEC(char *) argv;      /* the arguments, then a NULL that is not counted */
    VEC(arg_origin) origin; /* one per argument */
    VEC(char *) owned;     /* strings the list allocated */
    VEC(const char *) read; /* every response file read (paths kept by the list) */
} arglist;

/* argv with every `@FILE` (up to a "--" argument) replaced by FILE's
** arguments.  0, or 2 after writing a located error to err
** ("FILE:LINE: error: ...", or "atrc: error: ..." for the command line's
** own `@FILE`). */
int arglist_expand(arglist *out, int argc, char **argv, FILE *err);
/* Appends FILE's arguments (nested `@FILE` expanded) to out, relative
** paths taken from FILE's directory: the project file's reader.  0 or 2. */
int arglist_read_file(arglist *out, const char *path, FILE *err);
/* The same for a project file the language server reads on its own (no
** user typed it): every nested `@FILE` must be a regular file below the
** project file's directory (links resolved), else one error on its line
** that names it and opens nothing. */
int arglist_read_project(arglist *out, const char *path, FILE *err);
/* Appends in's arguments to out with `@FILE` expanded, in->argv[i] located
** as line i + 1 of `name` and relative paths taken from dir: a client's
** list of flags (initializationOptions.flags).  0 or 2. */
int arglist_expand_list(arglist *out, const arglist *in, const char *dir, const char *name, FILE *err);
/* Whether path, links resolved, is below the directory dir (a real path):
** 1 or 0, -1 when path does not resolve (it does not exist). */
int argfile_below(const char *dir, const char *path);
/* Appends one argument (copied) with its origin (NULL: the command line). */
void arglist_add(arglist *out, const char *arg, const arg_origin *origin);
void arglist_free(arglist *l);

/* path, or path joined to dir when dir is non-empty and path is relative
** (an allocated copy kept by l, so it lives as long as l). */
const char *arglist_resolve(arglist *l, const char *dir, const char *path);

/* fprintf(err, fmt, a, b), a and b (strings, b may be NULL when fmt uses
** one) with their control bytes escaped: messages quote arguments, file
** names and response files' lines, which may hold any byte. */
void arg_print_escaped(FILE *err, const char *fmt, const char *a, const char *b);
/* "FILE:LINE: error: " for an argument from a file, else "atrc: error: ". */
void arg_print_error_start(FILE *err, const arg_origin *at);

/* The nearest file named `atrc.flags` in dir or a directory above it
** (malloc'ed path), or NULL. */
char *argfile_find_project(const char *dir);

#endif
