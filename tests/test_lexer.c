/* The re2c lexer: every token kind with its position, '%' disambiguation,
** line endings, and the lexical errors. */
#include "gsc_testlib.h"
#include "gsc_parser.h"
#include "lexer.h"

START_TEST(identifiers_paths_keywords)
{
    assert_tokens("main(a, b)\n{\n\tif (x) thread maps\\mp\\_utility::f();\n}\n",
                  "1:1 IDENT main\n"
                  "1:5 LP (\n"
                  "1:6 IDENT a\n"
                  "1:7 COMMA ,\n"
                  "1:9 IDENT b\n"
                  "1:10 RP )\n"
                  "2:1 LBRACE {\n"
                  "3:2 IF if\n"
                  "3:5 LP (\n"
                  "3:6 IDENT x\n"
                  "3:7 RP )\n"
                  "3:9 THREAD thread\n"
                  "3:16 PATH maps\\mp\\_utility\n"
                  "3:32 DCOLON ::\n"
                  "3:34 IDENT f\n"
                  "3:35 LP (\n"
                  "3:36 RP )\n"
                  "3:37 SEMI ;\n"
                  "4:1 RBRACE }\n"
                  "4:2 EOF\n");
    assert_tokens("iffy if else elsewhere while for switch case default break continue return "
                  "wait waittillframeend thread true false undefined",
                  "1:1 IDENT iffy\n"
                  "1:6 IF if\n"
                  "1:9 ELSE else\n"
                  "1:14 IDENT elsewhere\n"
                  "1:24 WHILE while\n"
                  "1:30 FOR for\n"
                  "1:34 SWITCH switch\n"
                  "1:41 CASE case\n"
                  "1:46 DEFAULT default\n"
                  "1:54 BREAK break\n"
                  "1:60 CONTINUE continue\n"
                  "1:69 RETURN return\n"
                  "1:76 WAIT wait\n"
                  "1:81 WAITTILLFRAMEEND waittillframeend\n"
                  "1:98 THREAD thread\n"
                  "1:105 TRUE true\n"
                  "1:110 FALSE false\n"
                  "1:116 UNDEFINED undefined\n"
                  "1:125 EOF\n");
}
END_TEST

START_TEST(numbers)
{
    assert_tokens("x = 1 + 2.5 * .5 - 1. / 0x1F;",
                  "1:1 IDENT x\n"
                  "1:3 ASSIGN =\n"
                  "1:5 INT 1\n"
                  "1:7 PLUS +\n"
                  "1:9 FLOAT 2.5\n"
                  "1:13 STAR *\n"
                  "1:15 FLOAT .5\n"
                  "1:18 MINUS -\n"
                  "1:20 FLOAT 1.\n"
                  "1:23 SLASH /\n"
                  "1:25 INT 0x1F\n"
                  "1:29 SEMI ;\n"
                  "1:30 EOF\n");
}
END_TEST

