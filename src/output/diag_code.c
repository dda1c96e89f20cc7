/* Diagnostic codes: a stable kebab-case name for every message atrc reports
** (JSON "code", the language server's code).  Where the engine has a message
** the code is that message's name ("duplicate-animation", "bad-syntax"), so
** the many ways atrc explains the engine's one "bad syntax" share its code.
**
** A code is found from the message text when it is asked for, never when a
** diagnostic is recorded: the hot path of millions of warnings pays nothing.
** The patterns are bucketed by their first word, so finding one compares a
** message with the few patterns sharing its first word (and the handful that
** start with a quoted name), not with the whole table. */
#include "output/diag_code.h"
#include "base/arena.h"
#include "atrc.h"
#include "base/text.h"

#include <stdlib.h>
#include <string.h>

/* A pattern is literal text where '*' stands for any run of characters; it
** matches a message that starts with it (the rest of the message, such as a
** "; did you mean" tail, is free).  Earlier rows win within a bucket. */
typedef struct code_rule {
    const char *pattern;
    const char *code;
} code_rule;

/* Every message of atrc, grouped as the README's table of codes is. */
static const code_rule rules[] = {
    /* scripts: lexical (grammar.md 1.3) */
    {"stray *", "bad-token"},
    {"bad token", "bad-token"},
    {"max string length exceeded*", "max-string-length"},
    {"cannot concat \"*\" and \"*\" - max string length exceeded", "max-string-length"},
    {"missing terminating '\"' character", "unterminated-string"},
    {"unterminated /* comment*", "unterminated-comment"},
    {"NUL byte ends the *", "nul-byte"},
    {"not a script: *", "binary-file"},
    {"UTF-8 byte order mark*", "utf8-bom"},
    {"too many errors in this file*", "too-many-errors"},
    {"unknown directive *", "unknown-directive"},
    {"'#include' does not exist in *", "unknown-directive"},
    /* CoD4x's preprocessor (--extension cod4x) */
    {"malformed '#if': *", "preprocessor-directive"},
    {"malformed '#else': *", "preprocessor-directive"},
    {"malformed '#endif': *", "preprocessor-directive"},
    {"'#else' without '#if'", "preprocessor-directive"},
    {"'#endif' without '#if'", "preprocessor-directive"},
    {"second '#else' of the '#if' at line *", "preprocessor-directive"},
    {"'#if' without '#endif' *", "preprocessor-directive"},
    {"GSC has no hexadecimal numbers*", "hex-number"},
    {"GSC has no exponents*", "exponent-number"},
    {"a number cannot end with '.'*", "trailing-dot-number"},
    /* scripts: syntax (grammar.md 2.3) */
    {"expected * before end of file", "unexpected-end-of-file"},
    {"* opened at line * is never closed", "unexpected-end-of-file"},
    {"unterminated /# block", "unexpected-end-of-file"},
    {"nesting too deep*", "nesting-too-deep"},
    {"expected * before *", "bad-syntax"},
    {"syntax error before *", "bad-syntax"},
    {"GSC has no *", "bad-syntax"},
    {"an animation name is written without quotes*", "bad-syntax"},
    {"#include paths separate folders with *", "bad-syntax"},
    /* scripts: compile stage (grammar.md 3.2) */
    {"function '*' already defined in '*'", "include-function-clash"},
    {"function '*' already defined", "duplicate-function"},
    {"function already defined", "duplicate-function"},
    {"cannot recurse /#", "cannot-recurse-dev"},
    {"#/ has no matching /#", "unmatched-dev-close"},
    {"/# has no matching #/", "unmatched-dev-open"},
    {"cannot put #using_animtree inside /# ... #/ comment", "using-animtree-in-dev"},
    {"bad anim tree name", "bad-anim-tree-name"},
    {"#using_animtree was not specified", "no-using-animtree"},
    {"cannot reference animation from /# ... #/ comment", "anim-in-dev"},
    {"expression list must have 1 or 3 parameters", "expression-list-size"},
    {"type * is not a float", "vector-not-float"},
    {"divide by 0", "divide-by-zero"},
    {"pair '*' and '*' has unmatching types *", "unmatching-types"},
    {"conditional expression cannot be always false", "always-false-condition"},
    {"uninitialised variable '*'", "uninitialised-variable"},
    {"unreachable code", "unreachable-code"},
    {"missing case statement", "missing-case"},
    {"duplicate case expression", "duplicate-case"},
    {"case expression must be an int or string", "case-type"},
    {"case index * out of range", "case-index-range"},
    {"illegal case statement", "illegal-case"},
    {"illegal default statement", "illegal-case"},
    {"illegal break statement", "illegal-break"},
    {"illegal continue statement", "illegal-continue"},
    {"cannot use /# ... #/ comments directly around a * statement", "dev-around-statement"},
    {"wait not allowed in /# ... #/ comment", "wait-in-dev"},
    {"waittill not allowed in developer script", "waittill-in-dev"},
    {"waittillmatch not allowed in developer script", "waittill-in-dev"},
    {"not an object", "not-an-object"},
    {"not an lvalue", "not-an-lvalue"},
    {"not an array, string, or vector", "not-an-array"},
    {"$ can only be used in the script debugger", "dollar-debugger-only"},
    {"$ and self field can only be used in the script debugger", "debugger-only-assignment"},
    {"self field can only be used in the script debugger", "self-field-debugger-only"},
    {"illegal function name", "illegal-function-name"},
    {"unknown (builtin) function '*'", "unknown-builtin"},
    {"unknown (builtin) method '*'", "unknown-builtin"},
    {"unknown function*", "unknown-function"},
    {"'*' is not defined in this file* and is not a known * builtin *", "maybe-sp-builtin"},
    {"normal script cannot reference *", "reference-into-dev"},
    {"Could not find script '*'", "script-not-found"},
    {"Duplicate #include", "duplicate-include"},
    {"return value of developer command can not be accessed *", "dev-command-value"},
    {"developer command can only be used as a statement *", "dev-command-value"},
    {"parameter count exceeds 256", "too-many-parameters"},
    {"function exceeds operand stack size", "operand-stack-overflow"},
    {"LOCAL_VAR_STACK_SIZE exceeded", "too-many-locals"},
    {"MAX_PRECACHE_ENTRIES exceeded", "max-precache-entries"},
    {"statements nested deeper than *", "checks-skipped"},
    /* trees (stock-behavior.md 2, 5) */
    {"unexpected end of file", "unexpected-end-of-file"},
    {"duplicate animation*", "duplicate-animation"},
    {"FIXME: aliases not yet implemented", "atr-alias"},
    {"unknown anim property", "unknown-anim-property"},
    {"properties cannot be applied to primitive animations", "properties-on-leaf"},
    {"token not allowed after '*'", "token-after-brace"},
    {"no animation specified for this block", "block-without-animation"},
    {"Do not nest additives", "nested-additive"},
    {"anim tree '*' has too many nodes *", "too-many-nodes"},
    {"animation '*' in '*' cannot be sync *", "sync-conflict"},
    {"animation cannot be sync looping and sync nonlooping", "sync-conflict"},
    {"duplicate specification of animation sync *", "duplicate-sync"},
    {"token longer than * bytes truncated", "long-token"},
    {"unknown anim tree '*'", "unknown-anim-tree"},
    {"animation '*' not defined in anim tree '*'", "undefined-animation"},
    {"maximum animation tree count exceeded*", "too-many-trees"},
    {"animation tree path is too long*", "tree-name-too-long"},
    /* assets (stock-behavior.md 7) */
    {"Cannot find 'xanim/*'", "xanim-not-found"},
    {"Couldn't find xanim '*', using default xanim *", "xanim-default"},
    {"xanim '*' out of date *", "xanim-version"},
    {"xanim '*' has 0 length", "xanim-zero-length"},
    {"malformed xanim '*'", "xanim-malformed"},
    {"the xanims of * of the * leaves were not found*", "xanims-missing"},
    /* run-time animation checks (runtime-anim.md 6) */
    {"waittillmatch waits forever: *", "waittillmatch-never-ends"},
    /* files and game directories */
    {"cannot read *", "cannot-read"},
    {"cannot open archive '*'", "bad-archive"},
    {"archive '*' lists * entries, more than the limit *", "bad-archive"},
    {"archive '*': * ignored: *", "archive-entries-ignored"},
    {"'*' is a fastfile *", "fastfile"},
    /* response files and the project file (interface.md "Project file and
    ** response files"): the command line's errors at FILE:LINE */
    {"'*' includes itself (a cycle of response files)", "argfile-cycle"},
    {"'*': response files nested too deep *", "argfile-too-deep"},
    {"'*' is too large for a response file *", "argfile-too-large"},
    {"too many arguments (max *) once response files are read", "argfile-too-many-arguments"},
    {"too many lines in response files *", "argfile-too-many-lines"},
    {"too many response files read *", "argfile-too-many-files"},
    {"a NUL byte in an argument", "argfile-nul-byte"},
    {"unknown option '*'", "usage"},
    {"* needs a *", "usage"},
    /* level and walk mode (load-order.md) */
    {"Could not find animation tree '*'", "anim-tree-not-found"},
    {"Could not find label '*' in script '*'", "label-not-found"},
    {"Couldn't load player animation script *", "playeranim-not-found"},
    {"expected 'actor_<type>', *", "entities-syntax"},
    {"map '*' has no map script *", "no-map-script"},
    {"no map script * and no map '*'*", "no-map"},
    {"the * single-player load order is not known*", "sp-load-order-unknown"},
    {"unknown gametype '*'", "unknown-gametype"},
    /* builtin lists (interface.md "Extension builtins") */
    {"* (a builtin list has lines *", "builtin-list-syntax"},
    {"a builtin list holds at most *", "builtin-list-too-long"},
    {"* '*' is listed already", "builtin-listed-twice"},
    /* atrc diff: the documents it reads */
    {"not valid JSON: *", "not-json"},
    {"not an atrc JSON output: *", "not-atrc-json"},
    /* mp/playeranim.script (grammar.md 4.5) */
    {"BG_AnimParseAnimScript: unexpected end of file*", "playeranim-unexpected-end-of-file"},
    {"BG_AnimParseAnimScript: unexpected '*'", "playeranim-unexpected-token"},
    {"BG_AnimParseAnimScript: expected 'statechange'*", "playeranim-expected-statechange"},
    {"BG_AnimParseAnimScript: expected 'state'", "playeranim-expected-state"},
    {"BG_AnimParseAnimScript: expected '{'", "playeranim-expected-brace"},
    {"BG_AnimParseAnimScript: expected state type", "playeranim-expected-state-type"},
    {"BG_AnimParseAnimScript: expected <state type>", "playeranim-expected-state-type"},
    {"BG_AnimParseAnimScript: expected condition *", "playeranim-expected-condition"},
    {"BG_AnimParseAnimScript: expected '=', *", "playeranim-expected-equals"},
    {"BG_AnimParseAnimScript: can not make a define *", "playeranim-bad-define"},
    {"BG_AnimParseAnimScript: exceeded maximum *", "playeranim-too-many-items"},
    {"BG_AnimParseAnimScript: internal error", "playeranim-internal-error"},
    {"BG_ParseConditions: *", "playeranim-bad-conditions"},
    {"BG_ParseConditionBits: *", "playeranim-bad-condition-bits"},
    {"BG_IndexForString: unknown token *", "playeranim-unknown-token"},
    {"BG_ParseCommands: expected animation", "playeranim-expected-animation"},
    {"BG_ParseCommands: expected duration value", "playeranim-expected-value"},
    {"BG_ParseCommands: expected blendtime value", "playeranim-expected-value"},
    {"BG_ParseCommands: expected sound", "playeranim-expected-sound"},
    {"BG_ParseCommands: wav files not supported*", "playeranim-wav-sound"},
    {"BG_ParseCommands: Turret animations can only be played *", "playeranim-turret-body-part"},
    {"BG_ParseCommands: unknown parameter *", "playeranim-unknown-parameter"},
    {"BG_ParseCommands: exceeded maximum number of animations*", "playeranim-too-many-animations"},
    {"BG_CopyStringIntoBuffer: out of buffer space", "playeranim-buffer-full"},
    {"death animation '*' is looping", "playeranim-looping-death"},
    /* run-time animation checks (runtime-anim.md 6): "<builtin>: <the game's message>: <why>" */
    {"*: too many parameters: *", "anim-parameter-count"},
    {"*: incorrect number of parameters: *", "anim-parameter-count"},
    {"*: illegal call to SetFlaggedAnimKnobAll*: *", "anim-parameter-count"},
    {"*: Incorrect number of parameters for *: *", "anim-parameter-count"},
    {"*: parameter * does not exist: *", "anim-parameter-count"},
    {"*: type * is not an animtree: *", "not-an-animtree"},
    {"*: cannot cast * to animtree: *", "not-an-animtree"},
    {"*: type * is not an anim: *", "not-an-anim"},
    {"*: cannot cast * to anim: *", "not-an-anim"},
    {"*: type * is not a float: *", "anim-argument-type"},
    {"*: type * is not a vector: *", "anim-argument-type"},
    {"*: cannot cast * to string: *", "anim-argument-type"},
    {"*: must set nonnegative *: *", "anim-argument-sign"},
    {"*: must set positive weight: *", "anim-argument-sign"},
    {"*: Down angle (parameter 1) must *", "anim-argument-sign"},
    {"*: Up angle (parameter 2) must *", "anim-argument-sign"},
    {"*: blended nonsynchronized animation has no concept of time: *", "anim-no-time"},
    {"*: anim '*' in animtree '*' does not belong to the entity's animtree*", "anim-tree-mismatch"},
    {"*: root anim is not an ancestor of the anim: *", "anim-root-not-ancestor"},
    {"*: non-primitive animation has no concept of length: *", "anim-no-length"},
    {"*: not a leaf animation: *", "anim-set-time"},
    {"*: must be > 0: *", "anim-set-time"},
    {"*: must be < 1: *", "anim-set-time"},
    {"*: cannot set time 1 on looping animation: *", "anim-set-time"},
    {"*: Illegal mode * for animScripted. *", "animscripted-mode"},
    {"*: anim '*' has no children: *", "anim-has-no-children"},
};
#define RULE_COUNT (sizeof rules / sizeof rules[0])

