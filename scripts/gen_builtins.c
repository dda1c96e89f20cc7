/* Build-time generator: the data/builtins/LIST.txt files -> one C file of
** constant open-addressing hash tables (src/game/builtins.h), hashed with the
** project's own text_hash so that the library finds what was stored.
**   gen-builtins OUT.c LIST.txt...
** A LIST below a directory named "extensions" is an engine extension's list,
** GAME-NAME.txt: its added names, and the stock names it removes or
** re-flags ("remove ..." / "reflag ..." lines), go into builtin_extensions[].
** Lines are read by builtin_parse_line (src/game/builtins.c), as --builtins does. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/builtins.h"
#include "base/text.h"

static void die(const char *what, const char *path, int line)
{
    if (line) fprintf(stderr, "%s:%d: %s\n", path, line, what);
    else fprintf(stderr, "gen-builtins: %s: %s\n", path, what);
    exit(1);
}

typedef struct list {
    builtin_entry *e;
    size_t n, cap;
} list;

static void add_entry(list *l, const builtin_line *b, const char *path)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 256;
        l->e = realloc(l->e, l->cap * sizeof *l->e);
        if (!l->e) die("out of memory", path, 0);
    }
    char *name = malloc(b->name_len + 1);
    if (!name) die("out of memory", path, 0);
    for (size_t i = 0; i < b->name_len; i++) {
        char c = b->name[i];
        name[i] = c >= 'A' && c <= 'Z' ? (char)(c + 32) : c;
    }
    name[b->name_len] = 0;
    l->e[l->n++] = (builtin_entry){name, (unsigned char)b->kind, (unsigned char)b->dev};
}

/* Emits `const builtin_list builtins_ID` for l (empty lists too). */
static void emit_table(FILE *out, const list *l, const char *id, const char *list_name, const char *path)
{
    size_t slots = 64;
    while (slots < l->n * 2) slots *= 2;
    if (l->n >= 65535) die("too many names", path, 0);
    uint16_t *table = calloc(slots, sizeof *table);
    if (!table) die("out of memory", path, 0);
    for (size_t i = 0; i < l->n; i++)
        if (builtin_slot_add(l->e, i, table, slots) != 0) die("duplicate name", path, 0);
    fprintf(out, "\nstatic const builtin_entry %s_entries[] = {\n", id);
    for (size_t i = 0; i < l->n; i++)
        fprintf(out, "    {\"%s\", %d, %d},\n", l->e[i].name, l->e[i].kind, l->e[i].dev);
    if (!l->n) fprintf(out, "    {\"\", 0, 0},\n");
    fprintf(out, "};\n\nstatic const uint16_t %s_slots[%zu] = {", id, slots);
    for (size_t i = 0; i < slots; i++) fprintf(out, "%s%u,", i % 16 ? " " : "\n    ", table[i]);
    fprintf(out, "\n};\n\n%sconst builtin_list builtins_%s = {\"%s\", %s_entries, %zu, %s_slots, %zu};\n",
            strncmp(id, "ext_", 4) == 0 ? "static " : "", id, list_name, id, l->n, id, slots);
    free(table);
}

typedef struct extension {
    char id[160], game[32], name[128];
    int has_reflag, has_remove;
} extension;

static void emit_list(FILE *out, const char *path, extension *ext)
{
    FILE *in = fopen(path, "r");
    if (!in) die("cannot open", path, 0);
    list l[3] = {{0}}; /* by builtin_op */
    char line[512];
    int lineno = 0;
    while (fgets(line, sizeof line, in)) {
        lineno++;
        builtin_line b;
        const char *error = NULL;
        int col = 0;
        int r = builtin_parse_line(line, strcspn(line, "\r\n"), ext != NULL, &b, &error, &col);
        if (r < 0) die(error, path, lineno);
        if (r > 0) add_entry(&l[b.op], &b, path);
    }
    fclose(in);
    /* C identifier from the file name: cod4-sp.txt -> cod4_sp */
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    char id[128], list_name[128];
    size_t k = 0;
    for (; base[k] && base[k] != '.' && k + 1 < sizeof id; k++) {
        list_name[k] = base[k];
        id[k] = base[k] == '-' ? '_' : base[k];
    }
    id[k] = list_name[k] = 0;
    if (!ext) {
        if (l[BUILTIN_OP_REFLAG].n || l[BUILTIN_OP_REMOVE].n) die("remove/reflag only in extension lists", path, 0);
        emit_table(out, &l[0], id, list_name, path);
    } else {
        const char *dash = strchr(list_name, '-');
        if (!dash || dash == list_name || !dash[1] || (size_t)(dash - list_name) >= sizeof ext->game)
            die("an extension list is named GAME-NAME.txt", path, 0);
        snprintf(ext->id, sizeof ext->id, "ext_%s", id);
        snprintf(ext->game, sizeof ext->game, "%.*s", (int)(dash - list_name), list_name);
        snprintf(ext->name, sizeof ext->name, "%s", dash + 1);
        static const char *const suffix[3] = {"", "_reflag", "_remove"};
        for (int op = 0; op < 3; op++) {
            if (op && !l[op].n) continue;
            char tid[192];
            snprintf(tid, sizeof tid, "%s%s", ext->id, suffix[op]);
            emit_table(out, &l[op], tid, list_name, path);
        }
        ext->has_reflag = l[BUILTIN_OP_REFLAG].n > 0;
        ext->has_remove = l[BUILTIN_OP_REMOVE].n > 0;
    }
    for (int op = 0; op < 3; op++) {
        for (size_t i = 0; i < l[op].n; i++) free((char *)l[op].e[i].name);
        free(l[op].e);
    }
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: gen-builtins OUT.c LIST.txt...\n");
        return 2;
    }
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", argv[1]);
    FILE *out = fopen(tmp, "w");
    if (!out) die("cannot write", tmp, 0);
    fprintf(out, "/* Generated by scripts/gen_builtins.c from data/builtins/; do not edit. */\n"
                 "#include \"game/builtins.h\"\n");
    extension *exts = calloc((size_t)argc, sizeof *exts);
    size_t ext_count = 0;
    if (!exts) die("out of memory", argv[1], 0);
    for (int i = 2; i < argc; i++) {
        int is_ext = strstr(argv[i], "extensions/") != NULL;
        emit_list(out, argv[i], is_ext ? &exts[ext_count] : NULL);
        ext_count += is_ext;
    }
    fprintf(out, "\nconst builtin_extension builtin_extensions[] = {\n");
    for (size_t i = 0; i < ext_count; i++) {
        const extension *e = &exts[i];
        fprintf(out, "    {\"%s\", \"%s\", &builtins_%s, ", e->game, e->name, e->id);
        if (e->has_reflag) fprintf(out, "&builtins_%s_reflag, ", e->id);
        else fprintf(out, "NULL, ");
        if (e->has_remove) fprintf(out, "&builtins_%s_remove},\n", e->id);
        else fprintf(out, "NULL},\n");
    }
    if (!ext_count) fprintf(out, "    {NULL, NULL, NULL, NULL, NULL},\n");
    fprintf(out, "};\n\nconst size_t builtin_extension_count = %zu;\n", ext_count);
    free(exts);
    if (fclose(out) != 0 || rename(tmp, argv[1]) != 0) die("cannot write", argv[1], 0);
    return 0;
}
