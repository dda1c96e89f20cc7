/* The compile-stage checks (src/check/check*.c, grammar.md section 3): every message
** at its exact position, per profile; definite assignment and constant
** folding; function resolution against complete and incomplete builtin
** lists; the summary the load walk links with; stock CoD1 content. */

#include "check_testlib.h"
#include "tmpdir_testlib.h"

/* ---------------------------------------------------------------- functions and /# #/ */

START_TEST(duplicate_functions)
{
    const char *src = "f() {}\ng() {}\nF() {}\n";
    assert_check_g1(src, "3:1: error: function already defined\n");
    assert_check_g2(src, "3:1: error: function 'F' already defined\n"); /* as written there */
    /* Retail: a function in a top-level /# #/ is not registered. */
    assert_check_all("/# f() {} #/\nf() {}\n", "");
}
END_TEST

START_TEST(devblock_recursion)
{
    assert_check_all("f() { /# /# #/ #/ }", "1:10: error: cannot recurse /#\n");
    /* Inside a function that is itself in a top-level /# #/. */
    assert_check_all("/# f() { /# #/ } #/", "1:10: error: cannot recurse /#\n");
    assert_check_all("f() { /# #/ /# #/ }", "");
}
END_TEST

/* cod2/cod4 read top-level /# and #/ as free-standing markers (an
** AST_DEVBLOCK item without children, text "/#" or "#/"). */
START_TEST(devblock_markers)
{
    const char *sx = "(file 1:1 (devblock 1:1 \"/#\") (devblock 2:1 \"/#\")"
                     " (function 3:1 \"f\" (params 3:2) (block 3:5))"
                     " (devblock 4:1 \"#/\") (devblock 5:1 \"#/\") (function 6:1 \"f\" (params 6:2) (block 6:5))"
                     " (devblock 7:1 \"/#\") (using_animtree 8:1 \"t\"))";
    const char *want = "2:1: error: cannot recurse /#\n"
                       "5:1: error: #/ has no matching /#\n"
                       "7:1: error: /# has no matching #/\n"
                       "8:1: error: cannot put #using_animtree inside /# ... #/ comment\n";
    assert_check_ast(ATRC_PROFILE_COD2, sx, want);
    assert_check_ast(ATRC_PROFILE_COD4, sx, want);
}
END_TEST

/* The parser hands a stray top-level '#/' on as such a marker (cod2/cod4):
** the game's compile error, not a syntax error; G1 has no markers. */
START_TEST(devblock_stray_close_from_source)
{
    const char *src = "#/\n#include a;\n#/\nf() {}\n#/\ng() {}\n/# h() {} #/ #/\n#/";
    assert_check_g2(src, "1:1: error: #/ has no matching /#\n"
                         "3:1: error: #/ has no matching /#\n"
                         "5:1: error: #/ has no matching /#\n"
                         "7:14: error: #/ has no matching /#\n"
                         "8:1: error: #/ has no matching /#\n");
    assert_check_g1("f() {}\n#/\ng() {}\n", "2:1: error: expected function definition before '#/'\n");
    /* Inside a function it is no marker. */
    assert_check_g2("f() { #/ }\n", "1:7: error: expected '}' before '#/'\n");
}
END_TEST

/* A file compiled on its own: the same file included twice (names
** compared as the game canonicalises them) is the later #include's error. */
START_TEST(duplicate_include_in_file_list)
{
    assert_check_g2("#include maps\\mp\\_a;\n#include maps\\mp\\_b;\n#include MAPS\\MP\\_A;\nf() {}\n",
                    "3:1: error: Duplicate #include\n");
    assert_check_g2("#include maps\\mp\\_a;\n#include maps\\mp\\_ab;\nf() {}\n", "");
}
END_TEST

/* The shipped extension tables: a name is looked up after the stock list
** (no extension name is a stock one), in any case; CoD4x removes one stock
** method and re-flags stock names. */
START_TEST(extension_tables)
{
    const builtin_extension *cod4x = NULL;
    for (size_t i = 0; i < builtin_extension_count; i++) {
        const builtin_extension *e = &builtin_extensions[i];
        atrc_profile p;
        ck_assert_int_eq(atrc_profile_parse(e->game, &p), 0);
        const profile_rules *r = profile_get(p);
        ck_assert_uint_gt(e->add->count, 0);
        for (size_t k = 0; k < e->add->count; k++) {
            const builtin_entry *x = &e->add->entries[k];
            ck_assert_msg(!builtin_find(r->builtins_mp, (builtin_kind)x->kind, x->name), "%s-%s: %s is stock",
                          e->game, e->name, x->name);
            ck_assert_ptr_eq(builtin_find(e->add, (builtin_kind)x->kind, x->name), x);
        }
        if (!strcmp(e->name, "cod4x")) cod4x = e;
    }
    ck_assert_uint_eq(builtin_extension_count, 9);
    ck_assert_ptr_nonnull(cod4x);
    const builtin_extension *items[] = {cod4x};
    builtin_set set = {items, 1, 1};
    const builtin_entry *stock = builtin_find(&builtins_cod4, BUILTIN_METHOD, "SetViewModelDepthOfField");
    ck_assert_ptr_nonnull(stock);
    ck_assert_ptr_null(builtin_set_apply(&set, BUILTIN_METHOD, "SetViewModelDepthOfField", stock));
    ck_assert_ptr_nonnull(builtin_set_apply(&set, BUILTIN_FUNCTION, "ExecEx", NULL));
    ck_assert_ptr_null(builtin_set_apply(&set, BUILTIN_METHOD, "exec", NULL)); /* a function, not a method */
    stock = builtin_find(&builtins_cod4, BUILTIN_FUNCTION, "print");
    ck_assert_int_eq(stock->dev, 1);
    ck_assert_int_eq(builtin_set_apply(&set, BUILTIN_FUNCTION, "PRINT", stock)->dev, 0);
    stock = builtin_find(&builtins_cod4, BUILTIN_METHOD, "devaddyaw");
    ck_assert_int_eq(stock->dev, 0);
    ck_assert_int_eq(builtin_set_apply(&set, BUILTIN_METHOD, "devaddyaw", stock)->dev, 1);
    ck_assert_ptr_eq(builtin_set_apply(NULL, BUILTIN_METHOD, "devaddyaw", stock), stock);
}
END_TEST

