/* GSC grammar (Lemon), grammar.md section 2.  One grammar serves both game
** grammars: G1 (cod1, uo) and G2 (cod2, cod4) differ in tokens, which the
** lexer produces per profile (casts and `do` only in G1; `#include`, `$`,
** waittillframeend, breakpoint, prof_begin/prof_end and breakon only in
** G2), and in five constructs that the actions check against the profile row
** (gsc_profile_* in src/script/syntax_messages.c: a leading empty argument or
** parameter, `;` before the first item, a switch body that is not a block,
** what a top-level `/# #/` may hold, `a.self`).  Every action is one call to
** a builder in src/script/ast.c (or, for functions and top-level `/# #/` items, to
** src/script/script_parse.c, which hands a long function on in chunks); nodes live
** in the per-run arena, so no destructors are needed.  Error recovery: a bad statement becomes `compound ::= error`, a
** bad top-level item `item ::= error` (optionally followed by the body it
** meant to have), a bad `if` header `IF error` followed by the rest of the
** `if`, so one mistake yields one diagnostic and parsing goes on; the driver's
** part is src/script/syntax_recovery.c, the messages' wording src/script/syntax_messages.c.
** The build fails on any conflict (see the Makefile). */

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
#include "script/ast_build.h"
#include "gsc_parser.h"
#include "script/parse_ctx.h"
#include "script/syntax_messages.h"
#include "script/syntax_recovery.h"
}

%syntax_error {
    recovery_syntax_error(yypParser, ctx, yymajor, yyminor);
}

