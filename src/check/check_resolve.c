/* Function resolution (grammar.md 3.5): the calls a file recorded, looked up
** among its own functions and the game's builtin names, reported or left
** for the load walk; the wording of an unknown function. */
#include "check/check_internal.h"
#include "game/builtins.h"
#include "base/suggest.h"

#include <string.h>

/* Which builtin list the game mode's lookup (profile_builtin_lookup) reads. */
static const char *builtin_list_mode(const profile_rules *rules, atrc_game_mode mode)
{
    if (mode == ATRC_GAME_MP) return "multiplayer";
    if (mode == ATRC_GAME_SP && rules->builtins_sp_complete) return "single-player";
    return "multiplayer and single-player";
}

void check_suggest_builtins(suggest *s, const profile_rules *rules, const builtin_set *set, atrc_game_mode mode,
                            check_ref_kind kind)
{
    if (kind == CHECK_REF_SCRIPT) return;
    builtin_kind bk = kind == CHECK_REF_METHOD ? BUILTIN_METHOD : BUILTIN_FUNCTION;
    /* The lists profile_builtin_lookup reads for the mode. */
    const builtin_list *lists[2] = {rules->builtins_mp, rules->builtins_sp};
    if (mode == ATRC_GAME_MP) lists[1] = NULL;
    if (mode == ATRC_GAME_SP && rules->builtins_sp_complete) lists[0] = NULL;
    for (int l = 0; l < 2; l++) {
        if (!lists[l]) continue;
        for (size_t i = 0; i < lists[l]->count; i++) {
            const builtin_entry *e = &lists[l]->entries[i];
            /* a stock name an extension does not register is no suggestion */
            if (e->kind == bk && (!set || builtin_set_apply(set, bk, e->name, e)))
                suggest_add(s, e->name, strlen(e->name), e);
        }
    }
    for (size_t x = 0; set && x < set->count; x++) {
        const builtin_list *add = set->items[x]->add;
        for (size_t i = 0; add && i < add->count; i++)
            if (add->entries[i].kind == bk) suggest_add(s, add->entries[i].name, strlen(add->entries[i].name), &add->entries[i]);
    }
}

const char *check_builtin_suggestion(arena *a, const char *name, check_ref_kind kind)
{
    return arena_printf(a, "the builtin %s'%s'", kind == CHECK_REF_METHOD ? "method " : "", name);
}

void check_report_unknown(diag_list *diags, source_file *src, const profile_rules *rules,
                          const atrc_options *opts, const check_ref *ref)
{
    const char *name = ref->spelling ? ref->spelling : ref->name;
    const char *what = ref->kind == CHECK_REF_METHOD ? "method" : "function";
    const char *mean = ref->elsewhere ? "; " : ref->suggestion ? "; did you mean " : "";
    const char *sugg = ref->elsewhere ? ref->elsewhere : ref->suggestion ? ref->suggestion : "";
    const char *q = !ref->elsewhere && ref->suggestion ? "?" : "";
    if (ref->certain) {
        /* The game's words, then the name and where atrc looked. */
        const char *place = ref->includes_searched ? "this file or its #includes" : "this file";
        if (ref->dev_where) {
            diag_add(diags, DIAG_ERROR, src, ref->line, ref->col,
                     "unknown function '%s': defined only inside /# ... #/ (%s), which the game does not "
                     "compile unless developer_script is set (--developer-script)", name, ref->dev_where);
            return;
        }
        if (ref->kind == CHECK_REF_SCRIPT) {
            diag_add(diags, DIAG_ERROR, src, ref->line, ref->col, "unknown function '%s': not defined in %s%s%s%s",
                     name, place, mean, sugg, q);
            return;
        }
        const char *list = builtin_list_mode(rules, opts ? opts->game_mode : ATRC_GAME_FILES);
        if (rules->unknown_builtin_at_compile)
            diag_add(diags, DIAG_ERROR, src, ref->line, ref->col,
                     "unknown (builtin) %s '%s': not defined in %s nor among the %s %s builtin%s%s%s%s", what,
                     name, place, rules->name, list, ref->kind == CHECK_REF_METHOD ? " methods" : "s", mean, sugg, q);
        else
            diag_add(diags, DIAG_ERROR, src, ref->line, ref->col,
                     "unknown function '%s': not defined in %s nor among the %s %s builtin%s%s%s%s", name, place,
                     rules->name, list, ref->kind == CHECK_REF_METHOD ? " methods" : "s", mean, sugg, q);
        return;
    }
    diag_add(diags, DIAG_WARNING, src, ref->line, ref->col,
             "'%s' is not defined in this file%s and is not a known %s builtin %s; it may still be "
             "a single-player builtin (atrc has the %s multiplayer table and the single-player "
             "names stock scripts use, not the single-player table)%s%s%s",
             name, rules->includes_define_functions ? " or an included one" : "", rules->name,
             what, rules->name, mean, sugg, q);
}

