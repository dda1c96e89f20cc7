/* AST kind names, the builders the grammar actions call, and the S-expression
** dump.  Builders accept NULL children and never fail (the arena aborts on
** exhaustion), so grammar actions stay one call each. */
#include "ast.h"
#include "ast_build.h"
#include "script_parse.h"

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

ast_node *ast_new(arena *a, ast_kind kind, int line, int col)
{
    ast_node *n = arena_alloc(a, sizeof *n);
    *n = (ast_node){.kind = kind, .line = line, .col = col};
    return n;
}

ast_node *ast_append(ast_node *parent, ast_node *child)
{
    if (!parent || !child) return parent;
    if (parent->last) parent->last->next = child;
    else parent->child = child;
    parent->last = child;
    return parent;
}

static ast_node *prepend(ast_node *parent, ast_node *child)
{
    if (!parent || !child) return parent;
    child->next = parent->child;
    parent->child = child;
    if (!parent->last) parent->last = child;
    return parent;
}

static void set_text(arena *a, ast_node *n, const char *s, size_t len)
{
    n->text = arena_strndup(a, s, len);
    n->len = len;
}

/* A node and its text in one allocation (a name per token: the hot case). */
static ast_node *text_node(arena *a, ast_kind kind, int line, int col, const char *s, size_t len)
{
    ast_node *n = arena_alloc(a, sizeof *n + len + 1);
    char *t = (char *)(n + 1);
    memcpy(t, s, len);
    t[len] = 0;
    *n = (ast_node){.kind = kind, .line = line, .col = col, .text = t, .len = len};
    return n;
}

ast_node *ast_leaf(arena *a, ast_kind kind, gsc_token tok)
{
    return ast_new(a, kind, tok.line, tok.col);
}

ast_node *ast_text_leaf(arena *a, ast_kind kind, gsc_token tok)
{
    return text_node(a, kind, tok.line, tok.col, tok.z, (size_t)tok.n);
}

/* Decodes the body of a string token ("..." or &"..."); an unterminated one
** (reported by the lexer) has no closing quote. */
static void decode_string(arena *a, ast_node *n, gsc_token tok)
{
    const char *p = tok.z, *e = tok.z + tok.n;
    if (p < e && *p == '&') p++;
    if (p < e && *p == '"') p++;
    char *out = arena_alloc(a, (size_t)(e - p) + 1);
    size_t k = 0;
    /* Most strings have no escape: copied up to the closing quote in one go. */
    const char *q = memchr(p, '"', (size_t)(e - p));
    if (!q) q = e;
    const char *esc = memchr(p, '\\', (size_t)(q - p));
    if (esc) q = esc;
    memcpy(out, p, (size_t)(q - p));
    k = (size_t)(q - p);
    p = q;
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
    out[k] = 0;
    n->text = out;
    n->len = k;
}

ast_node *ast_string(arena *a, ast_kind kind, gsc_token tok)
{
    ast_node *n = ast_leaf(a, kind, tok);
    decode_string(a, n, tok);
    return n;
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
    if (!args) args = ast_list(a, AST_ARGS);
    ast_append(n, object);
    return ast_append(n, ast_finish(args, AST_ARGS, lparen));
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
    if (items && items->child && !items->child->next) return items->child;
    if (!items) items = ast_list(a, AST_ARGS);
    return ast_finish(items, AST_VECTOR, lparen);
}

ast_node *ast_list(arena *a, ast_kind kind)
{
    return ast_new(a, kind, 0, 0);
}

ast_node *ast_list1(arena *a, ast_kind kind, ast_node *first)
{
    ast_node *n = ast_list(a, kind);
    if (first) {
        n->line = first->line;
        n->col = first->col;
    }
    return ast_append(n, first);
}

ast_node *ast_finish(ast_node *list, ast_kind kind, gsc_token open)
{
    if (!list) return NULL;
    list->kind = kind;
    list->line = open.line;
    list->col = open.col;
    return list;
}

