/* AST kind names, the builders the grammar actions call, and the S-expression
** dump.  Builders accept NULL children and never fail (the arena aborts on
** exhaustion), so grammar actions stay one call each. */
#include "script/ast.h"
#include "base/inline.h"
#include "base/vec.h"
#include "script/ast_build.h"
#include "os/os.h"
#include "script/script_parse.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ORDER: ast_kind in ast.h */
static const char *const ast_kind_names[] = {
    "file",        "include",    "using_animtree", "function",   "params",
    "block",       "devblock",   "expr_stmt",      "assign",     "incdec",
    "if",          "while",      "for",            "switch",     "case",
    "default",     "break",      "continue",       "return",     "wait",
    "waittillframeend", "empty", "binary",         "unary",      "call",
    "method_call", "pointer_call", "args",         "scoped",     "func_ref",
    "member",      "index",      "empty_array",    "vector",     "int",
    "float",       "string",     "istring",        "true",       "false",
    "undefined",   "ident",      "anim",           "animtree",   "error",
    "cast",        "breakpoint", "do_while",       "waittill",   "waittillmatch",
    "notify",      "endon",      "size",           "entity",     "breakon",
    "prof",
};

typedef char ast_kind_names_in_sync[sizeof ast_kind_names / sizeof ast_kind_names[0]
                                            == AST_KIND_COUNT ? 1 : -1];

const char *ast_kind_name(ast_kind k)
{
    return (unsigned)k < AST_KIND_COUNT ? ast_kind_names[k] : "?";
}

static void set_text(arena *a, ast_node *n, const char *s, size_t len)
{
    n->text = arena_strndup(a, s, len);
    n->len = len;
}

/* The builders of the frequent nodes take their room with arena_fits/take
** and leave a full block to a twin that is never inlined: it makes room,
** then calls the builder again (a tail call).  Their common path then calls
** nothing and saves no registers (COLD_PATH). */

/* Is any byte of the word w (of 4 or 8 bytes) a '"' or a '\\'?  The classic
** zero-byte test on w ^ '"'..'"' and w ^ '\\'..'\\', exact as a yes/no answer. */
#define BYTES64(c) ((uint64_t)(unsigned char)(c) * 0x0101010101010101u)
#define BYTES32(c) ((uint32_t)(unsigned char)(c) * 0x01010101u)
static inline int special64(uint64_t w)
{
    uint64_t q = w ^ BYTES64('"'), b = w ^ BYTES64('\\');
    return ((((q - BYTES64(1)) & ~q) | ((b - BYTES64(1)) & ~b)) & BYTES64(0x80)) != 0;
}
static inline int special32(uint32_t w)
{
    uint32_t q = w ^ BYTES32('"'), b = w ^ BYTES32('\\');
    return ((((q - BYTES32(1)) & ~q) | ((b - BYTES32(1)) & ~b)) & BYTES32(0x80)) != 0;
}

/* Copies p[0 .. n) to out while it has no '"' and no '\\': whole words, the
** last one overlapping.  0 when it has one (out then holds some bytes). */
static int copy_plain_string_body(char *out, const char *p, size_t n)
{
    if (n >= 8) {
        uint64_t w;
        for (size_t i = 0; i + 8 < n; i += 8) {
            memcpy(&w, p + i, 8);
            if (special64(w)) return 0;
            memcpy(out + i, &w, 8);
        }
        memcpy(&w, p + n - 8, 8);
        if (special64(w)) return 0;
        memcpy(out + n - 8, &w, 8);
        return 1;
    }
    if (n >= 4) {
        uint32_t w, v;
        memcpy(&w, p, 4);
        memcpy(&v, p + n - 4, 4);
        if (special32(w) || special32(v)) return 0;
        memcpy(out, &w, 4);
        memcpy(out + n - 4, &v, 4);
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '"' || p[i] == '\\') return 0;
        out[i] = p[i];
    }
    return 1;
}