/* Names that are statements written like calls, never builtins to look up. */
static int is_call_keyword(const char *name)
{
    static const char *const always[] = {"waittill", "waittillmatch", "notify", "endon"};
    if (name[0] != 'w' && name[0] != 'n' && name[0] != 'e') return 0; /* their initials */
    for (size_t i = 0; i < sizeof always / sizeof always[0]; i++)
        if (!strcmp(name, always[i])) return 1;
    return 0;
}

/* Where the file defines ce's name (once per name). */
static void lookup_def(check_state *st, called_name *ce)
{
    if (ce->looked_up & 1) return;
    size_t len = strlen(ce->name);
    ce->def = ns_find(&st->functions, ce->name, len);
    if (!ce->def) ce->def = ns_find(&st->dev_functions, ce->name, len);
    ce->keyword = is_call_keyword(ce->name);
    ce->looked_up |= 1;
}

/* The builtin of that kind named ce (once per name and kind), or NULL. */
static const builtin_entry *lookup_builtin(check_state *st, called_name *ce, builtin_kind bk)
{
    if (!(ce->looked_up & (2 << bk))) {
        ce->builtin[bk] = profile_builtin_lookup(st->rules, st->builtins, st->opts.game_mode, bk, ce->name,
                                         &ce->certain[bk]);
        ce->looked_up |= 2 << bk;
    }
    return ce->builtin[bk];
}

/* Whether c lies inside a statement that calls a developer builtin: the
** engine drops that statement whole, so nothing in it is a used value
** (grammar.md 3.2, the row after the developer-command errors). */
static int in_dev_statement(check_state *st, const call_rec *c)
{
    const call_rec *s = c->statement;
    if (!s || s->kind == CHECK_REF_SCRIPT) return 0;
    lookup_def(st, s->callee);
    if (s->callee->def || s->callee->keyword) return 0;
    const builtin_entry *b =
        lookup_builtin(st, s->callee, s->kind == CHECK_REF_METHOD ? BUILTIN_METHOD : BUILTIN_FUNCTION);
    return b && b->dev;
}

/* The nearest of the file's functions and (for calls that may be builtins)
** the builtin names in use to an unknown name: one query per name, for at
** most SUGGEST_MAX_QUERIES names of the file, and none for a warning -w drops. */
static const char *call_suggestion(check_state *st, const call_rec *c)
{
    called_name *ce = c->callee;
    if (ce->suggested) return ce->suggestion;
    ce->suggested = 1;
    if (st->suggest_queries >= SUGGEST_MAX_QUERIES) return NULL;
    st->suggest_queries++;
    size_t len = strlen(ce->spelling);
    suggest own, builtin;
    suggest_init(&own, ce->spelling, len, 1);
    for (size_t i = 0; i < st->functions.entries.count; i++) {
        const ns_entry *e = st->functions.entries.items[i];
        if (e->value) continue; /* a developer function */
        const char *name = e->data ? e->data : e->key;
        suggest_add(&own, name, e->len, e);
    }
    suggest_init(&builtin, ce->spelling, len, 1);
    check_suggest_builtins(&builtin, st->rules, st->builtins, st->opts.game_mode, (check_ref_kind)c->kind);
    /* The file's own function wins a tie. */
    if (own.count && (!builtin.count || own.best[0].dist <= builtin.best[0].dist)) {
        const ns_entry *e = own.best[0].data;
        ce->suggestion = arena_printf(&st->mem, "'%s' (line %d)", own.best[0].name, e->line);
    } else if (builtin.count) {
        ce->suggestion = check_builtin_suggestion(&st->mem, builtin.best[0].name, (check_ref_kind)c->kind);
    }
    return ce->suggestion;
}

