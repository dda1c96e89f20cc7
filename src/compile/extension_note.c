/* The closing note that names an engine extension: a mod written for a
** server extension (CoD2x, libcod, CoD4x...) calls its builtins everywhere,
** and a run without --extension reports each call as an unknown function.
** When most of a run's calls of unknown functions and methods (at least
** EXTENSION_NOTE_MIN of them) are names of one shipped extension list of the
** profile's game that the run does not use, one note names that
** --extension.  It reads the run's diagnostics once at the end (their
** wording is check_report_unknown's), so it sees what every file and the
** load walk's link reported, in any mode. */
#include "compile/driver.h"
#include "compile/link.h"
#include "game/builtins.h"
#include "base/vec.h"

#include <stdlib.h>
#include <string.h>

/* Fewer unknown calls than this say nothing about an extension. */
#define EXTENSION_NOTE_MIN 5

/* The prefixes of check_report_unknown's messages about a call that could
** be a builtin, before the name and its closing quote. */
static const char *const unknown_prefixes[] = {
    "unknown function '",          /* cod2/cod4 */
    "unknown (builtin) function '", /* cod1/uo */
    "unknown (builtin) method '",
    "'",                            /* the warning where the builtin list is incomplete */
};

/* The called name of an unknown-builtin diagnostic, copied to buf (NULL:
** not such a diagnostic); *method: it names a method. */
static const char *unknown_name(const diag *d, char *buf, size_t size, int *method)
{
    const char *m = d->message;
    if (d->severity == DIAG_NOTE || !m) return NULL;
    /* Only a call that was looked up among the builtins says "builtin"
    ** (`thread f()`, `::f` and developer functions do not). */
    const char *builtin = strstr(m, " builtin");
    if (!builtin) return NULL;
    for (size_t i = 0; i < sizeof unknown_prefixes / sizeof unknown_prefixes[0]; i++) {
        size_t n = strlen(unknown_prefixes[i]);
        if (strncmp(m, unknown_prefixes[i], n) != 0) continue;
        const char *end = strchr(m + n, '\'');
        if (!end || (size_t)(end - m - n) >= size || end > builtin) return NULL;
        memcpy(buf, m + n, (size_t)(end - m - n));
        buf[end - m - n] = 0;
        *method = strncmp(builtin, " builtin method", 15) == 0 || strncmp(m, "unknown (builtin) method", 24) == 0;
        return buf;
    }
    return NULL;
}

void link_extension_note(atrc_ctx *ctx)
{
    const char *game = atrc_profile_name(ctx->opts.profile);
    VEC(const builtin_extension *) candidates = {0};
    for (size_t k = 0; k < builtin_extension_count; k++) {
        const builtin_extension *e = &builtin_extensions[k];
        int used = 0;
        for (size_t i = 0; i < ctx->builtins.count; i++) used |= ctx->builtins.items[i] == e;
        if (!used && strcmp(e->game, game) == 0) *VEC_PUSH(candidates) = e;
    }
    size_t *sites = candidates.count ? calloc(candidates.count, sizeof *sites) : NULL;
    size_t total = 0;
    char name[256];
    for (size_t i = 0; i < ctx->diags.count && candidates.count; i++) {
        int method = 0;
        if (!unknown_name(&ctx->diags.items[i], name, sizeof name, &method)) continue;
        total++;
        for (size_t k = 0; k < candidates.count; k++)
            if (builtin_find(candidates.items[k]->add, method ? BUILTIN_METHOD : BUILTIN_FUNCTION, name)) sites[k]++;
    }
    size_t best = 0;
    for (size_t k = 1; k < candidates.count; k++)
        if (sites[k] > sites[best]) best = k; /* a tie: the first in the table's order */
    if (total >= EXTENSION_NOTE_MIN && sites[best] * 2 > total)
        diag_add(&ctx->diags, DIAG_NOTE, NULL, 0, 0,
                 "%zu of the %zu calls of unknown functions and methods name builtins of the %s server "
                 "extension '%s': if the scripts are for a server that runs it, check them with --extension %s",
                 sites[best], total, game, candidates.items[best]->name, candidates.items[best]->name);
    free(sites);
    VEC_FREE(candidates);
}