ast_node *ast_node1(arena *a, ast_kind kind, gsc_token tok, ast_node *c1)
{
    return ast_append(ast_leaf(a, kind, tok), c1);
}

ast_node *ast_node2(arena *a, ast_kind kind, gsc_token tok, ast_node *c1, ast_node *c2)
{
    return ast_append(ast_append(ast_leaf(a, kind, tok), c1), c2);
}

ast_node *ast_include(arena *a, gsc_token hash, gsc_token path)
{
    ast_node *n = ast_leaf(a, AST_INCLUDE, hash);
    set_text(a, n, path.z, (size_t)path.n);
    return n;
}

ast_node *ast_using_animtree(arena *a, gsc_token hash, gsc_token str)
{
    ast_node *n = ast_leaf(a, AST_USING_ANIMTREE, hash);
    decode_string(a, n, str);
    return n;
}

ast_node *ast_function(arena *a, gsc_token name, gsc_token lparen, ast_node *params,
                       ast_node *body)
{
    ast_node *n = ast_text_leaf(a, AST_FUNCTION, name);
    if (!params) params = ast_list(a, AST_PARAMS);
    ast_finish(params, AST_PARAMS, lparen);
    ast_append(n, params);
    return ast_append(n, body);
}

ast_node *ast_param(arena *a, ast_node *params, gsc_token name)
{
    if (!params) params = ast_list(a, AST_PARAMS);
    return ast_append(params, ast_text_leaf(a, AST_IDENT, name));
}

ast_node *ast_expr_stmt(arena *a, ast_node *call)
{
    ast_node *n = ast_new(a, AST_EXPR_STMT, call ? call->line : 0, call ? call->col : 0);
    return ast_append(n, call);
}

/* Operators' text is one of a few constant spellings: no copy per node.
** Each spelling is found by its bytes; NULL for anything else. */
static const char *op_spelling(gsc_token op)
{
    static const char *const one = "=+-*/%&|^<>!~";
    static const char *const one_text[] = {"=", "+", "-", "*", "/", "%", "&", "|", "^", "<", ">", "!", "~"};
    static const char *const two[] = {
        "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "++", "--", "||", "&&", "==", "!=",
        "<=", ">=", "<<", ">>",
    };
    const char *z = op.z;
    if (op.n == 1) {
        const char *at = z[0] ? strchr(one, z[0]) : NULL;
        return at ? one_text[at - one] : NULL;
    }
    if (op.n == 2) {
        for (size_t i = 0; i < sizeof two / sizeof two[0]; i++)
            if (two[i][0] == z[0] && two[i][1] == z[1]) return two[i];
        return NULL;
    }
    if (op.n == 3 && z[1] == z[0] && z[2] == '=') return z[0] == '<' ? "<<=" : z[0] == '>' ? ">>=" : NULL;
    return NULL;
}

static ast_node *op_node(arena *a, ast_kind kind, gsc_token op)
{
    const char *text = op.n > 0 ? op_spelling(op) : NULL;
    if (!text) return ast_text_leaf(a, kind, op);
    ast_node *n = ast_leaf(a, kind, op);
    n->text = text;
    n->len = (size_t)op.n;
    return n;
}

ast_node *ast_assign(arena *a, gsc_token op, ast_node *lhs, ast_node *rhs)
{
    return ast_append(ast_append(op_node(a, AST_ASSIGN, op), lhs), rhs);
}

ast_node *ast_incdec(arena *a, gsc_token op, ast_node *operand)
{
    return ast_append(op_node(a, AST_INCDEC, op), operand);
}

