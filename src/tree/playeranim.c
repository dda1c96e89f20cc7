/* The player animation script reader (grammar.md 4.2-4.5): the engine's
** Com_Parse tokens, five sections, three brace levels, command lines whose
** body-part keyword is followed by an animation name.  Only the structure is
** checked: the state, move type, event and condition names are the game's
** own tables, which are not reproduced here. */
#include "tree/playeranim.h"
#include "tree/com_token.h"
#include "base/text.h"
#include "base/vec.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COMMANDS 8 /* animation commands per item */

typedef enum { SEC_DEFINES = 0, SEC_ANIMATIONS, SEC_CANNED, SEC_STATECHANGES, SEC_EVENTS } section;

static const char *const section_names[] = {"defines", "animations", "canned_animations",
                                            "statechanges", "events"}; /* ORDER: section */

typedef struct reader {
    com_tokenizer tz;
    playeranim_names *out;
    jmp_buf fail;
} reader;

static const char *name_at(const void *names, size_t i)
{
    return ((const char *const *)names)[i];
}

static void add_name(playeranim_names *n, const char *name)
{
    uint32_t h = text_hash(0, name, 1);
    if (hashtab_find_string(&n->index, h, name, 1, n->names.items, name_at) != HASHTAB_END) return;
    hashtab_add(&n->index, h);
    *VEC_PUSH(n->names) = arena_strdup(&n->mem, name);
}

static void fail(reader *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int line, col;
    source_position(r->tz.src, r->tz.last_tok, &line, &col);
    diag_addv(r->tz.diags, DIAG_ERROR, r->tz.src, line, col, fmt, ap);
    va_end(ap);
    longjmp(r->fail, 1);
}

static int is(const reader *r, const char *s)
{
    return text_equal_nocase(r->tz.tok, s);
}

/* Com_Parse (line breaks allowed); the end of the text is an error. */
static void need_token(reader *r)
{
    if (!com_next_token(&r->tz, 1))
        fail(r, "BG_AnimParseAnimScript: unexpected end of file: %s", "mp/playeranim.script");
}

static void expect_brace(reader *r)
{
    need_token(r);
    if (strcmp(r->tz.tok, "{") != 0) fail(r, "BG_AnimParseAnimScript: expected '{'");
}

/* BG_ParseConditions: the rest of the line after its first token; then '{'. */
static void conditions(reader *r)
{
    if (strcmp(r->tz.tok, "{") == 0) fail(r, "BG_ParseConditions: no conditions found");
    while (com_next_token(&r->tz, 0))
        if (strcmp(r->tz.tok, "{") == 0) return;
    expect_brace(r);
}

static int body_part(const reader *r)
{
    return is(r, "legs") ? 1 : is(r, "torso") ? 2 : is(r, "both") ? 3 : 0;
}

static void animation(reader *r)
{
    if (!com_next_token(&r->tz, 0)) fail(r, "BG_ParseCommands: expected animation");
    add_name(r->out, r->tz.tok);
}

/* BG_ParseCommands: command lines up to the closing '}'. */
static void commands(reader *r)
{
    int count = 0;
    for (;;) {
        need_token(r);
        if (strcmp(r->tz.tok, "}") == 0) return;
        int part = body_part(r);
        if (!part) fail(r, "BG_IndexForString: unknown token '%s'", r->tz.tok);
        if (++count > MAX_COMMANDS)
            fail(r, "BG_ParseCommands: exceeded maximum number of animations (%d)", MAX_COMMANDS);
        animation(r);
        int more = com_next_token(&r->tz, 0);
        if (more && part != 3 && body_part(r) && body_part(r) != 3) {
            animation(r);
            more = com_next_token(&r->tz, 0);
        }
        for (; more; more = com_next_token(&r->tz, 0)) {
            if (is(r, "duration") || is(r, "blendtime")) {
                int duration = is(r, "duration");
                if (!com_next_token(&r->tz, 0))
                    fail(r, duration ? "BG_ParseCommands: expected duration value"
                                     : "BG_ParseCommands: expected blendtime value");
            } else if (is(r, "turretanim")) {
                if (part != 3)
                    fail(r, "BG_ParseCommands: Turret animations can only be played on the 'both' body part");
            } else if (is(r, "sound")) {
                if (!com_next_token(&r->tz, 0)) fail(r, "BG_ParseCommands: expected sound");
                size_t n = r->tz.tok_len;
                if (n >= 4 && text_equal_nocase(r->tz.tok + n - 4, ".wav"))
                    fail(r, "BG_ParseCommands: wav files not supported, only sound scripts");
            } else {
                fail(r, "BG_ParseCommands: unknown parameter '%s'", r->tz.tok);
            }
        }
    }
}

/* The blocks under a header: `<conditions> { commands }` until '}'. */
static void condition_blocks(reader *r)
{
    for (;;) {
        need_token(r);
        if (strcmp(r->tz.tok, "}") == 0) return;
        conditions(r);
        commands(r);
    }
}

static int section_of(const reader *r)
{
    for (int i = 0; i < (int)(sizeof section_names / sizeof *section_names); i++)
        if (is(r, section_names[i])) return i;
    return -1;
}

static void parse(reader *r)
{
    section sec = SEC_DEFINES;
    while (com_next_token(&r->tz, 1)) {
        int s = section_of(r);
        if (s >= 0) {
            sec = (section)s;
            continue;
        }
        switch (sec) {
        case SEC_DEFINES:
            if (is(r, "set"))
                while (com_next_token(&r->tz, 0)) {}
            break;
        case SEC_ANIMATIONS:
        case SEC_CANNED:
            if (!is(r, "state")) fail(r, "BG_AnimParseAnimScript: expected 'state'");
            if (!com_next_token(&r->tz, 0)) fail(r, "BG_AnimParseAnimScript: expected state type");
            expect_brace(r);
            for (;;) { /* move types */
                need_token(r);
                if (strcmp(r->tz.tok, "}") == 0) break;
                expect_brace(r);
                condition_blocks(r);
            }
            break;
        case SEC_STATECHANGES:
            if (!is(r, "statechange"))
                fail(r, "BG_AnimParseAnimScript: expected 'statechange', got '%s'", r->tz.tok);
            for (int i = 0; i < 2; i++)
                if (!com_next_token(&r->tz, 0)) fail(r, "BG_AnimParseAnimScript: expected <state type>");
            expect_brace(r);
            condition_blocks(r);
            break;
        case SEC_EVENTS:
            expect_brace(r);
            condition_blocks(r);
            break;
        }
    }
}

int playeranim_read(source_file *src, int escape_backslash, diag_list *diags, playeranim_names *out)
{
    memset(out, 0, sizeof *out);
    arena_init(&out->mem);
    reader *r = xcalloc(1, sizeof *r);
    r->tz.data = src->data;
    r->tz.src = src;
    r->tz.diags = diags;
    r->tz.escape_backslash = escape_backslash;
    r->out = out;
    int rc = 0;
    if (setjmp(r->fail) == 0) parse(r);
    else rc = -1;
    free(r);
    return rc;
}

void playeranim_names_free(playeranim_names *n)
{
    VEC_FREE(n->names);
    hashtab_free(&n->index);
    arena_free_all(&n->mem);
    memset(n, 0, sizeof *n);
}
