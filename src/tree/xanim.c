/* xanim assets as the tree loader sees them (stock-behavior.md 4.8, 7): the
** fixed header (v14: 9 bytes; cod4 v17: 10 bytes, little-endian, unaligned)
** and the per-leaf resolution with each game's handling of missing or bad
** files.  Only the header is read, whatever the size of the file. */
#include "game/profile.h"
#include "tree/atr.h"

#include <string.h>

/* Built-in `void` / `void_loop` when no game directory provides them: one
** stored frame at 30 fps, non-looping / looping (so a length of 0 s and
** 1/30 s).  The stock files' contents are not known (stock-behavior.md 9.5). */
#define BUILTIN_FRAMES 1u
#define BUILTIN_RATE 30

static unsigned u16le(const unsigned char *p)
{
    return (unsigned)p[0] | ((unsigned)p[1] << 8);
}

static int s16le(const unsigned char *p)
{
    unsigned v = u16le(p);
    return v >= 0x8000u ? (int)v - 0x10000 : (int)v;
}

static size_t header_size(const profile_rules *rules)
{
    return (size_t)rules->xanim_header_size;
}

static int expected_version(const profile_rules *rules)
{
    return rules->xanim_version;
}

xanim_status xanim_read_header(const unsigned char *data, size_t len, const profile_rules *rules,
                               xanim_header *out)
{
    memset(out, 0, sizeof *out);
    if (!data || len < 2) return XANIM_TRUNCATED;
    out->version = s16le(data);
    if (out->version != expected_version(rules)) return XANIM_BAD_VERSION;
    if (len < header_size(rules)) return XANIM_TRUNCATED;
    out->frames = u16le(data + 2);
    out->bones = s16le(data + 4);
    out->flags = data[6];
    if (rules->xanim_has_asset_type) {
        out->asset_type = data[7];
        out->frame_rate = s16le(data + 8);
    } else {
        out->frame_rate = s16le(data + 7);
    }
    return XANIM_OK;
}

/* The asset data a leaf ends up with. */
typedef struct asset {
    int looping;
    unsigned frames;
    int frame_rate;
} asset;

typedef struct resolver {
    source_file *src;
    const atr_asset_finder *finder;
    const profile_rules *rules;
    diag_list *diags;
    int lenient;          /* cod2/cod4: a failed load is a warning and the `void` default */
    int have_default;
    asset default_asset;  /* cod2/cod4: what a missing xanim becomes */
} resolver;

typedef enum { LOAD_OK, LOAD_MISSING, LOAD_FAILED } load_result;

/* Reads the header of xanim/<name>.  With report set, a file that exists but
** cannot be used is reported at (line, col); a missing file is the caller's. */
static load_result load_asset(resolver *r, const char *name, int report, int line, int col,
                              asset *out)
{
    if (!r->finder || !r->finder->read) return LOAD_MISSING;
    diag_severity sev = r->lenient ? DIAG_WARNING : DIAG_ERROR;
    size_t need = header_size(r->rules);
    unsigned char buf[16];
    size_t got = 0;
    const char *where = NULL, *err = NULL;
    int found = r->finder->read(r->finder->ud, name, buf, need, &got, &where, &err);
    if (found == 0) return LOAD_MISSING;
    if (found < 0) {
        if (report) r->diags->read_failures++;
        if (report)
            diag_add(r->diags, sev, r->src, line, col, "cannot read xanim '%s' (%s: %s)", name,
                     where ? where : name, err ? err : "read error");
        return LOAD_FAILED;
    }
    xanim_header h;
    switch (xanim_read_header(buf, got, r->rules, &h)) {
    case XANIM_OK:
        out->looping = (h.flags & 1u) != 0;
        out->frames = h.frames;
        out->frame_rate = h.frame_rate;
        return LOAD_OK;
    case XANIM_BAD_VERSION:
        if (report)
            diag_add(r->diags, sev, r->src, line, col, "xanim '%s' out of date (version %d, expecting %d)",
                     name, h.version, expected_version(r->rules));
        return LOAD_FAILED;
    case XANIM_TRUNCATED:
    default:
        if (!report) return LOAD_FAILED;
        if (got == 0 && r->lenient) /* CoD2/CoD4's own words for an empty file (7.3) */
            diag_add(r->diags, sev, r->src, line, col, "xanim '%s' has 0 length", name);
        else
            diag_add(r->diags, sev, r->src, line, col, "malformed xanim '%s' (file is %zu bytes, header needs %zu)",
                     name, got, need);
        return LOAD_FAILED;
    }
}

static void builtin_void(asset *out, int looping)
{
    out->looping = looping;
    out->frames = BUILTIN_FRAMES;
    out->frame_rate = BUILTIN_RATE;
}

/* cod2/cod4: the substitute for a missing xanim is a copy of `void`. */
static const asset *default_asset(resolver *r)
{
    if (!r->have_default) {
        if (load_asset(r, "void", 0, 0, 0, &r->default_asset) != LOAD_OK)
            builtin_void(&r->default_asset, 0);
        r->have_default = 1;
    }
    return &r->default_asset;
}

static void set_asset(atrc_node *n, const asset *a)
{
    n->looping = a->looping;
    n->frames = a->frames;
    n->frame_rate = a->frame_rate;
    n->has_asset = 1;
}

int atr_resolve_assets(atrc_tree *t, source_file *src, const atr_asset_finder *finder,
                       const profile_rules *rules, diag_list *diags)
{
    int missing = 0;
    resolver r;
    memset(&r, 0, sizeof r);
    r.src = src;
    r.finder = finder;
    r.rules = rules;
    r.diags = diags;
    r.lenient = rules->xanim_lenient;
    for (int i = 0; i < t->node_count; i++) {
        atrc_node *n = &t->nodes[i];
        if (n->child_count != 0) continue;
        int line, col;
        atr_node_position(t, i, &line, &col);
        asset a;
        /* (The search path folds case: the name as written finds the same file.) */
        const char *spelled = atr_node_spelling(t, i);
        load_result lr = load_asset(&r, spelled, 1, line, col, &a);
        if (lr == LOAD_OK) {
            set_asset(n, &a);
            continue;
        }
        int builtin = strcmp(n->name, "void") == 0 ? 0 : strcmp(n->name, "void_loop") == 0 ? 1 : -1;
        if (lr == LOAD_MISSING && builtin >= 0) {
            builtin_void(&a, builtin);
            set_asset(n, &a);
            continue;
        }
        missing += lr == LOAD_MISSING;
        if (!r.lenient) { /* cod1/uo: fatal in the engine; the leaf stays unknown */
            if (lr == LOAD_MISSING)
                diag_add(diags, DIAG_ERROR, src, line, col, "Cannot find 'xanim/%s'", spelled);
            continue;
        }
        /* cod2/cod4 precache (4.8): every failed load (not found, or the
        ** reason load_asset just reported) warns and takes the `void` copy. */
        diag_add(diags, DIAG_WARNING, src, line, col,
                 "Couldn't find xanim '%s', using default xanim 'void' instead", spelled);
        set_asset(n, default_asset(&r));
        t->state->default_asset[i] = 1;
        if (!t->state->void_loop.has_asset) {
            /* what sync setup swaps a mismatched default for (6.1): the game's
            ** void_loop, precached on demand, else the built-in one */
            if (load_asset(&r, "void_loop", 0, 0, 0, &a) != LOAD_OK) builtin_void(&a, 1);
            set_asset(&t->state->void_loop, &a);
            t->state->void_loop.name = "void_loop";
        }
    }
    return missing;
}
