#!/bin/sh
# Prints the README's setup for one editor: the indented block that follows
# the first README line starting with PREFIX (e.g. "Emacs"), unindented.
# The client tests run exactly this text, so the README shows what is tested.
#   sh tests/lsp/readme-snippet.sh README.md PREFIX
set -u
awk -v prefix="$2" '
    !found && index($0, prefix) == 1 { found = 1; next }
    found == 1 && /^$/ { if (inblock) blank++; next }
    found == 1 && /^    / { while (blank > 0) { print ""; blank-- } inblock = 1; print substr($0, 5); next }
    found == 1 && inblock { exit }
    END { if (!inblock) { print "readme-snippet: no indented block after a line starting with \"" prefix "\"" > "/dev/stderr"; exit 1 } }
' "$1"
