/* The re2c lexer: every token kind with its position, '%' disambiguation,
** line endings, and the lexical errors. */
#include "gsc_testlib.h"
#include "gsc_parser.h"
#include "script/lexer.h"

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
                  "wait thread true false undefined",
                  "1:1 IDENT iffy\n1:6 IF if\n1:9 ELSE else\n1:14 IDENT elsewhere\n"
                  "1:24 WHILE while\n1:30 FOR for\n1:34 SWITCH switch\n1:41 CASE case\n"
                  "1:46 DEFAULT default\n1:54 BREAK break\n1:60 CONTINUE continue\n"
                  "1:69 RETURN return\n1:76 WAIT wait\n1:81 THREAD thread\n1:88 TRUE true\n"
                  "1:93 FALSE false\n1:99 UNDEFINED undefined\n1:108 EOF\n");
    /* A path is the longest run of backslash-word after a word, keywords
    ** included; a backslash not followed by a word ends it. */
    assert_tokens("self\\a if\\b\\c x\\1 y\\ z\\_\\ w\\\\v _a\\b9\\c_ Wait\\x",
                  "1:1 PATH self\\a\n1:8 PATH if\\b\\c\n1:15 IDENT x\n1:17 INT 1\n"
                  "1:19 IDENT y\n1:22 PATH z\\_\n1:27 IDENT w\n1:30 IDENT v\n"
                  "1:32 PATH _a\\b9\\c_\n1:41 PATH Wait\\x\n1:47 EOF\n--\n"
                  "1:16: error: stray '\\\\'\n1:20: error: stray '\\\\'\n"
                  "1:25: error: stray '\\\\'\n1:28: error: stray '\\\\'\n"
                  "1:29: error: stray '\\\\'\n");
    /* Prefixes and extensions of keywords are identifiers. */
    assert_tokens("i wai waittil waittills waittillmatchx waittillframeen do_ elsee selfx",
                  "1:1 IDENT i\n1:3 IDENT wai\n1:7 IDENT waittil\n1:15 IDENT waittills\n"
                  "1:25 IDENT waittillmatchx\n1:40 IDENT waittillframeen\n1:56 IDENT do_\n"
                  "1:60 IDENT elsee\n1:66 IDENT selfx\n1:71 EOF\n");
}
END_TEST

/* grammar.md 1.2: the keyword sets of G1 (cod1, uo) and G2 (cod2, cod4);
** keywords are case-sensitive. */
START_TEST(keywords_per_profile)
{
    const char *src = "do waittillframeend breakpoint prof_begin prof_end breakon self level game "
                      "anim waittill waittillmatch notify endon Self IF size foreach";
    const char *common = "1:60 SELF self\n1:65 LEVEL level\n1:71 GAME game\n1:76 ANIM anim\n"
                         "1:81 WAITTILL waittill\n1:90 WAITTILLMATCH waittillmatch\n"
                         "1:104 NOTIFY notify\n1:111 ENDON endon\n1:117 IDENT Self\n1:122 IDENT IF\n"
                         "1:125 IDENT size\n1:130 IDENT foreach\n1:137 EOF\n";
    char want[1024];
    snprintf(want, sizeof want, "%s%s",
             "1:1 DO do\n1:4 IDENT waittillframeend\n1:21 IDENT breakpoint\n"
             "1:32 IDENT prof_begin\n1:43 IDENT prof_end\n1:52 IDENT breakon\n", common);
    assert_tokens_p(ATRC_PROFILE_COD1, src, want);
    assert_tokens_p(ATRC_PROFILE_UO, src, want);
    snprintf(want, sizeof want, "%s%s",
             "1:1 IDENT do\n1:4 WAITTILLFRAMEEND waittillframeend\n1:21 BREAKPOINT breakpoint\n"
             "1:32 PROF_BEGIN prof_begin\n1:43 PROF_END prof_end\n1:52 BREAKON breakon\n", common);
    assert_tokens_p(ATRC_PROFILE_COD2, src, want);
    assert_tokens_p(ATRC_PROFILE_COD4, src, want);
    /* `#`, `$`: G1 has a lone `#` token, G2 a `$` token; `?` is a token nothing uses. */
    assert_tokens_p(ATRC_PROFILE_UO, "# $a ?",
                    "1:1 HASH #\n1:4 IDENT a\n1:6 QUESTION ?\n1:7 EOF\n--\n1:3: error: stray '$'\n");
    assert_tokens_p(ATRC_PROFILE_COD2, "# $a ?",
                    "1:3 DOLLAR $\n1:4 IDENT a\n1:6 QUESTION ?\n1:7 EOF\n--\n1:1: error: stray '#'\n");
    assert_tokens_p(ATRC_PROFILE_COD1, "#include a;",
                    "1:10 IDENT a\n1:11 SEMI ;\n1:12 EOF\n--\n"
                    "1:1: error: '#include' does not exist in cod1 (cod2 and cod4 only)\n");
    assert_tokens_p(ATRC_PROFILE_COD4, "#include a;",
                    "1:1 INCLUDE #include\n1:10 IDENT a\n1:11 SEMI ;\n1:12 EOF\n");
}
END_TEST

