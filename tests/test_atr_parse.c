/* .atr tokenizer, parser state machine and pruning (stock-behavior.md 1-3). */
#include "atr_testlib.h"

/* Parses with anim_check (nothing pruned) and expects exactly one error. */
static void expect_error(const char *text, const char *expected)
{
    tt *t = tt_parse(text, NULL, ATRC_PROFILE_UO);
    ck_assert_ptr_null(t->f);
    ck_assert_str_eq(tt_diags(t), expected);
    tt_free(t);
}

static void expect_tree(const char *text, const char *refs, atrc_profile profile, const char *expected)
{
    tt *t = tt_parse(text, refs, profile);
    ck_assert_str_eq(tt_diags(t), "");
    ck_assert_str_eq(tt_parsed(t), expected);
    tt_free(t);
}

/* ---- table 2.3, row by row ---- */

START_TEST(row_alias)
{
    expect_error("walk run\n", "x.atr:1:6: error: FIXME: aliases not yet implemented\n");
}
END_TEST

START_TEST(row_name_brace_same_line)
{
    expect_error("walk {\n}\n", "x.atr:1:6: error: bad token\n");
}
END_TEST

START_TEST(row_colon_brace)
{
    expect_error("walk : {\n}\n", "x.atr:1:8: error: unknown anim property\n");
}
END_TEST

START_TEST(row_name_colon_glued)
{
    expect_error("walk: loopsync\n", "x.atr:1:1: error: bad token\n");
}
END_TEST

START_TEST(row_colon_property_glued)
{
    expect_error("walk :loopsync\n", "x.atr:1:6: error: bad token\n");
}
END_TEST

START_TEST(row_properties_then_name)
{
    expect_error("walk : loopsync\nrun\n",
                 "x.atr:2:1: error: properties cannot be applied to primitive animations\n");
}
END_TEST

START_TEST(row_properties_at_eof)
{
    expect_error("walk : loopsync",
                 "x.atr:1:8: error: properties cannot be applied to primitive animations\n");
    expect_error("walk : loopsync\n\n",
                 "x.atr:1:8: error: properties cannot be applied to primitive animations\n");
}
END_TEST

START_TEST(row_properties_then_close)
{
    expect_error("g\n{\nwalk : loopsync\n}\n",
                 "x.atr:4:1: error: properties cannot be applied to primitive animations\n");
}
END_TEST

START_TEST(row_token_after_open)
{
    expect_error("walk\n{ run\n}\n", "x.atr:2:3: error: token not allowed after '{'\n");
}
END_TEST

START_TEST(row_close_at_top)
{
    expect_error("a\n}\nb\n", "x.atr:2:1: error: bad token\n");
}
END_TEST

START_TEST(row_token_after_close)
{
    expect_error("a\n{\nb\n} c\n", "x.atr:4:3: error: token not allowed after '}'\n");
    /* at top level the same-line check comes before the stray-brace check */
    expect_error("} c\n", "x.atr:1:3: error: token not allowed after '}'\n");
}
END_TEST

START_TEST(row_glued_braces)
{
    expect_error("a\n{x\n", "x.atr:2:1: error: bad token\n");
    expect_error("a\n{\nb\n}x\n", "x.atr:4:1: error: bad token\n");
    expect_error("a\n{}\n", "x.atr:2:1: error: bad token\n");
}
END_TEST

START_TEST(row_not_identifiers)
{
    expect_error("a-b\n", "x.atr:1:1: error: bad token\n");
    expect_error("ok\n  a.b\n", "x.atr:2:3: error: bad token\n");
    expect_error("-\n", "x.atr:1:1: error: bad token\n");
    expect_error(":\n", "x.atr:1:1: error: bad token\n");
}
END_TEST

START_TEST(row_unclosed_block)
{
    expect_error("a\n{\nb\n", "x.atr:3:1: error: unexpected end of file\n");
    expect_error("a\n{\n", "x.atr:2:1: error: unexpected end of file\n");
    expect_error("a\n{\nb\n{\nc\n}\n", "x.atr:6:1: error: unexpected end of file\n");
}
END_TEST

