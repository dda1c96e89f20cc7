/* xanim notetracks (runtime-anim.md 4.1): the whole-file walk of a version 14
** (CoD1, UO, CoD2) or version 17 (CoD4) xanim that reaches the notetracks,
** which are the file's last block and cannot be found from its end.  The walk
** only measures the frame data it steps over, so it reads each byte at most
** once and allocates only the names it returns (bounded by the file's size);
** it must end exactly at the end of the file, otherwise the notetracks are
** unknown (a truncated file, another layout, a header-only test file). */
#include "game/profile.h"
#include "tree/xanim_notes.h"

#include <string.h>

typedef struct walk {
    const unsigned char *data;
    size_t len, pos;
    int v17;            /* the CoD4 translation key lists */
    unsigned total;     /* T: stored frames, plus one when looping */
    size_t index_size;  /* I: bytes per key index */
    int failed;
} walk;

/* Steps over n bytes; a walk that would leave the file fails there. */
static void skip(walk *w, size_t n)
{
    if (w->failed) return;
    if (n > w->len - w->pos) {
        w->failed = 1;
        return;
    }
    w->pos += n;
}

static unsigned get_u8(walk *w)
{
    if (w->failed || w->pos >= w->len) {
        w->failed = 1;
        return 0;
    }
    return w->data[w->pos++];
}

static unsigned get_u16(walk *w)
{
    unsigned lo = get_u8(w);
    return lo | (get_u8(w) << 8);
}

/* A NUL-terminated string: its start, or NULL when the file ends first. */
static const char *get_name(walk *w, size_t *len)
{
    if (w->failed) return NULL;
    const unsigned char *end = memchr(w->data + w->pos, 0, w->len - w->pos);
    if (!end) {
        w->failed = 1;
        return NULL;
    }
    const char *s = (const char *)w->data + w->pos;
    *len = (size_t)(end - (w->data + w->pos));
    w->pos += *len + 1;
    return s;
}

/* The index list of a key list of k >= 2 keys: present only when the keys
** do not cover every frame. */
static void skip_indices(walk *w, unsigned k)
{
    if (k < w->total) skip(w, (size_t)k * w->index_size);
}

/* A rotation key list: 2-byte values when simple, else 6 bytes. */
static void skip_rotations(walk *w, int simple)
{
    unsigned k = get_u16(w);
    size_t value = simple ? 2 : 6;
    if (k == 0) return;
    if (k == 1) {
        skip(w, value);
        return;
    }
    skip_indices(w, k);
    skip(w, (size_t)k * value);
}

/* A translation key list; version 17 quantizes the values of a long list
** against a stored minimum and size. */
static void skip_translations(walk *w)
{
    unsigned k = get_u16(w);
    if (k == 0) return;
    if (k == 1) {
        skip(w, 12);
        return;
    }
    skip_indices(w, k);
    if (!w->v17) {
        skip(w, (size_t)k * 12);
        return;
    }
    unsigned small = get_u8(w);
    skip(w, 24);
    skip(w, (size_t)k * (small ? 3 : 6));
}

xanim_notes_status xanim_read_notes(const unsigned char *data, size_t len, const profile_rules *rules,
                                    arena *a, xanim_notes *out)
{
    memset(out, 0, sizeof *out);
    xanim_header h;
    xanim_status hs = xanim_read_header(data, len, rules, &h);
    if (hs == XANIM_BAD_VERSION) return XANIM_NOTES_BAD_VERSION;
    if (hs != XANIM_OK || h.bones < 0) {
        size_t header = (size_t)rules->xanim_header_size;
        out->stopped_at = len < header ? len : header;
        return XANIM_NOTES_TRUNCATED;
    }
    walk w = {data, len, (size_t)rules->xanim_header_size, rules->xanim_has_asset_type, 0, 1, 0};
    int looping = (h.flags & 1u) != 0, delta = (h.flags & 2u) != 0;
    w.total = h.frames + (looping ? 1u : 0u);
    w.index_size = w.total <= 256 ? 1 : 2;
    out->looping = looping;
    out->last_frame = w.total ? w.total - 1 : 0;

    if (delta) {
        skip_rotations(&w, 1);
        skip_translations(&w);
    }
    size_t parts = (size_t)h.bones, bits = (parts + 7) / 8;
    size_t simple_bits = w.pos + bits; /* the second bitset: per-part simple rotations */
    if (parts) skip(&w, 2 * bits);
    for (size_t i = 0; i < parts && !w.failed; i++) {
        size_t n;
        get_name(&w, &n);
    }
    for (size_t i = 0; i < parts && !w.failed; i++) {
        int simple = (data[simple_bits + i / 8] >> (i % 8)) & 1;
        skip_rotations(&w, simple);
        skip_translations(&w);
    }
    unsigned count = get_u8(&w);
    if (!w.failed) {
        /* the stored entries and the engine's own `end`, in file order */
        out->items = arena_alloc(a, array_size((size_t)count + 1, sizeof *out->items));
        for (unsigned i = 0; i < count && !w.failed; i++) {
            size_t n;
            const char *name = get_name(&w, &n);
            unsigned frame = get_u16(&w);
            if (w.failed) break;
            xanim_note *note = &out->items[out->count++];
            note->name = arena_strndup(a, name, n);
            note->frame = frame;
            note->implicit = 0;
            note->time = out->last_frame ? (double)frame / out->last_frame : 0.0;
        }
    }
    if (w.failed || w.pos != len) {
        out->stopped_at = w.pos;
        out->count = 0;
        return w.failed ? XANIM_NOTES_TRUNCATED : XANIM_NOTES_TRAILING;
    }
    xanim_note *end = &out->items[out->count++];
    end->name = "end";
    end->frame = out->last_frame;
    end->time = 1.0;
    end->implicit = 1;
    return XANIM_NOTES_OK;
}

const xanim_note *xanim_notes_find(const xanim_notes *notes, const char *name)
{
    for (size_t i = 0; i < notes->count; i++)
        if (strcmp(notes->items[i].name, name) == 0) return &notes->items[i];
    return NULL;
}
