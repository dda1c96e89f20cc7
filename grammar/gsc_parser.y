/* GSC grammar (Lemon).  Every action is one call to a builder in src/ast.c;
** nodes live in the per-run arena, so no destructors are needed.  Error
** recovery: a bad statement becomes `stmt ::= error`, a bad top-level item
** `item ::= error` (optionally followed by the body it meant to have), a bad
** `if` header `IF error` followed by the rest of the `if`, so one mistake
** yields one diagnostic and parsing goes on.  The build fails on any
** conflict (see the Makefile). */

%name GscParse
%token_prefix TK_
%token_type {gsc_token}
%default_type {ast_node *}
%extra_context {gsc_parse_ctx *ctx}
%start_symbol file
/* Bracket depth is bounded by the lexer (GSC_MAX_NESTING); the stack still
** needs a bound for long prefix chains such as `!!!!...x` or else-if ladders. */
%stack_size 20000

%include {
#include <assert.h>
#include <string.h>
#include "ast_build.h"
#include "parse_ctx.h"

struct yyParser;
static void gsc_syntax_error(struct yyParser *p, gsc_parse_ctx *ctx, int major, gsc_token tok);
}

%syntax_error {
    gsc_syntax_error(yypParser, ctx, yymajor, yyminor);
}

%stack_overflow {
    gsc_lexer_error(ctx->lx, ctx->cur.line, ctx->cur.col,
                    "nesting too deep (parser stack of %d entries exhausted)", YYSTACKDEPTH);
    ctx->lx->stopped = 1;
}

/* Tokens that only carry a precedence. */
%nonassoc IFX.
%nonassoc ELSE.
%left OROR.
%left ANDAND.
%left BITOR.
%left BITXOR.
%left BITAND.
%left EQ NE.
%left LT GT LE GE.
%left SHL SHR.
%left PLUS MINUS.
%left STAR SLASH PERCENT.
%right BANG TILDE UMINUS CAST.

/* Fix the code order of the remaining tokens (gsc_token_name() relies on
** designated initializers, not on this order). */
%token IDENT PATH INT FLOAT STRING ISTRING ANIM ANIMTREE INCLUDE USING_ANIMTREE
       DEVOPEN DEVCLOSE IF WHILE FOR SWITCH CASE DEFAULT BREAK CONTINUE RETURN
       WAIT WAITTILLFRAMEEND BREAKPOINT THREAD TRUE FALSE UNDEFINED
       LP RP LBRACKET RBRACKET LDBRACKET RDBRACKET LBRACE RBRACE
       SEMI COMMA COLON DCOLON DOT
       ASSIGN PLUSEQ MINUSEQ STAREQ SLASHEQ PERCENTEQ ANDEQ OREQ XOREQ SHLEQ SHREQ
       INC DEC.

%type path_name {gsc_token}
%type assign_op {gsc_token}

/* ---------------------------------------------------------------- file */

file ::= items.

/* Top-level items go straight into ctx->root, so whatever was complete
** survives an abandoned parse. */
items ::= .
items ::= items item(B).                           { gsc_file_item(ctx, B); }

item(A) ::= INCLUDE(H) path_name(P) SEMI.           { A = ast_include(ctx->a, H, P); }
item(A) ::= USING_ANIMTREE(H) LP STRING(S) RP SEMI. { A = ast_using_animtree(ctx->a, H, S); }
item(A) ::= IDENT(N) LP(L) params(P) RP block(B).   { A = ast_function(ctx->a, N, L, P, B); }
item(A) ::= DEVOPEN(D) dev_items(L) DEVCLOSE.       { A = ast_finish(L, AST_DEVBLOCK, D); }
item(A) ::= error.                                  { A = ast_leaf(ctx->a, AST_ERROR, ctx->cur); }
/* A broken function header: still consume the body as statements. */
item(A) ::= error LBRACE stmts RBRACE.              { A = ast_leaf(ctx->a, AST_ERROR, ctx->cur); }

dev_items(A) ::= .                                  { A = ast_list(ctx->a, AST_DEVBLOCK); }
dev_items(A) ::= dev_items(L) item(B).              { A = ast_append(L, B); }

path_name(A) ::= IDENT(T).                          { A = T; }
path_name(A) ::= PATH(T).                           { A = T; }