START_TEST(row_duplicate_in_block)
{
    expect_error("g\n{\nb\n  b\n}\n", "x.atr:4:3: error: duplicate animation\n");
    expect_error("b\nB\n", "x.atr:2:1: error: duplicate animation\n");
}
END_TEST

START_TEST(no_animation_for_block)
{
    expect_error("{\n}\n", "x.atr:1:1: error: no animation specified for this block\n");
    expect_error("a\n{\nb\n}\n{\n}\n", "x.atr:5:1: error: no animation specified for this block\n");
    /* check order in step 3: length, then same line, then missing name */
    expect_error("{ x\n", "x.atr:1:3: error: token not allowed after '{'\n");
}
END_TEST

START_TEST(unknown_property)
{
    expect_error("a : loopsync sometimes\n{\nb\n}\n", "x.atr:1:14: error: unknown anim property\n");
    /* additive is cod4 only */
    expect_error("a : additive\n{\nb\n}\n", "x.atr:1:5: error: unknown anim property\n");
}
END_TEST

START_TEST(only_first_error)
{
    expect_error("a-b\nc d\n", "x.atr:1:1: error: bad token\n");
}
END_TEST

/* ---- shapes and tokens ---- */

START_TEST(engine_order)
{
    expect_tree("a\nb\n{\nc\nd\n}\ne\n", NULL, ATRC_PROFILE_UO, "root(e b(d c) a)");
    expect_tree("", NULL, ATRC_PROFILE_UO, "root(void)");
}
END_TEST

START_TEST(properties)
{
    expect_tree("g : loopsync complete\n{\nx\n}\nh : NonLoopSync\n{\ny\n}\nk :\n{\nz\n}\n", NULL,
                ATRC_PROFILE_UO, "root(k(z) h:2(y) g:9(x))");
    /* repeated keywords are OR-ed; additive in cod4 */
    expect_tree("g : loopsync LOOPSYNC additive\n{\nx\n}\n", NULL, ATRC_PROFILE_COD4, "root(g:11(x))");
    /* property list ends at the line; the '{' may come after blank lines and comments */
    expect_tree("g : complete\n\n// c\n{\nx\n}\n", NULL, ATRC_PROFILE_UO, "root(g:8(x))");
}
END_TEST

START_TEST(case_insensitive)
{
    expect_tree("Walk\nRUN : LoopSync\n{\nX_y\n}\n", NULL, ATRC_PROFILE_UO, "root(run:1(x_y) walk)");
    tt *t = tt_parse("Walk\n", "walk", ATRC_PROFILE_UO);
    ck_assert_str_eq(tt_parsed(t), "root(walk)");
    tt_free(t);
}
END_TEST

START_TEST(line_endings_and_whitespace)
{
    expect_tree("a\r\nb\r\n{\r\nc\r\n}\r\n", NULL, ATRC_PROFILE_UO, "root(b(c) a)");
    expect_tree("\xEF\xBB\xBF" "a\nb", NULL, ATRC_PROFILE_UO, "root(b a)");
    expect_tree("\ta\n\t\tb\n\t{\n\t\tc\t\n\t}", NULL, ATRC_PROFILE_UO, "root(b(c) a)");
    expect_tree("a\n\f\v\x01" "b\n", NULL, ATRC_PROFILE_UO, "root(b a)");
    /* the BOM is three bytes of whitespace: columns count them */
    expect_error("\xEF\xBB\xBF-\n", "x.atr:1:4: error: bad token\n");
    /* CR is not a line break */
    expect_error("a\rb\n", "x.atr:1:3: error: FIXME: aliases not yet implemented\n");
    /* a non-ASCII byte separates tokens */
    expect_error("a\xC3\xA9" "b\n", "x.atr:1:4: error: FIXME: aliases not yet implemented\n");
    /* identifiers may start with digits */
    expect_tree("123\n1abc\n", NULL, ATRC_PROFILE_UO, "root(1abc 123)");
}
END_TEST

