/* A generator of whole xanim files in the layout of the real ones
** (runtime-anim.md 4.1): version 14 (CoD1, UO, CoD2) or 17 (CoD4), with
** chosen frames, flags, parts, key lists and notetracks, so that the tests
** can read back every notetrack's name and frame from a file whose frame
** data has every shape the walk has to step over (index lists of 1 and 2
** bytes, simple and full rotations, version 17's small and large
** translations, the delta part).  The unit tests, the fuzz seeds and the
** end-to-end tests write their xanims with it. */
#ifndef ATRC_XANIM_GEN_TESTLIB_H
#define ATRC_XANIM_GEN_TESTLIB_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct xgen_note {
    const char *name;
    unsigned frame;
} xgen_note;

typedef struct xgen_spec {
    int version;            /* 14 or 17 */
    unsigned frames;
    int looping, delta;
    int asset_type;         /* version 17 */
    int frame_rate;
    int parts;              /* bones; each gets keys per part_keys */
    unsigned rot_keys;      /* K of every part's rotation list */
    unsigned trans_keys;    /* K of every part's translation list */
    int small_trans;        /* version 17: the quantized translations' small flag */
    const xgen_note *notes;
    int note_count;
} xgen_spec;

typedef struct xgen_buf {
    unsigned char *data;
    size_t len, cap;
} xgen_buf;

static inline void xgen_put(xgen_buf *b, const void *p, size_t n)
{
    if (b->len + n > b->cap) {
        b->cap = (b->len + n) * 2 + 64;
        b->data = realloc(b->data, b->cap);
        if (!b->data) abort();
    }
    if (n) memcpy(b->data + b->len, p, n);
    b->len += n;
}

static inline void xgen_u8(xgen_buf *b, unsigned v)
{
    unsigned char c = (unsigned char)v;
    xgen_put(b, &c, 1);
}

static inline void xgen_u16(xgen_buf *b, unsigned v)
{
    xgen_u8(b, v & 0xff);
    xgen_u8(b, (v >> 8) & 0xff);
}

/* n filler bytes (the values do not matter to the walk). */
static inline void xgen_fill(xgen_buf *b, size_t n)
{
    for (size_t i = 0; i < n; i++) xgen_u8(b, (unsigned)(i * 37 + 11));
}

static inline unsigned xgen_total(const xgen_spec *s)
{
    return s->frames + (s->looping ? 1u : 0u);
}

static inline void xgen_indices(xgen_buf *b, const xgen_spec *s, unsigned k)
{
    unsigned t = xgen_total(s);
    if (k >= t) return;
    for (unsigned i = 0; i < k; i++) {
        if (t <= 256) xgen_u8(b, i);
        else xgen_u16(b, i);
    }
}

static inline void xgen_rotations(xgen_buf *b, const xgen_spec *s, unsigned k, int simple)
{
    xgen_u16(b, k);
    if (k == 0) return;
    if (k >= 2) xgen_indices(b, s, k);
    xgen_fill(b, (size_t)k * (simple ? 2 : 6));
}

static inline void xgen_translations(xgen_buf *b, const xgen_spec *s, unsigned k)
{
    xgen_u16(b, k);
    if (k == 0) return;
    if (k == 1) {
        xgen_fill(b, 12);
        return;
    }
    xgen_indices(b, s, k);
    if (s->version == 14) {
        xgen_fill(b, (size_t)k * 12);
        return;
    }
    xgen_u8(b, s->small_trans ? 1 : 0);
    xgen_fill(b, 24);
    xgen_fill(b, (size_t)k * (s->small_trans ? 3 : 6));
}

/* The whole file of s; free the result's data. */
static inline xgen_buf xgen_build(const xgen_spec *s)
{
    xgen_buf b = {0};
    xgen_u16(&b, (unsigned)s->version);
    xgen_u16(&b, s->frames);
    xgen_u16(&b, (unsigned)s->parts);
    xgen_u8(&b, (s->looping ? 1u : 0u) | (s->delta ? 2u : 0u));
    if (s->version == 17) xgen_u8(&b, (unsigned)s->asset_type);
    xgen_u16(&b, (unsigned)s->frame_rate);
    if (s->delta) {
        xgen_rotations(&b, s, s->rot_keys, 1);
        xgen_translations(&b, s, s->trans_keys);
    }
    size_t bits = ((size_t)s->parts + 7) / 8;
    if (s->parts) {
        xgen_fill(&b, bits); /* sign bits */
        for (size_t i = 0; i < bits; i++) xgen_u8(&b, 0x55); /* even parts simple */
    }
    for (int i = 0; i < s->parts; i++) {
        char name[32];
        snprintf(name, sizeof name, "j_bone%d", i);
        xgen_put(&b, name, strlen(name) + 1);
    }
    for (int i = 0; i < s->parts; i++) {
        /* the parts' key counts vary so that every list shape occurs */
        unsigned rk = s->rot_keys ? (s->rot_keys + (unsigned)i) % (s->rot_keys + 2) : 0;
        unsigned tk = s->trans_keys ? (s->trans_keys + (unsigned)i * 2) % (s->trans_keys + 3) : 0;
        xgen_rotations(&b, s, rk, i % 2 == 0);
        xgen_translations(&b, s, tk);
    }
    xgen_u8(&b, (unsigned)s->note_count);
    for (int i = 0; i < s->note_count; i++) {
        xgen_put(&b, s->notes[i].name, strlen(s->notes[i].name) + 1);
        xgen_u16(&b, s->notes[i].frame);
    }
    return b;
}

/* Writes s to path; 0 on success. */
static inline int xgen_write(const char *path, const xgen_spec *s)
{
    xgen_buf b = xgen_build(s);
    FILE *fp = fopen(path, "wb");
    int bad = !fp || fwrite(b.data, 1, b.len, fp) != b.len;
    if (fp && fclose(fp) != 0) bad = 1;
    free(b.data);
    return bad ? -1 : 0;
}

#endif
