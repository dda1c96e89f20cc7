/* The Lemon grammar: an AST dump for each construct, every syntax
** diagnostic with its exact position, recovery, and hostile input. */
#include "gsc_testlib.h"
#include "script/lexer.h"
#include "script/parse_ctx.h"
#include "script/syntax_recovery.h"

/* ---- AST for each construct ---- */

START_TEST(file_level)
{
    assert_shape_p(ATRC_PROFILE_COD2, "#include maps\\_utility;\n#using_animtree(\"generic_human\");\nf(a, b) { }\ng() { }",
                   "(file\n"
                   "  (include \"maps\\\\_utility\")\n"
                   "  (using_animtree \"generic_human\")\n"
                   "  (function \"f\"\n"
                   "    (params\n"
                   "      (ident \"a\")\n"
                   "      (ident \"b\"))\n"
                   "    (block))\n"
                   "  (function \"g\"\n"
                   "    (params)\n"
                   "    (block)))\n");
}
END_TEST

START_TEST(statements)
{
    assert_shape_p(ATRC_PROFILE_UO, "f() { { } ; if (a) b(); else if (c) d(); else { } while (x) wait 0.05; for (;;) break; for (i = 0; i < n; i++) continue; }",
                   "(file\n"
                   "  (function \"f\"\n"
                   "    (params)\n"
                   "    (block\n"
                   "      (block)\n"
                   "      (empty)\n"
                   "      (if\n"
                   "        (ident \"a\")\n"
                   "        (expr_stmt\n"
                   "          (call\n"
                   "            (ident \"b\")\n"
                   "            (args)))\n"
                   "        (if\n"
                   "          (ident \"c\")\n"
                   "          (expr_stmt\n"
                   "            (call\n"
                   "              (ident \"d\")\n"
                   "              (args)))\n"
                   "          (block)))\n"
                   "      (while\n"
                   "        (ident \"x\")\n"
                   "        (wait\n"
                   "          (float \"0.05\")))\n"
                   "      (for\n"
                   "        (empty)\n"
                   "        (empty)\n"
                   "        (empty)\n"
                   "        (break))\n"
                   "      (for\n"
                   "        (assign \"=\"\n"
                   "          (ident \"i\")\n"
                   "          (int \"0\"))\n"
                   "        (binary \"<\"\n"
                   "          (ident \"i\")\n"
                   "          (ident \"n\"))\n"
                   "        (incdec \"++\"\n"
                   "          (ident \"i\"))\n"
                   "        (continue)))))\n");
}
END_TEST

START_TEST(switch_return_dev)
{
    assert_shape_p(ATRC_PROFILE_COD2, "f() { switch (x) { case 1: case \"a\": y(); break; default: return; } return x; waittillframeend; /# z(); #/ }",
                   "(file\n"
                   "  (function \"f\"\n"
                   "    (params)\n"
                   "    (block\n"
                   "      (switch\n"
                   "        (ident \"x\")\n"
                   "        (block\n"
                   "          (case\n"
                   "            (int \"1\"))\n"
                   "          (case\n"
                   "            (string \"a\"))\n"
                   "          (expr_stmt\n"
                   "            (call\n"
                   "              (ident \"y\")\n"
                   "              (args)))\n"
                   "          (break)\n"
                   "          (default)\n"
                   "          (return)))\n"
                   "      (return\n"
                   "        (ident \"x\"))\n"
                   "      (waittillframeend)\n"
                   "      (devblock\n"
                   "        (expr_stmt\n"
                   "          (call\n"
                   "            (ident \"z\")\n"
                   "            (args)))))))\n");
}
END_TEST

START_TEST(breakpoint_statement)
{
    /* G2 debugger stop; `breakpoint` is a keyword there, as `wait` is. */
    assert_shape_p(ATRC_PROFILE_COD2, "f() { breakpoint; }",
                   "(file\n"
                   "  (function \"f\"\n"
                   "    (params)\n"
                   "    (block\n"
                   "      (breakpoint))))\n");
}
END_TEST

START_TEST(precedence)
{
    assert_shape_p(ATRC_PROFILE_UO, "f() { x = a || b && c | d ^ e & f == g < h << i + j * k; y = -1 * !b - ~c % d; z = (a + b) * c; x = a - b - c; }",
                   "(file\n"
                   "  (function \"f\"\n"
                   "    (params)\n"
                   "    (block\n"
                   "      (assign \"=\"\n"
                   "        (ident \"x\")\n"
                   "        (binary \"||\"\n"
                   "          (ident \"a\")\n"
                   "          (binary \"&&\"\n"
                   "            (ident \"b\")\n"
                   "            (binary \"|\"\n"
                   "              (ident \"c\")\n"
                   "              (binary \"^\"\n"
                   "                (ident \"d\")\n"
                   "                (binary \"&\"\n"
                   "                  (ident \"e\")\n"
                   "                  (binary \"==\"\n"
                   "                    (ident \"f\")\n"
                   "                    (binary \"<\"\n"
                   "                      (ident \"g\")\n"
                   "                      (binary \"<<\"\n"
                   "                        (ident \"h\")\n"
                   "                        (binary \"+\"\n"
                   "                          (ident \"i\")\n"
                   "                          (binary \"*\"\n"
                   "                            (ident \"j\")\n"
                   "                            (ident \"k\"))))))))))))\n"
                   "      (assign \"=\"\n"
                   "        (ident \"y\")\n"
                   "        (binary \"-\"\n"
                   "          (binary \"*\"\n"
                   "            (unary \"-\"\n"
                   "              (int \"1\"))\n"
                   "            (unary \"!\"\n"
                   "              (ident \"b\")))\n"
                   "          (binary \"%\"\n"
                   "            (unary \"~\"\n"
                   "              (ident \"c\"))\n"
                   "            (ident \"d\"))))\n"
                   "      (assign \"=\"\n"
                   "        (ident \"z\")\n"
                   "        (binary \"*\"\n"
                   "          (binary \"+\"\n"
                   "            (ident \"a\")\n"
                   "            (ident \"b\"))\n"
                   "          (ident \"c\")))\n"
                   "      (assign \"=\"\n"
                   "        (ident \"x\")\n"
                   "        (binary \"-\"\n"
                   "          (binary \"-\"\n"
                   "            (ident \"a\")\n"
                   "            (ident \"b\"))\n"
                   "          (ident \"c\"))))))\n");
}
END_TEST

