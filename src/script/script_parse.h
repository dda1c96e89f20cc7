/* Script front end: re2c lexer (grammar/gsc_lexer.re) + Lemon grammar
** (grammar/gsc_parser.y) -> AST.  */
#ifndef ATRC_SCRIPT_PARSE_H
#define ATRC_SCRIPT_PARSE_H
#include <stdio.h>
#include "base/arena.h"
#include "script/ast.h"
#include "base/diag.h"
#include "game/profile.h"
#include "base/source.h"

/* Lexes and parses one script with the keywords, tokens and grammar of the
** profile's game (the context's rules, grammar.md sections 1-2), and
** CoD4x's preprocessor when pp (may be NULL) says so (gsc_preproc_on).
** Every syntax error is reported to diags
** (located, recovering and going on); returns the AST root (AST_FILE) of
** what could be parsed — never NULL.  AST nodes and texts live in `a`. */
struct gsc_preproc;
ast_node *script_parse(source_file *src, const profile_rules *rules, const struct gsc_preproc *pp, arena *a,
                       diag_list *diags);

/* The same parse, streamed: each complete top-level item (function,
** directive, developer block) is passed to on_item as soon as it is reduced,
** then `scratch` is reset — so memory follows the largest function, not the
** file.  The item is only valid during the call.  holds: what the item may
** hold, SCRIPT_HOLDS_* (a bit clear: it certainly holds none, no need to
** look; a bit set may be a false alarm). */
enum {
    SCRIPT_HOLDS_ANIM_SYNTAX = 1, /* %name, #animtree or #using_animtree */
    SCRIPT_HOLDS_ANIM_CALL = 2    /* a call of a name of the animation builtins (game/anim_builtins.h) */
};
void script_parse_each(source_file *src, const profile_rules *rules, arena *scratch,
                       diag_list *diags,
                       void (*on_item)(void *ud, ast_node *item, int holds), void *ud);

/* script_parse_each, with a long function at file level (not inside a
** cod1/uo top-level /# #/) handed on in pieces rather than as one item, so
** that memory follows `chunk` bytes of syntax tree (and the largest
** statement), not the largest function.  Once the elements of a function's
** body's own list (statements, labels, lone ';'s; nested blocks count as
** one) hold more than chunk bytes, `function` sees SCRIPT_FN_BEGIN with its
** node (the body an empty block at its '{'), then SCRIPT_FN_STMTS with the
** first of them (the rest follow it through `next`), and so on for each
** chunk, then SCRIPT_FN_END with its node, when it is
** reduced (where on_item would have seen it), or SCRIPT_FN_CUT when the
** parser dropped it unfinished (the end of file inside it, the error cap),
** where on_item would never have been called.  A function that stays below
** the chunk goes to on_item whole.  holds is per chunk (a bit clear: none of
** its statements holds any).  Nodes are valid during the call only (a header
** until its end or cut).  on_function NULL: the pieces go nowhere (their
** memory is still released).  chunk 0: each element alone, at once.
** pp: CoD4x's preprocessor when it says so (gsc_preproc_on), else NULL. */
enum { SCRIPT_FN_BEGIN, SCRIPT_FN_STMTS, SCRIPT_FN_END, SCRIPT_FN_CUT };
#define SCRIPT_STREAM_CHUNK ((size_t)32 << 10)
void script_parse_stream(source_file *src, const profile_rules *rules, const struct gsc_preproc *pp,
                         arena *scratch, diag_list *diags, void (*on_item)(void *ud, ast_node *item, int holds),
                         void (*on_function)(void *ud, int event, const ast_node *node, int holds),
                         void *ud, size_t chunk);

/* For tests: parses src as script_parse_each does, and counts the places
** where one of the driver's shortcuts (answers read off the lexer's brackets
** instead of simulating the parser, see recovery_clean_so_far in
** syntax_recovery.h)
** disagrees with the parser's own answer; 0 when they hold. */
int script_verify_line_starts(source_file *src, const profile_rules *rules, arena *scratch,
                              diag_list *diags);

/* Developer dumps (atrc --dump-tokens / --dump-ast).  script_dump_tokens lexes
** src (through pp as script_parse does) and returns one "LINE:COL NAME text"
** line per token, ending with EOF (malloc'd; lexer errors go to diags).  ast_dump writes one S-expression
** node per line, indented: "(kind LINE:COL "text"", children, ")". */
char *script_dump_tokens(source_file *src, const profile_rules *rules, const struct gsc_preproc *pp,
                         diag_list *diags);
void ast_dump(const ast_node *root, FILE *out);
/* ast_dump into a malloc'd string. */
char *ast_dump_string(const ast_node *root);

#endif