START_TEST(quoted_tokens)
{
    expect_tree("\"walk\"\n", NULL, ATRC_PROFILE_UO, "root(walk)");
    expect_tree("\"a\"\n\"{\"\n\"b\" \":\" \"loopsync\"\n{\n\"c\"\n}\n\"}\"\n", NULL, ATRC_PROFILE_UO,
                "root(a(b:1(c)))");
    /* a quoted token may span lines, contain spaces, or be unterminated */
    expect_error("\"a b\"\n", "x.atr:1:1: error: bad token\n");
    expect_error("x\n \"a\\\"b\"\n", "x.atr:2:2: error: bad token\n");
    expect_error("\"ab\nc\n", "x.atr:1:1: error: bad token\n");
    expect_tree("\"abc", NULL, ATRC_PROFILE_UO, "root(abc)");
    /* "" is an identifier: an empty name */
    tt *t = tt_parse("\"\"\n", NULL, ATRC_PROFILE_UO);
    ck_assert_ptr_nonnull(t->f);
    ck_assert_int_eq(t->f->root->child_count, 1);
    ck_assert_str_eq(t->f->root->first->name, "");
    tt_free(t);
    /* Where the engine reads with Com_ParseOnLine it can only test the text,
    ** so "" there is the end of the line: after a name it is a leaf line, it
    ** ends a property list, and it is allowed after '{' and '}'. */
    expect_tree("a \"\"\n", NULL, ATRC_PROFILE_UO, "root(a)");
    expect_tree("a : loopsync \"\" {\nb\n} \"\"\n", NULL, ATRC_PROFILE_UO, "root(a:1(b))");
    expect_error("g\n\"{\"\"\"\n", "x.atr:2:4: error: unexpected end of file\n");
}
END_TEST

START_TEST(comments)
{
    expect_error("walk//x\n", "x.atr:1:1: error: bad token\n");
    expect_tree("name // : loopsync\nb\n", NULL, ATRC_PROFILE_UO, "root(b name)");
    expect_tree("// a\n/* b\nc */ d\n/*/ e\n/**/f\n", NULL, ATRC_PROFILE_UO, "root(f e d)");
    expect_tree("a\n/* unterminated\nb\n", NULL, ATRC_PROFILE_UO, "root(a)");
    expect_tree("a\n// only a comment", NULL, ATRC_PROFILE_UO, "root(a)");
    /* "/" + "*" + "/" is a whole comment, so b is on a's line */
    expect_error("a /*/ b\n", "x.atr:1:7: error: FIXME: aliases not yet implemented\n");
    /* a newline inside a block comment does not end the line for Com_ParseOnLine */
    expect_error("a /* c\n */ b\n", "x.atr:2:5: error: FIXME: aliases not yet implemented\n");
    expect_error("a\n{ /* x\n */ b\n}\n", "x.atr:3:5: error: token not allowed after '{'\n");
    expect_tree("a\n{ // fine\nb\n} /* fine\n */\n", NULL, ATRC_PROFILE_UO, "root(a(b))");
    /* a comment glued to a token is part of it; after whitespace it is a comment */
    expect_tree("g : loopsync // props end here\n{\nx\n}\n", NULL, ATRC_PROFILE_UO, "root(g:1(x))");
    expect_error("g : loopsync/*x*/\n{\nx\n}\n", "x.atr:1:5: error: unknown anim property\n");
}
END_TEST