START_TEST(assignments)
{
    assert_ast("f() { a.b += 1; a[i] -= 2; x *= 3; x /= 4; x %= 5; x &= 6; x |= 7; x ^= 8; x <<= 9; x >>= 1; a.b--; }",
               "(file 1:1\n"
               "  (function 1:1 \"f\"\n"
               "    (params 1:2)\n"
               "    (block 1:5\n"
               "      (assign 1:11 \"+=\"\n"
               "        (member 1:9 \"b\"\n"
               "          (ident 1:7 \"a\"))\n"
               "        (int 1:14 \"1\"))\n"
               "      (assign 1:22 \"-=\"\n"
               "        (index 1:18\n"
               "          (ident 1:17 \"a\")\n"
               "          (ident 1:19 \"i\"))\n"
               "        (int 1:25 \"2\"))\n"
               "      (assign 1:30 \"*=\"\n"
               "        (ident 1:28 \"x\")\n"
               "        (int 1:33 \"3\"))\n"
               "      (assign 1:38 \"/=\"\n"
               "        (ident 1:36 \"x\")\n"
               "        (int 1:41 \"4\"))\n"
               "      (assign 1:46 \"%=\"\n"
               "        (ident 1:44 \"x\")\n"
               "        (int 1:49 \"5\"))\n"
               "      (assign 1:54 \"&=\"\n"
               "        (ident 1:52 \"x\")\n"
               "        (int 1:57 \"6\"))\n"
               "      (assign 1:62 \"|=\"\n"
               "        (ident 1:60 \"x\")\n"
               "        (int 1:65 \"7\"))\n"
               "      (assign 1:70 \"^=\"\n"
               "        (ident 1:68 \"x\")\n"
               "        (int 1:73 \"8\"))\n"
               "      (assign 1:78 \"<<=\"\n"
               "        (ident 1:76 \"x\")\n"
               "        (int 1:82 \"9\"))\n"
               "      (assign 1:87 \">>=\"\n"
               "        (ident 1:85 \"x\")\n"
               "        (int 1:91 \"1\"))\n"
               "      (incdec 1:97 \"--\"\n"
               "        (member 1:96 \"b\"\n"
               "          (ident 1:94 \"a\"))))))\n");
}
END_TEST

START_TEST(calls)
{
    assert_ast("f() { f(1); p\\q::g(); u::h(); e m(); thread t(); e thread t(); [[p]](); e [[p]](2); e thread [[p]](); thread [[p]](); x = e f() g(); }",
               "(file 1:1\n"
               "  (function 1:1 \"f\"\n"
               "    (params 1:2)\n"
               "    (block 1:5\n"
               "      (expr_stmt 1:7\n"
               "        (call 1:7\n"
               "          (ident 1:7 \"f\")\n"
               "          (args 1:8\n"
               "            (int 1:9 \"1\"))))\n"
               "      (expr_stmt 1:13\n"
               "        (call 1:13\n"
               "          (scoped 1:13 \"p\\\\q::g\")\n"
               "          (args 1:19)))\n"
               "      (expr_stmt 1:23\n"
               "        (call 1:23\n"
               "          (scoped 1:23 \"u::h\")\n"
               "          (args 1:27)))\n"
               "      (expr_stmt 1:31\n"
               "        (method_call 1:31\n"
               "          (ident 1:31 \"e\")\n"
               "          (ident 1:33 \"m\")\n"
               "          (args 1:34)))\n"
               "      (expr_stmt 1:45\n"
               "        (call 1:45 \"thread\"\n"
               "          (ident 1:45 \"t\")\n"
               "          (args 1:46)))\n"
               "      (expr_stmt 1:50\n"
               "        (method_call 1:50 \"thread\"\n"
               "          (ident 1:50 \"e\")\n"
               "          (ident 1:59 \"t\")\n"
               "          (args 1:60)))\n"
               "      (expr_stmt 1:64\n"
               "        (pointer_call 1:64\n"
               "          (ident 1:66 \"p\")\n"
               "          (args 1:69)))\n"
               "      (expr_stmt 1:73\n"
               "        (pointer_call 1:73\n"
               "          (ident 1:73 \"e\")\n"
               "          (ident 1:77 \"p\")\n"
               "          (args 1:80\n"
               "            (int 1:81 \"2\"))))\n"
               "      (expr_stmt 1:85\n"
               "        (pointer_call 1:85 \"thread\"\n"
               "          (ident 1:85 \"e\")\n"
               "          (ident 1:96 \"p\")\n"
               "          (args 1:99)))\n"
               "      (expr_stmt 1:110\n"
               "        (pointer_call 1:110 \"thread\"\n"
               "          (ident 1:112 \"p\")\n"
               "          (args 1:115)))\n"
               "      (assign 1:121 \"=\"\n"
               "        (ident 1:119 \"x\")\n"
               "        (method_call 1:123\n"
               "          (method_call 1:123\n"
               "            (ident 1:123 \"e\")\n"
               "            (ident 1:125 \"f\")\n"
               "            (args 1:126))\n"
               "          (ident 1:129 \"g\")\n"
               "          (args 1:130))))))\n");
}
END_TEST

