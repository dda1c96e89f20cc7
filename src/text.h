/* Byte-string helpers shared by every stage: the engine's identifier test,
** ASCII case folding (the engines fold names per byte, never by locale) and
** the one hash all name tables use. */
#ifndef ATRC_TEXT_H
#define ATRC_TEXT_H
#include <stddef.h>
#include <stdint.h>

/* Scr_IsIdentifier (stock-behavior.md 1.6): every byte an ASCII letter, digit
** or '_'; leading digits allowed, and the empty string passes. */
int text_is_identifier(const char *s, size_t n);
/* ASCII case-insensitive equality of two NUL-terminated strings. */
int text_equal_nocase(const char *a, const char *b);
/* FNV-1a of s (ASCII-folded when fold_case), started from seed (0 for none). */
uint32_t text_hash(uint32_t seed, const char *s, int fold_case);

#endif
