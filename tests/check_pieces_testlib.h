/* The compile-stage checks as script_parse_stream's callbacks: each item
** whole to check_item, a function in pieces to check_function_*.  Shared by
** the check tests (check_testlib.h) and the script fuzz harness. */
#ifndef CHECK_PIECES_TESTLIB_H
#define CHECK_PIECES_TESTLIB_H
#include "check/check_stage.h"
#include "script/script_parse.h"

static inline void check_testlib_item(void *ud, ast_node *item, int anim_syntax)
{
    (void)anim_syntax;
    check_item(ud, item);
}

static inline void check_testlib_function(void *ud, int event, const ast_node *n, int anim_syntax)
{
    (void)anim_syntax;
    if (event == SCRIPT_FN_BEGIN) check_function_begin(ud, n);
    else if (event == SCRIPT_FN_STMTS) check_function_stmts(ud, n);
    else check_function_end(ud, n, event == SCRIPT_FN_END);
}
#endif
