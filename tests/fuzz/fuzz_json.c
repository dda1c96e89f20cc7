/* Fuzz harness 5: the JSON reader and `atrc diff`, which read files users
** hand them.  The input is parsed; then compared with itself (a readable
** atrc run has no differences with itself: status 0, else 2) and with a
** fixed small run both ways (any status, but never a crash or a leak), and
** the two halves around a NUL byte with each other. */
#include "fuzz_common.h"
#include "atrc.h"
#include "base/json_read.h"

#include <string.h>

#ifndef FUZZ_ENTRY
#define FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

static const char jsonf_base[] =
    "{\"atrc\": 1, \"profile\": \"uo\", \"trees\": [{\"index\": 1, \"name\": \"t\", \"file\": \"t.atr\", "
    "\"checksum\": 7, \"nodes\": [{\"index\": 0, \"name\": \"root\", \"parent\": null, \"child_count\": 2, "
    "\"first_child\": 1, \"flags\": 0}, {\"index\": 1, \"name\": \"a\", \"parent\": 0, \"child_count\": 0}, "
    "{\"index\": 2, \"name\": \"b\", \"parent\": 0, \"child_count\": 0}]}], \"references\": [{\"file\": \"a.gsc\", "
    "\"line\": 1, \"column\": 1, \"kind\": \"anim\", \"tree\": \"t\", \"name\": \"b\", \"value\": 65538}], "
    "\"diagnostics\": []}";

int FUZZ_ENTRY(const uint8_t *data, size_t size);
int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    arena a;
    arena_init(&a);
    json_error err;
    char *copy = malloc(size + 1); /* strings are decoded in place */
    if (!copy) abort();
    if (size) memcpy(copy, data, size);
    json_value *v = json_parse(copy, size, &a, &err);
    if (!v && (err.offset > size || !err.message[0])) abort(); /* a failure is located and explained */
    arena_free_all(&a);
    free(copy);

    FILE *sink = fuzz_sink();
    const char *in = (const char *)data;
    int self = atrc_diff_buffers("a.json", in, size, "b.json", in, size, ATRC_FORMAT_TEXT, sink, sink);
    if (self != 0 && self != 2) abort();
    if (!v && self != 2) abort();
    size_t blen = sizeof jsonf_base - 1;
    for (int fmt = 0; fmt < 2; fmt++) {
        atrc_format f = fmt ? ATRC_FORMAT_JSON : ATRC_FORMAT_TEXT;
        int x = atrc_diff_buffers("base.json", jsonf_base, blen, "in.json", in, size, f, sink, sink);
        int y = atrc_diff_buffers("in.json", in, size, "base.json", jsonf_base, blen, f, sink, sink);
        if (x < 0 || x > 2 || y < 0 || y > 2 || (x == 2) != (y == 2)) abort();
    }
    /* Two runs in one input, split at the first NUL byte: the reasons for
    ** arbitrary pairs of node lists. */
    const char *nul = memchr(in, 0, size);
    if (nul) {
        size_t k = (size_t)(nul - in);
        int x = atrc_diff_buffers("one.json", in, k, "two.json", nul + 1, size - k - 1, ATRC_FORMAT_TEXT, sink, sink);
        int y = atrc_diff_buffers("two.json", nul + 1, size - k - 1, "one.json", in, k, ATRC_FORMAT_JSON, sink, sink);
        if ((x == 2) != (y == 2) || (x != 2 && x != y)) abort();
    }
    return 0;
}