START_TEST(long_tokens)
{
    char *text = xmalloc(4000);
    memset(text, 'a', 1500);
    text[1500] = '\n';
    memset(text + 1501, 'a', 1023);
    strcpy(text + 1501 + 1023, "b\n");
    /* both truncate to 1023 'a's: a duplicate in one level */
    expect_error(text, "x.atr:1:1: warning: token longer than 1023 bytes truncated\n"
                       "x.atr:2:1: warning: token longer than 1023 bytes truncated\n"
                       "x.atr:2:1: error: duplicate animation\n");
    text[1501 + 1023] = '\n'; /* second token exactly 1023 bytes: no warning */
    tt *t = tt_parse(text, NULL, ATRC_PROFILE_UO);
    ck_assert_str_eq(tt_diags(t), "x.atr:1:1: warning: token longer than 1023 bytes truncated\n"
                                  "x.atr:2:1: error: duplicate animation\n");
    tt_free(t);
    text[1500] = 0;
    t = tt_parse(text, NULL, ATRC_PROFILE_UO);
    ck_assert_ptr_nonnull(t->f);
    ck_assert_uint_eq(strlen(t->f->root->first->name), 1023);
    tt_free(t);
    /* quoted tokens truncate too */
    text[0] = '"';
    t = tt_parse(text, NULL, ATRC_PROFILE_UO);
    ck_assert_str_eq(tt_diags(t), "x.atr:1:1: warning: token longer than 1023 bytes truncated\n");
    ck_assert_uint_eq(strlen(t->f->root->first->name), 1023);
    tt_free(t);
    free(text);
}
END_TEST

START_TEST(embedded_nul)
{
    tt *t = tt_parse_n("a\nb\0c\nd\n", 8, NULL, 1, ATRC_PROFILE_UO);
    ck_assert_str_eq(tt_diags(t),
                     "x.atr:2:2: warning: NUL byte ends the animation tree (the engine ignores the rest of the file)\n");
    ck_assert_str_eq(tt_parsed(t), "root(b a)");
    tt_free(t);
}
END_TEST

static char *nested_text(int depth, int closed)
{
    char *s = xmalloc((size_t)depth * 6 + 16), *p = s;
    for (int i = 0; i < depth; i++) p += sprintf(p, "a\n{\n");
    p += sprintf(p, "z\n");
    if (closed)
        for (int i = 0; i < depth; i++) p += sprintf(p, "}\n");
    *p = 0;
    return s;
}

START_TEST(deep_nesting)
{
    char *s = nested_text(100000, 1);
    tt *t = tt_parse(s, NULL, ATRC_PROFILE_UO);
    ck_assert_ptr_nonnull(t->f);
    ck_assert_str_eq(tt_diags(t), "");
    int depth = 0;
    for (const atr_node *n = t->f->root; n->first; n = n->first) depth++;
    ck_assert_int_eq(depth, 100001);
    tt_free(t);
    free(s);
    s = nested_text(100000, 0);
    t = tt_parse(s, NULL, ATRC_PROFILE_UO);
    ck_assert_ptr_null(t->f);
    ck_assert_str_eq(tt_diags(t), "x.atr:200001:1: error: unexpected end of file\n");
    tt_free(t);
    free(s);
    /* pruned: only the referenced innermost leaf keeps its ancestors */
    s = nested_text(100000, 1);
    t = tt_parse(s, "z", ATRC_PROFILE_UO);
    ck_assert_ptr_nonnull(t->f);
    tt_free(t);
    t = tt_parse(s, "nothing", ATRC_PROFILE_UO);
    ck_assert_str_eq(tt_parsed(t), "root(void)");
    tt_free(t);
    free(s);
}
END_TEST

START_TEST(many_names_linear)
{
    /* 200,000 distinct names in one level: the duplicate test must not be quadratic */
    size_t n = 200000;
    char *s = xmalloc(n * 10 + 1), *p = s;
    for (size_t i = 0; i < n; i++) p += sprintf(p, "n%zu\n", i);
    tt *t = tt_parse(s, NULL, ATRC_PROFILE_UO);
    ck_assert_ptr_nonnull(t->f);
    ck_assert_int_eq(t->f->root->child_count, (int)n);
    tt_free(t);
    p += sprintf(p, "n77\n");
    t = tt_parse(s, NULL, ATRC_PROFILE_UO);
    ck_assert_str_eq(tt_diags(t), "x.atr:200001:1: error: duplicate animation\n");
    tt_free(t);
    free(s);
}
END_TEST