/* Decodes the body of a string token ("..." or &"...") from p (after the
** opening quote) to e into out (room for e - p bytes); returns the length.
** An unterminated string (reported by the lexer) has no closing quote. */
static size_t decode_string_body(char *out, const char *p, const char *e)
{
    /* Most strings are terminated and have no escape: the body is copied
    ** as it is, a word at a time, as long as neither kind of byte shows. */
    if (p < e && e[-1] == '"' && copy_plain_string_body(out, p, (size_t)(e - 1 - p)))
        return (size_t)(e - 1 - p);
    size_t k = 0;
    while (p < e) {
        char c = *p++;
        if (c == '"') break; /* the closing quote */
        if (c == '\\' && p < e) {
            c = *p++;
            switch (c) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            default: break; /* \\ \" and anything else: the character itself */
            }
        }
        out[k++] = c;
    }
    return k;
}

/* The builders of a node and its text of at most len bytes in one
** allocation (ast_text_node, ast_string_at), and their path for a full
** block: make room, then build again. */
typedef ast_node *text_builder(arena *a, ast_kind kind, int line, int col, const char *s, size_t len);
COLD_PATH static ast_node *text_new_block(text_builder *build, arena *a, ast_kind kind, int line,
                                               int col, const char *s, size_t len)
{
    arena_reserve(a, sizeof(ast_node) + len + 1);
    return build(a, kind, line, col, s, len);
}

/* A node and its NUL-terminated text in one allocation (a name per token:
** the hot case). */
ast_node *ast_text_node(arena *a, ast_kind kind, int line, int col, const char *s, size_t len)
{
    if (!arena_fits(a, sizeof(ast_node) + len + 1))
        return text_new_block(ast_text_node, a, kind, line, col, s, len);
    ast_node *n = arena_take(a, sizeof *n + len + 1);
    char *t = (char *)(n + 1);
    ast_copy_text(t, s, len);
    t[len] = 0;
    *n = (ast_node){.kind = kind, .line = line, .col = col, .text = t, .len = len};
    return n;
}

/* The node and its decoded text are one allocation. */
ast_node *ast_string_at(arena *a, ast_kind kind, int line, int col, const char *z, size_t len)
{
    const char *p = z, *e = z + len;
    if (!arena_fits(a, sizeof(ast_node) + len + 1))
        return text_new_block(ast_string_at, a, kind, line, col, z, len);
    ast_node *n = arena_take(a, sizeof *n + len + 1);
    if (p < e && *p == '&') p++;
    if (p < e && *p == '"') p++;
    char *t = (char *)(n + 1);
    size_t k = decode_string_body(t, p, e);
    t[k] = 0;
    *n = (ast_node){.kind = kind, .line = line, .col = col, .text = t, .len = k};
    return n;
}

ast_node *ast_param(arena *a, ast_node *params, gsc_token name)
{
    if (!params) params = ast_list(a, AST_PARAMS);
    return ast_append(params, ast_text_leaf(a, AST_IDENT, name));
}

COLD_PATH static ast_node *call_new_block(arena *a, gsc_token name, gsc_token lparen,
                                               ast_node *args)
{
    arena_reserve(a, array_size(3, sizeof(ast_node)) + (size_t)name.n + 1);
    return ast_call(a, name, lparen, args);
}

/* Makes n (its callee already at n + 1) the call at `at` of that callee
** with args, or, when args is NULL, with an empty AST_ARGS made at n + 2:
** the call, callee and empty arguments are one allocation. */
static ast_node *call_with(ast_node *n, gsc_token at, gsc_token lparen, ast_node *args)
{
    *n = (ast_node){.kind = AST_CALL, .line = at.line, .col = at.col};
    if (args) {
        ast_finish(args, AST_ARGS, lparen);
    } else {
        args = n + 2;
        *args = (ast_node){.kind = AST_ARGS, .line = lparen.line, .col = lparen.col};
    }
    n[1].next = args;
    n->child = n + 1;
    n->last = args;
    return n;
}

