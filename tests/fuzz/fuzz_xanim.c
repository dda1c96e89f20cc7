/* Fuzz harness 3: xanim headers.  The input is the whole asset file: it is
** decoded by xanim_read_header under every profile, then served as the asset
** of every leaf of a small fixed tree, so that the loader's messages (out of
** date, malformed, ...) and sync setup run on whatever the header says. */
#include "fuzz_common.h"
#include "tree/atr.h"
#include "game/profile.h"

#include <string.h>
#include <unistd.h>

#ifndef FUZZ_ENTRY
#define FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

static const char xanf_tree_text[] =
    "group : loopsync\n{\n\tleaf_a\n\tinner\n\t{\n\t\tleaf_b\n\t}\n}\n"
    "other : nonloopsync\n{\n\tleaf_c\n}\n"
    "plain\n";

static const uint8_t *xanf_data;
static size_t xanf_size;

static int xanf_all(void *ud, const char *name)
{
    (void)ud;
    (void)name;
    return 1;
}

static int xanf_bind(void *ud, const char *name, int node_index)
{
    (void)ud;
    (void)name;
    (void)node_index;
    return 0;
}

/* Every leaf but void/void_loop is the fuzzed file (those use built-ins). */
static int xanf_read(void *ud, const char *name, unsigned char *buf, size_t n, size_t *got,
                     const char **where, const char **err)
{
    (void)ud;
    (void)err;
    *where = "xanim/fuzz";
    if (strncmp(name, "void", 4) == 0) return 0;
    *got = n < xanf_size ? n : xanf_size;
    if (*got) memcpy(buf, xanf_data, *got);
    return 1;
}

int FUZZ_ENTRY(const uint8_t *data, size_t size);
int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    for (int p = ATRC_PROFILE_UO; p <= ATRC_PROFILE_COD4; p++) {
        xanim_header h;
        xanim_status st = xanim_read_header(data, size, profile_get((atrc_profile)p), &h);
        if (st != XANIM_OK && st != XANIM_TRUNCATED && st != XANIM_BAD_VERSION) abort();
        if (st == XANIM_OK && size < 9) abort();
    }

    xanf_data = data;
    xanf_size = size;

    for (int p = ATRC_PROFILE_UO; p <= ATRC_PROFILE_COD4; p++) {
        atrc_profile profile = (atrc_profile)p;
        source_file *src = source_from_buffer("animtrees/fuzz.atr", xanf_tree_text, sizeof xanf_tree_text - 1);
        arena a;
        diag_list diags;
        arena_init(&a);
        diag_init(&diags);
        atr_refs refs = {NULL, xanf_all, 0};
        atr_file *f = atr_parse(src, &refs, 0, profile_get(profile), &a, &diags);
        if (!f) abort(); /* the fixed tree is valid */
        atr_binder binder = {NULL, xanf_bind};
        atrc_tree tree;
        memset(&tree, 0, sizeof tree);
        if (atr_build(f, "fuzz", src, &binder, profile_get(profile), &a, &diags, &tree) != 0) abort();
        atr_asset_finder finder = {NULL, xanf_read};
        atr_resolve_assets(&tree, src, &finder, profile_get(profile), &diags);
        atr_sync_setup(&tree, src, profile_get(profile), &diags);
        for (int i = 0; i < tree.node_count; i++) {
            double len;
            if (atrc_anim_length(&tree, i, &len) == 0 && !(len == len && len - len == 0)) abort(); /* finite */
        }
        diag_print(&diags, NULL, fuzz_sink());
        diag_free(&diags);
        arena_free_all(&a);
        source_free(src);
    }
    return 0;
}
