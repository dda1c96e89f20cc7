#!/bin/sh
# The man page passes mandoc's linter (warnings are failures) and documents
# every option that `atrc --help` lists.
#   ATRC=path/to/atrc sh tests/man/check.sh doc/atrc.1
set -u
page=${1:?usage: check.sh PAGE}
: "${ATRC:?set ATRC to the atrc binary}"
command -v mandoc >/dev/null 2>&1 || { echo "man page: mandoc is missing (scripts/ensure-deps.sh base)" >&2; exit 1; }
mandoc -T lint -W warning "$page" || { echo "man page: mandoc -T lint reports problems in $page" >&2; exit 1; }
# The rendered text, so roff escapes (\-) do not matter.
text=$(mandoc -T ascii "$page" | sed 's/.\x08//g')
missing=0
for opt in $("$ATRC" --help | grep -o -- ' --*[A-Za-z][-A-Za-z]*' | sort -u); do
    case "$text" in
        *"$opt"*) ;;
        *) echo "man page: $page does not document $opt" >&2; missing=1 ;;
    esac
done
[ $missing -eq 0 ] && echo "man page: lint clean, every --help option documented"
exit $missing