START_TEST(operands)
{
    assert_shape_p(ATRC_PROFILE_UO, "f() { x = ::f; y = a\\b::g; z = a.size; w = a[i][j]; v = []; u = (1, 2.5, -3); s = \"a\\\"b\\n\"; l = &\"REF\"; t = true; u = false; n = undefined; m = %Walk_1; k = #animtree; c = (int)x % 2; d = (float)(a + b) / c; }",
                   "(file\n"
                   "  (function \"f\"\n"
                   "    (params)\n"
                   "    (block\n"
                   "      (assign \"=\"\n"
                   "        (ident \"x\")\n"
                   "        (func_ref \"::f\"))\n"
                   "      (assign \"=\"\n"
                   "        (ident \"y\")\n"
                   "        (func_ref \"a\\\\b::g\"))\n"
                   "      (assign \"=\"\n"
                   "        (ident \"z\")\n"
                   "        (size\n"
                   "          (ident \"a\")))\n"
                   "      (assign \"=\"\n"
                   "        (ident \"w\")\n"
                   "        (index\n"
                   "          (index\n"
                   "            (ident \"a\")\n"
                   "            (ident \"i\"))\n"
                   "          (ident \"j\")))\n"
                   "      (assign \"=\"\n"
                   "        (ident \"v\")\n"
                   "        (empty_array))\n"
                   "      (assign \"=\"\n"
                   "        (ident \"u\")\n"
                   "        (vector\n"
                   "          (int \"1\")\n"
                   "          (float \"2.5\")\n"
                   "          (unary \"-\"\n"
                   "            (int \"3\"))))\n"
                   "      (assign \"=\"\n"
                   "        (ident \"s\")\n"
                   "        (string \"a\\\"b\\n\"))\n"
                   "      (assign \"=\"\n"
                   "        (ident \"l\")\n"
                   "        (istring \"REF\"))\n"
                   "      (assign \"=\"\n"
                   "        (ident \"t\")\n"
                   "        (true))\n"
                   "      (assign \"=\"\n"
                   "        (ident \"u\")\n"
                   "        (false))\n"
                   "      (assign \"=\"\n"
                   "        (ident \"n\")\n"
                   "        (undefined))\n"
                   "      (assign \"=\"\n"
                   "        (ident \"m\")\n"
                   "        (anim \"Walk_1\"))\n"
                   "      (assign \"=\"\n"
                   "        (ident \"k\")\n"
                   "        (animtree))\n"
                   "      (assign \"=\"\n"
                   "        (ident \"c\")\n"
                   "        (binary \"%\"\n"
                   "          (cast \"int\"\n"
                   "            (ident \"x\"))\n"
                   "          (int \"2\")))\n"
                   "      (assign \"=\"\n"
                   "        (ident \"d\")\n"
                   "        (binary \"/\"\n"
                   "          (cast \"float\"\n"
                   "            (binary \"+\"\n"
                   "              (ident \"a\")\n"
                   "              (ident \"b\")))\n"
                   "          (ident \"c\"))))))\n");
}
END_TEST

START_TEST(file_level_dev_block)
{
    /* G2: any items between top-level markers; G1: exactly one function. */
    assert_shape_p(ATRC_PROFILE_COD2, "/#\nf() {}\ng() {}\n#/\n",
                   "(file\n"
                   "  (devblock\n"
                   "    (function \"f\"\n"
                   "      (params)\n"
                   "      (block))\n"
                   "    (function \"g\"\n"
                   "      (params)\n"
                   "      (block))))\n");
    assert_shape_p(ATRC_PROFILE_UO, "/#\nf() {}\n#/\n",
                   "(file\n"
                   "  (devblock\n"
                   "    (function \"f\"\n"
                   "      (params)\n"
                   "      (block))))\n");
}
END_TEST

START_TEST(crlf_bom_no_final_newline)
{
    assert_shape_p(ATRC_PROFILE_UO, "f()\r\n{\r\n\tx = %walk;\r\n}",
                   "(file\n"
                   "  (function \"f\"\n"
                   "    (params)\n"
                   "    (block\n"
                   "      (assign \"=\"\n"
                   "        (ident \"x\")\n"
                   "        (anim \"walk\")))))\n");
}
END_TEST

/* ---- diagnostics ---- */