ast_node *ast_if(arena *a, gsc_token kw, ast_node *cond, ast_node *then, ast_node *otherwise)
{
    return ast_append(ast_node2(a, AST_IF, kw, cond, then), otherwise);
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

ast_node *ast_binary(arena *a, gsc_token op, ast_node *lhs, ast_node *rhs)
{
    return ast_append(ast_append(op_node(a, AST_BINARY, op), lhs), rhs);
}

ast_node *ast_unary(arena *a, gsc_token op, ast_node *operand)
{
    return ast_append(op_node(a, AST_UNARY, op), operand);
}

static ast_node *args_node(arena *a, gsc_token lparen, ast_node *args)
{
    if (!args) args = ast_list(a, AST_ARGS);
    return ast_finish(args, AST_ARGS, lparen);
}

ast_node *ast_call(arena *a, gsc_token name, gsc_token lparen, ast_node *args)
{
    ast_node *n = ast_leaf(a, AST_CALL, name);
    ast_append(n, ast_text_leaf(a, AST_IDENT, name));
    return ast_append(n, args_node(a, lparen, args));
}

static ast_node *scoped(arena *a, ast_kind kind, const char *prefix, gsc_token path,
                        gsc_token name)
{
    ast_node *n = ast_leaf(a, kind, path);
    size_t pn = prefix ? 0 : (size_t)path.n;
    size_t len = pn + 2 + (size_t)name.n;
    char *s = arena_alloc(a, len + 1);
    if (pn) memcpy(s, path.z, pn);
    memcpy(s + pn, "::", 2);
    memcpy(s + pn + 2, name.z, (size_t)name.n);
    s[len] = 0;
    n->text = s;
    n->len = len;
    return n;
}

ast_node *ast_scoped_call(arena *a, gsc_token path, gsc_token name, gsc_token lparen,
                          ast_node *args)
{
    ast_node *n = ast_leaf(a, AST_CALL, path);
    ast_append(n, scoped(a, AST_SCOPED, NULL, path, name));
    return ast_append(n, args_node(a, lparen, args));
}

ast_node *ast_pointer_call(arena *a, gsc_token open, ast_node *pointer, gsc_token lparen,
                           ast_node *args)
{
    ast_node *n = ast_leaf(a, AST_POINTER_CALL, open);
    ast_append(n, pointer);
    return ast_append(n, args_node(a, lparen, args));
}

ast_node *ast_call_on(arena *a, ast_node *object, ast_node *call, int threaded)
{
    (void)a;
    if (!call) return NULL;
    if (threaded) {
        call->text = "thread";
        call->len = 6;
    }
    if (object) {
        if (call->kind == AST_CALL) call->kind = AST_METHOD_CALL;
        prepend(call, object);
        call->line = object->line;
        call->col = object->col;
    }
    return call;
}

ast_node *ast_func_ref(arena *a, const gsc_token *path, gsc_token dcolon, gsc_token name)
{
    if (path) return scoped(a, AST_FUNC_REF, NULL, *path, name);
    return scoped(a, AST_FUNC_REF, "", dcolon, name);
}

ast_node *ast_member(arena *a, ast_node *object, gsc_token name)
{
    return ast_append(ast_text_leaf(a, AST_MEMBER, name), object);
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
    const ast_node **stack = NULL;
    size_t depth = 0, cap = 0;
    const ast_node *n = root;
    for (;;) {
        /* Indentation stops growing at AST_DUMP_MAX_INDENT so that the dump of a
        ** pathological chain stays linear in size. */
        for (size_t i = 0; i < depth && i < AST_DUMP_MAX_INDENT; i++) fputs("  ", out);
        fprintf(out, "(%s %d:%d", ast_kind_name(n->kind), n->line, n->col);
        if (n->text) dump_text(n, out);
        if (n->child) {
            if (depth == cap) {
                cap = cap ? cap * 2 : 64;
                stack = xrealloc(stack, cap * sizeof *stack);
            }
            stack[depth++] = n;
            fputc('\n', out);
            n = n->child;
            continue;
        }
        fputc(')', out);
        /* Close every ancestor whose last child this was. */
        while (depth > 0 && !n->next) {
            n = stack[--depth];
            fputc(')', out);
        }
        fputc('\n', out);
        if (depth == 0) break;
        n = n->next;
    }
    free(stack);
}

char *ast_dump_string(const ast_node *root)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return xstrdup("");
    ast_dump(root, f);
    fclose(f);
    return buf;
}