START_TEST(using_animtree_in_function)
{
    assert_check_all("#using_animtree(\"a\");\nf() { wait 1; #using_animtree(\"b\"); }\n",
                     "2:15: error: expected statement before '#using_animtree'\n");
}
END_TEST

/* ---------------------------------------------------------------- expressions */

START_TEST(vector_arity)
{
    const char *sx = "(file 1:1 (function 1:1 \"f\" (params 1:2) (block 1:5"
                     " (assign 1:9 \"=\" (ident 1:7 \"x\") (vector 1:11 (int 1:12 \"1\") (int 1:14 \"2\")))"
                     " (assign 2:9 \"=\" (ident 2:7 \"x\") (vector 2:11))"
                     " (assign 3:9 \"=\" (ident 3:7 \"x\") (vector 3:11 (int 3:12 \"1\") (int 3:14 \"2\")"
                     " (int 3:16 \"3\") (int 3:18 \"4\")))"
                     " (assign 4:9 \"=\" (ident 4:7 \"x\") (vector 4:11 (int 4:12 \"1\") (int 4:14 \"2\") (int 4:16 \"3\"))))))";
    const char *want = "1:11: error: expression list must have 1 or 3 parameters\n"
                       "2:11: error: expression list must have 1 or 3 parameters\n"
                       "3:11: error: expression list must have 1 or 3 parameters\n";
    assert_check_ast(ATRC_PROFILE_COD1, sx, want);
    assert_check_ast(ATRC_PROFILE_UO, sx, want);
    assert_check_ast(ATRC_PROFILE_COD2, sx, want);
    assert_check_ast(ATRC_PROFILE_COD4, sx, want);
}
END_TEST

START_TEST(vector_parts_not_float)
{
    const char *src = "f() { x = (\"a\", 1, 2); y = (1, undefined, 2); z = (1, -2.5, 3); w = (1, x, \"s\"); }";
    assert_check_g2(src, "1:12: error: type string is not a float\n"
                         "1:32: error: type undefined is not a float\n");
    assert_check_g1(src, "");
}
END_TEST

START_TEST(constant_folding)
{
    const char *src = "f() { a = 1 / 0; b = 5 % 0; c = \"a\" - 1; d = (1 + 1) / (2 - 2); e = \"a\" + 1; "
                      "g = 1.5 / 0.0; h = 7 / 2 + 1 % 1; }";
    assert_check_g2(src, "1:13: error: divide by 0\n"
                         "1:24: error: divide by 0\n"
                         "1:37: error: pair 'a' and '1' has unmatching types 'string' and 'int'\n"
                         "1:54: error: divide by 0\n"
                         "1:86: error: divide by 0\n");
    /* CoD1/UO fold nothing: these are run-time errors there. */
    assert_check_g1(src, "");
    /* undefined has no operator; what the runtime's rule leaves open is not judged. */
    assert_check_g2("f() { a = undefined + 1; b = \"a\" * \"b\"; c = 1.5 % 1; d = 1.5 | 1; e = (1, 2, 3) * 2; }",
                    "1:21: error: pair 'undefined' and '1' has unmatching types 'undefined' and 'int'\n"
                    "1:34: error: pair 'a' and 'b' has unmatching types 'string' and 'string'\n");
}
END_TEST

/* Folding a string concatenation longer than a string may hold (8191 bytes). */
START_TEST(concat_too_long)
{
    char *a = malloc(8001), *b = malloc(192);
    memset(a, 'A', 8000);
    a[8000] = 0;
    memset(b, 'B', 191);
    b[191] = 0;
    size_t cap = 2 * 8200 + 200;
    char *src = malloc(cap), *want = malloc(cap);
    /* line 2: exactly 8191 bytes, then one more; line 3: the same, right-nested */
    snprintf(src, cap, "f() {\n  x = \"%s\" + \"%s\" + \"c\" + \"d\";\n  y = \"c\" + (\"%s\" + \"%s\");\n}\n",
             a, b, a, b);
    int col2 = (int)(strstr(src, "+ \"c\"") - strchr(src, '\n'));
    const char *line3 = strchr(strchr(src, '\n') + 1, '\n') + 1;
    int col3 = (int)(strstr(line3, "+ (") - line3) + 1;
    snprintf(want, cap,
             "2:%d: error: cannot concat \"%s%s\" and \"c\" - max string length exceeded\n"
             "3:%d: error: cannot concat \"c\" and \"%s%s\" - max string length exceeded\n",
             col2, a, b, col3, a, b);
    assert_check_g2(src, want);
    assert_check_g1(src, "");
    free(a);
    free(b);
    free(src);
    free(want);
}
END_TEST

/* cod2/cod4 hold at most 64 locals (parameters included) per function. */
START_TEST(local_var_stack)
{
    char src[4096];
    size_t n = (size_t)snprintf(src, sizeof src, "f(p0, p1, p2, p3, p4, p5, p6, p7, p8, p9) {\n");
    for (int i = 10; i <= 64; i++) n += (size_t)snprintf(src + n, sizeof src - n, "  v%d = p%d; v%d = 1;\n", i, i % 10, i);
    snprintf(src + n, sizeof src - n, "  v10 += 1;\n}\n");
    /* v64 is the 65th: line 56 */
    assert_check_g2(src, "56:3: error: LOCAL_VAR_STACK_SIZE exceeded\n");
    assert_check_g1(src, "");
    /* 64 are fine: the same without v64 */
    char *cut = strstr(src, "  v64");
    memmove(cut, strchr(cut, '\n') + 1, strlen(strchr(cut, '\n') + 1) + 1);
    assert_check_g2(src, "");
}
END_TEST

