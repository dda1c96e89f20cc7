#include "suggest.h"

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

void suggest_init(suggest *s, const char *target, size_t len, size_t want)
{
    memset(s, 0, sizeof *s);
    s->target = target;
    s->target_len = len;
    s->bound = suggest_max_distance(len);
    s->want = want < 1 ? 1 : want > SUGGEST_MAX_KEPT ? SUGGEST_MAX_KEPT : want;
}

static unsigned char fold(unsigned char c)
{
    return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
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
    int rows[3][BAND_WIDTH];
    int *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
    for (int o = 0; o < BAND_WIDTH; o++) prev2[o] = prev[o] = inf;
    for (int o = k; o <= 2 * k; o++) prev[o] = o - k; /* row 0: d(0, j) = j */
    for (size_t i = 1; i <= la; i++) {
        int row_min = inf;
        for (int o = 0; o <= 2 * k; o++) {
            long j = (long)i + o - k;
            int v = inf;
            if (j < 0 || j > (long)lb) {
                cur[o] = inf;
                continue;
            }
            if (j == 0) {
                v = (int)i < inf ? (int)i : inf;
            } else {
                unsigned char x = fold((unsigned char)a[i - 1]), y = fold((unsigned char)b[j - 1]);
                int sub = prev[o] + (x != y);
                if (sub < v) v = sub;
                if (o + 1 <= 2 * k && prev[o + 1] + 1 < v) v = prev[o + 1] + 1; /* (i-1, j) */
                if (o >= 1 && cur[o - 1] + 1 < v) v = cur[o - 1] + 1;            /* (i, j-1) */
                if (i >= 2 && j >= 2 && x == fold((unsigned char)b[j - 2]) &&
                    fold((unsigned char)a[i - 2]) == y && prev2[o] + 1 < v)
                    v = prev2[o] + 1; /* transposition */
                if (v > inf) v = inf;
            }
            cur[o] = v;
            if (v < row_min) row_min = v;
        }
        if (row_min > k) return inf;
        int *t = prev2;
        prev2 = prev;
        prev = cur;
        cur = t;
    }
    int o = (int)((long)lb - (long)la) + k;
    return prev[o] <= k ? prev[o] : inf;
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

void suggest_add(suggest *s, const char *name, size_t len, const void *data)
{
    if (s->bound <= 0 || !name) return;
    /* Once full, only a candidate nearer than the farthest kept matters. */
    int bound = s->count == s->want ? s->best[s->count - 1].dist : s->bound;
    int d = suggest_distance(s->target, s->target_len, name, len, bound);
    if (d > bound) return;
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
    memmove(&s->best[at + 1], &s->best[at], (last - at) * sizeof s->best[0]);
    s->best[at] = (suggestion){name, len, d, data};
    if (s->count < s->want) s->count++;
}