START_TEST(expected_semicolon)
{
    assert_diag("f()\n{\n  x = 1\n}\n",
                "3:8: error: expected ';' before '}'\n");
    assert_diag("f() { return 1 2; }",
                "1:16: error: expected ';' before '2'\n");
    assert_diag_p(ATRC_PROFILE_COD2, "#include maps\\_utility\n",
                  "1:23: error: expected ';' before end of file\n");
    assert_diag("#include maps\\_utility\n",
                "1:1: error: '#include' does not exist in uo (cod2 and cod4 only); cod2 and cod4 accept this "
                "(--profile cod2 or --profile cod4)\n");
    /* Only errors before the other grammar's first: a typo after a cod2
    ** construct gets no hint, nor does an error both grammars share. */
    assert_diag("f()\n{\n\twaittillframeend;\n\tx = ;\n}\n",
                "3:18: error: expected '=' before ';'; cod2 and cod4 accept this (--profile cod2 or --profile cod4)\n"
                "4:6: error: expected expression before ';'\n");
    assert_diag("f()\n{\n\tx = ;\n\twaittillframeend;\n}\n",
                "3:6: error: expected expression before ';'\n"
                "4:18: error: expected '=' before ';'\n");
}
END_TEST

START_TEST(expected_expression)
{
    assert_diag("f() { foo(1, ); }",
                "1:14: error: expected expression before ')'\n");
    assert_diag("f() { x = ; }",
                "1:11: error: expected expression before ';'\n");
    assert_diag("f() { x = 1 +; }",
                "1:14: error: expected expression before ';'\n");
    assert_diag("f() { x = %; }",
                "1:12: error: expected identifier before ';'\n");
}
END_TEST

START_TEST(expected_brackets_and_others)
{
    assert_diag("f() { if (x { y(); } }",
                "1:13: error: expected ')' before '{'\n");
    assert_diag("f() { w = a[1; }",
                "1:14: error: expected ']' before ';'\n");
    assert_diag("f() { switch (x) { case 1 break; } }",
                "1:27: error: expected ':' before 'break'\n");
    assert_diag("f() { x; }",
                "1:8: error: expected '=' before ';'\n");
    assert_diag("f() { if x; }",
                "1:10: error: expected '(' before 'x'\n");
    assert_diag("f() x",
                "1:5: error: expected '{' before 'x'\n");
    assert_diag("f(a b) {}",
                "1:5: error: expected ')' before 'b'\n");
    assert_diag("f(a, ) {}",
                "1:6: error: expected identifier before ')'\n");
    assert_diag("f() { case 1: }",
                "");
    assert_diag("f() { if (x) }",
                "1:14: error: expected statement before '}'\n");
    assert_diag("f() {} }",
                "1:8: error: expected function definition before '}'\n");
    assert_diag("f() { /# x(); }",
                "1:15: error: expected '#/' before '}'\n");
    assert_diag("f",
                "1:2: error: expected '(' before end of file\n");
}
END_TEST

START_TEST(never_closed)
{
    assert_diag("f()\n{\n  x = 1;\n",
                "3:9: error: '{' opened at line 2 is never closed\n");
    assert_diag("f() {\n  foo(a,\n",
                "2:9: error: '(' opened at line 2 is never closed\n");
    assert_diag("f() {\n  /#\n  x();\n}\n",
                "4:1: error: expected '#/' before '}'\n");
    assert_diag("f() {\n  /#\n  x();\n",
                "2:3: error: unterminated /# block\n");
    assert_diag("/#\nf() {}\n",
                "1:1: error: unterminated /# block\n");
    /* The '(' was already reported; the end of file names the '{'. */
    assert_diag("f()\n{\n  if (x {\n  y = 1;\n}\n",
                "3:9: error: expected ')' before '{'\n"
                "5:2: error: '{' opened at line 2 is never closed\n");
}
END_TEST

START_TEST(lexical_errors_do_not_cascade)
{
    assert_diag("f() { x = 1 @ 2; }",
                "1:13: error: stray '@'\n");
    assert_diag("f() { x = \x80\x81; }", "1:11: error: stray '\\x80'\n");
    assert_diag("f() { x = \"abc; }\n",
                "1:11: error: missing terminating '\"' character\n");
    assert_diag("f() { /* x = 1; }\n",
                "1:7: warning: unterminated /* comment runs to the end of the file\n"
                "1:18: error: '{' opened at line 1 is never closed\n");
    /* The game reads no further than a NUL byte. */
    assert_diag_n("f() {}\0y = 1; }", 15,
                  "1:7: warning: NUL byte ends the script (the game reads no further)\n");
}
END_TEST

START_TEST(recovery_reports_each_statement)
{
    assert_diag("f() {\n"
                "  x = ;\n"
                "  y = ;\n"
                "  z = 2 3;\n"
                "  w = (1;\n"
                "  ok();\n"
                "  v = a[1;\n"
                "  f(a;\n"
                "  b);\n"
                "}\n"
                "g(a b) { x = 1; }\n"
                "h() { x = 1 }\n",
                "2:7: error: expected expression before ';'\n"
                "3:7: error: expected expression before ';'\n"
                "4:9: error: expected ';' before '3'\n"
                "5:9: error: expected ')' before ';'\n"
                "7:10: error: expected ']' before ';'\n"
                "8:6: error: expected ')' before ';'\n"
                "11:5: error: expected ')' before 'b'\n"
                "12:12: error: expected ';' before '}'\n");
}
END_TEST