/* f(args): the call node, the callee's AST_IDENT with its name and, for
** `f()`, the empty AST_ARGS are one allocation. */
ast_node *ast_call(arena *a, gsc_token name, gsc_token lparen, ast_node *args)
{
    /* (array_size of 2 or 3 nodes folds to a constant: no check is left) */
    size_t len = (size_t)name.n, nodes = args ? 2 : 3, bytes = array_size(nodes, sizeof(ast_node)) + len + 1;
    if (!arena_fits(a, bytes)) return call_new_block(a, name, lparen, args);
    ast_node *n = arena_take(a, bytes);
    ast_node *id = n + 1;
    char *t = (char *)(n + nodes);
    ast_copy_text(t, name.z, len);
    t[len] = 0;
    *id = (ast_node){.kind = AST_IDENT, .line = name.line, .col = name.col, .text = t, .len = len};
    return call_with(n, name, lparen, args);
}
ast_node *ast_anim(arena *a, gsc_token percent, gsc_token name)
{
    ast_node *n = ast_leaf(a, AST_ANIM, percent);
    set_text(a, n, name.z, (size_t)name.n);
    return n;
}

ast_node *ast_cast(arena *a, gsc_token tok, ast_node *operand)
{
    ast_node *n = ast_leaf(a, AST_CAST, tok);
    /* "(int)": keep the type name only. */
    set_text(a, n, tok.z + 1, tok.n >= 2 ? (size_t)tok.n - 2 : 0);
    return ast_append(n, operand);
}

ast_node *ast_prepend(ast_node *list, ast_node *first)
{
    if (!list || !first) return list;
    list->line = first->line;
    list->col = first->col;
    first->next = list->child;
    list->child = first;
    if (!list->last) list->last = first;
    return list;
}

ast_node *ast_event(arena *a, ast_kind kind, ast_node *object, gsc_token keyword, gsc_token lparen,
                    ast_node *args)
{
    /* Located at the keyword: the errors about an event statement name it. */
    ast_node *n = ast_new(a, kind, keyword.line, keyword.col);
    return ast_adopt2(n, object, ast_args(a, lparen, args));
}

ast_node *ast_prof(arena *a, gsc_token kw, gsc_token str)
{
    return ast_append(ast_text_leaf(a, AST_PROF, kw), ast_string(a, AST_STRING, str));
}

ast_node *ast_entity(arena *a, gsc_token dollar, gsc_token name)
{
    ast_node *n = ast_leaf(a, AST_ENTITY, dollar);
    set_text(a, n, name.z, (size_t)name.n);
    return n;
}

ast_node *ast_paren(arena *a, gsc_token lparen, ast_node *items)
{
    if (items && items->child && !items->child->next) {
        /* The AST keeps no parentheses: the element says it had them. */
        items->child->paren = 1;
        return items->child;
    }
    if (!items) items = ast_list(a, AST_ARGS);
    return ast_finish(items, AST_VECTOR, lparen);
}

ast_node *ast_include(arena *a, gsc_token hash, gsc_token path)
{
    ast_node *n = ast_leaf(a, AST_INCLUDE, hash);
    set_text(a, n, path.z, (size_t)path.n);
    return n;
}

ast_node *ast_using_animtree(arena *a, gsc_token hash, gsc_token str)
{
    ast_node *n = ast_string(a, AST_USING_ANIMTREE, str);
    n->line = hash.line;
    n->col = hash.col;
    return n;
}

ast_node *ast_function(arena *a, gsc_token name, gsc_token lparen, ast_node *params,
                       ast_node *body)
{
    ast_node *n = ast_text_leaf(a, AST_FUNCTION, name);
    if (!params) params = ast_list(a, AST_PARAMS);
    ast_finish(params, AST_PARAMS, lparen);
    return ast_adopt2(n, params, body);
}

