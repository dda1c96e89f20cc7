// Excerpts keep UTF-8, show bad bytes as ?, and align the caret per character.
f() { /* cafÃ© ÿ */ x = 1 @ 2; }