START_TEST(numbers)
{
    /* Decimal integers and [0-9]*.[0-9]+ floats only (grammar.md 1.2); hex,
    ** exponents and `1.` are one token each with an error that says what GSC
    ** has instead; a suffix is a separate identifier. */
    assert_tokens("x = 1 + 2.5 * .5 - 1. / 0x1F 1e5 1.5f 007;",
                  "1:1 IDENT x\n1:3 ASSIGN =\n1:5 INT 1\n1:7 PLUS +\n1:9 FLOAT 2.5\n"
                  "1:13 STAR *\n1:15 FLOAT .5\n1:18 MINUS -\n1:20 FLOAT 1.\n1:23 SLASH /\n"
                  "1:25 INT 0x1F\n1:30 FLOAT 1e5\n1:34 FLOAT 1.5\n1:37 IDENT f\n1:39 INT 007\n"
                  "1:42 SEMI ;\n1:43 EOF\n--\n"
                  "1:20: error: a number cannot end with '.' in GSC: write '1.0'\n"
                  "1:25: error: GSC has no hexadecimal numbers: write '0x1F' in decimal\n"
                  "1:30: error: GSC has no exponents: write '1e5' out in full\n");
    /* `1.size` is not `1.` then `size`. */
    assert_tokens("1.size", "1:1 INT 1\n1:2 SIZE .size\n1:7 EOF\n");
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
    assert_tokens("; , : :: . ( ) [ ] { }",
                  "1:1 SEMI ;\n1:3 COMMA ,\n1:5 COLON :\n1:7 DCOLON ::\n1:10 DOT .\n"
                  "1:12 LP (\n1:14 RP )\n1:16 LBRACKET [\n1:18 RBRACKET ]\n1:20 LBRACE {\n"
                  "1:22 RBRACE }\n1:23 EOF\n");
}
END_TEST

START_TEST(pointer_brackets)
{
    /* `[[` and `]]` are not tokens; `.size` is one (longest match), `. size`
    ** and `.Size` are field accesses. */
    assert_tokens("[[a[i]]](); a.size a.sizex a . size a.Size",
                  "1:1 LBRACKET [\n1:2 LBRACKET [\n1:3 IDENT a\n1:4 LBRACKET [\n1:5 IDENT i\n"
                  "1:6 RBRACKET ]\n1:7 RBRACKET ]\n1:8 RBRACKET ]\n1:9 LP (\n1:10 RP )\n"
                  "1:11 SEMI ;\n1:13 IDENT a\n1:14 SIZE .size\n1:20 IDENT a\n1:21 SIZE .size\n"
                  "1:26 IDENT x\n1:28 IDENT a\n1:30 DOT .\n1:32 IDENT size\n1:37 IDENT a\n"
                  "1:38 DOT .\n1:39 IDENT Size\n1:43 EOF\n");
}
END_TEST