/* Operators' text is one of a few constant spellings: no copy per node.
** Each spelling is found by its bytes; NULL for anything else. */
static inline const char *op_spelling(const char *z, int n)
{
    switch (n) {
    case 1:
        switch (z[0]) {
        case '=': return "=";
        case '+': return "+";
        case '-': return "-";
        case '*': return "*";
        case '/': return "/";
        case '%': return "%";
        case '&': return "&";
        case '|': return "|";
        case '^': return "^";
        case '<': return "<";
        case '>': return ">";
        case '!': return "!";
        case '~': return "~";
        default: return NULL;
        }
    case 2:
        if (z[1] == '=') {
            switch (z[0]) {
            case '+': return "+=";
            case '-': return "-=";
            case '*': return "*=";
            case '/': return "/=";
            case '%': return "%=";
            case '&': return "&=";
            case '|': return "|=";
            case '^': return "^=";
            case '=': return "==";
            case '!': return "!=";
            case '<': return "<=";
            case '>': return ">=";
            default: return NULL;
            }
        }
        if (z[1] != z[0]) return NULL;
        switch (z[0]) {
        case '+': return "++";
        case '-': return "--";
        case '|': return "||";
        case '&': return "&&";
        case '<': return "<<";
        case '>': return ">>";
        default: return NULL;
        }
    case 3:
        if (z[1] != z[0] || z[2] != '=') return NULL;
        return z[0] == '<' ? "<<=" : z[0] == '>' ? ">>=" : NULL;
    default:
        return NULL;
    }
}

/* An operator node with children c1, c2 (either may be NULL), its text the
** operator's spelling: op_node's rare paths (a full block, a token that is
** no operator). */
COLD_PATH static ast_node *op_node_slow(arena *a, ast_kind kind, gsc_token op, ast_node *c1,
                                             ast_node *c2)
{
    const char *text = op_spelling(op.z, op.n);
    ast_node *n;
    if (text) {
        n = ast_leaf(a, kind, op);
        n->text = text;
        n->len = (size_t)op.n;
    } else {
        n = ast_text_leaf(a, kind, op);
    }
    return ast_adopt2(n, c1, c2);
}

static inline ast_node *op_node(arena *a, ast_kind kind, gsc_token op, ast_node *c1,
                                ast_node *c2)
{
    const char *text = op_spelling(op.z, op.n);
    if (!text || !arena_fits(a, sizeof(ast_node))) return op_node_slow(a, kind, op, c1, c2);
    ast_node *n = arena_take(a, sizeof *n);
    *n = (ast_node){.kind = kind, .line = op.line, .col = op.col, .text = text, .len = (size_t)op.n};
    return ast_adopt2(n, c1, c2);
}

ast_node *ast_assign(arena *a, gsc_token op, ast_node *lhs, ast_node *rhs)
{
    return op_node(a, AST_ASSIGN, op, lhs, rhs);
}

ast_node *ast_incdec(arena *a, gsc_token op, ast_node *operand)
{
    return op_node(a, AST_INCDEC, op, operand, NULL);
}

ast_node *ast_binary(arena *a, gsc_token op, ast_node *lhs, ast_node *rhs)
{
    return op_node(a, AST_BINARY, op, lhs, rhs);
}

ast_node *ast_unary(arena *a, gsc_token op, ast_node *operand)
{
    return op_node(a, AST_UNARY, op, operand, NULL);
}

/* An `if` whose header error recovery skipped: the condition is an error
** node, the branches are kept. */
ast_node *ast_if_broken(arena *a, gsc_token kw, ast_node *then, ast_node *otherwise)
{
    return ast_if(a, kw, ast_leaf(a, AST_ERROR, kw), then, otherwise);
}

ast_node *ast_for(arena *a, gsc_token kw, ast_node *init, ast_node *cond, ast_node *step,
                  ast_node *body)
{
    ast_node *n = ast_leaf(a, AST_FOR, kw);
    ast_append(n, init ? init : ast_leaf(a, AST_EMPTY, kw));
    ast_append(n, cond ? cond : ast_leaf(a, AST_EMPTY, kw));
    ast_append(n, step ? step : ast_leaf(a, AST_EMPTY, kw));
    return ast_append(n, body);
}

ast_node *ast_switch(arena *a, gsc_token kw, ast_node *expr, gsc_token lbrace, ast_node *body)
{
    return ast_node2(a, AST_SWITCH, kw, expr, ast_finish(body, AST_BLOCK, lbrace));
}