START_TEST(operators)
{
    assert_tokens("a += 1; a -= 1; a *= 2; a /= 2; a %= 3; a &= 1; a |= 1; a ^= 1; a <<= 1; "
                  "a >>= 1; a++; a--;",
                  "1:1 IDENT a\n1:3 PLUSEQ +=\n1:6 INT 1\n1:7 SEMI ;\n"
                  "1:9 IDENT a\n1:11 MINUSEQ -=\n1:14 INT 1\n1:15 SEMI ;\n"
                  "1:17 IDENT a\n1:19 STAREQ *=\n1:22 INT 2\n1:23 SEMI ;\n"
                  "1:25 IDENT a\n1:27 SLASHEQ /=\n1:30 INT 2\n1:31 SEMI ;\n"
                  "1:33 IDENT a\n1:35 PERCENTEQ %=\n1:38 INT 3\n1:39 SEMI ;\n"
                  "1:41 IDENT a\n1:43 ANDEQ &=\n1:46 INT 1\n1:47 SEMI ;\n"
                  "1:49 IDENT a\n1:51 OREQ |=\n1:54 INT 1\n1:55 SEMI ;\n"
                  "1:57 IDENT a\n1:59 XOREQ ^=\n1:62 INT 1\n1:63 SEMI ;\n"
                  "1:65 IDENT a\n1:67 SHLEQ <<=\n1:71 INT 1\n1:72 SEMI ;\n"
                  "1:74 IDENT a\n1:76 SHREQ >>=\n1:80 INT 1\n1:81 SEMI ;\n"
                  "1:83 IDENT a\n1:84 INC ++\n1:86 SEMI ;\n"
                  "1:88 IDENT a\n1:89 DEC --\n1:91 SEMI ;\n"
                  "1:92 EOF\n");
    assert_tokens("a == b != c <= d >= e < f > g && h || i & j | k ^ l << m >> n ~o !p",
                  "1:1 IDENT a\n1:3 EQ ==\n1:6 IDENT b\n1:8 NE !=\n1:11 IDENT c\n1:13 LE <=\n"
                  "1:16 IDENT d\n1:18 GE >=\n1:21 IDENT e\n1:23 LT <\n1:25 IDENT f\n1:27 GT >\n"
                  "1:29 IDENT g\n1:31 ANDAND &&\n1:34 IDENT h\n1:36 OROR ||\n1:39 IDENT i\n"
                  "1:41 BITAND &\n1:43 IDENT j\n1:45 BITOR |\n1:47 IDENT k\n1:49 BITXOR ^\n"
                  "1:51 IDENT l\n1:53 SHL <<\n1:56 IDENT m\n1:58 SHR >>\n1:61 IDENT n\n"
                  "1:63 TILDE ~\n1:64 IDENT o\n1:66 BANG !\n1:67 IDENT p\n1:68 EOF\n");
    assert_tokens("; , : :: . ( ) [ ] { } [[ f ]] ( )",
                  "1:1 SEMI ;\n1:3 COMMA ,\n1:5 COLON :\n1:7 DCOLON ::\n1:10 DOT .\n"
                  "1:12 LP (\n1:14 RP )\n1:16 LBRACKET [\n1:18 RBRACKET ]\n1:20 LBRACE {\n"
                  "1:22 RBRACE }\n1:24 LDBRACKET [[\n1:27 IDENT f\n1:29 RDBRACKET ]]\n"
                  "1:32 LP (\n1:34 RP )\n1:35 EOF\n");
}
END_TEST

START_TEST(pointer_brackets)
{
    /* `]]]`: the first ']' closes the index inside the pointer. */
    assert_tokens("[[a[i]]](); b[c[d]];",
                  "1:1 LDBRACKET [[\n1:3 IDENT a\n1:4 LBRACKET [\n1:5 IDENT i\n"
                  "1:6 RBRACKET ]\n1:7 RDBRACKET ]]\n1:9 LP (\n1:10 RP )\n1:11 SEMI ;\n"
                  "1:13 IDENT b\n1:14 LBRACKET [\n1:15 IDENT c\n1:16 LBRACKET [\n"
                  "1:17 IDENT d\n1:18 RBRACKET ]\n1:19 RBRACKET ]\n1:20 SEMI ;\n1:21 EOF\n");
}
END_TEST

START_TEST(strings_and_directives)
{
    assert_tokens("#include maps\\_utility;\n#using_animtree(\"generic_human\");\n"
                  "x = \"a\\\"b\\\\\" + &\"REF_1\" + #animtree;",
                  "1:1 INCLUDE #include\n"
                  "1:10 PATH maps\\_utility\n"
                  "1:23 SEMI ;\n"
                  "2:1 USING_ANIMTREE #using_animtree\n"
                  "2:16 LP (\n"
                  "2:17 STRING \"generic_human\"\n"
                  "2:32 RP )\n"
                  "2:33 SEMI ;\n"
                  "3:1 IDENT x\n"
                  "3:3 ASSIGN =\n"
                  "3:5 STRING \"a\\\"b\\\\\"\n"
                  "3:14 PLUS +\n"
                  "3:16 ISTRING &\"REF_1\"\n"
                  "3:25 PLUS +\n"
                  "3:27 ANIMTREE #animtree\n"
                  "3:36 SEMI ;\n"
                  "3:37 EOF\n");
    /* A string may span lines; positions after it stay right. */
    assert_tokens("a \"x\ny\" b", "1:1 IDENT a\n1:3 STRING \"x\\ny\"\n2:4 IDENT b\n2:5 EOF\n");
}
END_TEST