START_TEST(strings_and_directives)
{
    assert_tokens_p(ATRC_PROFILE_COD2, "#include maps\\_utility;\n#using_animtree(\"generic_human\");\n"
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
    /* A string ends at the end of its line: the missing quote is reported at
    ** the opening one (grammar.md 1.2). */
    assert_tokens("a \"x\nb", "1:1 IDENT a\n1:3 STRING \"x\n2:1 IDENT b\n2:2 EOF\n--\n"
                              "1:3: error: missing terminating '\"' character\n");
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
    /* Both games reject a BOM: one error naming it, then the text is read;
    ** columns still count bytes. */
    assert_tokens("\xEF\xBB\xBF" "f();\r\n",
                  "1:4 IDENT f\n1:5 LP (\n1:6 RP )\n1:7 SEMI ;\n1:8 EOF\n--\n"
                  "1:1: error: UTF-8 byte order mark: the game's compiler rejects it (save the "
                  "file without BOM)\n");
    /* End of file is placed after the last byte of the last non-empty line. */
    assert_tokens("f\n", "1:1 IDENT f\n1:2 EOF\n");
    assert_tokens("f", "1:1 IDENT f\n1:2 EOF\n");
    assert_tokens("", "1:1 EOF\n");
}
END_TEST

START_TEST(percent_modulo_or_anim)
{
    /* `%` is always its own token; the grammar makes `% name` an animation
    ** (blanks and line breaks may come between) or `a % b` a modulo. */
    assert_tokens("= %walk; % walk %\nwalk %1abc a%b",
                  "1:1 ASSIGN =\n1:3 PERCENT %\n1:4 IDENT walk\n1:8 SEMI ;\n1:10 PERCENT %\n"
                  "1:12 IDENT walk\n1:17 PERCENT %\n2:1 IDENT walk\n2:6 PERCENT %\n2:7 INT 1\n"
                  "2:8 IDENT abc\n2:12 IDENT a\n2:13 PERCENT %\n2:14 IDENT b\n2:15 EOF\n");
    assert_tokens("x %= 2", "1:1 IDENT x\n1:3 PERCENTEQ %=\n1:6 INT 2\n1:7 EOF\n");
}
END_TEST

START_TEST(casts)
{
    /* G1: four cast tokens, exactly so spelled; G2: just parentheses. */
    assert_tokens_p(ATRC_PROFILE_UO, "(int)x (float)y (string)z (bool)w ( int )x (INT)x",
                    "1:1 CAST (int)\n1:6 IDENT x\n1:8 CAST (float)\n1:15 IDENT y\n"
                    "1:17 CAST (string)\n1:25 IDENT z\n1:27 CAST (bool)\n1:33 IDENT w\n"
                    "1:35 LP (\n1:37 IDENT int\n1:41 RP )\n1:42 IDENT x\n1:44 LP (\n"
                    "1:45 IDENT INT\n1:48 RP )\n1:49 IDENT x\n1:50 EOF\n");
    assert_tokens_p(ATRC_PROFILE_COD4, "(int)x",
                    "1:1 LP (\n1:2 IDENT int\n1:5 RP )\n1:6 IDENT x\n1:7 EOF\n");
}
END_TEST

START_TEST(lexical_errors)
{
    assert_tokens("a @ b", "1:1 IDENT a\n1:5 IDENT b\n1:6 EOF\n--\n1:3: error: stray '@'\n");
    /* A run of junk bytes is one error; non-printable bytes are shown in hex. */
    assert_tokens("a \x80\x81\x01 b", "1:1 IDENT a\n1:7 IDENT b\n1:8 EOF\n--\n1:3: error: stray '\\x80'\n");
    assert_tokens("a ' b", "1:1 IDENT a\n1:5 IDENT b\n1:6 EOF\n--\n1:3: error: stray '\\''\n");
    assert_tokens("#foo x", "1:6 IDENT x\n1:7 EOF\n--\n1:1: error: unknown directive '#foo'\n");
    assert_tokens("x = \"abc\n", "1:1 IDENT x\n1:3 ASSIGN =\n1:5 STRING \"abc\n1:9 EOF\n--\n"
                                  "1:5: error: missing terminating '\"' character\n");
    /* The games end the input in an open comment: a warning only. */
    assert_tokens("x /* abc\n\n", "1:1 IDENT x\n2:1 EOF\n--\n"
                                  "1:3: warning: unterminated /* comment runs to the end of the file\n");
    /* FF and VT are not whitespace. */
    assert_tokens("a\fb", "1:1 IDENT a\n1:3 IDENT b\n1:4 EOF\n--\n1:2: error: stray '\\x0C'\n");
    /* A mostly binary file is one error. */
    assert_tokens_p(ATRC_PROFILE_UO, "\x01\x02\x03\x04\x05\x06\x07\x08\x0e\x0f\x10\x11\x12\x13\x14\x15"
                    "\x01\x02\x03\x04\x05\x06\x07\x08\x0e\x0f\x10\x11\x12\x13\x14\x15 f() {}",
                    "1:40 EOF\n--\n1:1: error: not a script: the file is mostly binary data\n");
    /* G2 strings hold at most 8191 bytes (UNCONFIRMED for G1: no limit). */
    {
        char *big = malloc(8200);
        big[0] = '"';
        memset(big + 1, 'a', 8192);
        big[8193] = '"';
        big[8194] = 0;
        char *got = gsc_lex_np(big, strlen(big), ATRC_PROFILE_COD2);
        ck_assert(strstr(got, "1:1: error: max string length exceeded (8191 bytes)\n") != NULL);
        free(got);
        got = gsc_lex_np(big, strlen(big), ATRC_PROFILE_UO);
        ck_assert(strstr(got, "error") == NULL);
        free(got);
        free(big);
    }
}
END_TEST

/* Whether the lexer calls src[0..n) "mostly binary data". */
static int lexes_as_binary(const char *src, size_t n)
{
    char *got = gsc_lex_np(src, n, ATRC_PROFILE_UO);
    int binary = strstr(got, "not a script: the file is mostly binary data") != NULL;
    free(got);
    return binary;
}

/* n bytes of 'a' with `count` copies of the byte string b (of length k) at the
** start, spaced `step` bytes apart. */
static char *filled(size_t n, const char *b, size_t k, int count, size_t step)
{
    char *s = malloc(n + 1);
    memset(s, 'a', n);
    s[n] = 0;
    for (int i = 0; i < count; i++) memcpy(s + (size_t)i * step, b, k);
    return s;
}

#define BINARY(n, b, count, step, want)                                                \
    do {                                                                               \
        char *s_ = filled(n, b, sizeof b - 1, count, step);                            \
        ck_assert_msg(lexes_as_binary(s_, n) == (want), "%d x %s in %d bytes",          \
                      (int)(count), #b, (int)(n));                                     \
        free(s_);                                                                      \
    } while (0)

/* A file is binary when more than a quarter of its bytes are junk: control
** bytes other than tab, LF and CR, DEL, and bytes outside well-formed UTF-8;
** files under 32 bytes never are. */
START_TEST(binary_file_boundaries)
{
    BINARY(31, "\x01", 31, 1, 0);
    BINARY(32, "\x01", 8, 1, 0);   /* exactly a quarter */
    BINARY(32, "\x01", 9, 1, 1);
    BINARY(32, "\x7f", 9, 3, 1);
    BINARY(32, "\0", 9, 1, 1);
    BINARY(32, "\t\n\r", 10, 3, 0);
    /* Blocks and the tail after them. */
    BINARY(300, "\x02", 75, 4, 0);
    BINARY(300, "\x02", 76, 3, 1);
    BINARY(300, "\x02", 76, 1, 1);
    /* Invalid UTF-8: stray continuation bytes, bad leads, overlong forms,
    ** surrogates, a sequence cut short by the end of the file. */
    BINARY(32, "\x80", 8, 2, 0);
    BINARY(32, "\x80", 9, 2, 1);
    BINARY(32, "\xff", 9, 1, 1);
    BINARY(300, "\x80", 75, 2, 0);
    BINARY(300, "\x80", 76, 2, 1);
    BINARY(36, "\xE0\x80\x80", 3, 3, 0); /* 9 junk bytes of 36 */
    BINARY(35, "\xE0\x80\x80", 3, 3, 1);
    BINARY(35, "\xED\xA0\x80", 3, 3, 1);
    BINARY(48, "\xF4\x90\x80\x80", 3, 4, 0); /* past U+10FFFF: 12 junk bytes of 48 */
    BINARY(47, "\xF4\x90\x80\x80", 3, 4, 1);
    BINARY(300, "\xE2\x82\xAC", 100, 3, 0);  /* every byte high, all well-formed */
    BINARY(300, "\xC3\xA9", 150, 2, 0);
    BINARY(300, "\xF0\x9F\x98\x80", 75, 4, 0);
    {
        /* 16 control bytes in 64 (a quarter) and 15 well-formed pairs: not
        ** binary; one pair broken makes 17 junk bytes. */
        char s[65];
        memset(s, 'a', 64);
        s[64] = 0;
        memset(s, 0x01, 16);
        for (int i = 0; i < 15; i++) memcpy(s + 16 + 2 * i, "\xC3\xA9", 2);
        ck_assert_int_eq(lexes_as_binary(s, 64), 0);
        s[17] = '(';
        ck_assert_int_eq(lexes_as_binary(s, 64), 1);
        /* A sequence cut by the end of the file is junk. */
        memcpy(s + 17, "\xA9", 1);
        memcpy(s + 62, "\xE2\x82", 2);
        ck_assert_int_eq(lexes_as_binary(s, 64), 1);
        memcpy(s + 61, "\xE2\x82\xAC", 3);
        ck_assert_int_eq(lexes_as_binary(s, 64), 0);
    }
    {
        /* Junk after long plain text: in the last block, in the tail after
        ** the blocks, high bytes well-formed or not. */
        enum { N = 1200 };
        char *s = malloc(N + 1);
        memset(s, 'a', N);
        s[N] = 0;
        memset(s + N - 300, 0x01, 300);
        ck_assert_int_eq(lexes_as_binary(s, N), 0);
        s[N - 301] = 0x7f;
        ck_assert_int_eq(lexes_as_binary(s, N), 1);
        memset(s, 'a', N);
        memset(s + 600, '\x80', 301);
        ck_assert_int_eq(lexes_as_binary(s, N), 1);
        for (int i = 0; i < 150; i++) memcpy(s + 600 + 2 * i, "\xC3\xA9", 2);
        s[900] = 'a';
        ck_assert_int_eq(lexes_as_binary(s, N), 0);
        memset(s, 'a', N);
        s[1190] = 0x01; /* one control byte in the tail */
        ck_assert_int_eq(lexes_as_binary(s, N), 0);
        free(s);
    }
}
END_TEST

START_TEST(nul_byte_ends_the_script)
{
    /* The games' input routines stop at a NUL byte (grammar.md 1.1). */
    char *got = gsc_lex_n("a\nb c\0 \"x /*", 12);
    ck_assert_str_eq(got, "1:1 IDENT a\n2:1 IDENT b\n2:3 IDENT c\n2:4 EOF\n--\n"
                          "2:4: warning: NUL byte ends the script (the game reads no further)\n");
    free(got);
}
END_TEST

START_TEST(token_tables_complete)
{
    for (int code = 0; code < gsc_token_count(); code++) {
        if (code == TK_IFX) continue; /* precedence only */
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
    char *toks = script_dump_tokens(f, profile_get(ATRC_PROFILE_UO), NULL, &d);
    ck_assert_int_eq((int)d.count, 0);
    ck_assert(strstr(toks, "1:2097154 ASSIGN =\n") != NULL);
    free(toks);
    diag_free(&d);
    source_free(f);
    free(src);
}
END_TEST

/* A word ends at the first byte that is not a letter, digit or '_': every
** byte after words of every length, far from the end of the input (the
** scanner tests 16 bytes at once there) and right at it. */
START_TEST(word_ends_every_byte)
{
    static const char cycle[] = "aZ9_";
    char buf[80];
    for (int b = 1; b < 256; b++) {
        int word = (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') || b == '_';
        for (int n = 1; n <= 40; n++) {
            for (int pad = 0; pad <= 20; pad += 20) {
                size_t len = 0;
                for (int i = 0; i < n; i++) buf[len++] = cycle[i % 4];
                buf[len++] = (char)b;
                for (int i = 0; i < pad; i++) buf[len++] = ' ';
                source_file *f = source_from_buffer("w.gsc", buf, len);
                diag_list d;
                diag_init(&d);
                gsc_lexer lx;
                syntax_log log;
                syntax_log_init(&log, f, &d);
                gsc_lexer_init(&lx, f, profile_get(ATRC_PROFILE_UO), &log);
                gsc_token t;
                int code = gsc_lexer_next(&lx, &t);
                ck_assert_msg(code == TK_IDENT && t.n == n + word && t.line == 1 && t.col == 1,
                              "byte %d after %d word bytes (pad %d): code %d, length %d", b, n, pad, code, t.n);
                gsc_lexer_free(&lx);
                syntax_log_free(&log);
                diag_free(&d);
                source_free(f);
            }
        }
    }
}
END_TEST

/* The line table behind excerpts and positions: more lines than the table's
** first guess (one per 32 bytes), CRLF, a last line without a newline. */
START_TEST(line_table)
{
    enum { N = 3000 };
    char *buf = malloc(N + 16);
    memset(buf, '\n', N);
    memcpy(buf + N, "ab\r\ncd", 6);
    source_file *f = source_from_buffer("t.gsc", buf, N + 6);
    const char *text;
    ck_assert_int_eq(source_line(f, 1, &text), 0);
    ck_assert_int_eq(source_line(f, N, &text), 0);
    ck_assert_int_eq(source_line(f, N + 1, &text), 2);
    ck_assert(memcmp(text, "ab", 2) == 0);
    ck_assert_int_eq(source_line(f, N + 2, &text), 2);
    ck_assert(memcmp(text, "cd", 2) == 0);
    ck_assert_int_eq(source_line(f, N + 3, &text), -1);
    ck_assert_int_eq(source_line(f, 0, &text), -1);
    int line, col;
    source_position(f, N + 1, &line, &col);
    ck_assert_int_eq(line, N + 1);
    ck_assert_int_eq(col, 2);
    source_position(f, N + 5, &line, &col);
    ck_assert_int_eq(line, N + 2);
    ck_assert_int_eq(col, 2);
    source_position(f, 17, &line, &col);
    ck_assert_int_eq(line, 18);
    ck_assert_int_eq(col, 1);
    source_free(f);
    f = source_from_buffer("e.gsc", "", 0);
    ck_assert_int_eq(source_line(f, 1, &text), 0);
    ck_assert_int_eq(source_line(f, 2, &text), -1);
    source_free(f);
    free(buf);
}
END_TEST

/* A stopped file (the error cap, nesting too deep) ends at once: the token the
** stopping action made is still returned, then the end of file, every time. */
START_TEST(stopped_file_ends)
{
    const char *text = "a @ 0x1 b c";
    source_file *f = source_from_buffer("t.gsc", text, strlen(text));
    diag_list d;
    diag_init(&d);
    d.max_errors = 1;
    gsc_lexer lx;
    syntax_log log;
    syntax_log_init(&log, f, &d);
    gsc_lexer_init(&lx, f, profile_get(ATRC_PROFILE_UO), &log);
    gsc_token t;
    ck_assert_int_eq(gsc_lexer_next(&lx, &t), TK_IDENT);
    ck_assert_int_eq(gsc_lexer_next(&lx, &t), TK_INT); /* the error on it hit the cap */
    ck_assert_int_eq(t.n, 3);
    ck_assert_int_eq(log.stopped, 1);
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(gsc_lexer_next(&lx, &t), 0);
        ck_assert_int_eq(t.line, 1);
        ck_assert_int_eq(t.col, 12);
        ck_assert_int_eq(t.n, 0);
    }
    ck_assert_int_eq((int)d.count, 2); /* the stray '@' and the cap */
    gsc_lexer_free(&lx);
    syntax_log_free(&log);
    diag_free(&d);
    source_free(f);

    /* One bracket too many: the file ends there. */
    char deep[GSC_MAX_NESTING + 8];
    memset(deep, '[', GSC_MAX_NESTING + 1);
    strcpy(deep + GSC_MAX_NESTING + 1, " x");
    f = source_from_buffer("t.gsc", deep, strlen(deep));
    diag_init(&d);
    syntax_log_init(&log, f, &d);
    gsc_lexer_init(&lx, f, profile_get(ATRC_PROFILE_UO), &log);
    for (int i = 0; i < GSC_MAX_NESTING; i++) ck_assert_int_eq(gsc_lexer_next(&lx, &t), TK_LBRACKET);
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(gsc_lexer_next(&lx, &t), 0);
        ck_assert_int_eq(t.line, 1);
        ck_assert_int_eq(t.col, GSC_MAX_NESTING + 4); /* after the last byte */
    }
    ck_assert_int_eq((int)d.count, 1);
    ck_assert_int_eq(d.items[0].col, GSC_MAX_NESTING + 1);
    gsc_lexer_free(&lx);
    syntax_log_free(&log);
    diag_free(&d);
    source_free(f);
}
END_TEST

Suite *make_lexer_suite(void)
{
    Suite *s = suite_create("lexer");
    TCase *tc = tcase_create("tokens");
    tcase_add_test(tc, identifiers_paths_keywords);
    tcase_add_test(tc, keywords_per_profile);
    tcase_add_test(tc, numbers);
    tcase_add_test(tc, operators);
    tcase_add_test(tc, pointer_brackets);
    tcase_add_test(tc, strings_and_directives);
    tcase_add_test(tc, comments_and_dev_blocks);
    tcase_add_test(tc, line_endings_and_bom);
    tcase_add_test(tc, percent_modulo_or_anim);
    tcase_add_test(tc, casts);
    tcase_add_test(tc, lexical_errors);
    tcase_add_test(tc, binary_file_boundaries);
    tcase_add_test(tc, nul_byte_ends_the_script);
    tcase_add_test(tc, token_tables_complete);
    tcase_add_test(tc, huge_tokens);
    tcase_add_test(tc, word_ends_every_byte);
    tcase_add_test(tc, line_table);
    tcase_add_test(tc, stopped_file_ends);
    suite_add_tcase(s, tc);
    return s;
}