/* Does msg start with pattern ('*': any run)?  Linear in practice: the
** patterns have few stars and the backtracking goes to the last one. */
static int matches(const char *pat, const char *msg)
{
    const char *star = NULL, *resume = NULL;
    for (;;) {
        if (!*pat) return 1;
        if (*pat == '*') {
            star = ++pat;
            resume = msg;
            continue;
        }
        if (*msg && *msg == *pat) {
            pat++;
            msg++;
            continue;
        }
        if (!star || !*resume) return 0;
        pat = star;
        msg = ++resume;
    }
}

/* The bucket key: the text before the first space (or the whole text). */
static size_t first_word(const char *s)
{
    const char *sp = strchr(s, ' ');
    return sp ? (size_t)(sp - s) : strlen(s);
}

/* Entry b of the table is bucket b: head[b] its first rule; the rules of one
** word chain through next[] in table order. */
static const char *bucket_word_at(const void *index, size_t b, size_t *len)
{
    const char *p = rules[((const diag_code_index *)index)->head[b]].pattern;
    *len = first_word(p);
    return p;
}

static int bucket_of(const diag_code_index *x, const char *w, size_t n)
{
    size_t b = hashtab_find_bytes(&x->words, text_hash_bytes(w, n), w, n, x, bucket_word_at);
    return b == HASHTAB_END ? -1 : (int)b;
}