params(A) ::= .                                     { A = NULL; }
params(A) ::= param_list(L).                        { A = L; }
param_list(A) ::= IDENT(N).                         { A = ast_param(ctx->a, NULL, N); }
param_list(A) ::= param_list(L) COMMA IDENT(N).     { A = ast_param(ctx->a, L, N); }

/* ---------------------------------------------------------------- statements */

block(A) ::= LBRACE(L) stmts(S) RBRACE.             { A = ast_finish(S, AST_BLOCK, L); }

stmts(A) ::= .                                      { A = ast_list(ctx->a, AST_BLOCK); }
stmts(A) ::= stmts(L) stmt(S).                      { A = ast_append(L, S); }

stmt(A) ::= block(B).                               { A = B; }
stmt(A) ::= simple(S) SEMI.                         { A = S; }
stmt(A) ::= SEMI(T).                                { A = ast_leaf(ctx->a, AST_EMPTY, T); }
stmt(A) ::= IF(K) LP expr(C) RP stmt(T). [IFX]      { A = ast_if(ctx->a, K, C, T, NULL); }
stmt(A) ::= IF(K) LP expr(C) RP stmt(T) ELSE stmt(E). { A = ast_if(ctx->a, K, C, T, E); }
stmt(A) ::= WHILE(K) LP expr(C) RP stmt(B).         { A = ast_node2(ctx->a, AST_WHILE, K, C, B); }
stmt(A) ::= FOR(K) LP for_simple(I) SEMI for_cond(C) SEMI for_simple(S) RP stmt(B).
                                                    { A = ast_for(ctx->a, K, I, C, S, B); }
stmt(A) ::= SWITCH(K) LP expr(E) RP LBRACE(L) switch_items(I) RBRACE.
                                                    { A = ast_switch(ctx->a, K, E, L, I); }
stmt(A) ::= BREAK(K) SEMI.                          { A = ast_leaf(ctx->a, AST_BREAK, K); }
stmt(A) ::= CONTINUE(K) SEMI.                       { A = ast_leaf(ctx->a, AST_CONTINUE, K); }
stmt(A) ::= RETURN(K) SEMI.                         { A = ast_leaf(ctx->a, AST_RETURN, K); }
stmt(A) ::= RETURN(K) expr(E) SEMI.                 { A = ast_node1(ctx->a, AST_RETURN, K, E); }
stmt(A) ::= WAIT(K) expr(E) SEMI.                   { A = ast_node1(ctx->a, AST_WAIT, K, E); }
stmt(A) ::= WAITTILLFRAMEEND(K) SEMI.               { A = ast_leaf(ctx->a, AST_WAITTILLFRAMEEND, K); }
stmt(A) ::= BREAKPOINT(K) SEMI.                     { A = ast_leaf(ctx->a, AST_BREAKPOINT, K); }
stmt(A) ::= DEVOPEN(D) stmts(S) DEVCLOSE.           { A = ast_finish(S, AST_DEVBLOCK, D); }
/* Accepted anywhere a statement is; the compile stage judges the place. */
stmt(A) ::= USING_ANIMTREE(H) LP STRING(S) RP SEMI. { A = ast_using_animtree(ctx->a, H, S); }
stmt(A) ::= error.                                  { A = ast_leaf(ctx->a, AST_ERROR, ctx->cur); }
/* A broken `if` header (`if x)`, `if (x y)`, `if (x {`): the error covers the
** header up to its ')', or up to a body that is a block, and the body and any
** `else` still belong to the `if`, so the `else` is not a second error.  A
** header that reaches ';' first is a whole statement. */
stmt(A) ::= IF(K) error RP stmt(T). [IFX]           { A = ast_if_broken(ctx->a, K, T, NULL); }
stmt(A) ::= IF(K) error RP stmt(T) ELSE stmt(E).    { A = ast_if_broken(ctx->a, K, T, E); }
stmt(A) ::= IF(K) error block(T). [IFX]             { A = ast_if_broken(ctx->a, K, T, NULL); }
stmt(A) ::= IF(K) error block(T) ELSE stmt(E).      { A = ast_if_broken(ctx->a, K, T, E); }
stmt(A) ::= IF(K) error SEMI.                       { A = ast_leaf(ctx->a, AST_ERROR, K); }