/* `x = 1` NEWLINE `y = 2;` reads as a method call `1 y(...)` that stumbles on
** the '='; the mistake is the missing ';', reported after the last token of
** the unterminated statement, on its line (as gcc and clang place it). */
START_TEST(missing_semicolon_at_end_of_line)
{
    assert_diag("f() {\n  x = 1\n  y = 2;\n  w = ;\n}\n",
                "2:8: error: expected ';' before 'y'\n"
                "4:7: error: expected expression before ';'\n");
    assert_diag("f() {\n  x = 1\n  self.y = 2;\n}\n",
                "2:8: error: expected ';' before 'self'\n");
    assert_diag("f() {\n  x = foo\n  bar::baz = 1;\n}\n",
                "2:10: error: expected ';' before 'bar'\n");
    assert_diag("f() {\n  x = 1\n  foo bar;\n}\n",
                "2:8: error: expected ';' before 'foo'\n");
    assert_diag("f() {\n  x = 1\n\n  // note\n  y[0] = 2;\n}\n",
                "2:8: error: expected ';' before 'y'\n");
    assert_diag("f() {\n  /#\n  x = 1\n  y = 2;\n  #/\n}\n",
                "3:8: error: expected ';' before 'y'\n");
    /* A string cannot span lines: each line's lone quote is reported. */
    assert_diag("f() {\n  x = \"a\nb\"\n  y = 2;\n}\n",
                "2:7: error: missing terminating '\"' character\n"
                "3:2: error: missing terminating '\"' character\n");
    /* Not when the line continues an expression or the statement was complete. */
    assert_diag("f() {\n  x = a\n  + b c;\n}\n",
                "3:8: error: expected '(' before ';'\n");
    assert_diag("f() {\n  foo();\n  bar c;\n}\n",
                "3:8: error: expected '(' before ';'\n");
    assert_diag("f() {\n  x = \"a\nb\" y = 2;\n}\n",
                "2:7: error: missing terminating '\"' character\n"
                "3:2: error: missing terminating '\"' character\n");
    /* Inside a for header too, and the rest of the header is no second error. */
    assert_diag("f() {\n  for (i = 0\n  i < 3; i++) {}\n  x = ;\n}\n",
                "2:13: error: expected ';' before 'i'\n"
                "4:7: error: expected expression before ';'\n");
}
END_TEST

/* Lemon mutes errors for three tokens after one; a bracket left open by the
** first error must not extend that to the next lines. */
START_TEST(recovery_reports_next_line_after_open_bracket)
{
    assert_diag("f() {\n  foo(1;\n  x = ;\n}\n",
                "2:8: error: expected ')' before ';'\n"
                "3:7: error: expected expression before ';'\n");
    assert_diag("f() {\n  v = a[1;\n  x = ;\n}\n",
                "2:10: error: expected ']' before ';'\n"
                "3:7: error: expected expression before ';'\n");
    /* The ')' on the next line answers the abandoned '(': one mistake. */
    assert_diag("f() {\n  f(a;\n  b);\n  x = ;\n}\n",
                "2:6: error: expected ')' before ';'\n"
                "4:7: error: expected expression before ';'\n");
    /* At end of file the enclosing '{' is still named. */
    assert_diag("f() {\n  foo(1;\n",
                "2:8: error: expected ')' before ';'\n"
                "2:9: error: '{' opened at line 1 is never closed\n");
}
END_TEST

/* A line being typed (`self setanim(%` with its '(' open) above finished
** statements: the next line, which the parser can take as a statement of its
** own once the broken one is an error, is read, not skipped to its ';' --
** its references count and its own mistakes are reported. */
START_TEST(recovery_unfinished_line_keeps_next_statement)
{
    assert_ast("f() {\n\tself setanim(%\n\tself setanim(%b);\n}\n",
               "(file 1:1\n"
               "  (function 1:1 \"f\"\n"
               "    (params 1:2)\n"
               "    (block 1:5\n"
               "      (error 3:2)\n"
               "      (expr_stmt 3:2\n"
               "        (method_call 3:2\n"
               "          (ident 3:2 \"self\")\n"
               "          (ident 3:7 \"setanim\")\n"
               "          (args 3:14\n"
               "            (anim 3:15 \"b\")))))))\n"
               "--\n"
               "3:2: error: expected identifier before 'self'\n");
    assert_diag("f() {\n  self setanim(%\n  self foo(1 2);\n  x = 1;\n}\n",
                "3:3: error: expected identifier before 'self'\n"
                "3:14: error: expected ')' before '2'\n");
    /* A call spread over lines is no unfinished line: one mistake. */
    assert_diag("f() {\n  foo(a,\n  b c);\n  x = ;\n}\n",
                "3:6: error: expected '(' before ')'\n"
                "4:7: error: expected expression before ';'\n");
}
END_TEST

/* The line after the unfinished one reads as arguments up to what no
** argument list holds (`self setanim(` NEWLINE `self setanim(%b, 1);`: a
** ';' after a call, or an assignment): the unfinished line is the error, at
** its end (the broken part an error, the ';' that ended it an empty
** statement), and the next line is read again as a statement -- its references
** count and its own mistakes are reported.  A call or a `for` header spread
** over lines is none of that. */
START_TEST(recovery_unfinished_line_before_an_argument_line)
{
    assert_ast("f() {\n\tself setanim(\n\tself setanim(%b, 1);\n}\n",
               "(file 1:1\n"
               "  (function 1:1 \"f\"\n"
               "    (params 1:2)\n"
               "    (block 1:5\n"
               "      (error 3:21)\n"
               "      (empty 3:21)\n"
               "      (expr_stmt 3:2\n"
               "        (method_call 3:2\n"
               "          (ident 3:2 \"self\")\n"
               "          (ident 3:7 \"setanim\")\n"
               "          (args 3:14\n"
               "            (anim 3:15 \"b\")\n"
               "            (int 3:19 \"1\")))))))\n"
               "--\n"
               "2:15: error: expected ')' before 'self'\n");
    assert_diag("f() {\n  self setanim(\n  self setanim(%b, 1);\n  x = ;\n}\n",
                "2:16: error: expected ')' before 'self'\n"
                "4:7: error: expected expression before ';'\n");
    assert_diag("f() {\n  foo(1,\n  x = ;\n}\n",
                "2:9: error: expected ')' before 'x'\n"
                "3:7: error: expected expression before ';'\n");
    assert_diag("f() {\n  a[\n  x[0] += 2;\n}\n", "2:5: error: expected ']' before 'x'\n");
    assert_diag("f() {\n  for (i = 0;\n  i < 3;\n  i++)\n    x = 1;\n  foo(a,\n  bar(b));\n}\n", "");
    /* An `if` or `while` header left open keeps its body (the parser's
    ** recovery holds the header): one error, as before. */
    assert_diag("f() {\n  if (isdefined(a[1])\n    count++;\n  while (x\n    y = 1;\n}\n",
                "3:10: error: expected '(' before '++'\n"
                "5:7: error: expected '(' before '='\n");
}
END_TEST

