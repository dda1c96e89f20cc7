/* The wording of every syntax error the parser and the recovery driver
** report (grammar.md gives each message; the lexer's own lexical errors stay
** with its scanner actions in grammar/gsc_lexer.re).  Each function reports
** through the lexer (gsc_lexer_error), so every message counts toward the
** file's cap. */
#ifndef ATRC_SYNTAX_MESSAGES_H
#define ATRC_SYNTAX_MESSAGES_H
#include "script/ast.h"
#include "script/lexer.h"
#include "script/parse_ctx.h"

/* The parser met `major` (tok) where it cannot go: "expected X before Y",
** or the more telling message of a known case (a missing ';' at the end of
** the line before, an unclosed bracket at end of file, '?:', foreach...).
** Whether it is reported at all is the recovery's call (see
** recovery_syntax_error). */
void syntax_msg_expected(void *parser, gsc_parse_ctx *ctx, int major, gsc_token tok);
/* "'x'" for a token in a message, control bytes escaped and long tokens cut
** ("end of file" for code 0). */
void syntax_msg_describe_token(char *buf, size_t cap, int major, gsc_token tok);

/* The grammar actions' checks of the five constructs the two game grammars
** differ in (gsc_parser.y): each reports the construct when the profile
** refuses it, as that game's parser would, and builds the action's node. */
ast_node *gsc_profile_leading_empty(gsc_parse_ctx *ctx, gsc_token comma, ast_node *list,
                                    const char *what);
ast_node *gsc_empty_body(gsc_parse_ctx *ctx, gsc_token semi);
void gsc_profile_leading_semi(gsc_parse_ctx *ctx, gsc_token semi);
ast_node *gsc_profile_switch(gsc_parse_ctx *ctx, gsc_token kw, ast_node *e, gsc_token body_start,
                             ast_node *body);
ast_node *gsc_profile_dev_item(gsc_parse_ctx *ctx, gsc_token open, ast_node *items,
                               gsc_token close);
ast_node *gsc_profile_self_field(gsc_parse_ctx *ctx, ast_node *object, gsc_token self);
/* The parser's stack of `depth` entries ran out (the file is stopped). */
void syntax_msg_stack_overflow(gsc_parse_ctx *ctx, int depth);

/* The recovery driver's repairs (src/script/syntax_recovery.c): a function header
** `name` inside the body of `func`, which lacks its '}'; a header whose '{'
** is missing before tok; a ';' missing after prev before a '}'; a
** cod2/cod4 top-level '#/' without '/#' (the other grammar's probe only). */
void syntax_msg_unclosed_function(gsc_lexer *lx, gsc_token name, gsc_token func);
/* A line left unfinished with a bracket open (its last token last) before
** the statement that starts with next: "expected ')' before 'self'" at the
** end of that line (closer: the bracket's closing token). */
void syntax_msg_unfinished_line(gsc_lexer *lx, const gsc_token *last, const gsc_token *next, int next_code,
                                int closer);
void syntax_msg_missing_brace(gsc_lexer *lx, const gsc_token *tok);
void syntax_msg_semi_before_brace(gsc_lexer *lx, const gsc_token *prev);
void syntax_msg_stray_devclose(const syntax_log *log, const gsc_token *tok);
/* What is appended to the errors the other grammar family accepts (the
** profile hint): g2 is the family of the profile in use (cod2, cod4). */
const char *syntax_msg_profile_hint(int g2);

#endif