switch_items(A) ::= .                               { A = ast_list(ctx->a, AST_BLOCK); }
switch_items(A) ::= switch_items(L) stmt(S).        { A = ast_append(L, S); }
switch_items(A) ::= switch_items(L) label(S).       { A = ast_append(L, S); }
label(A) ::= CASE(K) expr(E) COLON.                 { A = ast_node1(ctx->a, AST_CASE, K, E); }
label(A) ::= DEFAULT(K) COLON.                      { A = ast_leaf(ctx->a, AST_DEFAULT, K); }

/* Statements without their ';' (also the clauses of `for`). */
simple(A) ::= call(C).                              { A = ast_expr_stmt(ctx->a, C); }
simple(A) ::= lvalue(L) assign_op(O) expr(R).       { A = ast_assign(ctx->a, O, L, R); }
simple(A) ::= lvalue(L) INC(O).                     { A = ast_incdec(ctx->a, O, L); }
simple(A) ::= lvalue(L) DEC(O).                     { A = ast_incdec(ctx->a, O, L); }

for_simple(A) ::= .                                 { A = NULL; }
for_simple(A) ::= simple(S).                        { A = S; }
for_cond(A) ::= .                                   { A = NULL; }
for_cond(A) ::= expr(E).                            { A = E; }

assign_op(A) ::= ASSIGN(T).                         { A = T; }
assign_op(A) ::= PLUSEQ(T).                         { A = T; }
assign_op(A) ::= MINUSEQ(T).                        { A = T; }
assign_op(A) ::= STAREQ(T).                         { A = T; }
assign_op(A) ::= SLASHEQ(T).                        { A = T; }
assign_op(A) ::= PERCENTEQ(T).                      { A = T; }
assign_op(A) ::= ANDEQ(T).                          { A = T; }
assign_op(A) ::= OREQ(T).                           { A = T; }
assign_op(A) ::= XOREQ(T).                          { A = T; }
assign_op(A) ::= SHLEQ(T).                          { A = T; }
assign_op(A) ::= SHREQ(T).                          { A = T; }

lvalue(A) ::= IDENT(T).                             { A = ast_text_leaf(ctx->a, AST_IDENT, T); }
lvalue(A) ::= postfix(O) DOT IDENT(N).              { A = ast_member(ctx->a, O, N); }
lvalue(A) ::= postfix(O) LBRACKET(T) expr(I) RBRACKET. { A = ast_node2(ctx->a, AST_INDEX, T, O, I); }

/* ---------------------------------------------------------------- expressions */

expr(A) ::= expr(L) OROR(O) expr(R).                { A = ast_binary(ctx->a, O, L, R); }
expr(A) ::= expr(L) ANDAND(O) expr(R).              { A = ast_binary(ctx->a, O, L, R); }
expr(A) ::= expr(L) BITOR(O) expr(R).               { A = ast_binary(ctx->a, O, L, R); }
expr(A) ::= expr(L) BITXOR(O) expr(R).              { A = ast_binary(ctx->a, O, L, R); }
expr(A) ::= expr(L) BITAND(O) expr(R).              { A = ast_binary(ctx->a, O, L, R); }
expr(A) ::= expr(L) EQ(O) expr(R).                  { A = ast_binary(ctx->a, O, L, R); }
expr(A) ::= expr(L) NE(O) expr(R).                  { A = ast_binary(ctx->a, O, L, R); }
expr(A) ::= expr(L) LT(O) expr(R).                  { A = ast_binary(ctx->a, O, L, R); }
expr(A) ::= expr(L) GT(O) expr(R).                  { A = ast_binary(ctx->a, O, L, R); }
expr(A) ::= expr(L) LE(O) expr(R).                  { A = ast_binary(ctx->a, O, L, R); }
expr(A) ::= expr(L) GE(O) expr(R).                  { A = ast_binary(ctx->a, O, L, R); }
expr(A) ::= expr(L) SHL(O) expr(R).                 { A = ast_binary(ctx->a, O, L, R); }
expr(A) ::= expr(L) SHR(O) expr(R).                 { A = ast_binary(ctx->a, O, L, R); }
expr(A) ::= expr(L) PLUS(O) expr(R).                { A = ast_binary(ctx->a, O, L, R); }
expr(A) ::= expr(L) MINUS(O) expr(R).               { A = ast_binary(ctx->a, O, L, R); }
expr(A) ::= expr(L) STAR(O) expr(R).                { A = ast_binary(ctx->a, O, L, R); }
expr(A) ::= expr(L) SLASH(O) expr(R).               { A = ast_binary(ctx->a, O, L, R); }
expr(A) ::= expr(L) PERCENT(O) expr(R).             { A = ast_binary(ctx->a, O, L, R); }
expr(A) ::= BANG(O) expr(E).                        { A = ast_unary(ctx->a, O, E); }
expr(A) ::= TILDE(O) expr(E).                       { A = ast_unary(ctx->a, O, E); }
expr(A) ::= MINUS(O) expr(E). [UMINUS]              { A = ast_unary(ctx->a, O, E); }
expr(A) ::= CAST(C) expr(E).                        { A = ast_cast(ctx->a, C, E); }
expr(A) ::= postfix(P).                             { A = P; }