void diag_code_index_init(diag_code_index *x)
{
    memset(x, 0, sizeof *x);
    x->head = xmalloc(array_size(RULE_COUNT, sizeof *x->head));
    x->tail = xmalloc(array_size(RULE_COUNT, sizeof *x->tail));
    x->next = xmalloc(array_size(RULE_COUNT, sizeof *x->next));
    x->wild = xmalloc(array_size(RULE_COUNT, sizeof *x->wild));
    for (size_t i = 0; i < RULE_COUNT; i++) {
        const char *p = rules[i].pattern;
        size_t n = first_word(p);
        x->next[i] = -1;
        if (memchr(p, '*', n)) {
            x->wild[x->wild_count++] = (int)i;
            continue;
        }
        int b = bucket_of(x, p, n);
        if (b < 0) {
            b = (int)hashtab_add(&x->words, text_hash_bytes(p, n));
            x->head[b] = x->tail[b] = (int)i;
        } else {
            x->next[x->tail[b]] = (int)i;
            x->tail[b] = (int)i;
        }
    }
}

void diag_code_index_free(diag_code_index *x)
{
    hashtab_free(&x->words);
    free(x->head);
    free(x->tail);
    free(x->next);
    free(x->wild);
    memset(x, 0, sizeof *x);
}

const char *diag_code_find(const diag_code_index *x, const char *message)
{
    if (!message) return NULL;
    int b = bucket_of(x, message, first_word(message));
    for (int r = b < 0 ? -1 : x->head[b]; r >= 0; r = x->next[r])
        if (matches(rules[r].pattern, message)) return rules[r].code;
    for (size_t i = 0; i < x->wild_count; i++)
        if (matches(rules[x->wild[i]].pattern, message)) return rules[x->wild[i]].code;
    return NULL;
}

