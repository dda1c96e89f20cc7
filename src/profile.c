/* The profile table: one row per engine dialect.  ORDER: atrc_profile in
** include/atrc.h. */
#include "profile.h"

#include <string.h>

static const profile_rules rows[] = {
    [ATRC_PROFILE_UO] = {
        .name = "uo",
        .tree_missing_is_warning = 1,
        .sync_error_names_leaf = 1,
        .nonleaf_anim_name = "<non-leaf anim>",
        .xanim_version = 14,
        .xanim_header_size = 9,
        .devblock_anim_error = 1,
        .labels_nested_in_switch = 1,
        .devblock_restrictions = 1,
        .index_base_call_ok = 1,
        .msg_index_base = "not an array, string, or vector",
        .msg_dev_builtin_value = "developer command can only be used as a statement if not in a /# ... #/ comment",
        .unknown_builtin_at_compile = 1,
        .builtins_mp = &builtins_uo,
        .builtins_sp = &builtins_uo_sp_observed,
    },
    [ATRC_PROFILE_COD1] = {
        .name = "cod1",
        .tree_missing_is_warning = 1,
        .sync_error_names_leaf = 1,
        .nonleaf_anim_name = "<non-leaf anim>",
        .xanim_version = 14,
        .xanim_header_size = 9,
        .devblock_anim_error = 1,
        .labels_nested_in_switch = 1,
        .devblock_restrictions = 1,
        .index_base_call_ok = 1,
        .msg_index_base = "not an array, string, or vector",
        .msg_dev_builtin_value = "developer command can only be used as a statement if not in a /# ... #/ comment",
        .unknown_builtin_at_compile = 1,
        .builtins_mp = &builtins_cod1,
        .builtins_sp = &builtins_cod1_sp_observed,
    },
    [ATRC_PROFILE_COD2] = {
        .name = "cod2",
        .atr_escape_backslash = 1,
        .default_asset_swap = 1,
        .nonleaf_anim_name = "",
        .xanim_version = 14,
        .xanim_header_size = 9,
        .xanim_lenient = 1,
        .dup_function_names_it = 1,
        .devblock_toplevel_markers = 1,
        .jump_after_leave_illegal = 1,
        .missing_case_statement = 1,
        .constant_folding = 1,
        .definite_assignment = 1,
        .msg_index_base = "not an lvalue",
        .msg_dev_builtin_value = "return value of developer command can not be accessed if not in a /# ... #/ comment",
        .includes_define_functions = 1,
        .prof_are_keywords = 1,
        .builtins_mp = &builtins_cod2,
        .builtins_sp = &builtins_cod2_sp_observed,
    },
    [ATRC_PROFILE_COD4] = {
        .name = "cod4",
        .atr_additive = 1,
        .atr_escape_backslash = 1,
        .numbering_two_pass = 1,
        .default_asset_swap = 1,
        .nonleaf_anim_name = "",
        .xanim_version = 17,
        .xanim_header_size = 10,
        .xanim_has_asset_type = 1,
        .xanim_lenient = 1,
        .dup_function_names_it = 1,
        .devblock_toplevel_markers = 1,
        .jump_after_leave_illegal = 1,
        .missing_case_statement = 1,
        .constant_folding = 1,
        .definite_assignment = 1,
        .msg_index_base = "not an lvalue",
        .msg_dev_builtin_value = "return value of developer command can not be accessed if not in a /# ... #/ comment",
        .includes_define_functions = 1,
        .prof_are_keywords = 1,
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
        if (strcmp(s, rows[i].name) == 0) {
            *out = (atrc_profile)i;
            return 0;
        }
    return -1;
}