void check_resolve(check_state *st, check_file_result *out)
{
    const profile_rules *r = st->rules;
    int deferred = r->includes_define_functions && st->includes.count > 0;
    VEC(check_ref) unresolved = {0};
    for (const call_block *blk = st->calls; blk; blk = blk->next)
    for (size_t i = 0; i < blk->count; i++) {
        const call_rec *c = &blk->items[i];
        /* Retail /# #/: script references are not recorded; cod1/uo still
        ** look builtins up there. */
        if (discarded(st, c->in_dev) && (c->kind == CHECK_REF_SCRIPT || !r->unknown_builtin_at_compile))
            continue;
        /* Retail: inside a developer builtin statement, as inside /# #/. */
        if (!st->opts.developer_script && in_dev_statement(st, c)) continue;
        called_name *ce = c->callee;
        lookup_def(st, ce);
        const ns_entry *def = ce->def;
        if (def && !def->value) continue;
        if (def) {
            /* A developer function: seen from /# #/ it is there; from normal
            ** code it is not (retail), or is refused (developer_script).  The
            ** load walk (`out`) links such references itself. */
            if (c->in_dev || out) continue;
            if (st->opts.developer_script) {
                check_error_at(st, c->line, c->col, "%s", r->dev_function_ref);
            } else {
                check_ref ref = {c->callee->name, NULL, c->line, c->col, CHECK_REF_SCRIPT, 1, .spelling = ce->spelling};
                ref.dev_where = arena_printf(&st->mem, "line %d", def->line);
                check_report_unknown(st->diags, st->src, r, &st->opts, &ref);
            }
            continue;
        }
        /* The reference is made only for a name that stays unresolved
        ** (most calls are of the file's functions or of builtins). */
        int certain = 1;
        if (c->kind != CHECK_REF_SCRIPT) {
            if (ce->keyword) continue;
            builtin_kind bk = c->kind == CHECK_REF_METHOD ? BUILTIN_METHOD : BUILTIN_FUNCTION;
            const builtin_entry *b = lookup_builtin(st, ce, bk);
            certain = ce->certain[bk];
            if (b) {
                if (c->argc >= 256)
                    check_error_at(st, c->line, c->col, "parameter count exceeds 256");
                if (b->dev && c->value_used && !c->in_dev && !in_dev_statement(st, c))
                    check_error_at(st, c->line, c->col, "%s", r->msg_dev_builtin_value);
                continue;
            }
        }
        check_ref ref = {c->callee->name, NULL, c->line, c->col, (check_ref_kind)c->kind, certain, .spelling = ce->spelling};
        if (deferred) {
            if (out) {
                ref.name = arena_strdup(&out->mem, ref.name);
                ref.spelling = arena_strdup(&out->mem, ref.spelling);
                *VEC_PUSH(unresolved) = ref;
            }
            continue;
        }
        if (certain || !st->diags->no_warnings) ref.suggestion = call_suggestion(st, c);
        check_report_unknown(st->diags, st->src, r, &st->opts, &ref);
    }
    /* Grown on the heap, kept in the result's arena. */
    if (unresolved.count) {
        out->unresolved = arena_alloc(&out->mem, array_size(unresolved.count, sizeof *out->unresolved));
        memcpy(out->unresolved, unresolved.items, array_size(unresolved.count, sizeof *out->unresolved));
        out->unresolved_count = unresolved.count;
    }
    VEC_FREE(unresolved);
}