postfix(A) ::= primary(P).                          { A = P; }
postfix(A) ::= call(C).                             { A = C; }
postfix(A) ::= postfix(O) DOT IDENT(N).             { A = ast_member(ctx->a, O, N); }
postfix(A) ::= postfix(O) LBRACKET(T) expr(I) RBRACKET. { A = ast_node2(ctx->a, AST_INDEX, T, O, I); }

call(A) ::= fcall(C).                               { A = C; }
call(A) ::= THREAD fcall(C).                        { A = ast_call_on(ctx->a, NULL, C, 1); }
call(A) ::= postfix(O) fcall(C).                    { A = ast_call_on(ctx->a, O, C, 0); }
call(A) ::= postfix(O) THREAD fcall(C).             { A = ast_call_on(ctx->a, O, C, 1); }

fcall(A) ::= IDENT(N) LP(L) args(G) RP.             { A = ast_call(ctx->a, N, L, G); }
/* IDENT and PATH are spelled out (not path_name) so that no default
** reduction hides what was expected after `obj name`. */
fcall(A) ::= IDENT(P) DCOLON IDENT(N) LP(L) args(G) RP.
                                                    { A = ast_scoped_call(ctx->a, P, N, L, G); }
fcall(A) ::= PATH(P) DCOLON IDENT(N) LP(L) args(G) RP.
                                                    { A = ast_scoped_call(ctx->a, P, N, L, G); }
fcall(A) ::= LDBRACKET(B) expr(E) RDBRACKET LP(L) args(G) RP.
                                                    { A = ast_pointer_call(ctx->a, B, E, L, G); }

args(A) ::= .                                       { A = NULL; }
args(A) ::= arg_list(L).                            { A = L; }
arg_list(A) ::= expr(E).                            { A = ast_list1(ctx->a, AST_ARGS, E); }
arg_list(A) ::= arg_list(L) COMMA expr(E).          { A = ast_append(L, E); }

primary(A) ::= IDENT(T).                            { A = ast_text_leaf(ctx->a, AST_IDENT, T); }
primary(A) ::= INT(T).                              { A = ast_text_leaf(ctx->a, AST_INT, T); }
primary(A) ::= FLOAT(T).                            { A = ast_text_leaf(ctx->a, AST_FLOAT, T); }
primary(A) ::= STRING(T).                           { A = ast_string(ctx->a, AST_STRING, T); }
primary(A) ::= ISTRING(T).                          { A = ast_string(ctx->a, AST_ISTRING, T); }
primary(A) ::= TRUE(T).                             { A = ast_leaf(ctx->a, AST_TRUE, T); }
primary(A) ::= FALSE(T).                            { A = ast_leaf(ctx->a, AST_FALSE, T); }
primary(A) ::= UNDEFINED(T).                        { A = ast_leaf(ctx->a, AST_UNDEFINED, T); }
primary(A) ::= ANIM(T).                             { A = ast_anim(ctx->a, T); }
primary(A) ::= ANIMTREE(T).                         { A = ast_leaf(ctx->a, AST_ANIMTREE, T); }
primary(A) ::= LP expr(E) RP.                       { A = E; }
primary(A) ::= LP(L) expr(X) COMMA expr(Y) COMMA expr(Z) RP.
                                                    { A = ast_vector(ctx->a, L, X, Y, Z); }
