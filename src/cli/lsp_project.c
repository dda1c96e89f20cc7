/* The language server's projects: which atrc.flags configures each open
** document (one server serves several projects and the documents outside
** any), each project compiled in a session of its own, documents moved
** when an atrc.flags is created or deleted during a session, and each
** project said to the user once. */
#include "cli/lsp_server.h"
#include "os/os.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The nearest atrc.flags above path's directory (malloc'ed or NULL). */
static char *flags_above(const char *path)
{
    const char *sep = os_last_path_sep(path);
    char *dir = sep ? os_strndup(path, sep == path ? 1 : (size_t)(sep - path)) : NULL;
    char *found = dir ? argfile_find_project(dir) : NULL;
    free(dir);
    return found;
}

static int same_path(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

static void say(lsp_server *s, const lsp_project *p, const lsp_doc *doc)
{
    char config[1000], msg[1300];
    if (p->flags)
        snprintf(config, sizeof config, "is configured by %.900s", p->flags);
    else if (s->init_flags.argc)
        snprintf(config, sizeof config, "has no atrc.flags above it: configured by initializationOptions.flags");
    else
        snprintf(config, sizeof config, "has no atrc.flags above it: file-list mode on the open scripts outside any "
                                        "project, the default profile%s",
                 s->root ? ", the workspace root as game directory" : "");
    const char *file = doc->path ? doc->path : doc->archive_file ? doc->archive_file : doc->uri;
    const char *name = os_last_path_sep(file) ? os_last_path_sep(file) + 1 : file;
    snprintf(msg, sizeof msg, "atrc: %.200s %s", name, config);
    lsp_begin_notification(s, "window/showMessage");
    outbuf_str(&s->msg, "{\"type\":3,\"message\":");
    outbuf_json_string(&s->msg, msg, strlen(msg));
    outbuf_str(&s->msg, "}}");
    lsp_send(s);
}

/* The project keyed by flags (NULL: outside any), created for doc when
** there is none (said to the user, every open document's text given to its
** session).  Few projects live at once (one per atrc.flags with an open
** document below it): they are searched in order. */
static lsp_project *project_for(lsp_server *s, const char *flags, const lsp_doc *doc)
{
    for (size_t i = 0; i < s->projects.count; i++)
        if (same_path(s->projects.items[i]->flags, flags)) return s->projects.items[i];
    lsp_project *p = xcalloc(1, sizeof *p);
    p->flags = flags ? os_strndup(flags, strlen(flags)) : NULL;
    if (flags && !p->flags) out_of_memory();
    p->session = atrc_session_new();
    p->dirty = 1;
    *VEC_PUSH(s->projects) = p;
    for (size_t i = 0; i < s->docs.list.count; i++) {
        const lsp_doc *d = &s->docs.list.items[i];
        if (d->open && d->path) atrc_session_set_buffer(p->session, d->path, d->text, d->len);
    }
    char line[600];
    snprintf(line, sizeof line, "project %.500s: opened", flags ? flags : "outside any atrc.flags");
    lsp_log(s, 3, line);
    say(s, p, doc);
    return p;
}

static void project_free(lsp_project *p)
{
    if (p->ctx) atrc_free(p->ctx);
    atrc_session_free(p->session);
    cli_free(&p->cli);
    arglist_free(&p->args);
    lsp_published_free(p);
    free(p->flags);
    free(p->config_error);
    free(p);
}

/* p without open documents: its published lists emptied, freed. */
static void project_drop(lsp_server *s, lsp_project *p)
{
    lsp_publish_withdraw(s, p);
    char line[600];
    snprintf(line, sizeof line, "project %.500s: no open document left, dropped",
             p->flags ? p->flags : "outside any atrc.flags");
    lsp_log(s, 3, line);
    size_t k = 0;
    for (size_t i = 0; i < s->projects.count; i++)
        if (s->projects.items[i] != p) s->projects.items[k++] = s->projects.items[i];
    s->projects.count = k;
    if (s->pj == p) s->pj = &s->none;
    project_free(p);
}

/* How a document came to its project (lsp_doc.by_flags). */
enum { BY_READING = 0, BY_FLAGS_ABOVE = 1, BY_WORKSPACE = 2 };

/* The workspace root's atrc.flags (its nearest, as for a document below
** it; malloc'ed or NULL). */
static char *workspace_flags(const lsp_server *s)
{
    return s->root ? argfile_find_project(s->root) : NULL;
}

/* The project of a document below no atrc.flags (a game file outside the
** workspace): the first one whose last compilation read it (not `except`),
** else the workspace root's atrc.flags (the configuration of the workspace
** a stock file was opened from), else the one outside any project.  *how
** says which. */
static lsp_project *project_without_flags(lsp_server *s, const lsp_doc *doc, const lsp_project *except, int *how)
{
    const char *file = doc->archive_file ? doc->archive_file : doc->real;
    *how = BY_READING;
    for (size_t i = 0; file && i < s->projects.count; i++) {
        lsp_project *p = s->projects.items[i];
        size_t len;
        if (p != except && p->flags && p->ctx && atrc_source_text(p->ctx, file, &len)) return p;
    }
    char *flags = workspace_flags(s);
    lsp_project *p = project_for(s, flags, doc);
    if (flags) *how = BY_WORKSPACE;
    free(flags);
    return p;
}

static void join(lsp_doc *doc, lsp_project *p, int by_flags)
{
    doc->project = p;
    doc->by_flags = by_flags;
    p->docs++;
    p->dirty = 1;
}

/* doc out of its project; the project freed when it was the last. */
static void leave(lsp_server *s, lsp_doc *doc)
{
    lsp_project *p = doc->project;
    doc->project = NULL;
    if (!p) return;
    p->dirty = 1;
    if (--p->docs == 0) project_drop(s, p);
}

void lsp_project_attach(lsp_server *s, lsp_doc *doc)
{
    if (doc->project) return;
    /* the real path: a document opened through a link belongs where its file is */
    char *flags = doc->real ? flags_above(doc->real) : NULL;
    int how = BY_FLAGS_ABOVE;
    lsp_project *p = flags ? project_for(s, flags, doc) : project_without_flags(s, doc, NULL, &how);
    join(doc, p, how);
    free(flags);
}

void lsp_project_detach(lsp_server *s, lsp_doc *doc)
{
    leave(s, doc);
}

void lsp_project_route(lsp_server *s)
{
    /* looked for again before every compilation: an atrc.flags created or
    ** deleted since the last one is noticed even when the client watches nothing */
    char *workspace = NULL; /* the root's atrc.flags, looked for once, when needed */
    int looked = 0;
    for (size_t i = 0; i < s->docs.list.count; i++) {
        lsp_doc *doc = &s->docs.list.items[i];
        if (!doc->open || !doc->project || !doc->real) continue;
        char *flags = flags_above(doc->real);
        if (!flags && doc->by_flags == BY_WORKSPACE && !looked) {
            workspace = workspace_flags(s);
            looked = 1;
        }
        lsp_project *to = NULL;
        int how = BY_FLAGS_ABOVE;
        if (flags && !same_path(flags, doc->project->flags))
            to = project_for(s, flags, doc);
        else if (!flags && (doc->by_flags == BY_FLAGS_ABOVE ||
                            /* the workspace's atrc.flags went */
                            (doc->by_flags == BY_WORKSPACE && !same_path(workspace, doc->project->flags))))
            to = project_without_flags(s, doc, doc->project, &how);
        if (to && to != doc->project) {
            /* found first: the project it leaves is freed when it was its last */
            leave(s, doc);
            join(doc, to, how);
        }
        free(flags);
    }
    free(workspace);
}

void lsp_project_buffer(lsp_server *s, const lsp_doc *doc)
{
    if (!doc->path) return;
    /* every project reads the editor's text of a file, whichever it belongs to */
    for (size_t i = 0; i < s->projects.count; i++)
        atrc_session_set_buffer(s->projects.items[i]->session, doc->path, doc->text, doc->len);
    if (doc->project) doc->project->dirty = 1;
}

void lsp_project_touch_all(lsp_server *s)
{
    for (size_t i = 0; i < s->projects.count; i++) s->projects.items[i]->dirty = 1;
}

void lsp_project_compile_dirty(lsp_server *s)
{
    int any = 0;
    for (size_t i = 0; i < s->projects.count; i++) any |= s->projects.items[i]->dirty;
    if (!any) return;
    lsp_project_route(s);
    /* by index: a compilation never adds or drops a project */
    for (size_t i = 0; i < s->projects.count; i++)
        if (s->projects.items[i]->dirty) lsp_compile(s, s->projects.items[i]);
}

void lsp_project_watch(lsp_server *s, const json_value *capabilities)
{
    const json_value *w = json_get(json_get(json_get(capabilities, "workspace"), "didChangeWatchedFiles"),
                                   "dynamicRegistration");
    if (!w || w->type != JSON_TRUE) return;
    /* a request of the server's: its answer is a response the loop ignores */
    outbuf_flush(&s->msg);
    outbuf_str(&s->msg, "{\"jsonrpc\":\"2.0\",\"id\":\"atrc-watch-flags\",\"method\":\"client/registerCapability\","
                        "\"params\":{\"registrations\":[{\"id\":\"atrc-flags\","
                        "\"method\":\"workspace/didChangeWatchedFiles\","
                        "\"registerOptions\":{\"watchers\":[{\"globPattern\":\"**/atrc.flags\"}]}}]}}");
    lsp_send(s);
}

void lsp_projects_free(lsp_server *s)
{
    for (size_t i = 0; i < s->projects.count; i++) project_free(s->projects.items[i]);
    VEC_FREE(s->projects);
    s->pj = &s->none;
}
