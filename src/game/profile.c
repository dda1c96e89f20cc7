/* The profile table: one row per engine dialect.  ORDER: atrc_profile in
** include/atrc.h. */
#include "game/profile.h"
#include "base/text.h"

#include <string.h>

#define CALLBACKS "CodeCallback_StartGameType", "CodeCallback_PlayerConnect", \
    "CodeCallback_PlayerDisconnect", "CodeCallback_PlayerDamage", "CodeCallback_PlayerKilled"

/* load-order.md 2.1, 2.2 */
static const script_entry cod1_mp[] = {
    {"maps/mp/gametypes/%g", {"main"}, 0},
    {"maps/mp/gametypes/_callbacksetup", {CALLBACKS}, 0},
    {"maps/mp/%m", {NULL}, 1},
    {NULL, {NULL}, 0},
};

/* load-order.md 2.3 */
static const script_entry cod2_mp[] = {
    {"codescripts/delete", {"main"}, 0},
    {"codescripts/struct", {"initstructs", "createstruct"}, 0},
    {"maps/mp/gametypes/%g", {"main"}, 0},
    {"maps/mp/gametypes/_callbacksetup", {CALLBACKS}, 0},
    {"maps/mp/%m", {NULL}, 1},
    {NULL, {NULL}, 0},
};

/* load-order.md 2.4 */
static const script_entry cod4_mp[] = {
    {"codescripts/delete", {"main"}, 0},
    {"codescripts/struct", {"initstructs", "createstruct"}, 0},
    {"maps/mp/gametypes/%g", {"main"}, 0},
    {"maps/mp/gametypes/_callbacksetup", {CALLBACKS, "CodeCallback_PlayerLastStand"}, 0},
    {"maps/mp/%m", {NULL}, 1},
    {NULL, {NULL}, 0},
};

/* load-order.md 2.6: only the level script is known for these games. */
static const script_entry level_only_sp[] = {
    {"maps/%m", {"main"}, 0},
    {NULL, {NULL}, 0},
};

/* load-order.md 2.5, steps 1-3 (the entity-driven scripts follow). */
static const script_entry cod4_sp[] = {
    {"codescripts/delete", {"main"}, 0},
    {"codescripts/struct", {"initstructs", "createstruct"}, 0},
    {"animscripts/combat", {"main"}, 0},
    {"animscripts/concealment_crouch", {"main"}, 0},
    {"animscripts/concealment_prone", {"main"}, 0},
    {"animscripts/concealment_stand", {"main"}, 0},
    {"animscripts/cover_arrival", {"main"}, 0},
    {"animscripts/cover_crouch", {"main"}, 0},
    {"animscripts/cover_left", {"main"}, 0},
    {"animscripts/cover_prone", {"main"}, 0},
    {"animscripts/cover_right", {"main"}, 0},
    {"animscripts/cover_stand", {"main"}, 0},
    {"animscripts/cover_wide_left", {"main"}, 0},
    {"animscripts/cover_wide_right", {"main"}, 0},
    {"animscripts/death", {"main"}, 0},
    {"animscripts/grenade_return_throw", {"main"}, 0},
    {"animscripts/init", {"main"}, 0},
    {"animscripts/pain", {"main"}, 0},
    {"animscripts/move", {"main"}, 0},
    {"animscripts/scripted", {"main"}, 0},
    {"animscripts/stop", {"main"}, 0},
    {"animscripts/grenade_cower", {"main"}, 0},
    {"animscripts/flashed", {"main"}, 0},
    {"animscripts/scripted", {"init"}, 0},
    {"maps/%m", {"main"}, 0},
    {NULL, {NULL}, 0},
};

/* load-order.md 5.1 */
static const char *const mp_anims_root[] = {"root", "torso", "legs", "turning", NULL};
static const char *const mp_anims_cod4[] = {"torso", "legs", "turning", NULL};

/* The rules a grammar family shares (grammar.md 0: cod1 = uo, cod2 = cod4 in
** their parsers and compilers); each row adds what is its own. */
#define G1_RULES                                                                               \
    .kw_do = 1, .kw_cast = 1, .kw_hash = 1, .leading_empty_arg = 1, .leading_semis = 1,         \
    .switch_body_any_stmt = 1, .dev_wraps_one_function = 1, .tree_missing_is_warning = 1,       \
    .sync_error_names_leaf = 1, .nonleaf_anim_name = "<non-leaf anim>", .xanim_version = 14,   \
    .xanim_header_size = 9, .devblock_anim_error = 1, .archive_ext = ".pk3",                    \
    .localized_below_all = 1, .dev_function_ref = "normal script cannot reference /# ... #/ comment", \
    .mp_entries = cod1_mp, .sp_entries = level_only_sp, .mp_engine_anims = mp_anims_root,       \
    .labels_nested_in_switch = 1, .devblock_restrictions = 1, .index_base_call_ok = 1,         \
    .index_base_paren_ok = 1, .msg_index_base = "not an array, string, or vector",             \
    .msg_dev_builtin_value = "developer command can only be used as a statement if not in a /# ... #/ comment", \
    .unknown_builtin_at_compile = 1, .other_grammar = &rows[ATRC_PROFILE_COD2],                 \
    .msg_not_an_anim = "cannot cast %s to anim", .msg_not_an_animtree = "cannot cast %s to animtree"