/* 2048 arguments must be on the operand stack together: over the engine's 2047. */
START_TEST(operand_stack_size)
{
    size_t cap = 3 * 2048 + 256;
    char *src = malloc(cap);
    size_t n = (size_t)snprintf(src, cap, "g(a) {}\nf() {\n  g(0");
    for (int i = 1; i < 2048; i++) n += (size_t)snprintf(src + n, cap - n, ", %d", i % 10);
    snprintf(src + n, cap - n, ");\n}\nh(x) { g(x + x * x, (x, 1, 2), x && x); }\n");
    assert_check_all(src, "2:1: error: function exceeds operand stack size\n");
    /* Calls inside calls' arguments: 32 each beyond the first, with the
    ** operands held: 65 levels pass 2047 (1 + 32 x 64), so does 64 with one
    ** more operand held... */
    n = (size_t)snprintf(src, cap, "g(a, b) {}\nf() {\n  x = ");
    for (int i = 0; i < 65; i++) n += (size_t)snprintf(src + n, cap - n, "g(");
    n += (size_t)snprintf(src + n, cap - n, "0");
    for (int i = 0; i < 65; i++) n += (size_t)snprintf(src + n, cap - n, ")");
    n += (size_t)snprintf(src + n, cap - n, ";\n}\nh() {\n  x = g(1, ");
    for (int i = 0; i < 64; i++) n += (size_t)snprintf(src + n, cap - n, "g(");
    n += (size_t)snprintf(src + n, cap - n, "0");
    for (int i = 0; i < 64; i++) n += (size_t)snprintf(src + n, cap - n, ")");
    /* ... while 64 levels alone stay below it (1 + 32 x 63). */
    n += (size_t)snprintf(src + n, cap - n, ");\n}\nk() {\n  x = ");
    for (int i = 0; i < 64; i++) n += (size_t)snprintf(src + n, cap - n, "g(");
    n += (size_t)snprintf(src + n, cap - n, "0");
    for (int i = 0; i < 64; i++) n += (size_t)snprintf(src + n, cap - n, ")");
    snprintf(src + n, cap - n, ";\n}\n");
    assert_check_all(src, "2:1: error: function exceeds operand stack size\n"
                          "5:1: error: function exceeds operand stack size\n");
    free(src);
}
END_TEST

START_TEST(conditional_always_false)
{
    const char *src = "f() { while (0) wait 1; for (;false;) wait 1; while (1 - 1) wait 1; "
                      "if (0) wait 1; while (undefined) wait 1; while (\"\") wait 1; while (0.0) wait 1; }";
    assert_check_g2(src, "1:14: error: conditional expression cannot be always false\n"
                         "1:31: error: conditional expression cannot be always false\n"
                         "1:56: error: conditional expression cannot be always false\n"
                         "1:136: error: conditional expression cannot be always false\n");
    assert_check_g1(src, "");
}
END_TEST

START_TEST(not_an_object)
{
    const char *src = "g() {}\n"
                      "f() { game.x = 1; \"s\".x = 1; y = undefined.x; z = (1,2,3).x; w = (1 + 2).x; v = [].x; }\n"
                      "h() { self.x = 1; level.x = 1; anim.x = 1; g().x = 1; a = level.b.c; }\n";
    assert_check_all(src, "2:7: error: not an object\n"
                          "2:19: error: not an object\n"
                          "2:34: error: not an object\n"
                          "2:51: error: not an object\n"
                          "2:69: error: not an object\n"
                          "2:81: error: not an object\n");
}
END_TEST

/* G2 debugger forms (grammar.md 3.2): parsed, then refused by the compiler. */
START_TEST(debugger_forms)
{
    const char *src = "f(a) {\n"
                      "  x = $e1;\n"
                      "  $e2 = 1;\n"
                      "  y = a.self;\n"
                      "  a.self = 2;\n"
                      "  z = a breakon(y);\n"
                      "  $e3[0] = 1;\n"
                      "  a.self.f = 1;\n"
                      "  a.self++;\n"
                      "}\n";
    assert_check_g2(src, "2:7: error: $ can only be used in the script debugger\n"
                         "3:3: error: $ and self field can only be used in the script debugger\n"
                         "4:7: error: self field can only be used in the script debugger\n"
                         "5:3: error: $ and self field can only be used in the script debugger\n"
                         "6:9: error: illegal function name\n"
                         "7:3: error: $ and self field can only be used in the script debugger\n"
                         "8:3: error: self field can only be used in the script debugger\n"
                         "9:3: error: $ and self field can only be used in the script debugger\n");
    /* G1 has no such forms: `breakon` is an ordinary method name there. */
    assert_check_mode(ATRC_PROFILE_COD1, ATRC_GAME_MP, "f(a, b) { a breakon(b); }\n",
                      "1:13: error: unknown (builtin) method 'breakon': not defined in this file nor among the "
                      "cod1 multiplayer builtin methods\n");
}
END_TEST

/* A parenthesised variable is not an lvalue in cod2/cod4 (the AST keeps no
** parentheses: the source between the name and its '[' is read). */
START_TEST(element_assignment_paren)
{
    const char *src = "f(a) {\n"
                      "  (a)[0] = 1;\n"
                      "  ( /* c */ a // x\n"
                      "  )[1] = 2;\n"
                      "  (a.b)[0] = 1;\n"
                      "  ((game))[\"x\"] = 1;\n"
                      "  (a)[0][1] = 1;\n"
                      "  a /* ) */ [0] = 1;\n"
                      "  (a).b[0] = 1;\n"
                      "  (level)[0] = 1;\n"
                      "}\n";
    assert_check_g2(src, "2:4: error: not an lvalue\n"
                         "3:13: error: not an lvalue\n"
                         "5:6: error: not an lvalue\n"
                         "6:5: error: not an lvalue\n"
                         "7:4: error: not an lvalue\n"
                         "10:4: error: not an lvalue\n");
    assert_check_g1(src, "10:4: error: not an array, string, or vector\n");
}
END_TEST

START_TEST(element_assignment_base)
{
    const char *src = "g() {}\n"
                      "f() { level[\"k\"] = 1; self[0] = 1; g()[0] = 1; game[\"a\"] = 1; a[0][1] = 1; a.b[2] = 3; level[\"k\"][1] = 2; }\n";
    assert_check_g2(src, "2:7: error: not an lvalue\n"
                         "2:23: error: not an lvalue\n"
                         "2:36: error: not an lvalue\n"
                         "2:88: error: not an lvalue\n");
    /* G1 allows a call result as the base. */
    assert_check_g1(src, "2:7: error: not an array, string, or vector\n"
                         "2:23: error: not an array, string, or vector\n"
                         "2:88: error: not an array, string, or vector\n");
}
END_TEST

/* ---------------------------------------------------------------- switch, labels, jumps */

