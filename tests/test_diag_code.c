/* The diagnostic form: every message atrc prints has a stable code (checked
** over every golden run's output and over one example of each spec'd
** message), end positions, related places and the structured enumeration. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atrc.h"
#include "base/arena.h"
#include "base/json_read.h"
#include "gamefile_testlib.h"
#include "tmpdir_testlib.h"

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    size_t n = 0, cap = 0, k;
    char chunk[4096];
    while ((k = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (n + k + 1 > cap) {
            cap = (n + k + 1) * 2;
            buf = realloc(buf, cap);
        }
        memcpy(buf + n, chunk, k);
        n += k;
    }
    fclose(f);
    if (!buf) buf = calloc(1, 1);
    buf[n] = 0;
    *len = n;
    return buf;
}

/* "PATH:LINE:COL: error: MSG" -> MSG (without " [-Werror]"), or NULL. */
static const char *located_message(char *line)
{
    static const char *const sev[] = {": error: ", ": warning: ", ": note: "};
    if (strncmp(line, "atrc:", 5) == 0) return NULL;
    for (size_t k = 0; k < 3; k++) {
        char *p = strstr(line, sev[k]);
        if (!p || p == line || p[-1] < '0' || p[-1] > '9') continue;
        char *msg = p + strlen(sev[k]);
        char *w = strstr(msg, " [-Werror]");
        if (w && w[10] == 0) *w = 0;
        return msg;
    }
    return NULL;
}

static int checked_json, checked_text;

static void check_stderr(const char *path)
{
    size_t len;
    char *text = slurp(path, &len);
    ck_assert_ptr_nonnull(text);
    for (char *line = text; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = 0;
        const char *msg = located_message(line);
        if (msg) {
            ck_assert_msg(atrc_diagnostic_code(msg) != NULL, "%s: no code for '%s'", path, msg);
            checked_text++;
        }
        line = nl ? nl + 1 : NULL;
    }
    free(text);
}

static void check_json(const char *path)
{
    size_t len;
    char *text = slurp(path, &len);
    ck_assert_ptr_nonnull(text);
    arena a;
    arena_init(&a);
    json_error err;
    json_value *doc = strstr(text, "\"diagnostics\"") && text[0] == '{' ? json_parse(text, len, &a, &err) : NULL;
    const json_value *diags = doc ? json_get(doc, "diagnostics") : NULL;
    for (size_t i = 0; diags && diags->type == JSON_ARRAY && i < diags->u.array.count; i++) {
        const json_value *d = diags->u.array.items[i];
        const json_value *code = json_get(d, "code"), *msg = json_get(d, "message");
        const json_value *el = json_get(d, "end_line"), *ec = json_get(d, "end_column");
        const json_value *l = json_get(d, "line"), *c = json_get(d, "column");
        ck_assert_ptr_nonnull(msg);
        ck_assert_msg(code && code->type == JSON_STRING, "%s: diagnostic %zu has no code", path, i);
        ck_assert_str_eq(code->u.string.s, atrc_diagnostic_code(msg->u.string.s));
        ck_assert_ptr_nonnull(el);
        ck_assert_ptr_nonnull(ec);
        if (l->type == JSON_NUMBER) {
            ck_assert_int_eq(el->type, JSON_NUMBER);
            ck_assert(el->u.number.i > l->u.number.i ||
                      (el->u.number.i == l->u.number.i && ec->u.number.i >= c->u.number.i));
        } else {
            ck_assert_int_eq(el->type, JSON_NULL);
        }
        checked_json++;
    }
    arena_free_all(&a);
    free(text);
}

/* Every golden run: each located diagnostic on standard error and each
** diagnostic of a JSON output has a code (JSON: the one its message maps to). */
START_TEST(goldens_have_codes)
{
    DIR *top = opendir("tests/golden");
    ck_assert_ptr_nonnull(top);
    struct dirent *g;
    while ((g = readdir(top)) != NULL) {
        if (g->d_name[0] == '.') continue;
        char dir[512];
        snprintf(dir, sizeof dir, "tests/golden/%s", g->d_name);
        DIR *d = opendir(dir);
        if (!d) continue;
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            size_t n = strlen(e->d_name);
            char path[1024];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            if (n > 7 && strcmp(e->d_name + n - 7, ".stderr") == 0) check_stderr(path);
            else if (n > 7 && strcmp(e->d_name + n - 7, ".stdout") == 0) check_json(path);
        }
        closedir(d);
    }
    closedir(top);
    ck_assert_int_gt(checked_json, 20);
    ck_assert_int_gt(checked_text, 200);
}
END_TEST