/* ---- pruning (section 3) ---- */

START_TEST(prune_unreferenced_leaves)
{
    expect_tree("a\nb\n{\nc\nd\n}\ne\n", "c", ATRC_PROFILE_UO, "root(b(c))");
    expect_tree("a\nb\n{\nc\nd\n}\ne\n", "a e", ATRC_PROFILE_UO, "root(e a)");
    /* an unreferenced parent keeps its flags when a child survives */
    expect_tree("g : loopsync\n{\nx\ny\n}\n", "x", ATRC_PROFILE_UO, "root(g:1(x))");
}
END_TEST

START_TEST(prune_placeholders)
{
    /* referenced empty or emptied group: void */
    expect_tree("g\n{\n}\n", "g", ATRC_PROFILE_UO, "root(g(void))");
    expect_tree("g\n{\nx\n}\n", "g", ATRC_PROFILE_UO, "root(g(void))");
    /* a referenced loopsync group gets void_loop */
    expect_tree("g : loopsync\n{\nx\n}\n", "g", ATRC_PROFILE_UO, "root(g:1(void_loop))");
    /* only the parent's own flags choose */
    expect_tree("g : loopsync\n{\nh\n{\n}\n}\n", "g h", ATRC_PROFILE_UO, "root(g:1(h(void)))");
    /* an unreferenced empty group is removed: the root gets void, never void_loop */
    expect_tree("g : loopsync\n{\n}\n", "x", ATRC_PROFILE_UO, "root(void)");
    expect_tree("a\n", "", ATRC_PROFILE_UO, "root(void)");
    expect_tree("", "", ATRC_PROFILE_UO, "root(void)");
    /* an explicit void is an ordinary name */
    expect_tree("void\nvoid_loop\n", "", ATRC_PROFILE_UO, "root(void)");
    tt *t = tt_parse("void\n", "", ATRC_PROFILE_UO);
    ck_assert_int_eq(t->f->root->first->placeholder, 1);
    tt_free(t);
    t = tt_parse("void\n", "void", ATRC_PROFILE_UO);
    ck_assert_int_eq(t->f->root->first->placeholder, 0);
    ck_assert_int_eq(t->f->root->first->line, 1);
    tt_free(t);
}
END_TEST

START_TEST(prune_complete)
{
    /* complete on a referenced parent keeps the whole subtree, placeholders included */
    expect_tree("g : complete\n{\nx\ny\n{\n}\nz : loopsync\n{\n}\n}\n", "g", ATRC_PROFILE_UO,
                "root(g:8(z:1(void_loop) y(void) x))");
    /* forcing is inherited */
    expect_tree("g : complete\n{\nh\n{\ni\n{\nj\n}\n}\n}\n", "g", ATRC_PROFILE_UO, "root(g:8(h(i(j))))");
    /* complete on an unreferenced parent forces nothing */
    expect_tree("g : complete\n{\nx\ny\n}\n", "x", ATRC_PROFILE_UO, "root(g:8(x))");
    expect_tree("g : complete\n{\nx\ny\n}\n", "q", ATRC_PROFILE_UO, "root(void)");
    /* but a forced level below a referenced complete parent keeps an unreferenced complete child */
    expect_tree("g : complete\n{\nh : complete\n{\n}\n}\n", "g", ATRC_PROFILE_UO, "root(g:8(h:8(void)))");
}
END_TEST

START_TEST(prune_anim_check)
{
    expect_tree("a\nb\n{\n}\nc : loopsync\n{\n}\n", NULL, ATRC_PROFILE_UO, "root(c:1(void_loop) b(void) a)");
    tt *t = tt_parse_n("a\nb\n", -1, "", 1, ATRC_PROFILE_UO);
    ck_assert_str_eq(tt_parsed(t), "root(b a)");
    tt_free(t);
}
END_TEST