/* ---- the public list ---- */

/* Without a context's index: the same answer (a word's own rows first, then
** the wild ones, each in table order) by a walk of the table, for callers
** with no context (not a hot path). */
const char *atrc_diagnostic_code(const char *message)
{
    if (!message) return NULL;
    size_t n = first_word(message);
    for (int wild = 0; wild < 2; wild++)
        for (size_t i = 0; i < RULE_COUNT; i++) {
            const char *p = rules[i].pattern;
            size_t pn = first_word(p);
            int is_wild = memchr(p, '*', pn) != NULL;
            if (is_wild != wild || (!wild && (pn != n || memcmp(p, message, n) != 0))) continue;
            if (matches(p, message)) return rules[i].code;
        }
    return NULL;
}

/* The i-th distinct code in table order (rows repeating an earlier code are skipped). */
static int is_first_of_code(size_t i)
{
    for (size_t k = 0; k < i; k++)
        if (strcmp(rules[k].code, rules[i].code) == 0) return 0;
    return 1;
}

size_t atrc_diagnostic_code_count(void)
{
    size_t n = 0;
    for (size_t i = 0; i < RULE_COUNT; i++) n += is_first_of_code(i);
    return n;
}

const char *atrc_diagnostic_code_name(size_t i)
{
    for (size_t r = 0; r < RULE_COUNT; r++)
        if (is_first_of_code(r) && i-- == 0) return rules[r].code;
    return NULL;
}
