/* Fuzz harness 1: the script lexer, parser and compile-stage checks.  The
** whole input is one script; every diagnostic must have a position inside
** the file, the AST must be walkable, and the checks must say the same
** with each function handed on a statement at a time.  Run: make fuzz (tests/fuzz/fuzz.mk). */
#include "fuzz_common.h"
#include "../check_pieces_testlib.h"
#include "check/check_stage.h"
#include "script/script_parse.h"
#include "base/vec.h"

#include <string.h>

#ifndef FUZZ_ENTRY
#define FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

/* Visits every node without recursion (a hostile script can make the AST as
** deep as the file is long) and reads every byte the node claims to own. */
static unsigned long script_walk(const ast_node *root)
{
    VEC(const ast_node *) stack = {0};
    unsigned long sum = 0;
    *VEC_PUSH(stack) = root;
    while (stack.count) {
        const ast_node *n = stack.items[--stack.count];
        if ((unsigned)n->kind >= AST_KIND_COUNT || !ast_kind_name(n->kind)) abort();
        if (n->line < 1 || n->col < 1) abort();
        if (n->text)
            for (size_t i = 0; i < n->len; i++) sum += (unsigned char)n->text[i];
        for (const ast_node *c = n->child; c; c = c->next) *VEC_PUSH(stack) = c;
    }
    VEC_FREE(stack);
    return sum;
}

/* The checks' diagnostics of src under p into out (sorted by check_end):
** on the items of root, or (root NULL) parsed again with every function
** handed on a statement at a time, as a long one is. */
static void checks_of(source_file *src, atrc_profile p, const ast_node *root, diag_list *out)
{
    atrc_options opts;
    memset(&opts, 0, sizeof opts);
    opts.profile = p;
    check_state *st = check_begin(src, profile_get(opts.profile), &opts, out);
    if (root) {
        for (const ast_node *c = root->child; c; c = c->next) check_item(st, c);
    } else {
        arena scratch;
        diag_list syntax;
        arena_init(&scratch);
        diag_init(&syntax);
        script_parse_stream(src, profile_get(p), NULL, &scratch, &syntax, check_testlib_item, check_testlib_function, st, 0);
        diag_free(&syntax);
        arena_free_all(&scratch);
    }
    check_end(st, NULL);
}

int FUZZ_ENTRY(const uint8_t *data, size_t size);
int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    source_file *src = source_from_buffer("fuzz.gsc", (const char *)data, size);
    arena a;
    diag_list diags;
    arena_init(&a);
    diag_init(&diags);
    /* The first byte picks the profile (G1 and G2 lexers and grammars). */
    atrc_profile p = size ? (atrc_profile)(data[0] % 4) : ATRC_PROFILE_UO;
    ast_node *root = script_parse(src, profile_get(p), NULL, &a, &diags);
    if (!root || root->kind != AST_FILE) abort();
    script_walk(root);
    /* The compile-stage checks on the same items, under the profile that
    ** parsed them; the same with the functions in pieces. */
    diag_list checked, streamed;
    diag_init(&checked);
    diag_init(&streamed);
    checks_of(src, p, root, &checked);
    checks_of(src, p, NULL, &streamed);
    if (streamed.count != checked.count) abort();
    for (size_t i = 0; i < checked.count; i++) {
        const diag *x = &checked.items[i], *y = &streamed.items[i];
        if (x->line != y->line || x->col != y->col || x->severity != y->severity || strcmp(x->message, y->message))
            abort();
    }
    /* Every diagnostic must point inside the file (or at its end). */
    for (int l = 0; l < 2; l++) {
        const diag_list *d = l ? &checked : &diags;
        for (size_t i = 0; i < d->count; i++) {
            const diag *g = &d->items[i];
            if (g->src && (g->line < 1 || g->col < 1 || (size_t)g->line > size + 1)) abort();
        }
    }
    diag_print(&diags, NULL, fuzz_sink());
    diag_print(&checked, NULL, fuzz_sink());
    diag_free(&diags);
    diag_free(&checked);
    diag_free(&streamed);
    arena_free_all(&a);
    source_free(src);
    return 0;
}