START_TEST(prune_duplicates)
{
    /* a repeated name is no duplicate when its first occurrence was pruned */
    expect_tree("a\na\n", "", ATRC_PROFILE_UO, "root(void)");
    expect_tree("a\na\n", "b", ATRC_PROFILE_UO, "root(void)");
    /* nor when its first occurrence was an emptied group */
    expect_tree("g\n{\nx\n}\ng\n{\ny\n}\n", "y", ATRC_PROFILE_UO, "root(g(y))");
    tt *t = tt_parse("a\na\n", "a", ATRC_PROFILE_UO);
    ck_assert_str_eq(tt_diags(t), "x.atr:2:1: error: duplicate animation\n");
    tt_free(t);
    /* a kept group followed by the same name is a duplicate */
    t = tt_parse("g\n{\nx\n}\ng\n", "x", ATRC_PROFILE_UO);
    ck_assert_str_eq(tt_diags(t), "x.atr:5:1: error: duplicate animation\n");
    tt_free(t);
    /* different parents never clash in the parser */
    expect_tree("g\n{\na\n}\nh\n{\na\n}\n", NULL, ATRC_PROFILE_UO, "root(h(a) g(a))");
}
END_TEST

START_TEST(positions)
{
    tt *t = tt_parse("\n  alpha\n\tbeta : complete\n{\n gamma\n}\n", NULL, ATRC_PROFILE_UO);
    const atr_node *beta = t->f->root->first, *alpha = beta->next, *gamma = beta->first;
    ck_assert_int_eq(alpha->line, 2);
    ck_assert_int_eq(alpha->col, 3);
    ck_assert_int_eq(beta->line, 3);
    ck_assert_int_eq(beta->col, 2);
    ck_assert_int_eq(gamma->line, 5);
    ck_assert_int_eq(gamma->col, 2);
    tt_free(t);
}
END_TEST

Suite *make_atr_parse_suite(void)
{
    Suite *s = suite_create("atr_parse");
    TCase *tc = tcase_create("messages");
    tcase_add_test(tc, row_alias);
    tcase_add_test(tc, row_name_brace_same_line);
    tcase_add_test(tc, row_colon_brace);
    tcase_add_test(tc, row_name_colon_glued);
    tcase_add_test(tc, row_colon_property_glued);
    tcase_add_test(tc, row_properties_then_name);
    tcase_add_test(tc, row_properties_at_eof);
    tcase_add_test(tc, row_properties_then_close);
    tcase_add_test(tc, row_token_after_open);
    tcase_add_test(tc, row_close_at_top);
    tcase_add_test(tc, row_token_after_close);
    tcase_add_test(tc, row_glued_braces);
    tcase_add_test(tc, row_not_identifiers);
    tcase_add_test(tc, row_unclosed_block);
    tcase_add_test(tc, row_duplicate_in_block);
    tcase_add_test(tc, no_animation_for_block);
    tcase_add_test(tc, unknown_property);
    tcase_add_test(tc, only_first_error);
    suite_add_tcase(s, tc);

    tc = tcase_create("tokens");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, engine_order);
    tcase_add_test(tc, properties);
    tcase_add_test(tc, case_insensitive);
    tcase_add_test(tc, line_endings_and_whitespace);
    tcase_add_test(tc, quoted_tokens);
    tcase_add_test(tc, comments);
    tcase_add_test(tc, long_tokens);
    tcase_add_test(tc, embedded_nul);
    tcase_add_test(tc, deep_nesting);
    tcase_add_test(tc, many_names_linear);
    tcase_add_test(tc, positions);
    suite_add_tcase(s, tc);

    tc = tcase_create("pruning");
    tcase_add_test(tc, prune_unreferenced_leaves);
    tcase_add_test(tc, prune_placeholders);
    tcase_add_test(tc, prune_complete);
    tcase_add_test(tc, prune_anim_check);
    tcase_add_test(tc, prune_duplicates);
    suite_add_tcase(s, tc);
    return s;
}