START_TEST(case_labels)
{
    const char *src = "f(a) { switch (a) { case 1: case \"x\": case 1: default: case \"x\": default: case \"X\": } }";
    assert_check_all(src, "1:39: error: duplicate case expression\n"
                          "1:56: error: duplicate case expression\n"
                          "1:66: error: duplicate case expression\n");
    const char *bad = "f(a, b) { switch (a) { case 1.5: case -1: case 8388607: case 8388608: "
                      "case &\"A\": case undefined: case b: } }";
    assert_check_all(bad, "1:24: error: case expression must be an int or string\n"
                          "1:34: error: case expression must be an int or string\n"
                          "1:57: error: case index 8388608 out of range\n"
                          "1:71: error: case expression must be an int or string\n"
                          "1:82: error: case expression must be an int or string\n"
                          "1:98: error: case expression must be an int or string\n");
    /* Parentheses make an expression of a literal (read from the source). */
    assert_check_all("f(x) { switch (x) { case (1): break; case ( \"a\" ): break; case /* ( */ 2: break;\n"
                     "case\n  ((3)): break; case 4: break; } }\n",
                     "1:21: error: case expression must be an int or string\n"
                     "1:38: error: case expression must be an int or string\n"
                     "2:1: error: case expression must be an int or string\n");
    /* A label with a bad value still starts a case. */
    assert_check_g2("f(a) { switch (a) { case 1.5: wait 1; } }",
                    "1:21: error: case expression must be an int or string\n");
    /* Not checked for a switch that lies inside /# #/. */
    assert_check_all("f(a) { /# switch (a) { case 1: case 1: } #/ }", "");
}
END_TEST

START_TEST(label_placement)
{
    /* A label in a block nested in the switch body, and one outside any switch. */
    const char *sx = "(file 1:1 (function 1:1 \"f\" (params 1:2 (ident 1:3 \"a\")) (block 1:6"
                     " (switch 1:8 (ident 1:16 \"a\") (block 1:19 (case 1:19 (int 1:19 \"0\")) (block 1:21 (case 1:23 (int 1:28 \"1\")) (default 1:31))"
                     " (devblock 3:1 (case 3:4 (int 3:9 \"2\")))))"
                     " (default 4:1))))";
    const char *g2 = "1:23: error: illegal case statement\n"
                     "1:31: error: illegal default statement\n"
                     "3:4: error: illegal case statement\n"
                     "4:1: error: illegal default statement\n";
    const char *g1 = "3:4: error: cannot use /# ... #/ comments directly around a case statement\n"
                     "4:1: error: illegal default statement\n";
    assert_check_ast(ATRC_PROFILE_COD2, sx, g2);
    assert_check_ast(ATRC_PROFILE_COD4, sx, g2);
    assert_check_ast(ATRC_PROFILE_COD1, sx, g1);
    assert_check_ast(ATRC_PROFILE_UO, sx, g1);
    /* A for-init is a block element of its own: `for (case 1: ;)`. */
    const char *init = "(file 1:1 (function 1:1 \"f\" (params 1:2) (block 1:5"
                       " (switch 1:7 (int 1:15 \"1\") (block 1:18 (case 1:20 (int 1:25 \"1\"))"
                       " (for 1:28 (case 1:33 (int 1:38 \"1\")) (empty 1:28) (empty 1:28) (empty 1:41)))))))";
    assert_check_ast(ATRC_PROFILE_COD4, init, "1:33: error: illegal case statement\n");
}
END_TEST

START_TEST(missing_case_statement)
{
    const char *src = "f(a)\n"
                      "{\n"
                      "    switch (a)\n"
                      "    {\n"
                      "        b = 1;\n"
                      "        case 1:\n"
                      "            break;\n"
                      "    }\n"
                      "    // } in a comment and \"}\" in a string do not close it\n"
                      "    c = \"}\";\n"
                      "  }\n"
                      "g(a)\n"
                      "{\n"
                      "    switch (a) { case 1: break; { wait 1; } case 2: if (a) return; else return; wait 2; }\n"
                      "}\n"
                      "h(a) { while (1) { switch (a) { wait 1; } wait 1; } }\n";
    assert_check_g2(src, "1:1: error: missing case statement\n"
                         "11:3: error: missing case statement\n"
                         "15:1: error: missing case statement\n");
    assert_check_g1(src, "");
}
END_TEST

START_TEST(break_continue)
{
    const char *src = "f() { break; continue; while (1) { switch (1) { case 1: continue; } break; } }";
    assert_check_all(src, "1:7: error: illegal break statement\n"
                          "1:14: error: illegal continue statement\n");
    /* cod2/cod4: a jump after a leave of the same list; plain blocks share it. */
    const char *after = "f(a) { while (1) { return; break; } while (1) { break; { continue; } } "
                        "switch (a) { case 1: break; case 2: break; } }";
    assert_check_g2(after, "1:28: error: illegal break statement\n"
                           "1:58: error: illegal continue statement\n");
    assert_check_g1(after, "");
    const char *dev = "f() { while (1) { /# break; #/ /# continue; #/ /# while (1) { break; } #/ } }";
    assert_check_g1(dev, "1:22: error: cannot use /# ... #/ comments directly around a break statement\n"
                         "1:35: error: cannot use /# ... #/ comments directly around a continue statement\n");
    assert_check_g2(dev, "");
}
END_TEST

START_TEST(developer_block_restrictions)
{
    const char *src = "f() { /# wait 1; self waittill(\"a\"); self waittillmatch(\"a\", \"b\"); #/ wait 1; }\n"
                      "/# g() { wait 2; } #/\n";
    assert_check_g1(src, "1:10: error: wait not allowed in /# ... #/ comment\n"
                         "1:23: error: waittill not allowed in developer script\n"
                         "1:43: error: waittillmatch not allowed in developer script\n"
                         "2:10: error: wait not allowed in /# ... #/ comment\n");
    assert_check_g2(src, "");
    /* Only what is inside the block: not what follows it or its parents. */
    const char *nested = "f() { if (1) { /# if (2) { self waittill(\"a\"); } #/ } self waittill(\"b\"); "
                         "/# x = 1; #/ self waittill(\"c\"); }\n";
    assert_check_g1(nested, "1:33: error: waittill not allowed in developer script\n");
}
END_TEST

/* ---------------------------------------------------------------- definite assignment (3.3) */