#define G2_RULES                                                                               \
    .kw_include = 1, .kw_debug = 1, .max_string_length = 8191, .self_field = 1,                 \
    .atr_escape_backslash = 1, .default_asset_swap = 1, .nonleaf_anim_name = "",               \
    .xanim_lenient = 1, .archive_ext = ".iwd",                                                  \
    .dev_function_ref = "normal script cannot reference a function in a /# ... #/ comment",    \
    .dup_function_names_it = 1, .devblock_toplevel_markers = 1, .jump_after_leave_illegal = 1, \
    .missing_case_statement = 1, .constant_folding = 1, .definite_assignment = 1,              \
    .max_locals = 64, .msg_index_base = "not an lvalue",                                        \
    .msg_dev_builtin_value = "return value of developer command can not be accessed if not in a /# ... #/ comment", \
    .dev_statement_drops_args = 1, .includes_define_functions = 1,                             \
    .msg_not_an_anim = "type %s is not an anim", .msg_not_an_animtree = "type %s is not an animtree", \
    .other_grammar = &rows[ATRC_PROFILE_UO]

static const profile_rules rows[] = {
    [ATRC_PROFILE_UO] = {
        G1_RULES,
        .name = "uo",
        .base_game_dir = "uo",
        .unknown_gametype_note = " (a UO server would run dm instead)",
        .builtins_mp = &builtins_uo,
        .builtins_sp = &builtins_uo_sp_observed,
    },
    [ATRC_PROFILE_COD1] = {
        G1_RULES,
        .name = "cod1",
        .builtins_mp = &builtins_cod1,
        .builtins_sp = &builtins_cod1_sp_observed,
    },
    [ATRC_PROFILE_COD2] = {
        G2_RULES,
        .name = "cod2",
        .xanim_version = 14,
        .xanim_header_size = 9,
        /* game-files.md 2.1; their order among themselves is UNCONFIRMED */
        .install_dev_dirs = "raw raw_shared devraw devraw_shared",
        .mp_entries = cod2_mp,
        .sp_entries = level_only_sp,
        .mp_engine_anims = mp_anims_root,
        .builtins_mp = &builtins_cod2,
        .builtins_sp = &builtins_cod2_sp_observed,
    },
    [ATRC_PROFILE_COD4] = {
        G2_RULES,
        .name = "cod4",
        .atr_additive = 1,
        .numbering_two_pass = 1,
        .xanim_version = 17,
        .xanim_header_size = 10,
        .xanim_has_asset_type = 1,
        .devblock_anim_dropped = 1,
        .cod4x_directives_note = 1,
        .mp_entries = cod4_mp,
        .sp_entries = cod4_sp,
        .sp_order_known = 1,
        .mp_engine_anims = mp_anims_cod4,
        .sp_required_tree = "generic_human",
        .max_pending_scripts = 1024,
        .builtins_mp = &builtins_cod4,
        .builtins_sp = &builtins_cod4_sp,
        .builtins_sp_complete = 1,
    },
};

const profile_rules *profile_get(atrc_profile p)
{
    return (unsigned)p < sizeof rows / sizeof *rows ? &rows[p] : &rows[ATRC_PROFILE_UO];
}

const char *atrc_profile_name(atrc_profile p)
{
    return (unsigned)p < sizeof rows / sizeof *rows ? rows[p].name : "?";
}

int atrc_profile_parse(const char *s, atrc_profile *out)
{
    for (unsigned i = 0; i < sizeof rows / sizeof *rows; i++)
        if (text_equal_nocase(s, rows[i].name)) {
            *out = (atrc_profile)i;
            return 0;
        }
    return -1;
}

/* Is `name` a builtin of that kind for the game mode; *certain: the list
** that says no is complete. */
static const builtin_entry *stock_lookup(const profile_rules *rules, atrc_game_mode mode,
                                         builtin_kind kind, const char *name, int *certain)
{
    const builtin_entry *e = NULL;
    if (mode == ATRC_GAME_MP) {
        *certain = 1;
        return builtin_find(rules->builtins_mp, kind, name);
    }
    if (mode == ATRC_GAME_SP && rules->builtins_sp_complete) {
        *certain = 1;
        return builtin_find(rules->builtins_sp, kind, name);
    }
    /* Single player without its table, or a file list: everything known. */
    *certain = rules->builtins_sp_complete;
    e = builtin_find(rules->builtins_mp, kind, name);
    return e ? e : builtin_find(rules->builtins_sp, kind, name);
}

/* The same with the extensions and user lists of the run (set may be NULL). */
const builtin_entry *profile_builtin_lookup(const profile_rules *rules, const builtin_set *set, atrc_game_mode mode,
                                            builtin_kind kind, const char *name, int *certain)
{
    return builtin_set_apply(set, kind, name, stock_lookup(rules, mode, kind, name, certain));
}