START_TEST(comments_and_dev_blocks)
{
    assert_tokens("/* a\n b */ x // c /* d\n/# y #/ z",
                  "2:7 IDENT x\n3:1 DEVOPEN /#\n3:4 IDENT y\n3:6 DEVCLOSE #/\n3:9 IDENT z\n"
                  "3:10 EOF\n");
    /* A commented-out dev block stays a comment. */
    assert_tokens("///#f();#/\nx", "2:1 IDENT x\n2:2 EOF\n");
}
END_TEST

START_TEST(line_endings_and_bom)
{
    assert_tokens("a\r\nb\r\n  c", "1:1 IDENT a\n2:1 IDENT b\n3:3 IDENT c\n3:4 EOF\n");
    /* The BOM is skipped; columns still count bytes. */
    assert_tokens("\xEF\xBB\xBF" "f();\r\n", "1:4 IDENT f\n1:5 LP (\n1:6 RP )\n1:7 SEMI ;\n1:8 EOF\n");
    /* End of file is placed after the last byte of the last non-empty line. */
    assert_tokens("f\n", "1:1 IDENT f\n1:2 EOF\n");
    assert_tokens("f", "1:1 IDENT f\n1:2 EOF\n");
    assert_tokens("", "1:1 EOF\n");
}
END_TEST

START_TEST(percent_modulo_or_anim)
{
    /* Modulo after an operand. */
    assert_tokens("count%4", "1:1 IDENT count\n1:6 PERCENT %\n1:7 INT 4\n1:8 EOF\n");
    assert_tokens("a%b", "1:1 IDENT a\n1:2 PERCENT %\n1:3 IDENT b\n1:4 EOF\n");
    assert_tokens("(x+i)%n", "1:1 LP (\n1:2 IDENT x\n1:3 PLUS +\n1:4 IDENT i\n1:5 RP )\n"
                             "1:6 PERCENT %\n1:7 IDENT n\n1:8 EOF\n");
    assert_tokens("a[0]%2 true%1 \"s\"%2",
                  "1:1 IDENT a\n1:2 LBRACKET [\n1:3 INT 0\n1:4 RBRACKET ]\n1:5 PERCENT %\n"
                  "1:6 INT 2\n1:8 TRUE true\n1:12 PERCENT %\n1:13 INT 1\n1:15 STRING \"s\"\n"
                  "1:18 PERCENT %\n1:19 INT 2\n1:20 EOF\n");
    /* Animation literals elsewhere, positioned at the '%'. */
    assert_tokens("= %walk;", "1:1 ASSIGN =\n1:3 ANIM %walk\n1:8 SEMI ;\n1:9 EOF\n");
    assert_tokens("(%walk)", "1:1 LP (\n1:2 ANIM %walk\n1:7 RP )\n1:8 EOF\n");
    assert_tokens("return %walk;", "1:1 RETURN return\n1:8 ANIM %walk\n1:13 SEMI ;\n1:14 EOF\n");
    assert_tokens("wait %w;", "1:1 WAIT wait\n1:6 ANIM %w\n1:8 SEMI ;\n1:9 EOF\n");
    assert_tokens("f(%walk, 1)", "1:1 IDENT f\n1:2 LP (\n1:3 ANIM %walk\n1:8 COMMA ,\n"
                                 "1:10 INT 1\n1:11 RP )\n1:12 EOF\n");
    assert_tokens("x[i] = %walk;", "1:1 IDENT x\n1:2 LBRACKET [\n1:3 IDENT i\n1:4 RBRACKET ]\n"
                                   "1:6 ASSIGN =\n1:8 ANIM %walk\n1:13 SEMI ;\n1:14 EOF\n");
    /* Blanks after the '%'; names may start with a digit. */
    assert_tokens("(% \t30cal_idle)", "1:1 LP (\n1:2 ANIM % \\x0930cal_idle\n1:15 RP )\n1:16 EOF\n");
    /* After an anim literal or #animtree, '%' is modulo again. */
    assert_tokens("%w%2", "1:1 ANIM %w\n1:3 PERCENT %\n1:4 INT 2\n1:5 EOF\n");
    assert_tokens("#animtree%2", "1:1 ANIMTREE #animtree\n1:10 PERCENT %\n1:11 INT 2\n1:12 EOF\n");
    /* '%=' only after an operand. */
    assert_tokens("x %= 2", "1:1 IDENT x\n1:3 PERCENTEQ %=\n1:6 INT 2\n1:7 EOF\n");
    assert_tokens("= %=", "1:1 ASSIGN =\n1:3 PERCENT %\n1:4 ASSIGN =\n1:5 EOF\n");
}
END_TEST