/* One example of every message the specs list (grammar.md 1.3, 2.3, 3.2,
** 4.5; stock-behavior.md's tree errors) and atrc's own, with its code. */
static const struct {
    const char *message, *code;
} examples[] = {
    {"stray '@'", "bad-token"},
    {"bad token", "bad-token"},
    {"max string length exceeded (8192 bytes)", "max-string-length"},
    {"expected ';' before 'x'", "bad-syntax"},
    {"expected ';' before end of file", "unexpected-end-of-file"},
    {"'{' opened at line 3 is never closed", "unexpected-end-of-file"},
    {"function 'f' already defined", "duplicate-function"},
    {"function already defined", "duplicate-function"},
    {"function 'f' already defined in 'maps/mp/gametypes/dm.gsc'", "include-function-clash"},
    {"cannot recurse /#", "cannot-recurse-dev"},
    {"#/ has no matching /#", "unmatched-dev-close"},
    {"/# has no matching #/", "unmatched-dev-open"},
    {"cannot put #using_animtree inside /# ... #/ comment", "using-animtree-in-dev"},
    {"bad anim tree name", "bad-anim-tree-name"},
    {"#using_animtree was not specified", "no-using-animtree"},
    {"expression list must have 1 or 3 parameters", "expression-list-size"},
    {"type string is not a float", "vector-not-float"},
    {"divide by 0", "divide-by-zero"},
    {"pair 'a' and '1' has unmatching types 'string' and 'int'", "unmatching-types"},
    {"conditional expression cannot be always false", "always-false-condition"},
    {"uninitialised variable 'x'", "uninitialised-variable"},
    {"unreachable code", "unreachable-code"},
    {"missing case statement", "missing-case"},
    {"duplicate case expression", "duplicate-case"},
    {"case expression must be an int or string", "case-type"},
    {"case index 8388608 out of range", "case-index-range"},
    {"illegal case statement", "illegal-case"},
    {"illegal default statement", "illegal-case"},
    {"cannot use /# ... #/ comments directly around a break statement", "dev-around-statement"},
    {"illegal break statement", "illegal-break"},
    {"illegal continue statement", "illegal-continue"},
    {"wait not allowed in /# ... #/ comment", "wait-in-dev"},
    {"waittillmatch not allowed in developer script", "waittill-in-dev"},
    {"not an object", "not-an-object"},
    {"not an lvalue", "not-an-lvalue"},
    {"not an array, string, or vector", "not-an-array"},
    {"$ can only be used in the script debugger", "dollar-debugger-only"},
    {"$ and self field can only be used in the script debugger", "debugger-only-assignment"},
    {"self field can only be used in the script debugger", "self-field-debugger-only"},
    {"illegal function name", "illegal-function-name"},
    {"unknown (builtin) method 'foo': not defined in this file", "unknown-builtin"},
    {"unknown function 'foo': not defined in this file", "unknown-function"},
    {"normal script cannot reference a function in a /# ... #/ comment", "reference-into-dev"},
    {"normal script cannot reference /# ... #/ comment", "reference-into-dev"},
    {"Could not find script 'maps/mp/_foo'", "script-not-found"},
    {"Duplicate #include", "duplicate-include"},
    {"return value of developer command can not be accessed if not in a /# ... #/ comment", "dev-command-value"},
    {"developer command can only be used as a statement if not in a /# ... #/ comment", "dev-command-value"},
    {"parameter count exceeds 256", "too-many-parameters"},
    {"function exceeds operand stack size", "operand-stack-overflow"},
    {"LOCAL_VAR_STACK_SIZE exceeded", "too-many-locals"},
    {"MAX_PRECACHE_ENTRIES exceeded", "max-precache-entries"},
    {"unexpected end of file", "unexpected-end-of-file"},
    {"duplicate animation", "duplicate-animation"},
    {"duplicate animation 'a' in 'animtrees/t.atr'", "duplicate-animation"},
    {"unknown anim property", "unknown-anim-property"},
    {"properties cannot be applied to primitive animations", "properties-on-leaf"},
    {"token not allowed after '{'", "token-after-brace"},
    {"no animation specified for this block", "block-without-animation"},
    {"animation cannot be sync looping and sync nonlooping", "sync-conflict"},
    {"unknown anim tree 'x': no animtrees/x.atr in the game directories searched", "unknown-anim-tree"},
    {"animation 'wlak' not defined in anim tree 'generic_human'", "undefined-animation"},
    {"maximum animation tree count exceeded (127)", "too-many-trees"},
    {"Cannot find 'xanim/idle'", "xanim-not-found"},
    {"Couldn't find xanim 'idle', using default xanim 'void' instead", "xanim-default"},
    {"cannot read 'a.gsc': No such file or directory", "cannot-read"},
    {"'x' is not defined in this file and is not a known cod2 builtin function; it may still be", "maybe-sp-builtin"},
    {"'(' opened at line 1 is never closed", "unexpected-end-of-file"},
    {"expected 'function' or 'method' (a builtin list has lines 'function NAME'", "builtin-list-syntax"},
    {"function 'x' is listed already", "builtin-listed-twice"},
    {"BG_AnimParseAnimScript: expected 'state'", "playeranim-expected-state"},
    {"BG_AnimParseAnimScript: expected 'statechange', got 'x'", "playeranim-expected-statechange"},
    {"BG_AnimParseAnimScript: unexpected 'x'", "playeranim-unexpected-token"},
    {"BG_ParseCommands: expected animation", "playeranim-expected-animation"},
    {"BG_IndexForString: unknown token 'x'", "playeranim-unknown-token"},
    {"Could not find label 'main' in script 'maps/x'", "label-not-found"},
    {"unknown gametype 'x': the gametypes on the search path are dm", "unknown-gametype"},
};