primary(A) ::= LBRACKET(L) RBRACKET.                { A = ast_leaf(ctx->a, AST_EMPTY_ARRAY, L); }
primary(A) ::= DCOLON(T) IDENT(N).                  { A = ast_func_ref(ctx->a, NULL, T, N); }
primary(A) ::= IDENT(P) DCOLON(T) IDENT(N).         { A = ast_func_ref(ctx->a, &P, T, N); }
primary(A) ::= PATH(P) DCOLON(T) IDENT(N).          { A = ast_func_ref(ctx->a, &P, T, N); }

%code {
/* ==== Lemon internals ====================================================
** The only code in atrc that reads the private parts of Lemon's template
** (lempar.c): everything below it — the driver hooks and the "expected X"
** messages — goes through these few functions.  They rely on yyParser's
** yytos / yystack / yyerrcnt and its three-shift error countdown
** (yyerrcnt = 3 at an error), yyStackEntry's stateno / major / minor.yy0,
** yy_find_shift_action / yy_find_reduce_action, the rule tables
** yyRuleInfoLhs / yyRuleInfoNRhs and the action ranges YY_MAX_SHIFTREDUCE,
** YY_ACCEPT_ACTION, YY_MIN_REDUCE.  scripts/check-lempar.sh, run before
** Lemon in the build, refuses a template that lacks any of them (written
** against Debian's lemon 3.40).  Stack entries are named by their index,
** 0 the bottom, lp_top() the top. */
enum { LP_SHIFT, LP_ERROR, LP_REDUCE };

static int lp_top(const yyParser *p) { return (int)(p->yytos - p->yystack); }
static int lp_state(const yyParser *p, int i) { return p->yystack[i].stateno; }
static int lp_major(const yyParser *p, int i) { return p->yystack[i].major; }
/* The token of entry i; only meaningful when lp_major(p, i) is a terminal. */
static const char *lp_token_text(const yyParser *p, int i) { return p->yystack[i].minor.yy0.z; }
/* -1: no error pending; 3 .. 0: shifts left before errors are reported again. */
static int lp_error_countdown(const yyParser *p) { return p->yyerrcnt; }
static void lp_end_error_countdown(yyParser *p) { p->yyerrcnt = -1; }

/* What the automaton does with terminal in state: LP_SHIFT (shift,
** shift-reduce or accept), LP_ERROR, or LP_REDUCE by *rule. */
static int lp_action(int state, int terminal, int *rule)
{
    YYACTIONTYPE act = yy_find_shift_action((YYCODETYPE)terminal, (YYACTIONTYPE)state);
    if (act <= YY_MAX_SHIFTREDUCE || act == YY_ACCEPT_ACTION) return LP_SHIFT;
    if (act < YY_MIN_REDUCE) return LP_ERROR;
    *rule = act - YY_MIN_REDUCE;
    return LP_REDUCE;
}

static int lp_rule_length(int rule) { return -yyRuleInfoNRhs[rule]; }
/* The state entered after reducing by rule with state uncovered. */
static int lp_goto(int state, int rule) { return yy_find_reduce_action((YYACTIONTYPE)state, yyRuleInfoLhs[rule]); }

#define LP_ERROR_SYMBOL YYERRORSYMBOL
#define LP_TERMINALS YYNTOKEN
/* ==== end of Lemon internals ============================================ */

static int sim_accepts(const yyParser *p, int terminal);
static int sim_accepts_at(const yyParser *p, int top, int terminal, int max_steps);

/* Simulation budget of the checks made at every statement boundary: real
** code needs a handful of reductions; deeper stacks (hostile `if` ladders)
** just answer "no", which keeps parsing linear. */
#define SIM_HINT_STEPS 64

int GscParseRecovering(void *parser)
{
    return lp_error_countdown(parser) >= 0;
}

/* Lemon sets the countdown to 3 at an error and counts it down at each
** shift, so 3 means no token has shifted since the last error: the last
** token fed was the one in error, or discarded by the recovery. */
int GscParseDiscardedLast(void *parser)
{
    return lp_error_countdown(parser) == 3;
}

int GscParseStuckOnError(void *parser, int code)
{
    const yyParser *p = parser;
    return lp_major(p, lp_top(p)) == LP_ERROR_SYMBOL && !sim_accepts_at(p, lp_top(p), code, SIM_HINT_STEPS);
}

int GscParseAtStatementStart(void *parser)
{
    const yyParser *p = parser;
    return sim_accepts_at(p, lp_top(p), TK_IF, SIM_HINT_STEPS) ||
           sim_accepts_at(p, lp_top(p), TK_INCLUDE, SIM_HINT_STEPS);
}

/* Lemon stays silent until three tokens shift after an error, which hides a
** mistake on the next line (`x = ;` twice).  The driver calls this at a
** statement boundary once the parser is back where a statement or a
** top-level item may start: new errors are reported again. */
void GscParseResync(void *parser)
{
    lp_end_error_countdown(parser);
}

/* ---- "expected X before Y": which terminals could the parser accept now? ----
** Run the LALR automaton for a candidate terminal on a virtual stack: the real
** stack read-only from entry `top` down, an overlay of pushed states above.
** Reductions pop (overlay first, then the real part) and push the goto state;
** the terminal is acceptable iff we reach a shift, shift-reduce or accept
** action within max_steps reductions. */
#define SIM_OVERLAY 256

static int sim_accepts_at(const yyParser *p, int top, int terminal, int max_steps)
{
    int overlay[SIM_OVERLAY];
    int n_overlay = 0;
    int real = top; /* top of the untouched real part */
    for (int steps = 0; steps < max_steps; steps++) {
        int state = n_overlay ? overlay[n_overlay - 1] : lp_state(p, real);
        int rule = 0;
        int act = lp_action(state, terminal, &rule);
        if (act == LP_SHIFT) return 1;
        if (act == LP_ERROR) return 0;
        int pop = lp_rule_length(rule);
        while (pop > 0 && n_overlay > 0) { n_overlay--; pop--; }
        if (real < pop) return 0;
        real -= pop;
        int below = n_overlay ? overlay[n_overlay - 1] : lp_state(p, real);
        if (n_overlay == SIM_OVERLAY) return 0;
        overlay[n_overlay++] = lp_goto(below, rule);
    }
    return 0;
}

static int sim_accepts(const yyParser *p, int terminal)
{
    return sim_accepts_at(p, lp_top(p), terminal, 100000);
}

static int is_closer(int code)
{
    return code == TK_RP || code == TK_RBRACKET || code == TK_RDBRACKET || code == TK_RBRACE ||
           code == TK_DEVCLOSE;
}

/* What a message names, most useful first: the terminator, closing brackets,
** the case colon, '=', an operand, then the openers and names of headers.
** "expression" stands for every terminal that starts one (INT is accepted
** exactly where an expression is). */
static const int preferred[] = {
    TK_SEMI, TK_RP, TK_RBRACKET, TK_RDBRACKET, TK_RBRACE, TK_DEVCLOSE, TK_COLON, TK_ASSIGN,
    TK_INT /* expression */, TK_LP, TK_LBRACE, TK_IDENT, TK_STRING, TK_COMMA, TK_DCOLON,
};

static const char *expected_what(const unsigned char *ok, int major)
{
    if (ok[TK_IF]) {
        /* A statement list: ';' (the empty statement) says nothing useful.  Name
        ** the closer when a wrong one was found, else ask for a statement. */
        if (is_closer(major)) {
            if (ok[TK_RBRACE]) return gsc_token_spelling(TK_RBRACE);
            if (ok[TK_DEVCLOSE]) return gsc_token_spelling(TK_DEVCLOSE);
        }
        return "statement";
    }
    if (ok[TK_INCLUDE]) {
        if (ok[TK_DEVCLOSE] && is_closer(major)) return gsc_token_spelling(TK_DEVCLOSE);
        return "function definition";
    }
    for (size_t i = 0; i < sizeof preferred / sizeof preferred[0]; i++) {
        int t = preferred[i];
        if (ok[t]) return t == TK_INT ? "expression" : gsc_token_spelling(t);
    }
    for (int t = 1; t < LP_TERMINALS; t++)
        if (ok[t] && gsc_token_spelling(t)) return gsc_token_spelling(t);
    return NULL;
}

/* "'x'", with control bytes escaped and long tokens cut (hostile input). */
static void describe_token(char *buf, size_t cap, int major, gsc_token tok)
{
    if (major == 0) {
        snprintf(buf, cap, "end of file");
        return;
    }
    size_t k = 0;
    buf[k++] = '\'';
    for (int i = 0; i < tok.n && k + 8 < cap; i++) {
        unsigned char c = (unsigned char)tok.z[i];
        if (i == 32) {
            k += (size_t)snprintf(buf + k, cap - k, "...");
            break;
        }
        if (c < 0x20 || c >= 0x7f) k += (size_t)snprintf(buf + k, cap - k, "\\x%02X", c);
        else buf[k++] = (char)c;
    }
    buf[k++] = '\'';
    buf[k] = 0;
}

/* GSC reads `x = 1` NEWLINE `y = 2;` as `x = 1 y ...`, the start of a method
** call on 1, and only stumbles on the '=': "expected '(' before '='" points at
** the wrong place.  When the error is on a line whose first token is a name
** (the start of a statement) and the parser, just before that name, could
** have ended a statement with ';' but not started a new one, the mistake is
** the missing ';'.  The message names the first token of the line and is
** located there, like every "expected X before Y" (not at the end of the line
** before).  The name's stack entry is looked up near the top, so this costs
** nothing until there is an error; if it was already reduced away, the plain
** message stands. */
static int missing_semi_before_line(const yyParser *p, const gsc_parse_ctx *ctx, gsc_token tok)
{
    const gsc_token first = ctx->line_first;
    if (ctx->line_first_code != TK_IDENT && ctx->line_first_code != TK_PATH) return 0;
    if (tok.line != first.line || tok.z <= first.z) return 0;
    for (int i = lp_top(p); i > 0 && lp_top(p) - i < 16; i--) {
        if (lp_major(p, i) != ctx->line_first_code || lp_token_text(p, i) != first.z) continue;
        return sim_accepts_at(p, i - 1, TK_SEMI, SIM_HINT_STEPS) &&
               !sim_accepts_at(p, i - 1, TK_IF, SIM_HINT_STEPS) &&
               !sim_accepts_at(p, i - 1, TK_INCLUDE, SIM_HINT_STEPS);
    }
    return 0;
}

static void gsc_syntax_error(struct yyParser *p, gsc_parse_ctx *ctx, int major, gsc_token tok)
{
    gsc_lexer *lx = ctx->lx;
    /* Just after a lexer error (a dropped stray byte), the parser's complaint
    ** is a consequence, not news. */
    if (lx->lexical_errors && lx->token_count - lx->lexical_error_token_count <= 2) return;
    /* The closer of a bracket that an earlier error abandoned: `f(a;` NEWLINE
    ** `b);` is one mistake, already reported. */
    if (is_closer(major) && lx->abandoned_closer == lx->token_count) return;
    if (major == 0) {
        /* An unterminated string or comment already explained the end. */
        if (lx->eof_in_token) return;
        const gsc_opener *o = gsc_lexer_unclosed(lx);
        if (o && o->kind == TK_DEVOPEN) {
            gsc_lexer_error(lx, o->line, o->col, "unterminated /# block");
            return;
        }
        if (o) {
            gsc_lexer_error(lx, tok.line, tok.col, "%s opened at line %d is never closed",
                            gsc_token_spelling(o->kind), o->line);
            return;
        }
    }
    char found[160];
    if (major != 0 && missing_semi_before_line(p, ctx, tok)) {
        describe_token(found, sizeof found, ctx->line_first_code, ctx->line_first);
        gsc_lexer_error(lx, ctx->line_first.line, ctx->line_first.col, "expected %s before %s",
                        gsc_token_spelling(TK_SEMI), found);
        return;
    }
    unsigned char ok[LP_TERMINALS];
    ok[0] = 0;
    for (int t = 1; t < LP_TERMINALS; t++)
        ok[t] = t != LP_ERROR_SYMBOL && sim_accepts(p, t);
    const char *what = expected_what(ok, major);
    describe_token(found, sizeof found, major, tok);
    if (what) gsc_lexer_error(lx, tok.line, tok.col, "expected %s before %s", what, found);
    else gsc_lexer_error(lx, tok.line, tok.col, "syntax error before %s", found);
}
}