START_TEST(casts)
{
    assert_tokens("(int)x ( float ) y (x)",
                  "1:1 CAST (int)\n1:6 IDENT x\n1:8 CAST ( float )\n1:18 IDENT y\n1:20 LP (\n"
                  "1:21 IDENT x\n1:22 RP )\n1:23 EOF\n");
}
END_TEST

START_TEST(lexical_errors)
{
    assert_tokens("a @ b", "1:1 IDENT a\n1:5 IDENT b\n1:6 EOF\n--\n1:3: error: stray '@'\n");
    /* A run of junk bytes is one error; non-printable bytes are shown in hex. */
    assert_tokens("a \x80\x81\x01 b", "1:1 IDENT a\n1:7 IDENT b\n1:8 EOF\n--\n1:3: error: stray '\\x80'\n");
    assert_tokens("a ' b", "1:1 IDENT a\n1:5 IDENT b\n1:6 EOF\n--\n1:3: error: stray '\\''\n");
    assert_tokens("#foo x", "1:6 IDENT x\n1:7 EOF\n--\n1:1: error: unknown directive '#foo'\n");
    assert_tokens("x = \"abc\n", "1:1 IDENT x\n1:3 ASSIGN =\n1:5 STRING \"abc\\n\n1:9 EOF\n--\n"
                                  "1:5: error: unterminated string\n");
    assert_tokens("x /* abc\n\n", "1:1 IDENT x\n2:1 EOF\n--\n1:3: error: unterminated /* comment\n");
}
END_TEST

START_TEST(nul_bytes_are_errors_not_eof)
{
    char *got = gsc_lex_n("a\0b \"x\0y\" /*\0*/ c", 17);
    ck_assert_str_eq(got, "1:1 IDENT a\n1:3 IDENT b\n1:5 STRING \"x\\x00y\"\n1:17 IDENT c\n1:18 EOF\n--\n"
                          "1:2: error: stray NUL byte\n1:7: error: stray NUL byte\n"
                          "1:13: error: stray NUL byte\n");
    free(got);
}
END_TEST

START_TEST(token_tables_complete)
{
    for (int code = 0; code < gsc_token_count(); code++) {
        if (code == TK_IFX || code == TK_UMINUS) continue; /* precedence only */
        ck_assert_msg(gsc_token_name(code) != NULL, "token %d has no name", code);
        ck_assert_msg(gsc_token_spelling(code) != NULL, "token %d has no spelling", code);
    }
    ck_assert_ptr_null(gsc_token_name(gsc_token_count()));
}
END_TEST

START_TEST(huge_tokens)
{
    size_t n = 2u << 20;
    char *src = malloc(n + 8);
    memset(src, 'a', n);
    memcpy(src + n, " = 1;", 6);
    source_file *f = source_from_buffer("t.gsc", src, n + 5);
    diag_list d;
    diag_init(&d);
    char *toks = script_dump_tokens(f, &d);
    ck_assert_int_eq((int)d.count, 0);
    ck_assert(strstr(toks, "1:2097154 ASSIGN =\n") != NULL);
    free(toks);
    diag_free(&d);
    source_free(f);
    free(src);
}
END_TEST

Suite *make_lexer_suite(void)
{
    Suite *s = suite_create("lexer");
    TCase *tc = tcase_create("tokens");
    tcase_add_test(tc, identifiers_paths_keywords);
    tcase_add_test(tc, numbers);
    tcase_add_test(tc, operators);
    tcase_add_test(tc, pointer_brackets);
    tcase_add_test(tc, strings_and_directives);
    tcase_add_test(tc, comments_and_dev_blocks);
    tcase_add_test(tc, line_endings_and_bom);
    tcase_add_test(tc, percent_modulo_or_anim);
    tcase_add_test(tc, casts);
    tcase_add_test(tc, lexical_errors);
    tcase_add_test(tc, nul_bytes_are_errors_not_eof);
    tcase_add_test(tc, token_tables_complete);
    tcase_add_test(tc, huge_tokens);
    suite_add_tcase(s, tc);
    return s;
}
