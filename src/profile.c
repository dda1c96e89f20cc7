/* The profile table: one row per engine dialect.  ORDER: atrc_profile in
** include/atrc.h. */
#include "profile.h"

#include <string.h>

static const profile_rules rows[] = {
    [ATRC_PROFILE_UO] = {
        .name = "uo",
        .kw_do = 1,
        .kw_cast = 1,
        .kw_hash = 1,
        .leading_empty_arg = 1,
        .leading_semis = 1,
        .switch_body_any_stmt = 1,
        .dev_wraps_one_function = 1,
        .tree_missing_is_warning = 1,
        .sync_error_names_leaf = 1,
        .nonleaf_anim_name = "<non-leaf anim>",
        .xanim_version = 14,
        .xanim_header_size = 9,
        .devblock_anim_error = 1,
    },
    [ATRC_PROFILE_COD1] = {
        .name = "cod1",
        .kw_do = 1,
        .kw_cast = 1,
        .kw_hash = 1,
        .leading_empty_arg = 1,
        .leading_semis = 1,
        .switch_body_any_stmt = 1,
        .dev_wraps_one_function = 1,
        .tree_missing_is_warning = 1,
        .sync_error_names_leaf = 1,
        .nonleaf_anim_name = "<non-leaf anim>",
        .xanim_version = 14,
        .xanim_header_size = 9,
        .devblock_anim_error = 1,
    },
    [ATRC_PROFILE_COD2] = {
        .name = "cod2",
        .kw_include = 1,
        .kw_debug = 1,
        .max_string_length = 8191,
        .self_field = 1,
        .atr_escape_backslash = 1,
        .default_asset_swap = 1,
        .nonleaf_anim_name = "",
        .xanim_version = 14,
        .xanim_header_size = 9,
        .xanim_lenient = 1,
    },
    [ATRC_PROFILE_COD4] = {
        .name = "cod4",
        .kw_include = 1,
        .kw_debug = 1,
        .max_string_length = 8191,
        .self_field = 1,
        .atr_additive = 1,
        .atr_escape_backslash = 1,
        .numbering_two_pass = 1,
        .default_asset_swap = 1,
        .nonleaf_anim_name = "",
        .xanim_version = 17,
        .xanim_header_size = 10,
        .xanim_has_asset_type = 1,
        .xanim_lenient = 1,
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
        if (strcmp(s, rows[i].name) == 0) {
            *out = (atrc_profile)i;
            return 0;
        }
    return -1;
}
