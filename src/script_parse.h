/* Script front end: re2c lexer (grammar/gsc_lexer.re) + Lemon grammar
** (grammar/gsc_parser.y) -> AST.  */
#ifndef ATRC_SCRIPT_PARSE_H
#define ATRC_SCRIPT_PARSE_H
#include "arena.h"
#include "ast.h"
#include "diag.h"
#include "source.h"

/* Lexes and parses one script.  Every syntax error is reported to diags
** (located, recovering and going on); returns the AST root (AST_FILE) of
** what could be parsed — never NULL.  AST nodes and texts live in `a`. */
ast_node *script_parse(source_file *src, arena *a, diag_list *diags);

#endif