START_TEST(definite_assignment)
{
    const char *src = "use(v) {}\n"
                      "f(p)\n"
                      "{\n"
                      "    if (p) x = 1;\n"
                      "    use(x); use(x);\n"
                      "    switch (p) { case 1: y = 1; break; }\n"
                      "    use(y);\n"
                      "    z.f = 1;\n"
                      "    count++;\n"
                      "    w += 1;\n"
                      "    /# d = 1; #/\n"
                      "    use(d);\n"
                      "    self q();\n"
                      "}\n"
                      "q()\n"
                      "{\n"
                      "    self waittill(\"e\", a, b);\n"
                      "    use(a + b);\n"
                      "    arr[0][1] = 1; use(arr);\n"
                      "    if (a) k = 1; else k = 2; use(k);\n"
                      "    while (1) { m = 1; if (a) break; m = 2; break; } use(m);\n"
                      "    for (i = 0; i < 3; i++) { j = i; } use(i);\n"
                      "    switch (a) { case 1: s = 1; break; default: s = 2; } use(s);\n"
                      "    if (a) { t = 1; return; } else t = 2; use(t);\n"
                      "    for (;;) { u = 1; break; } use(u);\n"
                      "}\n";
    assert_check_g2(src, "5:9: error: uninitialised variable 'x'\n"
                         "7:9: error: uninitialised variable 'y'\n"
                         "8:5: error: uninitialised variable 'z'\n"
                         "9:5: error: uninitialised variable 'count'\n"
                         "10:5: error: uninitialised variable 'w'\n"
                         "12:9: error: uninitialised variable 'd'\n");
    /* CoD1/UO look locals up at run time. */
    assert_check_g1(src, "");
}
END_TEST

START_TEST(definite_assignment_joins)
{
    /* Without default nothing assigned in the switch counts after it; a loop
    ** with a condition may run zero times. */
    const char *src = "use(v) {}\n"
                      "f(p)\n"
                      "{\n"
                      "    switch (p) { case 1: a = 1; break; case 2: a = 2; break; }\n"
                      "    while (p) { b = 1; }\n"
                      "    switch (p) { case 1: c = 1; break; default: break; }\n"
                      "    use(a); use(b); use(c);\n"
                      "}\n";
    assert_check_g2(src, "7:9: error: uninitialised variable 'a'\n"
                         "7:17: error: uninitialised variable 'b'\n"
                         "7:25: error: uninitialised variable 'c'\n");
}
END_TEST

START_TEST(unreachable_code)
{
    const char *src = "f() { return; x = 1; }\n"
                      "g() { y = 1; return; y = 2; }\n"
                      "h() { return; z++; }\n"
                      "i(a) { if (a) return; else return; w = 1; }\n";
    assert_check_g2(src, "1:15: error: unreachable code\n"
                         "3:15: error: uninitialised variable 'z'\n"
                         "4:36: error: unreachable code\n");
    assert_check_g1(src, "");
}
END_TEST

/* ---------------------------------------------------------------- function resolution (3.5) */

START_TEST(resolution_cod1)
{
    const char *src = "f() { foo(); self bar(); thread baz(); x = ::qux; isdefined(x); self setmodel(\"m\"); "
                      "getaiarray(); self waittill(\"a\"); g(); self thread g(); }\ng() {}\n";
    /* Multiplayer: the table is complete, so the game's errors (with the
    ** name and the list looked in). */
    const char *errors = "1:7: error: unknown (builtin) function 'foo': not defined in this file nor among the %s "
                         "multiplayer builtins\n"
                         "1:19: error: unknown (builtin) method 'bar': not defined in this file nor among the %s "
                         "multiplayer builtin methods\n"
                         "1:33: error: unknown function 'baz': not defined in this file\n"
                         "1:44: error: unknown function 'qux': not defined in this file\n"
                         "1:85: error: unknown (builtin) function 'getaiarray': not defined in this file nor among "
                         "the %s multiplayer builtins\n";
    char want[2048];
    snprintf(want, sizeof want, errors, "cod1", "cod1", "cod1");
    assert_check_mode(ATRC_PROFILE_COD1, ATRC_GAME_MP, src, want);
    snprintf(want, sizeof want, errors, "uo", "uo", "uo");
    assert_check_mode(ATRC_PROFILE_UO, ATRC_GAME_MP, src, want);
    /* Single player and file lists: warnings for builtin candidates;
    ** `thread` and `::` references are script functions, still errors. */
    const char *warn = "1:7: warning: 'foo' is not defined in this file and is not a known cod1 builtin function; "
                       "it may still be a single-player builtin (atrc has the cod1 multiplayer table and the "
                       "single-player names stock scripts use, not the single-player table)\n"
                       "1:19: warning: 'bar' is not defined in this file and is not a known cod1 builtin method; "
                       "it may still be a single-player builtin (atrc has the cod1 multiplayer table and the "
                       "single-player names stock scripts use, not the single-player table)\n"
                       "1:33: error: unknown function 'baz': not defined in this file\n"
                       "1:44: error: unknown function 'qux': not defined in this file\n";
    assert_check_mode(ATRC_PROFILE_COD1, ATRC_GAME_SP, src, warn);
    assert_check_mode(ATRC_PROFILE_COD1, ATRC_GAME_FILES, src, warn);
}
END_TEST

START_TEST(resolution_cod2_cod4)
{
    const char *src = "f() { foo(); self thread baz(); getaiarray(); self setmodel(\"m\"); prof_begin(\"x\"); }\n";
    assert_check_mode(ATRC_PROFILE_COD4, ATRC_GAME_MP, src,
                      "1:7: error: unknown function 'foo': not defined in this file nor among the cod4 multiplayer "
                      "builtins\n"
                      "1:26: error: unknown function 'baz': not defined in this file\n"
                      "1:33: error: unknown function 'getaiarray': not defined in this file nor among the cod4 "
                      "multiplayer builtins\n");
    /* CoD4 single player has a complete table, and file lists use the union. */
    assert_check_mode(ATRC_PROFILE_COD4, ATRC_GAME_SP, src,
                      "1:7: error: unknown function 'foo': not defined in this file nor among the cod4 "
                      "single-player builtins\n"
                      "1:26: error: unknown function 'baz': not defined in this file\n");
    assert_check_mode(ATRC_PROFILE_COD4, ATRC_GAME_FILES, src,
                      "1:7: error: unknown function 'foo': not defined in this file nor among the cod4 multiplayer "
                      "and single-player builtins\n"
                      "1:26: error: unknown function 'baz': not defined in this file\n");
    assert_check_mode(ATRC_PROFILE_COD2, ATRC_GAME_FILES, src,
                      "1:7: warning: 'foo' is not defined in this file or an included one and is not a known "
                      "cod2 builtin function; it may still be a single-player builtin (atrc has the cod2 "
                      "multiplayer table and the single-player names stock scripts use, not the "
                      "single-player table)\n"
                      "1:26: error: unknown function 'baz': not defined in this file\n");
    /* With an #include the included file may provide them: left to linking. */
    assert_check_mode(ATRC_PROFILE_COD4, ATRC_GAME_MP, "#include a\\b;\n" "f() { foo(); thread bar(); }\n", "");
    /* References in retail /# #/ are not recorded (G2); CoD1/UO still look builtins up. */
    const char *dev = "f() { /# foo(); thread bar(); #/ }\n";
    assert_check_mode(ATRC_PROFILE_COD4, ATRC_GAME_MP, dev, "");
    assert_check_mode(ATRC_PROFILE_COD1, ATRC_GAME_MP, dev,
                      "1:10: error: unknown (builtin) function 'foo': not defined in this file nor among the cod1 "
                      "multiplayer builtins\n");
    /* A function of a top-level /# #/ exists for /# #/ code only: the
    ** message says where it is and what makes the game compile it. */
    const char *devfn = "/# dbg() {} #/\nf() { dbg(); /# dbg(); #/ }\n";
    const char *devfn_error = "2:7: error: unknown function 'dbg': defined only inside /# ... #/ (line 1), which the "
                              "game does not compile unless developer_script is set (--developer-script)\n";
    assert_check_mode(ATRC_PROFILE_COD1, ATRC_GAME_MP, devfn, devfn_error);
    assert_check_mode(ATRC_PROFILE_COD2, ATRC_GAME_MP, devfn, devfn_error);
}
END_TEST

