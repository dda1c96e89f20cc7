/* Fuzz harness 2: the .atr parser, then (when it succeeds) the compact tree
** build, sync setup and the tree queries.
**
** Input layout: byte 0 = options, byte 1 = seed, the rest = the .atr text.
**   byte 0 bits 0-1: profile (uo, cod1, cod2, cod4); bit 2: anim_check;
**          bit 3: every name is referenced; bit 4: leaves get no asset
**          (looping unknown, as under --no-xanim).
**   reference set: names starting with 'r' are always referenced, names
**          starting with 'x' never, any other by a hash of (name, seed) —
**          so a seed file can say exactly what it wants kept.
**   leaves: looping and frame data come from the same hash. */
#include "fuzz_common.h"
#include "tree/atr.h"
#include "game/profile.h"

#include <string.h>

#ifndef FUZZ_ENTRY
#define FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

typedef struct atrf_refs {
    uint32_t seed;
    int all;
} atrf_refs;

static int atrf_contains(void *ud, const char *name)
{
    const atrf_refs *r = ud;
    if (r->all || name[0] == 'r') return 1;
    if (name[0] == 'x') return 0;
    return fuzz_hash(name, r->seed) % 3 != 0;
}

/* Names already bound: a chained hash set, arena-allocated. */
#define ATRF_BUCKETS 1024
typedef struct atrf_bound {
    const char *name;
    struct atrf_bound *next;
} atrf_bound;

typedef struct atrf_binder {
    atrf_refs *refs;
    arena *a;
    atrf_bound *buckets[ATRF_BUCKETS];
} atrf_binder;

static int atrf_bind(void *ud, const char *name, int node_index)
{
    atrf_binder *b = ud;
    if (node_index <= 0 || node_index >= ATRC_MAX_NODES + 1) abort();
    if (!atrf_contains(b->refs, name)) return 0;
    atrf_bound **slot = &b->buckets[fuzz_hash(name, 0) % ATRF_BUCKETS];
    for (atrf_bound *e = *slot; e; e = e->next)
        if (strcmp(e->name, name) == 0) return 1;
    atrf_bound *e = arena_alloc(b->a, sizeof *e);
    e->name = arena_strdup(b->a, name);
    e->next = *slot;
    *slot = e;
    return 0;
}

/* Structural invariants of a built tree (stock-behavior.md 4.3). */
static void atrf_check_tree(const atrc_tree *t)
{
    if (t->node_count < 2 || t->node_count > ATRC_MAX_NODES) abort();
    if (t->nodes[0].parent != -1 || t->nodes[0].child_count < 1) abort();
    for (int i = 0; i < t->node_count; i++) {
        const atrc_node *n = &t->nodes[i];
        if (!n->name) abort();
        if (i > 0 && (n->parent < 0 || n->parent >= i)) abort();
        if (n->child_count > 0) {
            if (n->first_child <= i || n->first_child + n->child_count > t->node_count) abort();
            for (int c = 0; c < n->child_count; c++)
                if (t->nodes[n->first_child + c].parent != i) abort();
        }
    }
}

static void atrf_fake_assets(atrc_tree *t, uint32_t seed, int unknown)
{
    for (int i = 0; i < t->node_count; i++) {
        atrc_node *n = &t->nodes[i];
        if (n->child_count) continue;
        uint32_t h = fuzz_hash(n->name, seed);
        if (unknown) {
            n->looping = -1;
            continue;
        }
        n->looping = strcmp(n->name, "void_loop") == 0 ? 1 : strcmp(n->name, "void") == 0 ? 0 : (int)(h & 1);
        n->has_asset = 1;
        n->frames = (h >> 1) % 300;
        n->frame_rate = (int)((h >> 10) % 4); /* includes 0 */
        t->state->default_asset[i] = (h >> 12) % 5 == 0;
    }
}

static void atrf_query(const atrc_tree *t, atrc_profile profile)
{
    unsigned long sum = 0;
    for (int i = -1; i <= t->node_count; i++) {
        double len = 0;
        sum += (unsigned)atrc_is_primitive(t, i) + (unsigned)atrc_has_time(t, i);
        sum += (unsigned)atrc_is_looped(t, i) + (unsigned)atrc_child_count(t, i);
        const char *name = atrc_anim_name(t, i, profile);
        if (name) sum += strlen(name);
        if (atrc_anim_length(t, i, &len) == 0 && !(len == len && len - len == 0)) abort(); /* finite */
    }
    (void)sum;
}

int FUZZ_ENTRY(const uint8_t *data, size_t size);
int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    if (size < 2) return 0;
    unsigned opt = data[0];
    atrc_profile profile = (atrc_profile)(opt & 3u);
    atrf_refs refs = {data[1], (opt & 8u) != 0};
    source_file *src = source_from_buffer("animtrees/fuzz.atr", (const char *)data + 2, size - 2);
    arena a;
    diag_list diags;
    arena_init(&a);
    diag_init(&diags);

    atr_refs r = {&refs, atrf_contains, (opt & 32u) != 0};
    atr_file *f = atr_parse(src, &r, (opt & 4u) != 0, profile_get(profile), &a, &diags);
    if (f) {
        atrf_binder *bs = calloc(1, sizeof *bs);
        if (!bs) abort();
        bs->refs = &refs;
        bs->a = &a;
        atr_binder binder = {bs, atrf_bind};
        atrc_tree tree;
        memset(&tree, 0, sizeof tree);
        if (atr_build(f, "fuzz", src, &binder, profile_get(profile), &a, &diags, &tree) == 0) {
            atrf_check_tree(&tree);
            atr_pruned *pruned;
            size_t np = atr_pruned_list(f, &a, &pruned);
            if (np && !(opt & 32u)) abort(); /* kept only when asked */
            for (size_t i = 0; i < np; i++) /* a kept parent, or a removed one listed earlier */
                if ((pruned[i].parent < 0) == (pruned[i].pruned_parent < 0) || pruned[i].parent >= tree.node_count ||
                    pruned[i].pruned_parent >= (int)i)
                    abort();
            atrf_fake_assets(&tree, refs.seed, (opt & 16u) != 0);
            atr_sync_setup(&tree, src, profile_get(profile), &diags);
            atrf_query(&tree, profile);
        }
        free(bs);
    } else if (diags.errors == 0) {
        abort(); /* a failed parse must say why */
    }
    diag_print(&diags, NULL, fuzz_sink());
    diag_free(&diags);
    arena_free_all(&a);
    source_free(src);
    return 0;
}