/* A broken `if` header is one error: its body and `else` still belong to it. */
START_TEST(recovery_broken_if_header)
{
    assert_diag("f() {\n  if x) { z(); }\n  else w();\n  y = ;\n}\n",
                "2:6: error: expected '(' before 'x'\n"
                "4:7: error: expected expression before ';'\n");
    assert_diag("f() {\n  if (x { z(); }\n  else w();\n}\n",
                "2:9: error: expected ')' before '{'\n");
    assert_diag("f() {\n  if (x == ) return;\n  else y = ;\n}\n",
                "2:12: error: expected expression before ')'\n"
                "3:12: error: expected expression before ';'\n");
    assert_diag("f() {\n  if x return;\n  y = ;\n}\n",
                "2:6: error: expected '(' before 'x'\n"
                "3:7: error: expected expression before ';'\n");
    /* Recovery does not swallow the '}' that closes the function. */
    assert_diag("f() {\n  if x\n}\ng() {}\nh() { x = ; }\n",
                "2:6: error: expected '(' before 'x'\n"
                "5:11: error: expected expression before ';'\n");
    assert_ast("f() { if x) y(); else z(); }",
               "(file 1:1\n"
               "  (function 1:1 \"f\"\n"
               "    (params 1:2)\n"
               "    (block 1:5\n"
               "      (if 1:7\n"
               "        (error 1:7)\n"
               "        (expr_stmt 1:13\n"
               "          (call 1:13\n"
               "            (ident 1:13 \"y\")\n"
               "            (args 1:14)))\n"
               "        (expr_stmt 1:23\n"
               "          (call 1:23\n"
               "            (ident 1:23 \"z\")\n"
               "            (args 1:24)))))))\n"
               "--\n"
               "1:10: error: expected '(' before 'x'\n");
}
END_TEST

START_TEST(recovery_stray_closing_brace)
{
    assert_diag("f() {}\n}\n",
                "2:1: error: expected function definition before '}'\n");
    /* After an error inside the function, an unbalanced '}' between
    ** functions is taken for that error's consequence. */
    assert_diag("f() {\n  a = b c;\n}\n}\n",
                "2:10: error: expected '(' before ';'\n");
    /* A '}' that recovery discards is not a statement boundary. */
    assert_diag("f() { /# x(); }",
                "1:15: error: expected '#/' before '}'\n");
}
END_TEST

/* The modder's file from the report: every mistake once, nothing else. */
START_TEST(recovery_whole_file)
{
    assert_diag("main()\n{\n\tfoo(1, 2;\n\tx = 1\n\ty = 2;\n\tif x) { z(); }\n\telse w();\n"
                "\tself thread;\n\ta = b c;\n}\n}\n",
                "3:10: error: expected ')' before ';'\n"
                "4:7: error: expected ';' before 'y'\n"
                "6:5: error: expected '(' before 'x'\n"
                "8:13: error: expected identifier before ';'\n"
                "9:9: error: expected '(' before ';'\n");
}
END_TEST

START_TEST(recovery_keeps_good_functions)
{
    assert_ast("f() { x = ; }\ng() { y(); }",
               "(file 1:1\n"
               "  (function 1:1 \"f\"\n"
               "    (params 1:2)\n"
               "    (block 1:5\n"
               "      (error 1:11)\n"
               "      (empty 1:11)))\n"
               "  (function 2:1 \"g\"\n"
               "    (params 2:2)\n"
               "    (block 2:5\n"
               "      (expr_stmt 2:7\n"
               "        (call 2:7\n"
               "          (ident 2:7 \"y\")\n"
               "          (args 2:8))))))\n"
               "--\n"
               "1:11: error: expected expression before ';'\n");
}
END_TEST

START_TEST(error_cap)
{
    /* Binary junk: at most 50 errors, then one note, then nothing. */
    size_t n = 100000;
    char *src = malloc(n);
    for (size_t i = 0; i < n; i++) src[i] = (i % 3 == 0) ? '@' : ' ';
    source_file *f = source_from_buffer("t.gsc", src, n);
    diag_list d;
    diag_init(&d);
    arena a;
    arena_init(&a);
    script_parse(f, profile_get(ATRC_PROFILE_UO), NULL, &a, &d);
    ck_assert_int_eq((int)d.count, DIAG_DEFAULT_MAX_ERRORS + 1);
    ck_assert_str_eq(d.items[d.count - 1].message, "too many errors in this file; stopping");
    diag_free(&d);
    arena_free_all(&a);
    source_free(f);
    free(src);
}
END_TEST