/* With developer_script set, /# #/ code is compiled (grammar.md 3.1, 3.5). */
START_TEST(developer_script_dvar)
{
    const char *dup = "/# f() {} #/\nf() {}\n";
    assert_check_mode(ATRC_PROFILE_COD1, ATRC_GAME_MP, dup, "");
    assert_check_mode(ATRC_PROFILE_COD4, ATRC_GAME_MP, dup, "");
    assert_check_devscript(ATRC_PROFILE_COD1, dup, "2:1: error: function already defined\n");
    assert_check_devscript(ATRC_PROFILE_UO, dup, "2:1: error: function already defined\n");
    assert_check_devscript(ATRC_PROFILE_COD2, dup, "2:1: error: function 'f' already defined\n");
    assert_check_devscript(ATRC_PROFILE_COD4, dup, "2:1: error: function 'f' already defined\n");

    const char *ref = "/# dbg() {} #/\ng() { dbg(); thread dbg(); x = ::dbg; /# dbg(); #/ }\n";
    const char *g1 = "2:7: error: normal script cannot reference /# ... #/ comment\n"
                     "2:21: error: normal script cannot reference /# ... #/ comment\n"
                     "2:32: error: normal script cannot reference /# ... #/ comment\n";
    const char *g2 = "2:7: error: normal script cannot reference a function in a /# ... #/ comment\n"
                     "2:21: error: normal script cannot reference a function in a /# ... #/ comment\n"
                     "2:32: error: normal script cannot reference a function in a /# ... #/ comment\n";
    assert_check_devscript(ATRC_PROFILE_COD1, ref, g1);
    assert_check_devscript(ATRC_PROFILE_UO, ref, g1);
    assert_check_devscript(ATRC_PROFILE_COD2, ref, g2);
    assert_check_devscript(ATRC_PROFILE_COD4, ref, g2);

    /* Script references inside /# #/ are now recorded; duplicate labels of a
    ** switch there are checked. */
    const char *inside = "f(x) { /# thread nosuch(); switch (x) { case 1: break; case 1: break; } #/ }\n";
    assert_check_mode(ATRC_PROFILE_COD2, ATRC_GAME_MP, inside, "");
    assert_check_mode(ATRC_PROFILE_COD1, ATRC_GAME_MP, inside, "");
    const char *both = "1:18: error: unknown function 'nosuch': not defined in this file\n"
                       "1:56: error: duplicate case expression\n";
    assert_check_devscript(ATRC_PROFILE_COD2, inside, both);
    assert_check_devscript(ATRC_PROFILE_COD1, inside, both);
}
END_TEST

START_TEST(developer_builtins)
{
    const char *src = "f() { x = println(\"a\"); println(\"b\"); /# y = println(\"c\"); #/ }";
    assert_check_mode(ATRC_PROFILE_COD1, ATRC_GAME_MP, src,
                      "1:11: error: developer command can only be used as a statement if not in a /# ... #/ comment\n");
    assert_check_mode(ATRC_PROFILE_UO, ATRC_GAME_MP, src,
                      "1:11: error: developer command can only be used as a statement if not in a /# ... #/ comment\n");
    const char *g2 = "1:11: error: return value of developer command can not be accessed if not in a /# ... #/ comment\n";
    assert_check_mode(ATRC_PROFILE_COD2, ATRC_GAME_MP, src, g2);
    assert_check_mode(ATRC_PROFILE_COD4, ATRC_GAME_MP, src, g2);
    /* A script function of that name is not the builtin. */
    assert_check_mode(ATRC_PROFILE_COD4, ATRC_GAME_MP, "f() { x = println(\"a\"); }\nprintln(s) { return s; }\n", "");
}
END_TEST

/* A developer builtin's value inside the arguments (or object) of a
** developer builtin statement: the engine drops the statement whole, so
** cod2/cod4 accept it (stock CoD4 animscripts/utility.gsc:1187); inside a
** statement that is not a developer builtin, or in cod1/uo, it is the error. */
START_TEST(developer_builtin_inside_developer_statement)
{
    const char *stock = "f(s)\n{\n\tprint3d( ( self GetDebugEye() ) + ( 0, 0, 8 ), s, ( 1, 1, 1 ), 1, 0.2 );\n"
                        "\tprint3d( g( self getdebugeye() ), s );\n}\ng(a) { return a; }\n";
    assert_check_mode(ATRC_PROFILE_COD4, ATRC_GAME_SP, stock, "");
    const char *plain = "f(s)\n{\n\tself setorigin( self getdebugeye() );\n\tg( self getdebugeye() );\n"
                        "\tprint3d( s, s );\n\tx = print3d( self getdebugeye(), s );\n}\ng(a) { return a; }\n";
    assert_check_mode(ATRC_PROFILE_COD4, ATRC_GAME_SP, plain,
                      "3:23: error: return value of developer command can not be accessed if not in a /# ... #/ comment\n"
                      "4:10: error: return value of developer command can not be accessed if not in a /# ... #/ comment\n"
                      "6:6: error: return value of developer command can not be accessed if not in a /# ... #/ comment\n"
                      "6:20: error: return value of developer command can not be accessed if not in a /# ... #/ comment\n");
    const char *g2 = "f(s) { println( println( s ) ); }\n";
    assert_check_mode(ATRC_PROFILE_COD2, ATRC_GAME_MP, g2, "");
    assert_check_mode(ATRC_PROFILE_COD1, ATRC_GAME_MP, g2,
                      "1:17: error: developer command can only be used as a statement if not in a /# ... #/ comment\n");
}
END_TEST

