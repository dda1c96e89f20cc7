/* Nearest-name suggestions (suggest.h): the bounded optimal string
** alignment distance over ASCII-folded names. */
#include "base/suggest.h"
#include "base/arena.h"

#include <stdint.h>
#include <string.h>

/* Bounds above this are never asked for (suggest_max_distance caps at 3). */
#define BAND_MAX 3
#define BAND_WIDTH (2 * BAND_MAX + 1)

int suggest_max_distance(size_t len)
{
    if (len < 3) return 0;
    if (len <= 7) return 1;
    if (len <= 11) return 2;
    return 3;
}

static uint64_t byte_set(const char *s, size_t n);

void suggest_init(suggest *s, const char *target, size_t len, size_t want)
{
    memset(s, 0, sizeof *s);
    s->target = target;
    s->target_len = len;
    s->bound = suggest_max_distance(len);
    s->target_bytes = s->bound > 0 && len <= 4096 ? byte_set(target, len) : ~(uint64_t)0;
    s->want = want < 1 ? 1 : want > SUGGEST_MAX_KEPT ? SUGGEST_MAX_KEPT : want;
}

static inline unsigned char fold(unsigned char c)
{
    return (unsigned char)(c + ((unsigned)(c - 'A') < 26u ? 32 : 0));
}

/* Which byte values s[0, n) holds, as 64 classes: c | 32 folds the letters'
** case (and merges a few other pairs, which only weakens the bound). */
static uint64_t byte_set(const char *s, size_t n)
{
    uint64_t m = 0;
    for (size_t i = 0; i < n; i++) m |= (uint64_t)1 << (((unsigned char)s[i] | 32) & 63);
    return m;
}

static int bits(uint64_t x)
{
    int n = 0;
    for (; x; x &= x - 1) n++;
    return n;
}

/* Each byte value one side has and the other lacks takes an edit of its
** own (a substitution mends one of each side): a lower bound of the
** distance, with byte values folded onto 64 bits (which only weakens it). */
static int set_bound(uint64_t ma, uint64_t mb)
{
    int only_a = bits(ma & ~mb), only_b = bits(mb & ~ma);
    return only_a > only_b ? only_a : only_b;
}

/* Rows of the distance matrix are kept as the band |i - j| <= k only: cell
** (i, j) is at offset j - i + k, so the cell above is at offset + 1 of the
** previous row, the diagonal at the same offset of the previous row (and,
** for a transposition, of the row before it), the cell to the left at
** offset - 1 of this row. */
int suggest_distance(const char *a, size_t la, const char *b, size_t lb, int bound)
{
    if (bound < 0) return 0;
    if (bound > BAND_MAX) bound = BAND_MAX;
    const int k = bound, inf = bound + 1;
    if ((la > lb ? la - lb : lb - la) > (size_t)k) return inf;
    /* A common prefix and suffix cost nothing (an optimal alignment matches
    ** them); names that share a stem are mostly that. */
    while (la && lb && fold((unsigned char)a[0]) == fold((unsigned char)b[0])) a++, b++, la--, lb--;
    while (la && lb && fold((unsigned char)a[la - 1]) == fold((unsigned char)b[lb - 1])) la--, lb--;
    if (!la || !lb) return (int)(la + lb) <= k ? (int)(la + lb) : inf;
    if (set_bound(byte_set(a, la), byte_set(b, lb)) > k) return inf;
    /* Rows with a sentinel column on each side (index o + 1), so no cell
    ** tests its neighbours' range. */
    int rows[3][BAND_WIDTH + 2];
    int *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
    for (int o = 0; o < BAND_WIDTH + 2; o++) prev2[o] = prev[o] = cur[o] = inf;
    for (int o = k; o <= 2 * k; o++) prev[o + 1] = o - k; /* row 0: d(0, j) = j */
    for (size_t i = 1; i <= la; i++) {
        /* the band's cells of this row with 0 <= j <= lb */
        int lo = (size_t)k >= i ? k - (int)i : 0;
        int hi = (long)lb - (long)i + k < 2 * k ? (int)((long)lb - (long)i + k) : 2 * k;
        int row_min = inf;
        for (int o = 0; o < BAND_WIDTH + 2; o++) cur[o] = inf;
        const unsigned char x = fold((unsigned char)a[i - 1]);
        const unsigned char xp = i >= 2 ? fold((unsigned char)a[i - 2]) : 0;
        for (int o = lo; o <= hi; o++) {
            long j = (long)i + o - k;
            int v;
            if (j == 0) {
                v = (int)i < inf ? (int)i : inf;
            } else {
                unsigned char y = fold((unsigned char)b[j - 1]);
                v = prev[o + 1] + (x != y);                              /* (i-1, j-1) */
                if (prev[o + 2] + 1 < v) v = prev[o + 2] + 1;            /* (i-1, j) */
                if (cur[o] + 1 < v) v = cur[o] + 1;                      /* (i, j-1) */
                if (i >= 2 && j >= 2 && x == fold((unsigned char)b[j - 2]) && xp == y && prev2[o + 1] + 1 < v)
                    v = prev2[o + 1] + 1;                                /* transposition */
                if (v > inf) v = inf;
            }
            cur[o + 1] = v;
            if (v < row_min) row_min = v;
        }
        if (row_min > k) return inf;
        int *t = prev2;
        prev2 = prev;
        prev = cur;
        cur = t;
    }
    int o = (int)((long)lb - (long)la) + k;
    return prev[o + 1] <= k ? prev[o + 1] : inf;
}

/* Folded comparison of two names of known length (for ties). */
static int compare_folded(const char *a, size_t la, const char *b, size_t lb)
{
    size_t n = la < lb ? la : lb;
    for (size_t i = 0; i < n; i++) {
        unsigned char x = fold((unsigned char)a[i]), y = fold((unsigned char)b[i]);
        if (x != y) return x < y ? -1 : 1;
    }
    return la < lb ? -1 : la > lb;
}

void suggest_add_listed(void *query, const char *name, size_t len)
{
    suggest_add(query, name, len, NULL);
}

void suggest_add(suggest *s, const char *name, size_t len, const void *data)
{
    if (s->bound <= 0 || !name) return;
    /* Once full, only a candidate nearer than the farthest kept matters. */
    int bound = s->count == s->want ? s->best[s->count - 1].dist : s->bound;
    if ((len > s->target_len ? len - s->target_len : s->target_len - len) > (size_t)bound) return;
    /* The cheap lower bound first (most candidates end here). */
    if (s->target_bytes != ~(uint64_t)0 && set_bound(s->target_bytes, byte_set(name, len)) > bound) return;
    int d = suggest_distance(s->target, s->target_len, name, len, bound);
    if (d > bound || d == 0) return; /* the name itself (folded) is no suggestion */
    size_t at = 0;
    while (at < s->count) {
        const suggestion *b = &s->best[at];
        int c = compare_folded(name, len, b->name, b->len);
        if (c == 0) return; /* the same name again */
        if (d < b->dist || (d == b->dist && c < 0)) break;
        at++;
    }
    /* (Kept names are in (distance, name) order, so an equal name is met
    ** before the loop could stop.) */
    if (at >= s->want) return;
    size_t last = s->count < s->want ? s->count : s->want - 1;
    memmove(&s->best[at + 1], &s->best[at], array_size(last - at, sizeof s->best[0]));
    s->best[at] = (suggestion){name, len, d, data};
    if (s->count < s->want) s->count++;
}
