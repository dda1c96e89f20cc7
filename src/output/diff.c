/* `atrc diff OLD.json NEW.json`: the two runs read (diff_load.c), compared
** twice (diff_compare.c: first counting what each cause moved, so that the
** summary leads), and the document written: how one change is printed, in
** text or JSON. */
#include "output/diff_internal.h"

#include <inttypes.h>

/* ---- writing one change ---- */

static void json_str(FILE *out, dstr s)
{
    if (!s.s) {
        fputs("null", out);
        return;
    }
    outbuf b = {0};
    outbuf_json_string(&b, s.s, s.n); /* the JSON writers' one escaper: valid UTF-8 out */
    fwrite(b.s, 1, b.len, out);
    outbuf_free(&b);
}

static void json_cstr(FILE *out, const char *s)
{
    dstr x = {s, s ? strlen(s) : 0};
    json_str(out, x);
}

static void json_val(FILE *out, dval v)
{
    if (v.type == 1) fprintf(out, "%" PRId64, v.i);
    else if (v.type == 2) json_str(out, v.s);
    else fputs("null", out);
}

/* One change: text is d->line (and ": " d->reason when there is one). */
void diff_emit_change(differ *d, const char *kind, dstr tree, dstr name, dval old, dval new_,
                      const dref *pos, const dref *old_pos)
{
    d->changes++;
    if (d->counting) {
        causes_count(&d->causes, d->cause, kind);
        return;
    }
    FILE *out = d->out;
    int cause = d->cause != CAUSE_NONE ? d->causes.list.items[d->cause].id : 0;
    if (d->format != ATRC_FORMAT_JSON) {
        if (cause) fprintf(out, "[%d] ", cause);
        fputs(d->line.s ? d->line.s : "", out);
        if (d->reason.len) {
            fputs(": ", out);
            fputs(d->reason.s, out);
        }
        fputc('\n', out);
        return;
    }
    fprintf(out, "%s\n    {\"kind\": \"%s\", \"tree\": ", d->changes > 1 ? "," : "", kind);
    json_str(out, tree);
    fputs(", \"name\": ", out);
    json_str(out, name);
    fputs(", \"old\": ", out);
    json_val(out, old);
    fputs(", \"new\": ", out);
    json_val(out, new_);
    if (pos) {
        fputs(", \"file\": ", out);
        json_str(out, pos->file);
        if (pos->line) fprintf(out, ", \"line\": %ld, \"column\": %ld", pos->line, pos->col);
        else fputs(", \"line\": null, \"column\": null", out);
        if (old_pos && (old_pos->line != pos->line || old_pos->col != pos->col))
            fprintf(out, ", \"old_line\": %ld, \"old_column\": %ld", old_pos->line, old_pos->col);
    }
    fputs(", \"reason\": ", out);
    json_cstr(out, d->reason.len ? d->reason.s : "");
    if (cause) fprintf(out, ", \"cause\": %d", cause);
    fputc('}', out);
}

void diff_begin_change(differ *d)
{
    outbuf_flush(&d->line);
    outbuf_flush(&d->reason);
    outbuf_str(&d->line, "");
    outbuf_str(&d->reason, "");
    d->cause = CAUSE_NONE;
}

/* ---- the document ---- */

static void json_bytes(FILE *out, const char *s, size_t n)
{
    dstr x = {s, n};
    json_str(out, x);
}

void diff_free(differ *d)
{
    for (int i = 0; i < 2; i++) {
        hmap_free(&d->run[i].refset);
        hmap_free(&d->run[i].pruned);
        hmap_free(&d->run[i].defined);
        if (d->run[i].src) source_free(d->run[i].src);
    }
    hmap_free(&d->ids);
    causes_free(&d->causes);
    outbuf_free(&d->ctext);
    outbuf_free(&d->line);
    outbuf_free(&d->reason);
    outbuf_free(&d->key);
    arena_free_all(&d->mem);
}

/* Compares the runs in o and n (taking both). */
static int diff_sources(const char *old_name, source_file *o, const char *new_name, source_file *n,
                        atrc_format format, FILE *out, FILE *err)
{
    differ d;
    memset(&d, 0, sizeof d);
    arena_init(&d.mem);
    d.causes.mem = &d.mem;
    d.format = format;
    d.out = out;
    d.err = err;
    int status = 2;
    int loaded = diff_load_file(&d, 0, old_name, o) == 0;
    if (!loaded) source_free(n);
    else loaded = diff_load_file(&d, 1, new_name, n) == 0;
    if (loaded) {
        if (format == ATRC_FORMAT_JSON) {
            fputs("{\n  \"atrc_diff\": 1,\n  \"old\": ", out);
            json_cstr(out, old_name);
            fputs(",\n  \"new\": ", out);
            json_cstr(out, new_name);
            fputs(",", out);
        }
        /* Twice: first counting what each cause moved, so that the summary leads. */
        d.by_script = d.run[0].has_scripts && d.run[1].has_scripts;
        d.counting = 1;
        diff_compare_runs(&d);
        causes_number(&d.causes);
        d.counting = 0;
        d.changes = 0;
        if (format == ATRC_FORMAT_JSON) {
            fputs("\n  \"causes\": [", out);
            causes_write_json(&d.causes, out, json_bytes);
            fputs(d.causes.listed ? "\n  ],\n  \"changes\": [" : "],\n  \"changes\": [", out);
        } else {
            causes_write_text(&d.causes, out);
        }
        diff_compare_runs(&d);
        if (format == ATRC_FORMAT_JSON) fputs(d.changes ? "\n  ]\n}\n" : "]\n}\n", out);
        fflush(out);
        if (ferror(out)) fputs("atrc: error: cannot write the differences\n", err);
        status = ferror(out) ? 2 : d.changes ? 1 : 0;
    }
    diff_free(&d);
    return status;
}

int atrc_diff_buffers(const char *old_name, const char *old_data, size_t old_len, const char *new_name,
                      const char *new_data, size_t new_len, atrc_format format, FILE *out, FILE *err)
{
    return diff_sources(old_name, source_from_buffer(old_name, old_data, old_len), new_name,
                        source_from_buffer(new_name, new_data, new_len), format, out, err);
}

int atrc_diff_files(const char *old_path, const char *new_path, atrc_format format, FILE *out, FILE *err)
{
    const char *why = NULL;
    source_file *o = source_read(old_path, &why);
    if (!o) {
        fprintf(err, "atrc: error: cannot read '%s': %s\n", old_path, why);
        return 2;
    }
    source_file *n = source_read(new_path, &why);
    if (!n) {
        fprintf(err, "atrc: error: cannot read '%s': %s\n", new_path, why);
        source_free(o);
        return 2;
    }
    return diff_sources(old_path, o, new_path, n, format, out, err);
}