START_TEST(builtin_parameter_count)
{
    char src[4096];
    size_t n = (size_t)snprintf(src, sizeof src, "f() { print(0");
    for (int i = 1; i < 256; i++) n += (size_t)snprintf(src + n, sizeof src - n, ",0");
    snprintf(src + n, sizeof src - n, "); print(1); }");
    assert_check(ATRC_PROFILE_COD1, src, "1:7: error: parameter count exceeds 256\n");
    assert_check(ATRC_PROFILE_UO, src, "1:7: error: parameter count exceeds 256\n");
    assert_check(ATRC_PROFILE_COD2, src, "1:7: error: parameter count exceeds 256\n");
    assert_check(ATRC_PROFILE_COD4, src, "1:7: error: parameter count exceeds 256\n");
}
END_TEST

START_TEST(builtin_tables)
{
    /* Case-insensitive, separate namespaces, every list present. */
    ck_assert_ptr_nonnull(builtin_find(&builtins_cod1, BUILTIN_FUNCTION, "IsDefined"));
    ck_assert_ptr_null(builtin_find(&builtins_cod1, BUILTIN_METHOD, "isdefined"));
    ck_assert_ptr_nonnull(builtin_find(&builtins_cod2, BUILTIN_METHOD, "iprintln"));
    ck_assert_ptr_nonnull(builtin_find(&builtins_cod2, BUILTIN_FUNCTION, "iprintln"));
    const builtin_entry *e = builtin_find(&builtins_uo, BUILTIN_FUNCTION, "assert");
    ck_assert_ptr_nonnull(e);
    ck_assert_int_eq(e->dev, 1);
    ck_assert_ptr_null(builtin_find(&builtins_cod4, BUILTIN_FUNCTION, "pow"));
    const builtin_list *all[] = {&builtins_cod1, &builtins_cod1_sp_observed, &builtins_uo,
                                 &builtins_uo_sp_observed, &builtins_cod2, &builtins_cod2_sp_observed,
                                 &builtins_cod4, &builtins_cod4_sp};
    /* Counts from the headers of spec/builtins (functions + methods). */
    const size_t counts[] = {106 + 118, 34 + 133, 119 + 172, 34 + 116, 145 + 148, 53 + 163, 204 + 230, 257 + 451};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        ck_assert_uint_eq(all[i]->count, counts[i]);
        for (size_t k = 0; k < all[i]->count; k++)
            ck_assert_ptr_eq(builtin_find(all[i], all[i]->entries[k].kind, all[i]->entries[k].name),
                             &all[i]->entries[k]);
    }
}
END_TEST

/* The summary the load walk links files with, and the report after linking. */
START_TEST(file_summary)
{
    const char *text = "#include maps\\mp\\_utility;\n"
                       "f() { foo(); self thread bar(); maps\\x::g(); y = maps\\z::h; /# maps\\w::i(); #/ }\n"
                       "G() {}\n";
    source_file *src = source_from_buffer("t.gsc", text, strlen(text));
    diag_list d;
    diag_init(&d);
    atrc_options opts;
    memset(&opts, 0, sizeof opts);
    opts.profile = ATRC_PROFILE_COD2;
    arena scratch;
    arena_init(&scratch);
    check_state *st = check_begin(src, profile_get(opts.profile), &opts, &d);
    script_parse_each(src, profile_get(opts.profile), &scratch, &d, check_testlib_item, st);
    check_file_result r;
    check_end(st, &r);
    ck_assert_uint_eq(d.count, 0);
    ck_assert_uint_eq(r.defined_count, 2);
    ck_assert(!strcmp(r.defined[0], "f") || !strcmp(r.defined[1], "f"));
    ck_assert(!strcmp(r.defined[0], "g") || !strcmp(r.defined[1], "g"));
    ck_assert_uint_eq(r.include_count, 1);
    ck_assert_str_eq(r.includes[0].path, "maps\\mp\\_utility");
    ck_assert_int_eq(r.includes[0].line, 1);
    ck_assert_uint_eq(r.scoped_count, 2);
    ck_assert_str_eq(r.scoped[0].path, "maps\\x");
    ck_assert_str_eq(r.scoped[0].name, "g");
    ck_assert_int_eq(r.scoped[0].col, 33);
    ck_assert_str_eq(r.scoped[1].path, "maps\\z");
    ck_assert_str_eq(r.scoped[1].name, "h");
    ck_assert_uint_eq(r.unresolved_count, 2);
    ck_assert_str_eq(r.unresolved[0].name, "foo");
    ck_assert_int_eq(r.unresolved[0].certain, 0); /* cod2 file list: the SP table is unknown */
    ck_assert_str_eq(r.unresolved[1].name, "bar");
    ck_assert_int_eq(r.unresolved[1].certain, 1);
    check_report_unknown(&d, src, profile_get(opts.profile), &opts, &r.unresolved[1]);
    char *got = gsc_diag_text(&d);
    ck_assert_str_eq(got, "2:26: error: unknown function 'bar': not defined in this file\n");
    free(got);
    check_result_free(&r);
    arena_free_all(&scratch);
    diag_free(&d);
    source_free(src);
}
END_TEST

START_TEST(diagnostics_in_source_order)
{
    /* The resolution happens at the end of the file; the file's diagnostics
    ** are still in source order. */
    assert_check_mode(ATRC_PROFILE_COD1, ATRC_GAME_MP, "f() { foo(); }\nf() { x = ; }\n",
                      "1:7: error: unknown (builtin) function 'foo': not defined in this file nor among the cod1 "
                      "multiplayer builtins\n"
                      "2:1: error: function already defined\n"
                      "2:11: error: expected expression before ';'\n");
}
END_TEST