static char *repeat3(const char *head, const char *unit, size_t count, const char *mid,
                     const char *unit2, size_t count2, const char *tail)
{
    size_t hl = strlen(head), ul = strlen(unit), ml = strlen(mid), u2 = strlen(unit2),
           tl = strlen(tail);
    char *s = malloc(hl + ul * count + ml + u2 * count2 + tl + 1), *p = s;
    memcpy(p, head, hl), p += hl;
    for (size_t i = 0; i < count; i++) memcpy(p, unit, ul), p += ul;
    memcpy(p, mid, ml), p += ml;
    for (size_t i = 0; i < count2; i++) memcpy(p, unit2, u2), p += u2;
    memcpy(p, tail, tl + 1);
    return s;
}

/* What script_parse_stream hands on: "B" a function's header, "S" a
** statement, "E" its end, "C" its cut, "I" an item, each with its line. */
typedef struct stream_log {
    char text[256];
    size_t len;
} stream_log;

static void log_event(stream_log *l, char what, int line)
{
    if (l->len + 16 < sizeof l->text) l->len += (size_t)snprintf(l->text + l->len, 16, "%c%d ", what, line);
}

static void log_item(void *ud, ast_node *item, int anim_syntax)
{
    (void)anim_syntax;
    log_event(ud, 'I', item->line);
}

static void log_function(void *ud, int event, const ast_node *n, int anim_syntax)
{
    (void)anim_syntax;
    for (; n; n = event == SCRIPT_FN_STMTS ? n->next : NULL) log_event(ud, "BSEC"[event], n->line);
}

static void ignore_function(void *ud, int event, const ast_node *n, int anim_syntax)
{
    (void)ud;
    (void)event;
    (void)n;
    (void)anim_syntax;
}

/* The same events, each with what it holds (SCRIPT_HOLDS_*) after a ':'. */
static void log_holds(stream_log *l, char what, int line, int holds)
{
    if (l->len + 20 < sizeof l->text) l->len += (size_t)snprintf(l->text + l->len, 20, "%c%d:%d ", what, line, holds);
}

static void log_item_holds(void *ud, ast_node *item, int holds)
{
    log_holds(ud, 'I', item->line, holds);
}

static void log_function_holds(void *ud, int event, const ast_node *n, int holds)
{
    log_holds(ud, "BSEC"[event], n->line, holds);
}

static char *stream_events_with(const char *text, atrc_profile p, size_t chunk, int holds)
{
    source_file *f = source_from_buffer("t.gsc", text, strlen(text));
    diag_list d;
    diag_init(&d);
    arena a;
    arena_init(&a);
    stream_log l = {{0}, 0};
    script_parse_stream(f, profile_get(p), NULL, &a, &d, holds ? log_item_holds : log_item,
                        holds ? log_function_holds : log_function, &l, chunk);
    arena_free_all(&a);
    diag_free(&d);
    source_free(f);
    return xstrdup(l.text);
}

static char *stream_events(const char *text, atrc_profile p, size_t chunk)
{
    return stream_events_with(text, p, chunk, 0);
}

START_TEST(items_say_what_they_hold)
{
    /* Animation syntax is 1, a call of an animation builtin's name 2 (any
    ** case, a thread call too: the run-time checks walk only those); a
    ** name that merely contains one, or a function of another name, is
    ** not one.  Per statement when streamed (chunk 0), per item whole. */
    const char *text = "f()\n{\n\tx = 1;\n\tself setanim(%a, 1);\n\tthread SetFlaggedAnimKnob(\"n\", y);\n"
                       "\twait 1;\n}\ng() { h(); }\ni() { self mysetanim(); }\nj() { z = %b; }\n";
    char *s = stream_events_with(text, ATRC_PROFILE_COD2, 0, 1);
    ck_assert_str_eq(s, "B1:0 S3:0 S4:3 S5:2 S6:0 E1:0 B8:0 S8:0 E8:0 B9:0 S9:0 E9:0 B10:0 S10:1 E10:0 ");
    free(s);
    s = stream_events_with(text, ATRC_PROFILE_COD2, SCRIPT_STREAM_CHUNK, 1);
    ck_assert_str_eq(s, "I1:3 I8:0 I9:0 I10:1 ");
    free(s);
}
END_TEST

START_TEST(functions_streamed_in_pieces)
{
    /* A file-level function, with a chunk of 0: header, each element of its
    ** own list (a nested block is one), end; a function inside a cod1
    ** top-level /# #/ comes whole with its item; one cut off by the end of
    ** file is cut. */
    const char *text = "#using_animtree(\"a\");\nf(p)\n{\n\tx = 1;\n\t{ y = 2; z = 3; }\ncase 1:\n}\n"
                       "/#\ng() { w = 1; }\n#/\nh()\n{\n\tv = 1;\n";
    char *s = stream_events(text, ATRC_PROFILE_COD1, 0);
    ck_assert_str_eq(s, "I1 B2 S4 S5 S6 E2 I8 B11 S13 C11 ");
    free(s);
    /* Below the chunk a function is one item (and one never reduced is
    ** never seen). */
    s = stream_events(text, ATRC_PROFILE_COD1, SCRIPT_STREAM_CHUNK);
    ck_assert_str_eq(s, "I1 I2 I8 ");
    free(s);
}
END_TEST

