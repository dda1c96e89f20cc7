/* The language server's project: which atrc.flags configures the next
** compilation, noticed when one is created or deleted during a session,
** and said to the user once per configuration a document gets. */
#include "cli/lsp_server.h"
#include "os/os.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The nearest atrc.flags above path's directory, else the workspace root's (malloc'ed or NULL). */
static char *project_of(const lsp_server *s, const char *path)
{
    char *found = NULL;
    if (path) {
        const char *sep = os_last_path_sep(path);
        char *dir = sep ? os_strndup(path, sep == path ? 1 : (size_t)(sep - path)) : NULL;
        if (dir) found = argfile_find_project(dir);
        free(dir);
    }
    if (!found && s->root) found = argfile_find_project(s->root);
    return found;
}

static int same_path(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

void lsp_project_focus(lsp_server *s, const lsp_doc *doc)
{
    if (!doc->path || same_path(s->focus, doc->path)) return;
    free(s->focus);
    s->focus = os_strndup(doc->path, strlen(doc->path));
    if (!s->focus) out_of_memory();
}

void lsp_project_choose(lsp_server *s)
{
    /* looked for again before every compilation: a project file created or
    ** deleted since the last one is noticed even when the client watches nothing */
    char *now = project_of(s, s->focus);
    if (same_path(now, s->project)) {
        free(now);
        return;
    }
    free(s->project);
    s->project = now;
    char msg[600];
    if (now) snprintf(msg, sizeof msg, "project file %.500s", now);
    else snprintf(msg, sizeof msg, "no project file: %s", s->init_flags.argc ? "initializationOptions.flags" : "the open scripts");
    lsp_log(s, 3, msg);
}

void lsp_project_say(lsp_server *s, const lsp_doc *doc)
{
    if (!doc->path) return;
    char *project = project_of(s, doc->path);
    char config[1000], msg[1300];
    if (project)
        snprintf(config, sizeof config, "is configured by %.900s", project);
    else if (s->init_flags.argc)
        snprintf(config, sizeof config, "has no atrc.flags above it: configured by initializationOptions.flags");
    else
        snprintf(config, sizeof config, "has no atrc.flags above it: file-list mode on the open scripts, the default "
                                        "profile%s", s->root ? ", the workspace root as game directory" : "");
    free(project);
    /* once per configuration, not once per document */
    if (s->said && strcmp(s->said, config) == 0) return;
    free(s->said);
    s->said = os_strndup(config, strlen(config));
    const char *name = os_last_path_sep(doc->path) ? os_last_path_sep(doc->path) + 1 : doc->path;
    snprintf(msg, sizeof msg, "atrc: %.200s %s", name, config);
    lsp_begin_notification(s, "window/showMessage");
    outbuf_str(&s->msg, "{\"type\":3,\"message\":");
    outbuf_json_string(&s->msg, msg, strlen(msg));
    outbuf_str(&s->msg, "}}");
    lsp_send(s);
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