START_TEST(deep_expressions)
{
    /* A 200,000-term chain: the expression walk is iterative. */
    size_t terms = 200000;
    char *src = malloc(terms * 2 + 64);
    size_t n = (size_t)sprintf(src, "f(a) { x = a");
    for (size_t i = 1; i < terms; i++) {
        src[n++] = '+';
        src[n++] = 'a';
    }
    strcpy(src + n, " + b; }");
    char *got = check_run(ATRC_PROFILE_COD4, ATRC_GAME_MP, src);
    char want[64];
    snprintf(want, sizeof want, "1:%zu: error: uninitialised variable 'b'\n", n + 4);
    ck_assert_str_eq(got, want);
    free(got);
    free(src);
}
END_TEST

START_TEST(deep_statements)
{
    /* An else-if ladder nests statements without braces: past the bound the
    ** checks say once that they skip the rest (the parser bounds the depth). */
    size_t rungs = 2100;
    char *src = malloc(rungs * 40 + 64);
    size_t n = (size_t)sprintf(src, "f(a) { if (a) x = 1;");
    for (size_t i = 0; i < rungs; i++) n += (size_t)sprintf(src + n, " else if (a == %zu) x = 1;", i);
    strcpy(src + n, " }");
    char *got = check_run(ATRC_PROFILE_COD4, ATRC_GAME_MP, src);
    /* The body is depth 1, the first `if` 2, rung k's `if` k + 3 and its
    ** `x = 1` k + 4: the first statement past 2000 is rung 1997's assignment,
    ** located at its '=' (4 bytes before rung 1998's " else"). */
    const char *at = strstr(src, " else if (a == 1998)");
    ck_assert_ptr_nonnull(at);
    char want[160];
    snprintf(want, sizeof want,
             "1:%d: warning: statements nested deeper than 2000: the compile-stage checks skip what is inside\n",
             (int)(at - src) - 3);
    ck_assert_str_eq(got, want);
    free(got);
    free(src);
}
END_TEST

/* ---------------------------------------------------------------- stock content */

/* Every stock CoD1 script (../shared/corpus/cod1-game, read in place; skipped
** when absent): no diagnostic from the checks under cod1, in single player
** (the observed names cover what the stock scripts call) and as a file list. */
START_TEST(stock_cod1_scripts)
{
    const char *root = getenv("ATRC_COD1_GAME") ? getenv("ATRC_COD1_GAME") : "../shared/corpus/cod1-game";
    test_paths files = {0};
    collect_scripts(root, &files);
    size_t n = files.count;
    if (n == 0) {
        fprintf(stderr, "stock_cod1_scripts: %s not found, skipped\n", root);
        return;
    }
    ck_assert_uint_ge(n, 800);
    for (int mode = ATRC_GAME_FILES; mode <= ATRC_GAME_SP; mode += ATRC_GAME_SP - ATRC_GAME_FILES) {
        diag_list checks, syntax;
        diag_init(&checks);
        diag_init(&syntax);
        atrc_options opts;
        memset(&opts, 0, sizeof opts);
        opts.profile = ATRC_PROFILE_COD1;
        opts.game_mode = (atrc_game_mode)mode;
        for (size_t i = 0; i < n; i++) {
            const char *why;
            source_file *src = source_read(files.items[i], &why);
            ck_assert_ptr_nonnull(src);
            arena scratch;
            arena_init(&scratch);
            check_state *st = check_begin(src, profile_get(opts.profile), &opts, &checks);
            script_parse_each(src, profile_get(opts.profile), &scratch, &syntax, check_testlib_item, st);
            check_end(st, NULL);
            arena_free_all(&scratch);
            if (checks.count) {
                fprintf(stderr, "stock_cod1_scripts: ");
                diag_print(&checks, NULL, stderr);
            }
            ck_assert_uint_eq(checks.count, 0);
            source_free(src);
        }
        diag_free(&checks);
        diag_free(&syntax);
    }
    for (size_t i = 0; i < n; i++) free(files.items[i]);
    VEC_FREE(files);
}
END_TEST

Suite *make_check_suite(void)
{
    Suite *s = suite_create("check");
    TCase *tc = tcase_create("errors");
    tcase_add_test(tc, duplicate_functions);
    tcase_add_test(tc, devblock_recursion);
    tcase_add_test(tc, devblock_markers);
    tcase_add_test(tc, extension_tables);
    tcase_add_test(tc, duplicate_include_in_file_list);
    tcase_add_test(tc, devblock_stray_close_from_source);
    tcase_add_test(tc, developer_builtin_inside_developer_statement);
    tcase_add_test(tc, using_animtree_in_function);
    tcase_add_test(tc, vector_arity);
    tcase_add_test(tc, vector_parts_not_float);
    tcase_add_test(tc, constant_folding);
    tcase_add_test(tc, concat_too_long);
    tcase_add_test(tc, local_var_stack);
    tcase_add_test(tc, operand_stack_size);
    tcase_add_test(tc, conditional_always_false);
    tcase_add_test(tc, not_an_object);
    tcase_add_test(tc, debugger_forms);
    tcase_add_test(tc, element_assignment_base);
    tcase_add_test(tc, element_assignment_paren);
    tcase_add_test(tc, case_labels);
    tcase_add_test(tc, label_placement);
    tcase_add_test(tc, missing_case_statement);
    tcase_add_test(tc, break_continue);
    tcase_add_test(tc, developer_block_restrictions);
    tcase_add_test(tc, diagnostics_in_source_order);
    suite_add_tcase(s, tc);
    tc = tcase_create("definite_assignment");
    tcase_add_test(tc, definite_assignment);
    tcase_add_test(tc, definite_assignment_joins);
    tcase_add_test(tc, unreachable_code);
    tcase_add_test(tc, deep_expressions);
    tcase_add_test(tc, deep_statements);
    suite_add_tcase(s, tc);
    tc = tcase_create("resolution");
    tcase_add_test(tc, resolution_cod1);
    tcase_add_test(tc, resolution_cod2_cod4);
    tcase_add_test(tc, developer_builtins);
    tcase_add_test(tc, developer_script_dvar);
    tcase_add_test(tc, builtin_parameter_count);
    tcase_add_test(tc, builtin_tables);
    tcase_add_test(tc, file_summary);
    suite_add_tcase(s, tc);
    tc = tcase_create("stock");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, stock_cod1_scripts);
    suite_add_tcase(s, tc);
    return s;
}