/* The parse arena's high-water mark (bytes of blocks held) for text. */
static size_t parse_peak(const char *text, int streamed)
{
    source_file *f = source_from_buffer("t.gsc", text, strlen(text));
    diag_list d;
    diag_init(&d);
    arena a;
    arena_init(&a);
    if (streamed)
        script_parse_stream(f, profile_get(ATRC_PROFILE_COD4), NULL, &a, &d, NULL, ignore_function, NULL,
                            SCRIPT_STREAM_CHUNK);
    else
        script_parse_each(f, profile_get(ATRC_PROFILE_COD4), &a, &d, NULL, NULL);
    ck_assert_int_eq(d.count, 0);
    size_t peak = a.peak;
    arena_free_all(&a);
    diag_free(&d);
    source_free(f);
    return peak;
}

START_TEST(streamed_function_memory_is_one_statement)
{
    /* 200,000 statements in one function: streamed, the arena holds a chunk
    ** of them at a time; built whole (script_parse_each), or nested in a
    ** block (a nested block is one element, built whole), all of them. */
    char *s = repeat3("f()\n{\n", "\tx = level.a[1] + 2;\n", 200000, "", "", 0, "}\n");
    size_t streamed = parse_peak(s, 1), whole = parse_peak(s, 0);
    ck_assert_uint_lt(streamed, (size_t)256 << 10);
    ck_assert_uint_gt(whole, (size_t)16 << 20);
    free(s);
    s = repeat3("f()\n{\n{\n", "\tx = level.a[1] + 2;\n", 200000, "", "", 0, "}\n}\n");
    ck_assert_uint_gt(parse_peak(s, 1), (size_t)16 << 20);
    free(s);
}
END_TEST

START_TEST(nesting_too_deep)
{
    /* The function's '{' counts toward the bound too. */
    char *s = repeat3("f() { x = ", "(", 100000, "1", ")", 100000, "; }");
    assert_diag(s, "1:1010: error: nesting too deep (max 1000)\n");
    free(s);
    s = repeat3("f() ", "{", 100000, "", "}", 100000, "");
    assert_diag(s, "1:1005: error: nesting too deep (max 1000)\n");
    free(s);
    /* Prefix chains have no brackets: the parser stack bounds them (the
    ** function's header is one entry of it, its body's list another). */
    s = repeat3("f() { x = ", "!", 1000000, "y", "", 0, "; }");
    assert_diag(s, "1:20003: error: nesting too deep (parser stack of 20000 entries exhausted)\n");
    free(s);
}
END_TEST

START_TEST(long_left_chain_dumps_iteratively)
{
    /* a+a+...+a: the AST is as deep as the input is long. */
    char *s = repeat3("f() { x = a", "+a", 200000, "", "", 0, "; }");
    char *got = gsc_parse(s);
    ck_assert(strncmp(got, "(file 1:1\n", 10) == 0);
    ck_assert(strstr(got, "--\n") == NULL);
    free(got);
    free(s);
}
END_TEST

START_TEST(line_snapshot_covers_the_simulation)
{
    /* The missing-';' question is answered on a copy of the top of the
    ** parser's stack taken at each line start: the simulation's budget of
    ** reductions of the longest rule must never read below that copy. */
    ck_assert_int_gt(GscParseLongestRule(), 0);
    ck_assert_int_lt(GSC_SIM_STEPS * GscParseLongestRule(), RECOVERY_SNAPSHOT);
}
END_TEST

Suite *make_parser_suite(void)
{
    Suite *s = suite_create("parser");
    TCase *tc = tcase_create("ast");
    tcase_add_test(tc, file_level);
    tcase_add_test(tc, statements);
    tcase_add_test(tc, switch_return_dev);
    tcase_add_test(tc, breakpoint_statement);
    tcase_add_test(tc, precedence);
    tcase_add_test(tc, assignments);
    tcase_add_test(tc, calls);
    tcase_add_test(tc, operands);
    tcase_add_test(tc, file_level_dev_block);
    tcase_add_test(tc, crlf_bom_no_final_newline);
    suite_add_tcase(s, tc);
    tc = tcase_create("diagnostics");
    tcase_add_test(tc, expected_semicolon);
    tcase_add_test(tc, expected_expression);
    tcase_add_test(tc, expected_brackets_and_others);
    tcase_add_test(tc, never_closed);
    tcase_add_test(tc, lexical_errors_do_not_cascade);
    tcase_add_test(tc, recovery_reports_each_statement);
    tcase_add_test(tc, missing_semicolon_at_end_of_line);
    tcase_add_test(tc, recovery_reports_next_line_after_open_bracket);
    tcase_add_test(tc, recovery_unfinished_line_keeps_next_statement);
    tcase_add_test(tc, recovery_unfinished_line_before_an_argument_line);
    tcase_add_test(tc, recovery_broken_if_header);
    tcase_add_test(tc, recovery_stray_closing_brace);
    tcase_add_test(tc, recovery_whole_file);
    tcase_add_test(tc, recovery_keeps_good_functions);
    tcase_add_test(tc, error_cap);
    tcase_add_test(tc, line_snapshot_covers_the_simulation);
    suite_add_tcase(s, tc);
    tc = tcase_create("hostile");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, nesting_too_deep);
    tcase_add_test(tc, functions_streamed_in_pieces);
    tcase_add_test(tc, items_say_what_they_hold);
    tcase_add_test(tc, streamed_function_memory_is_one_statement);
    tcase_add_test(tc, long_left_chain_dumps_iteratively);
    suite_add_tcase(s, tc);
    return s;
}