START_TEST(spec_messages_have_codes)
{
    for (size_t i = 0; i < sizeof examples / sizeof examples[0]; i++) {
        const char *c = atrc_diagnostic_code(examples[i].message);
        ck_assert_msg(c && strcmp(c, examples[i].code) == 0, "'%s' -> %s, want %s", examples[i].message,
                      c ? c : "(none)", examples[i].code);
    }
    ck_assert_ptr_null(atrc_diagnostic_code("some text atrc never prints"));
}
END_TEST

/* Codes are kebab-case, and the list names each once. */
START_TEST(code_list)
{
    size_t n = atrc_diagnostic_code_count();
    ck_assert_uint_gt(n, 80);
    for (size_t i = 0; i < n; i++) {
        const char *c = atrc_diagnostic_code_name(i);
        ck_assert_ptr_nonnull(c);
        for (const char *p = c; *p; p++) ck_assert((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-');
        for (size_t k = 0; k < i; k++) ck_assert_str_ne(c, atrc_diagnostic_code_name(k));
    }
    ck_assert_ptr_null(atrc_diagnostic_code_name(n));
    /* documented: README.md names each code as `code` */
    size_t len;
    char *readme = slurp("README.md", &len);
    ck_assert_ptr_nonnull(readme);
    for (size_t i = 0; i < n; i++) {
        char quoted[128];
        snprintf(quoted, sizeof quoted, "`%s`", atrc_diagnostic_code_name(i));
        ck_assert_msg(strstr(readme, quoted) != NULL, "README.md does not list %s", quoted);
    }
    free(readme);
}
END_TEST

/* A context's diagnostics, enumerated with code, range and related places:
** the end of the token at the start; byte columns after a non-ASCII comment. */
START_TEST(structured_diagnostics)
{
    char dir[] = "/tmp/atrc-diagform-XXXXXX";
    ck_assert_ptr_nonnull(os_make_temp_dir(dir));
    char path[512];
    snprintf(path, sizeof path, "%s/animtrees", dir);
    os_mkdir(path, 0777);
    snprintf(path, sizeof path, "%s/animtrees/t.atr", dir);
    FILE *f = fopen(path, "wb");
    fputs("idle\nleft\n{\n\tshared\n}\nright\n{\n\tshared\n}\n", f);
    fclose(f);
    atrc_options o = {0};
    o.no_xanim = 1;
    atrc_ctx *ctx = atrc_new(&o);
    atrc_add_game_dir(ctx, dir);
    /* "é" is two bytes: after the comment, %wlak starts at byte column 20 of line 3. */
    const char *src = "#using_animtree(\"t\");\n// caf\xc3\xa9\nf() { /* \xc3\xa9 */ x = %wlak; y = %shared; }\n";
    atrc_add_script_buffer(ctx, "a.gsc", src, strlen(src));
    atrc_build_trees(ctx);
    size_t n = atrc_diagnostic_count(ctx);
    ck_assert_uint_eq(n, 2);
    atrc_diagnostic d;
    int seen_dup = 0, seen_undef = 0;
    for (size_t i = 0; i < n; i++) {
        ck_assert_int_eq(atrc_get_diagnostic(ctx, i, &d), 0);
        if (strcmp(d.code, "undefined-animation") == 0) {
            seen_undef = 1;
            ck_assert_str_eq(d.where.file, "a.gsc");
            ck_assert_int_eq(d.where.line, 3);
            ck_assert_int_eq(d.where.column, 20);
            ck_assert_int_eq(d.where.end_line, 3);
            ck_assert_int_eq(d.where.end_column, 25);
            ck_assert_uint_eq(d.related_count, 1);
            ck_assert_int_eq(d.related[0].where.line, 1);
            ck_assert_int_eq(d.related[0].where.column, 1);
            ck_assert_int_eq(d.related[0].where.end_column, 16);
        } else {
            ck_assert_str_eq(d.code, "duplicate-animation");
            seen_dup = 1;
            ck_assert_str_eq(d.where.file, path);
            ck_assert_int_eq(d.where.line, 4);
            ck_assert_int_eq(d.where.column, 2);
            ck_assert_int_eq(d.where.end_column, 8);
            ck_assert_uint_eq(d.related_count, 1);
            ck_assert_int_eq(d.related[0].where.line, 8);
            ck_assert_int_eq(d.related[0].where.column, 2);
            ck_assert_str_eq(d.related[0].message, "also defined here");
        }
    }
    ck_assert(seen_dup && seen_undef);
    ck_assert_int_eq(atrc_get_diagnostic(ctx, n, &d), -1);
    atrc_free(ctx);
    ck_assert_int_eq(remove_tree(dir), 0);
}
END_TEST

/* A walked script's diagnostic names the #include that loaded it; a second
** definition of a function names the first. */
START_TEST(related_include_and_first_definition)
{
    char dir[] = "/tmp/atrc-related-XXXXXX";
    ck_assert_ptr_nonnull(os_make_temp_dir(dir));
    put_game_file(dir, "maps/entry.gsc", "#include maps\\_lib;\nmain() { lib(); }\n");
    put_game_file(dir, "maps/_lib.gsc", "lib() { }\n\nLib() { }\n");
    atrc_options o = {0};
    o.profile = ATRC_PROFILE_COD2;
    o.no_xanim = 1;
    atrc_ctx *ctx = atrc_new(&o);
    atrc_add_game_dir(ctx, dir);
    atrc_walk_script(ctx, "maps/entry");
    atrc_build_trees(ctx);
    ck_assert_uint_eq(atrc_diagnostic_count(ctx), 1);
    atrc_diagnostic d;
    ck_assert_int_eq(atrc_get_diagnostic(ctx, 0, &d), 0);
    ck_assert_str_eq(d.code, "duplicate-function");
    ck_assert_int_eq(d.where.line, 3);
    ck_assert_int_eq(d.where.column, 1);
    ck_assert_int_eq(d.where.end_column, 4);
    ck_assert_uint_eq(d.related_count, 2);
    ck_assert_str_eq(d.related[0].message, "first defined here");
    ck_assert_int_eq(d.related[0].where.line, 1);
    ck_assert_int_eq(d.related[0].where.column, 1);
    ck_assert_str_eq(d.related[1].message, "loaded from here");
    ck_assert_ptr_nonnull(strstr(d.related[1].where.file, "maps/entry.gsc"));
    ck_assert_int_eq(d.related[1].where.line, 1);
    ck_assert_int_eq(d.related[1].where.column, 1);
    atrc_free(ctx);
    ck_assert_int_eq(remove_tree(dir), 0);
}
END_TEST

Suite *make_diag_code_suite(void)
{
    Suite *s = suite_create("diag_code");
    TCase *tc = tcase_create("codes");
    tcase_add_test(tc, goldens_have_codes);
    tcase_add_test(tc, spec_messages_have_codes);
    tcase_add_test(tc, code_list);
    tcase_add_test(tc, structured_diagnostics);
    tcase_add_test(tc, related_include_and_first_definition);
    suite_add_tcase(s, tc);
    return s;
}