%stack_overflow {
    syntax_msg_stack_overflow(ctx, YYSTACKDEPTH);
    ctx->lx->log->stopped = 1;
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
%right BANG TILDE CAST.

/* Fix the code order of the remaining tokens (gsc_token_name() relies on
** designated initializers, not on this order).  HASH (G1's lone `#`) and
** QUESTION (`?`) are tokens no rule uses, as in the games. */
%token IDENT PATH INT FLOAT STRING ISTRING ANIMTREE INCLUDE USING_ANIMTREE
       DEVOPEN DEVCLOSE IF WHILE FOR SWITCH CASE DEFAULT BREAK CONTINUE RETURN
       WAIT WAITTILLFRAMEEND BREAKPOINT THREAD TRUE FALSE UNDEFINED
       DO SELF LEVEL GAME ANIM WAITTILL WAITTILLMATCH NOTIFY ENDON
       PROF_BEGIN PROF_END BREAKON SIZE DOLLAR HASH QUESTION
       LP RP LBRACKET RBRACKET LBRACE RBRACE
       SEMI COMMA COLON DCOLON DOT
       ASSIGN PLUSEQ MINUSEQ STAREQ SLASHEQ PERCENTEQ ANDEQ OREQ XOREQ SHLEQ SHREQ
       INC DEC.

%type path_name {gsc_token}
%type assign_op {gsc_token}
%type switch_start {gsc_token}

/* ---------------------------------------------------------------- file */

file ::= leading includes items.

/* G1: `;`s before the first item (checked against the profile). */
leading ::= .
leading ::= leading SEMI(T).                        { gsc_profile_leading_semi(ctx, T); }

/* G2: every `#include` precedes every other item (the lexer makes the token
** only in G2). */
includes ::= .
includes ::= includes INCLUDE(H) path_name(P) SEMI. { gsc_file_item(ctx, ast_include(ctx->a, H, P)); }
includes ::= includes INCLUDE error SEMI.

/* Top-level items go straight into ctx->root, so whatever was complete
** survives an abandoned parse. */
items ::= .
items ::= items item(B).                           { gsc_file_item(ctx, B); }

item(A) ::= USING_ANIMTREE(H) LP STRING(S) RP SEMI. { A = ast_using_animtree(ctx->a, H, S); }
/* A function: its header reduces first, then each element of its body's
** own list as it is complete, so that a long function at file level is
** handed on a chunk of statements at a time (gsc_function_begin in
** script_parse.c) and its memory is a chunk's, not the whole body's. */
item(A) ::= fn_head(F) fn_elements RBRACE.          { A = F; }
fn_head(A) ::= IDENT(N) LP(L) params(P) RP LBRACE(B). { A = gsc_function_begin(ctx, N, L, P, B); }
fn_elements(A) ::= .                                { A = gsc_function_body(ctx); }
fn_elements(A) ::= fn_elements(L) simple(S) SEMI.   { A = gsc_function_element(ctx, L, S); }
fn_elements(A) ::= fn_elements(L) compound(S).      { A = gsc_function_element(ctx, L, S); }
fn_elements(A) ::= fn_elements(L) label(S).         { A = gsc_function_element(ctx, L, S); }
/* G1 wraps one function; G2's markers are free-standing and paired at
** compile time, so any items (also nested blocks) parse here.  A G2 stray
** top-level `#/` never reaches the parser: the driver hands it on as a
** marker item, for the compile stage's error.  Known difference: an
** unterminated top-level `/#` is a syntax error here, a compile error in the
** game (an error either way). */
item(A) ::= DEVOPEN(D) dev_items(L) DEVCLOSE(C).    { A = gsc_dev_item(ctx, D, L, C); }
item(A) ::= error.                                  { A = ast_leaf(ctx->a, AST_ERROR, *ctx->cur); }
item(A) ::= error SEMI.                             { A = ast_leaf(ctx->a, AST_ERROR, *ctx->cur); }
/* A broken function header: still consume the body as statements. */
item(A) ::= error LBRACE elements RBRACE.           { A = ast_leaf(ctx->a, AST_ERROR, *ctx->cur); }

dev_items(A) ::= .                                  { A = gsc_dev_items(ctx); }
dev_items(A) ::= dev_items(L) item(B).              { A = ast_append(L, B); }

path_name(A) ::= IDENT(T).                          { A = T; }
path_name(A) ::= PATH(T).                           { A = T; }

params(A) ::= .                                     { A = NULL; }
params(A) ::= param_list(L).                        { A = L; }
params(A) ::= COMMA(C) param_list(L).               { A = gsc_profile_leading_empty(ctx, C, L, "identifier"); }
param_list(A) ::= IDENT(N).                         { A = ast_param(ctx->a, NULL, N); }
param_list(A) ::= param_list(L) COMMA IDENT(N).     { A = ast_param(ctx->a, L, N); }

/* ---------------------------------------------------------------- statements */

block(A) ::= LBRACE(L) elements(S) RBRACE.          { A = ast_finish(S, AST_BLOCK, L); }

/* Block elements: a lone `;` and the labels are elements, never statements
** (`if (c) ;` is an error); labels parse anywhere, the compile stage judges
** their place.  For speed, a statement is appended as it is, not through
** unit rules `element ::= stmt`, `stmt ::= compound`: one reduction less
** per statement, two per simple statement. */
elements(A) ::= .                                   { A = ast_list(ctx->a, AST_BLOCK); }
elements(A) ::= elements(L) simple(S) SEMI.         { A = ast_append(L, S); }
elements(A) ::= elements(L) compound(S).            { A = ast_append(L, S); }
elements(A) ::= elements(L) label(S).               { A = ast_append(L, S); }

/* The elements that are not statements (a lone `;` counts as a label here). */
label(A) ::= SEMI(T).                               { A = ast_leaf(ctx->a, AST_EMPTY, T); }
label(A) ::= CASE(K) postfix(E) COLON.              { A = ast_node1(ctx->a, AST_CASE, K, E); }
label(A) ::= DEFAULT(K) COLON.                      { A = ast_leaf(ctx->a, AST_DEFAULT, K); }

/* One block element (the init part of `for`). */
element(A) ::= stmt(S).                             { A = S; }
element(A) ::= label(S).                            { A = S; }

/* A statement: a simple one with its ';', or a compound one (which ends
** with a statement or block of its own, or is an error). */
stmt(A) ::= simple(S) SEMI.                         { A = S; }
stmt(A) ::= compound(S).                            { A = S; }

compound(A) ::= block(B).                           { A = B; }
compound(A) ::= IF(K) LP expr(C) RP body(T). [IFX]  { A = ast_if(ctx->a, K, C, T, NULL); }
compound(A) ::= IF(K) LP expr(C) RP body(T) ELSE body(E). { A = ast_if(ctx->a, K, C, T, E); }
compound(A) ::= WHILE(K) LP expr(C) RP body(B).     { A = ast_node2(ctx->a, AST_WHILE, K, C, B); }
/* The init part is a whole block element with its own ';'. */
compound(A) ::= FOR(K) LP element(I) for_cond(C) SEMI for_post(S) RP body(B).
                                                    { A = ast_for(ctx->a, K, I, C, S, B); }
compound(A) ::= SWITCH(K) LP expr(E) RP switch_start(T) stmt(B).
                                                    { A = gsc_profile_switch(ctx, K, E, T, B); }
compound(A) ::= DEVOPEN(D) elements(S) DEVCLOSE.    { A = ast_finish(S, AST_DEVBLOCK, D); }
compound(A) ::= error.                              { A = ast_leaf(ctx->a, AST_ERROR, *ctx->cur); }
/* A broken `if` header (`if x)`, `if (x y)`, `if (x {`): the error covers the
** header up to its ')', or up to a body that is a block, and the body and any
** `else` still belong to the `if`, so the `else` is not a second error.  A
** header that reaches ';' first is a whole statement. */
compound(A) ::= IF(K) error RP stmt(T). [IFX]       { A = ast_if_broken(ctx->a, K, T, NULL); }
compound(A) ::= IF(K) error RP stmt(T) ELSE stmt(E). { A = ast_if_broken(ctx->a, K, T, E); }
compound(A) ::= IF(K) error block(T). [IFX]         { A = ast_if_broken(ctx->a, K, T, NULL); }
compound(A) ::= IF(K) error block(T) ELSE stmt(E).  { A = ast_if_broken(ctx->a, K, T, E); }
compound(A) ::= IF(K) error SEMI.                   { A = ast_leaf(ctx->a, AST_ERROR, K); }

/* A lone ';' is never the body of an if, else, while or for (grammar.md
** 2.2): reported here, once, and parsing goes on as if it were `{}`. */
body(A) ::= simple(S) SEMI.                         { A = S; }
body(A) ::= compound(S).                            { A = S; }
body(A) ::= SEMI(T).                                { A = gsc_empty_body(ctx, T); }

/* The first token of a switch body: G1 takes any statement, G2 a block
** (checked in gsc_profile_switch). */
switch_start(A) ::= .                               { A = *ctx->cur; }

/* Statements without their ';' (also the post part of `for`). */
simple(A) ::= call(C).                              { A = ast_expr_stmt(ctx->a, C); }
/* `=` is spelled out (not an assign_op) for speed: most statements are
** plain assignments, and a unit rule would cost a reduction each. */
simple(A) ::= lvalue(L) ASSIGN(O) expr(R).          { A = ast_assign(ctx->a, O, L, R); }
simple(A) ::= lvalue(L) assign_op(O) expr(R).       { A = ast_assign(ctx->a, O, L, R); }
simple(A) ::= lvalue(L) INC(O).                     { A = ast_incdec(ctx->a, O, L); }
simple(A) ::= lvalue(L) DEC(O).                     { A = ast_incdec(ctx->a, O, L); }
simple(A) ::= RETURN(K).                            { A = ast_leaf(ctx->a, AST_RETURN, K); }
simple(A) ::= RETURN(K) expr(E).                    { A = ast_node1(ctx->a, AST_RETURN, K, E); }
simple(A) ::= WAIT(K) expr(E).                      { A = ast_node1(ctx->a, AST_WAIT, K, E); }
simple(A) ::= BREAK(K).                             { A = ast_leaf(ctx->a, AST_BREAK, K); }
simple(A) ::= CONTINUE(K).                          { A = ast_leaf(ctx->a, AST_CONTINUE, K); }
simple(A) ::= postfix(O) WAITTILL(K) LP(L) expr(E) waittill_vars(V) RP.
                                                    { A = ast_event(ctx->a, AST_WAITTILL, O, K, L, ast_prepend(V, E)); }
simple(A) ::= postfix(O) WAITTILLMATCH(K) LP(L) arg_list(G) RP.
                                                    { A = ast_event(ctx->a, AST_WAITTILLMATCH, O, K, L, G); }
simple(A) ::= postfix(O) NOTIFY(K) LP(L) arg_list(G) RP.
                                                    { A = ast_event(ctx->a, AST_NOTIFY, O, K, L, G); }
simple(A) ::= postfix(O) ENDON(K) LP(L) expr(E) RP.    { A = ast_event(ctx->a, AST_ENDON, O, K, L, ast_list1(ctx->a, AST_ARGS, E)); }
/* G1 (the lexer makes DO only there); the ';' is the statement's. */
simple(A) ::= DO(K) stmt(B) WHILE LP expr(C) RP.    { A = ast_node2(ctx->a, AST_DO_WHILE, K, B, C); }
/* G2 (keywords only there). */
simple(A) ::= WAITTILLFRAMEEND(K).                  { A = ast_leaf(ctx->a, AST_WAITTILLFRAMEEND, K); }
simple(A) ::= BREAKPOINT(K).                        { A = ast_leaf(ctx->a, AST_BREAKPOINT, K); }
simple(A) ::= PROF_BEGIN(K) LP STRING(S) RP.        { A = ast_prof(ctx->a, K, S); }
simple(A) ::= PROF_END(K) LP STRING(S) RP.          { A = ast_prof(ctx->a, K, S); }

waittill_vars(A) ::= .                              { A = ast_list(ctx->a, AST_ARGS); }
waittill_vars(A) ::= waittill_vars(L) COMMA IDENT(N). { A = ast_append(L, ast_text_leaf(ctx->a, AST_IDENT, N)); }

for_post(A) ::= .                                   { A = NULL; }
for_post(A) ::= simple(S).                          { A = S; }
for_cond(A) ::= .                                   { A = NULL; }
for_cond(A) ::= expr(E).                            { A = E; }

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
lvalue(A) ::= postfix(O) DOT SELF(N).               { A = gsc_profile_self_field(ctx, O, N); }
lvalue(A) ::= postfix(O) LBRACKET(T) expr(I) RBRACKET. { A = ast_node2(ctx->a, AST_INDEX, T, O, I); }
lvalue(A) ::= DOLLAR(D) IDENT(N).                   { A = ast_entity(ctx->a, D, N); }

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
expr(A) ::= CAST(C) expr(E).                        { A = ast_cast(ctx->a, C, E); }

postfix(A) ::= call(C).                             { A = C; }
postfix(A) ::= postfix(O) DOT IDENT(N).             { A = ast_member(ctx->a, O, N); }
postfix(A) ::= postfix(O) DOT SELF(N).              { A = gsc_profile_self_field(ctx, O, N); }
postfix(A) ::= postfix(O) LBRACKET(T) expr(I) RBRACKET. { A = ast_node2(ctx->a, AST_INDEX, T, O, I); }
postfix(A) ::= postfix(O) SIZE(T).                  { A = ast_node1(ctx->a, AST_SIZE, T, O); }
postfix(A) ::= DOLLAR(D) IDENT(N).                  { A = ast_entity(ctx->a, D, N); }
postfix(A) ::= postfix(O) BREAKON(K) LP expr(E) RP. { A = ast_node2(ctx->a, AST_BREAKON, K, O, E); }

call(A) ::= fcall(C).                               { A = C; }
call(A) ::= THREAD fcall(C).                        { A = ast_call_on(ctx->a, NULL, C, 1); }
call(A) ::= postfix(O) fcall(C).                    { A = ast_call_on(ctx->a, O, C, 0); }
call(A) ::= postfix(O) THREAD fcall(C).             { A = ast_call_on(ctx->a, O, C, 1); }

fcall(A) ::= IDENT(N) LP(L) args(G) RP.             { A = gsc_call(ctx, N, L, G); }
/* IDENT and PATH are spelled out (not path_name) so that no default
** reduction hides what was expected after `obj name`. */
fcall(A) ::= IDENT(P) DCOLON IDENT(N) LP(L) args(G) RP.
                                                    { A = ast_scoped_call(ctx->a, P, N, L, G); }
fcall(A) ::= PATH(P) DCOLON IDENT(N) LP(L) args(G) RP.
                                                    { A = ast_scoped_call(ctx->a, P, N, L, G); }
/* `[[ f ]]` is four tokens in every game: `[ [ f ] ]()` is a pointer call. */
fcall(A) ::= LBRACKET(B) LBRACKET expr(E) RBRACKET RBRACKET LP(L) args(G) RP.
                                                    { A = ast_pointer_call(ctx->a, B, E, L, G); }

args(A) ::= .                                       { A = NULL; }
args(A) ::= arg_list(L).                            { A = L; }
args(A) ::= COMMA(C) arg_list(L).                   { A = gsc_profile_leading_empty(ctx, C, L, "expression"); }
arg_list(A) ::= expr(E).                            { A = ast_list1(ctx->a, AST_ARGS, E); }
arg_list(A) ::= arg_list(L) COMMA expr(E).          { A = ast_append(L, E); }

/* The operands (no `primary` nonterminal of their own: a unit rule
** `postfix ::= primary` would cost a reduction per operand, for speed they
** are postfix alternatives). */
postfix(A) ::= IDENT(T).                            { A = ast_text_leaf(ctx->a, AST_IDENT, T); }
postfix(A) ::= INT(T).                              { A = ast_text_leaf(ctx->a, AST_INT, T); }
postfix(A) ::= FLOAT(T).                            { A = ast_text_leaf(ctx->a, AST_FLOAT, T); }
/* No unary minus on expressions: only negative literals. */
postfix(A) ::= MINUS(O) INT(T).                     { A = ast_unary(ctx->a, O, ast_text_leaf(ctx->a, AST_INT, T)); }
postfix(A) ::= MINUS(O) FLOAT(T).                   { A = ast_unary(ctx->a, O, ast_text_leaf(ctx->a, AST_FLOAT, T)); }
postfix(A) ::= STRING(T).                           { A = ast_string(ctx->a, AST_STRING, T); }
postfix(A) ::= ISTRING(T).                          { A = ast_string(ctx->a, AST_ISTRING, T); }
postfix(A) ::= TRUE(T).                             { A = ast_leaf(ctx->a, AST_TRUE, T); }
postfix(A) ::= FALSE(T).                            { A = ast_leaf(ctx->a, AST_FALSE, T); }
postfix(A) ::= UNDEFINED(T).                        { A = ast_leaf(ctx->a, AST_UNDEFINED, T); }
postfix(A) ::= SELF(T).                             { A = ast_text_leaf(ctx->a, AST_IDENT, T); }
postfix(A) ::= LEVEL(T).                            { A = ast_text_leaf(ctx->a, AST_IDENT, T); }
postfix(A) ::= GAME(T).                             { A = ast_text_leaf(ctx->a, AST_IDENT, T); }
postfix(A) ::= ANIM(T).                             { A = ast_text_leaf(ctx->a, AST_IDENT, T); }
/* `%` and the name are two tokens (`% walk`, `%` NEWLINE `walk`). */
postfix(A) ::= PERCENT(P) IDENT(N).                 { A = ast_anim(ctx->a, P, N); }
postfix(A) ::= ANIMTREE(T).                         { A = ast_leaf(ctx->a, AST_ANIMTREE, T); }
/* One element: parentheses; otherwise a vector (arity: compile stage). */
postfix(A) ::= LP(L) args(G) RP.                    { A = ast_paren(ctx->a, L, G); }
postfix(A) ::= LBRACKET(L) RBRACKET.                { A = ast_leaf(ctx->a, AST_EMPTY_ARRAY, L); }
postfix(A) ::= DCOLON(T) IDENT(N).                  { A = ast_func_ref(ctx->a, NULL, T, N); }
postfix(A) ::= IDENT(P) DCOLON(T) IDENT(N).         { A = ast_func_ref(ctx->a, &P, T, N); }
postfix(A) ::= PATH(P) DCOLON(T) IDENT(N).          { A = ast_func_ref(ctx->a, &P, T, N); }

/* Each operand form twice: as `postfix` where something extends it (a
** field, an index, a method call, `waittill`...), and as `expr` where it ends
** an operand.  The next token tells the two apart, so an operand costs no
** unit reduction `expr ::= postfix` (about a sixth of all reductions). */
expr(A) ::= call(C).                                { A = C; }
expr(A) ::= postfix(O) DOT IDENT(N).                { A = ast_member(ctx->a, O, N); }
expr(A) ::= postfix(O) DOT SELF(N).                 { A = gsc_profile_self_field(ctx, O, N); }
expr(A) ::= postfix(O) LBRACKET(T) expr(I) RBRACKET. { A = ast_node2(ctx->a, AST_INDEX, T, O, I); }
expr(A) ::= postfix(O) SIZE(T).                     { A = ast_node1(ctx->a, AST_SIZE, T, O); }
expr(A) ::= DOLLAR(D) IDENT(N).                     { A = ast_entity(ctx->a, D, N); }
expr(A) ::= postfix(O) BREAKON(K) LP expr(E) RP.    { A = ast_node2(ctx->a, AST_BREAKON, K, O, E); }
expr(A) ::= IDENT(T).                               { A = ast_text_leaf(ctx->a, AST_IDENT, T); }
expr(A) ::= INT(T).                                 { A = ast_text_leaf(ctx->a, AST_INT, T); }
expr(A) ::= FLOAT(T).                               { A = ast_text_leaf(ctx->a, AST_FLOAT, T); }
expr(A) ::= MINUS(O) INT(T).                        { A = ast_unary(ctx->a, O, ast_text_leaf(ctx->a, AST_INT, T)); }
expr(A) ::= MINUS(O) FLOAT(T).                      { A = ast_unary(ctx->a, O, ast_text_leaf(ctx->a, AST_FLOAT, T)); }
expr(A) ::= STRING(T).                              { A = ast_string(ctx->a, AST_STRING, T); }
expr(A) ::= ISTRING(T).                             { A = ast_string(ctx->a, AST_ISTRING, T); }
expr(A) ::= TRUE(T).                                { A = ast_leaf(ctx->a, AST_TRUE, T); }
expr(A) ::= FALSE(T).                               { A = ast_leaf(ctx->a, AST_FALSE, T); }
expr(A) ::= UNDEFINED(T).                           { A = ast_leaf(ctx->a, AST_UNDEFINED, T); }
expr(A) ::= SELF(T).                                { A = ast_text_leaf(ctx->a, AST_IDENT, T); }
expr(A) ::= LEVEL(T).                               { A = ast_text_leaf(ctx->a, AST_IDENT, T); }
expr(A) ::= GAME(T).                                { A = ast_text_leaf(ctx->a, AST_IDENT, T); }
expr(A) ::= ANIM(T).                                { A = ast_text_leaf(ctx->a, AST_IDENT, T); }
expr(A) ::= PERCENT(P) IDENT(N).                    { A = ast_anim(ctx->a, P, N); }
expr(A) ::= ANIMTREE(T).                            { A = ast_leaf(ctx->a, AST_ANIMTREE, T); }
expr(A) ::= LP(L) args(G) RP.                       { A = ast_paren(ctx->a, L, G); }
expr(A) ::= LBRACKET(L) RBRACKET.                   { A = ast_leaf(ctx->a, AST_EMPTY_ARRAY, L); }
expr(A) ::= DCOLON(T) IDENT(N).                     { A = ast_func_ref(ctx->a, NULL, T, N); }
expr(A) ::= IDENT(P) DCOLON(T) IDENT(N).            { A = ast_func_ref(ctx->a, &P, T, N); }
expr(A) ::= PATH(P) DCOLON(T) IDENT(N).             { A = ast_func_ref(ctx->a, &P, T, N); }

%code {
/* ==== Lemon internals ====================================================
** The only code in atrc that reads the private parts of Lemon's template
** (lempar.c): the hooks below it (parse_ctx.h) go through these few
** functions.  They rely on yyParser's yytos / yystack / yyerrcnt and its
** three-shift error countdown (yyerrcnt = 3 at an error), yyStackEntry's
** stateno / major, yy_find_shift_action / yy_find_reduce_action, the rule
** tables yyRuleInfoLhs / yyRuleInfoNRhs and the action ranges
** YY_MAX_SHIFTREDUCE, YY_ACCEPT_ACTION, YY_MIN_REDUCE.
** scripts/check-lempar.sh, run before Lemon in the build, refuses a template
** that lacks any of them (written against Debian's lemon 3.40).  Stack
** entries are named by their index, 0 the bottom, lp_top() the top. */
enum { LP_SHIFT, LP_ERROR, LP_REDUCE };

static int lp_top(const yyParser *p) { return (int)(p->yytos - p->yystack); }
/* A stack: the parser's own, or a copy of its top part (GscParseCopyStack);
** the automaton simulation reads either. */
typedef yyStackEntry lp_entry;
static int lp_state(const lp_entry *stack, int i) { return stack[i].stateno; }

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

/* ---- which terminals could the parser accept now? ----
** Run the LALR automaton for a candidate terminal on a virtual stack: the real
** stack read-only from entry `top` down, an overlay of pushed states above.
** Reductions pop (overlay first, then the real part) and push the goto state;
** the terminal is acceptable iff we reach a shift, shift-reduce or accept
** action within max_steps reductions. */
#define SIM_OVERLAY 256

static int sim_accepts_on(const lp_entry *stack, int top, int terminal, int max_steps)
{
    int overlay[SIM_OVERLAY];
    int n_overlay = 0;
    int real = top; /* top of the untouched real part */
    for (int steps = 0; steps < max_steps; steps++) {
        int state = n_overlay ? overlay[n_overlay - 1] : lp_state(stack, real);
        int rule = 0;
        int act = lp_action(state, terminal, &rule);
        if (act == LP_SHIFT) return 1;
        if (act == LP_ERROR) return 0;
        int pop = lp_rule_length(rule);
        while (pop > 0 && n_overlay > 0) { n_overlay--; pop--; }
        if (real < pop) return 0;
        real -= pop;
        int below = n_overlay ? overlay[n_overlay - 1] : lp_state(stack, real);
        if (n_overlay == SIM_OVERLAY) return 0;
        overlay[n_overlay++] = lp_goto(below, rule);
    }
    return 0;
}

int GscParseErrorCountdown(void *parser)
{
    return ((const yyParser *)parser)->yyerrcnt;
}

void GscParseResync(void *parser)
{
    ((yyParser *)parser)->yyerrcnt = -1;
}

int GscParseTopIsError(void *parser)
{
    const yyParser *p = parser;
    return p->yystack[lp_top(p)].major == LP_ERROR_SYMBOL;
}

const void *GscParseStack(void *parser, int *top)
{
    const yyParser *p = parser;
    *top = lp_top(p);
    return p->yystack;
}

int GscParseStackAccepts(const void *stack, int top, int code)
{
    return sim_accepts_on(stack, top, code, GSC_SIM_STEPS);
}

size_t GscParseStackEntrySize(void)
{
    return sizeof(lp_entry);
}

int GscParseCopyStack(void *parser, void *to, int max)
{
    const yyParser *p = parser;
    int n = lp_top(p) + 1;
    int from = n > max ? n - max : 0;
    memcpy(to, p->yystack + from, (size_t)(n - from) * sizeof(lp_entry));
    return n - from - 1;
}

int GscParseExpected(void *parser, unsigned char *ok)
{
    typedef char terminals_fit[LP_TERMINALS <= GSC_TERMINALS_MAX ? 1 : -1];
    (void)sizeof(terminals_fit);
    const yyParser *p = parser;
    ok[0] = 0;
    for (int t = 1; t < LP_TERMINALS; t++)
        ok[t] = t != LP_ERROR_SYMBOL && sim_accepts_on(p->yystack, lp_top(p), t, 100000);
    return LP_TERMINALS;
}

int GscParseLongestRule(void)
{
    int longest = 0;
    for (size_t r = 0; r < sizeof yyRuleInfoNRhs / sizeof yyRuleInfoNRhs[0]; r++)
        if (lp_rule_length((int)r) > longest) longest = lp_rule_length((int)r);
    return longest;
}
}
