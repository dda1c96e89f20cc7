#!/bin/sh
# Checks that a Lemon template (lempar.c) has the internals that
# grammar/gsc_parser.y reads in its one "Lemon internals" block: the parser
# and stack-entry fields, the action lookups, the rule tables and the
# three-shift error countdown.  Written against the template of Debian's
# lemon 3.40 (SQLite 3.40); an older or newer template that lacks any of them
# is refused here, with its version, instead of failing deep in the C build.
#   scripts/check-lempar.sh /usr/share/lemon/lempar.c
set -u
t=${1:?usage: check-lempar.sh LEMPAR}
if [ ! -r "$t" ]; then
    echo "atrc: cannot read the Lemon template '$t' (Debian package lemon; set LEMPAR=...)" >&2
    exit 1
fi
missing=""
for probe in \
    'YYACTIONTYPE stateno;' \
    'YYCODETYPE major;' \
    'YYMINORTYPE minor;' \
    'yyStackEntry *yytos;' \
    'int yyerrcnt;' \
    'yyStackEntry yystack[YYSTACKDEPTH];' \
    'yyerrcnt = 3;' \
    'static YYACTIONTYPE yy_find_shift_action(' \
    'static YYACTIONTYPE yy_find_reduce_action(' \
    'static const YYCODETYPE yyRuleInfoLhs[]' \
    'static const signed char yyRuleInfoNRhs[]' \
    'YY_MAX_SHIFTREDUCE' 'YY_MIN_REDUCE' 'YY_ACCEPT_ACTION' 'YYERRORSYMBOL' 'YYNTOKEN'
do
    grep -qF -- "$probe" "$t" || missing="$missing
    $probe"
done
[ -z "$missing" ] && exit 0
version=""
if command -v dpkg-query >/dev/null 2>&1; then
    version=$(dpkg-query -W -f='${Version}' lemon 2>/dev/null)
fi
[ -n "$version" ] || version=$(lemon -x 2>/dev/null | head -1)
echo "atrc: the Lemon template '$t' (lemon ${version:-of unknown version}) is not one atrc supports:" >&2
echo "atrc: grammar/gsc_parser.y (its \"Lemon internals\" block) needs, and the template lacks:$missing" >&2
echo "atrc: supported: the lempar.c of lemon 3.40 (Debian 12); point LEMPAR= at such a template" >&2
exit 1