/* path::name (path NULL: ::name) into t, which has room for it and a NUL;
** returns its length. */
static size_t scoped_text(char *t, const gsc_token *path, gsc_token name)
{
    size_t pn = path ? (size_t)path->n : 0;
    ast_copy_text(t, path ? path->z : "", pn);
    t[pn] = ':';
    t[pn + 1] = ':';
    ast_copy_text(t + pn + 2, name.z, (size_t)name.n);
    t[pn + 2 + (size_t)name.n] = 0;
    return pn + 2 + (size_t)name.n;
}

ast_node *ast_scoped_call(arena *a, gsc_token path, gsc_token name, gsc_token lparen,
                          ast_node *args)
{
    /* The call, its AST_SCOPED callee with the text and, for `p::f()`, the
    ** empty AST_ARGS: one allocation. */
    size_t nodes = args ? 2 : 3;
    ast_node *n = arena_alloc(a, array_size(nodes, sizeof *n) + (size_t)path.n + 2 + (size_t)name.n + 1);
    ast_node *callee = n + 1;
    char *t = (char *)(n + nodes);
    size_t len = scoped_text(t, &path, name);
    *callee = (ast_node){.kind = AST_SCOPED, .line = path.line, .col = path.col, .text = t, .len = len};
    return call_with(n, path, lparen, args);
}

ast_node *ast_pointer_call(arena *a, gsc_token open, ast_node *pointer, gsc_token lparen,
                           ast_node *args)
{
    ast_node *n = ast_leaf(a, AST_POINTER_CALL, open);
    return ast_adopt2(n, pointer, ast_args(a, lparen, args));
}

ast_node *ast_func_ref(arena *a, const gsc_token *path, gsc_token dcolon, gsc_token name)
{
    /* Located at the path, or at the `::` of `::f`. */
    gsc_token at = path ? *path : dcolon;
    size_t pn = path ? (size_t)path->n : 0;
    ast_node *n = arena_alloc(a, sizeof *n + pn + 2 + (size_t)name.n + 1);
    char *t = (char *)(n + 1);
    size_t len = scoped_text(t, path, name);
    *n = (ast_node){.kind = AST_FUNC_REF, .line = at.line, .col = at.col, .text = t, .len = len};
    return n;
}


/* ---- dump ---- */

static void dump_text(const ast_node *n, FILE *out)
{
    fputs(" \"", out);
    for (size_t i = 0; i < n->len; i++) {
        unsigned char c = (unsigned char)n->text[i];
        if (c == '"' || c == '\\') fprintf(out, "\\%c", c);
        else if (c == '\n') fputs("\\n", out);
        else if (c == '\t') fputs("\\t", out);
        else if (c < 0x20 || c >= 0x7f) fprintf(out, "\\x%02X", c);
        else fputc(c, out);
    }
    fputc('"', out);
}

#define AST_DUMP_MAX_INDENT 100

/* Iterative pre-order walk with an explicit stack: left-associative chains
** (`a+a+a+...`) make the tree as deep as the input is long. */
void ast_dump(const ast_node *root, FILE *out)
{
    if (!root) return;
    VEC(const ast_node *) stack = {0};
    const ast_node *n = root;
    for (;;) {
        /* Indentation stops growing at AST_DUMP_MAX_INDENT so that the dump of a
        ** pathological chain stays linear in size. */
        for (size_t i = 0; i < stack.count && i < AST_DUMP_MAX_INDENT; i++) fputs("  ", out);
        fprintf(out, "(%s %d:%d", ast_kind_name(n->kind), n->line, n->col);
        if (n->text) dump_text(n, out);
        if (n->child) {
            *VEC_PUSH(stack) = n;
            fputc('\n', out);
            n = n->child;
            continue;
        }
        fputc(')', out);
        /* Close every ancestor whose last child this was. */
        while (stack.count > 0 && !n->next) {
            n = stack.items[--stack.count];
            fputc(')', out);
        }
        fputc('\n', out);
        if (stack.count == 0) break;
        n = n->next;
    }
    VEC_FREE(stack);
}

char *ast_dump_string(const ast_node *root)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = os_memstream_open(&buf, &len);
    if (!f) return xstrdup("");
    ast_dump(root, f);
    if (os_memstream_close(f, &buf, &len) != 0) return xstrdup("");
    return buf;
}
