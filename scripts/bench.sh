#!/bin/sh
# make bench: synthetic workloads at n, 2n and 4n, wall time, peak memory and
# throughput of each run, and the time ratios between sizes (about 2.0 for
# each doubling when the work is linear; 4.0 would mean quadratic); then the
# many-file shape of a game's scripts at -j 1 and the default -j.
#   ATRC=/abs/atrc B=/abs/build sh scripts/bench.sh
# Inputs are generated with awk into $B/bench/ and deleted afterwards (the
# largest script is about 200 MB).  BENCH_SCALE=0.25 shrinks every workload.
# Sizes and throughputs are in MiB (2^20 bytes); the many-file rows also give
# MB/s in 10^6 bytes.
set -u
: "${ATRC:?set ATRC to the atrc binary}"
: "${B:?set B to the build directory}"
scale=${BENCH_SCALE:-1}
w=$B/bench
rm -rf "$w" && mkdir -p "$w/game/animtrees" || exit 2
trap 'rm -rf "$w"' EXIT INT TERM

if [ -x scripts/ensure-deps.sh ] || [ -f scripts/ensure-deps.sh ]; then
    sh scripts/ensure-deps.sh bench >/dev/null 2>&1 || true
fi
have_time=0
[ -x /usr/bin/time ] && have_time=1

# n * scale, as an integer
scaled() { awk -v n="$1" -v s="$scale" 'BEGIN { printf "%d", n * s }'; }

now_ns() { date +%s%N; }

# measure LABEL UNITS UNIT-NAME ARGS...: best wall time of 3 runs (ms), peak
# RSS of the last (KB); prints one table row and sets $ms for the ratios.
measure() {
    label=$1 units=$2 unit=$3
    shift 3
    best=""
    for _ in $(seq 1 "${reps:-3}"); do
        t0=$(now_ns)
        if [ $have_time = 1 ]; then
            /usr/bin/time -f %M -o "$w/rss" "$ATRC" "$@" >/dev/null 2>"$w/err"
        else
            "$ATRC" "$@" >/dev/null 2>"$w/err"
        fi
        rc=$?
        t1=$(now_ns)
        t=$(((t1 - t0) / 1000000))
        if [ $rc -gt 1 ]; then
            echo "bench: atrc failed (exit $rc) on $label:" >&2
            head -5 "$w/err" >&2
            exit 1
        fi
        if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
    done
    ms=$best
    rss="n/a"
    [ $have_time = 1 ] && rss=$(awk '{ v = $1 } END { printf "%.1f", v / 1024 }' "$w/rss")
    awk -v l="$label" -v u="$units" -v un="$unit" -v ms="$ms" -v rss="$rss" 'BEGIN {
        s = ms / 1000; if (s <= 0) s = 0.001
        rate = u / s
        r = rate >= 1e6 ? sprintf("%.2f M %s/s", rate / 1e6, un) : rate >= 1e4 ? sprintf("%.0f k %s/s", rate / 1e3, un) : sprintf("%.1f %s/s", rate, un)
        printf "  %-34s %9.3f %10s   %s\n", l, ms / 1000, rss, r }'
}

# ratio NAME T1 T2 T4: time ratios between sizes n, 2n, 4n.
ratio() {
    awk -v name="$1" -v a="$2" -v b="$3" -v c="$4" 'BEGIN {
        r1 = a > 0 ? b / a : 0; r2 = b > 0 ? c / b : 0
        verdict = "linear"
        if (c < 200) verdict = "too fast to judge"
        else if (r1 > 3 || r2 > 3) verdict = "SUPERLINEAR?"
        printf "  %-34s n->2n x%.2f   2n->4n x%.2f   %s\n", name, r1, r2, verdict }'
}

header() {
    echo
    echo "$1"
    printf '  %-34s %9s %10s   %s\n' "workload" "wall s" "peak MB" "throughput"
}

echo "== atrc bench ($("$ATRC" --version), scale $scale)"

# ---- 1. one big tree: groups of leaves, every node kept (--anim-check)
header "big .atr (every node kept, JSON with the tree listing)"
tree_ms=""
for nodes in 15000 30000 60000; do
    n=$(scaled $nodes)
    awk -v n="$n" 'BEGIN {
        g = 0; left = n - 1
        while (left > 0) {
            printf "group%d : complete\n{\n", g; left--
            for (i = 0; i < 99 && left > 0; i++) { printf "\tleaf%d_%d\n", g, i; left-- }
            print "}"; g++
        } }' >"$w/game/animtrees/big$n.atr"
    printf '#using_animtree("big%s");\nf() { x = %%group0; }\n' "$n" >"$w/big$n.gsc"
    measure "tree of ~$n nodes" "$n" nodes -g "$w/game" --no-xanim --anim-check --format json --trees "$w/big$n.gsc"
    tree_ms="$tree_ms $ms"
done

# ---- 2. the same trees pruned to one reference: parse speed of the .atr
header "big .atr pruned to one reference"
prune_ms=""
for nodes in 15000 30000 60000; do
    n=$(scaled $nodes)
    printf '#using_animtree("big%s");\nf() { x = %%leaf0_0; }\n' "$n" >"$w/one$n.gsc"
    measure "tree of ~$n nodes, 1 kept" "$n" nodes -g "$w/game" --no-xanim "$w/one$n.gsc"
    prune_ms="$prune_ms $ms"
done

# ---- 3. references: 10 trees of 1000 leaves, scripts cycling through them
for t in 0 1 2 3 4 5 6 7 8 9; do
    awk -v t="$t" 'BEGIN { for (i = 0; i < 1000; i++) printf "a%d_%d\n", t, i }' >"$w/game/animtrees/refs$t.atr"
done
header "%name references across 10 trees"
refs_ms=""
for refs in 250000 500000 1000000; do
    n=$(scaled $refs)
    awk -v n="$n" 'BEGIN {
        for (i = 0; i < n; i++) {
            if (i % 1000 == 0) { t = int(i / 1000) % 10; printf "#using_animtree(\"refs%d\");\nf%d()\n{\n", t, i }
            printf "\tself setanim(%%a%d_%d, 1, 0.2);\n", t, (i * 7919) % 1000
            if (i % 1000 == 999 || i == n - 1) print "}"
        } }' >"$w/refs$n.gsc"
    measure "$n references" "$n" refs -g "$w/game" --no-xanim "$w/refs$n.gsc"
    refs_ms="$refs_ms $ms"
done

# ---- 4. a large script: ordinary code, a reference every few lines.  The
# 50 MB piece is complete functions, so 2 and 4 copies (functions renamed)
# are valid scripts.
header "large script"
mb=$(scaled 50)
awk -v bytes="$((mb * 1048576))" 'BEGIN {
    print "#using_animtree(\"refs0\");"
    total = 0; f = 0
    while (total < bytes) {
        s = sprintf("fn%d(a, b)\n{\n", f)
        s = s "\t// a comment that the lexer skips, with %signs and \"quotes\"\n"
        s = s sprintf("\tx = (a + b) * %d - a / 3 %% 7;\n", f % 97)
        s = s "\tif (isdefined(self.anims) && x >= 0)\n\t\tself setanimknoball(%a0_1, %root, 1, 0.2);\n"
        s = s "\tfor (i = 0; i < 10; i++)\n\t\twait 0.05;\n"
        s = s "\tname = \"string with spaces\" + x;\n\tself thread maps\\mp\\_utility::helper(name, (1, 2, 3));\n}\n"
        printf "%s", s
        total += length(s); f++
    } }' >"$w/s1.gsc"
# The copies rename their functions: a name defined twice is an error.
{ cat "$w/s1.gsc"; sed 's/^fn/fnb/' "$w/s1.gsc"; } >"$w/s2.gsc"
{ cat "$w/s2.gsc"; sed 's/^fn/fnc/' "$w/s2.gsc"; } >"$w/s4.gsc"
script_ms=""
for k in 1 2 4; do
    bytes=$(wc -c <"$w/s$k.gsc")
    size=$(awk -v b="$bytes" 'BEGIN { printf "%.0f MiB", b / 1048576 }')
    measure "script of $size" "$(awk -v b="$bytes" 'BEGIN { printf "%.2f", b / 1048576 }')" MiB -g "$w/game" --no-xanim "$w/s$k.gsc"
    script_ms="$script_ms $ms"
done
# ---- 5. the same game content as loose files and inside one .pk3: reading
# archives (index once, read entries in place, only xanim headers) must not
# cost more than reading the loose files.
header "game content: loose files vs one .pk3 (10 trees, 10000 xanims read)"
mkdir -p "$w/loose/animtrees" "$w/loose/xanim" "$w/inst/main"
cp "$w"/game/animtrees/refs*.atr "$w/loose/animtrees/"
awk 'BEGIN { for (t = 0; t < 10; t++) for (i = 0; i < 1000; i++) printf "a%d_%d loop\n", t, i }' >"$w/xanims.txt"
"$B/mkxanim" -d "$w/loose/xanim" -l "$w/xanims.txt" || exit 1
"$B/mkpk3" "$w/inst/main/pak0.pk3" "$w/loose" || exit 1
n=$(scaled 200000)
awk -v n="$n" 'BEGIN {
    for (i = 0; i < n; i++) {
        if (i % 1000 == 0) { t = int(i / 1000) % 10; printf "#using_animtree(\"refs%d\");\nf%d()\n{\n", t, i }
        printf "\tself setanim(%%a%d_%d, 1, 0.2);\n", t, (i * 7919) % 1000
        if (i % 1000 == 999 || i == n - 1) print "}"
    } }' >"$w/game.gsc"
measure "loose files (-g DIR)" "$n" refs -g "$w/loose" "$w/game.gsc"
loose_ms=$ms
measure "one .pk3 (--install DIR)" "$n" refs --install "$w/inst" "$w/game.gsc"
pk3_ms=$ms
awk -v a="$loose_ms" -v b="$pk3_ms" 'BEGIN { printf "  %-34s x%.2f\n", "archive / loose time", (a > 0 ? b / a : 0) }'

# ---- 6. level mode: the load walk over a chain of scripts, each loading the
# next (memory per loaded script: the walk keeps every script it loaded).
header "level mode: a chain of scripts, each loading the next"
walk_ms=""
for scripts in 5000 10000 20000; do
    n=$(scaled $scripts)
    d="$w/chain$n"
    mkdir -p "$d/maps"
    awk -v n="$n" -v d="$d" 'BEGIN { for (i = 0; i < n; i++) { f = d "/maps/c" i ".gsc"
        printf "f()\n{\n\tself.x = %d;\n\tmaps\\c%d::f();\n}\n", i, i + 1 > f; close(f) }
        print "f() {}" > (d "/maps/c" n ".gsc") }'
    measure "$n scripts" "$n" scripts --no-xanim --format json -g "$d" --entry maps/c0
    walk_ms="$walk_ms $ms"
    rm -rf "$d"
done

# ---- 6b. one function that is one huge item: diagnostics bounded by
# --max-errors (only 50 kept and printed, the rest counted), and a function
# of millions of statements.  One run per size (they are the largest inputs
# here); memory is also given as a multiple of the input's size.
# input_multiple BYTES: peak RSS of the last measure over the input size.
input_multiple() {
    [ "$rss" = "n/a" ] && return
    awk -v r="$rss" -v b="$1" -v l="$2" 'BEGIN { printf "  %-34s %.1f MiB input, peak RSS x%.1f of it\n", l, b / 1048576, r * 1048576 / b }'
}
header "one function: undefined calls on one line (warnings bounded by --max-errors)"
reps=1
warn_ms=""
for calls in 5000000 10000000 20000000; do
    n=$(scaled $calls)
    awk -v n="$n" 'BEGIN { printf "f() {"; for (i = 0; i < n; i++) printf "u();"; print "}" }' >"$w/warn$n.gsc"
    measure "$n undefined calls (warnings)" "$n" calls -q "$w/warn$n.gsc"
    warn_ms="$warn_ms $ms"
    input_multiple "$(wc -c <"$w/warn$n.gsc")" "  input"
    rm -f "$w/warn$n.gsc"
done
header "one function of many statements (--syntax-only)"
stmt_ms=""
for stmts in 2500000 5000000 10000000; do
    n=$(scaled $stmts)
    awk -v n="$n" 'BEGIN { print "f()\n{"; for (i = 0; i < n; i++) print "\tx = 1;"; print "}" }' >"$w/stmt$n.gsc"
    measure "$n statements in one function" "$n" stmts --syntax-only "$w/stmt$n.gsc"
    stmt_ms="$stmt_ms $ms"
    input_multiple "$(wc -c <"$w/stmt$n.gsc")" "  input"
    rm -f "$w/stmt$n.gsc"
done
# The same function through every per-item pass: the checks, the compile
# records and the load walk's reference list (level mode, --entry).
header "one function of many statements (checks, compile, load walk)"
full_ms=""
for stmts in 2500000 5000000 10000000; do
    n=$(scaled $stmts)
    mkdir -p "$w/onefn/maps"
    awk -v n="$n" 'BEGIN { print "f()\n{"; for (i = 0; i < n; i++) print "\tx = 1;"; print "}" }' >"$w/onefn/maps/big.gsc"
    measure "$n statements in one function" "$n" stmts --no-xanim -g "$w/onefn" --entry maps/big
    full_ms="$full_ms $ms"
    input_multiple "$(wc -c <"$w/onefn/maps/big.gsc")" "  input"
    rm -rf "$w/onefn"
done
reps=3

# ---- 7. many files: the shape of a game's scripts (thousands of files of
# mixed sizes, JSON output), at -j 1 and the default -j, against `wc -l` over
# the same files in the same run.  Real scripts when the corpus is present
# (REAL_CORPUS, default ../shared/corpus/cod1-game): each copy concatenates
# runs of 5 stock scripts into one file (their functions renamed apart) and
# varies it (a comment and a function naming the copy), copies added up to
# ~100 MB; never committed, deleted afterwards.  Otherwise generated scripts of the same shape.
real=${REAL_CORPUS:-../shared/corpus/cod1-game}
[ -d "$real" ] && real=$(cd "$real" && pwd)
mb=$(scaled 100)
mkdir -p "$w/many"
if [ -d "$real" ] && [ -n "$(find "$real" -name '*.gsc' | head -1)" ]; then
    kind="real scripts"
    find "$real" -name '*.gsc' | LC_ALL=C sort >"$w/corpus.txt"
    corpus_bytes=$(tr '\n' '\0' <"$w/corpus.txt" | xargs -0 cat | wc -c)
    # An even number of copies: the first half is the input at n, all of them at 2n.
    copies=$(awk -v t="$((mb * 1048576))" -v b="$corpus_bytes" 'BEGIN { c = int((t + b - 1) / b); c += c % 2; print (c < 2 ? 2 : c) }')
    # The functions each script defines are renamed in its copy (name ->
    # name_pK, K its place in the group, at definitions, calls and `::name`),
    # so a group is as valid as its five scripts: the workload is real code,
    # not one "function already defined" error per repeated name.
    awk -v out="$w/many" -v copies="$copies" '
    function rename(line, k,    out, w, pre) {
        out = ""
        while (match(line, /[A-Za-z_][A-Za-z0-9_]*/)) {
            pre = substr(line, 1, RSTART - 1)
            w = substr(line, RSTART, RLENGTH)
            line = substr(line, RSTART + RLENGTH)
            if (substr(pre, length(pre), 1) !~ /[0-9]/ && (tolower(w) in defs) &&
                (line ~ /^[ \t]*\(/ || pre ~ /::$/))
                w = w "_p" k
            out = out pre w
        }
        return out line
    }
    { files[n++] = $0 }
    END {
        for (k = 1; k <= copies; k++) {
            dir = out "/c" k
            system("mkdir -p \"" dir "\"")
            for (i = 0; i < n; i++) {
                g = int(i / 5)
                dst = sprintf("%s/g%03d.gsc", dir, g)
                if (i % 5 == 0) printf "// bench copy %d, group %d\n", k, g > dst
                split("", defs)
                while ((getline line < files[i]) > 0)
                    if (match(line, /^[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) {
                        name = line
                        sub(/[ \t]*\(.*/, "", name)
                        if (name !~ /^(if|while|for|switch|return|wait|thread|else|case)$/)
                            defs[tolower(name)] = 1
                    }
                close(files[i])
                while ((getline line < files[i]) > 0) print rename(line, i % 5) > dst
                close(files[i])
                if (i % 5 == 4 || i == n - 1) {
                    printf "\natrc_bench_copy%d_%d()\n{\n\twait 0.05;\n}\n", k, g > dst
                    close(dst)
                }
            }
        }
    }' "$w/corpus.txt"
    game=$real
else
    kind="generated scripts"
    copies=$(awk -v m="$mb" 'BEGIN { c = int(m / 2.5 + 0.5); c += c % 2; print (c < 2 ? 2 : c) }')
    awk -v out="$w/many" -v copies="$copies" 'BEGIN {
        for (k = 1; k <= copies; k++) {
            dir = out "/c" k
            system("mkdir -p \"" dir "\"")
            for (g = 0; g < 100; g++) {
                dst = sprintf("%s/g%03d.gsc", dir, g)
                t = (k + g) % 10
                printf "#include maps\\mp\\_utility;\n#using_animtree(\"refs%d\");\n", t > dst
                fns = 1 + (g * 7919 + k) % 200
                for (f = 0; f < fns; f++) {
                    printf "fn%d_%d(a, b)\n{\n\t// comment %d\n\tif (isdefined(self.x) && a >= %d)\n", k, f, f, f > dst
                    if (f % 4 == 0) printf "\t\tself setanimknoball(%%a%d_%d, %%a%d_%d, 1, 0.2);\n", t, (f * 13) % 1000, t, (f * 31) % 1000 > dst
                    else printf "\t\tself notify(\"event%d\", a, b);\n", f > dst
                    printf "\tfor (i = 0; i < 10; i++)\n\t\twait 0.05;\n\tself thread maps\\mp\\_utility::helper(\"s\" + a, (1, 2, 3));\n}\n" > dst
                }
                close(dst)
            }
        }
    }'
    game=$w/game
fi
# Relative names keep the command line short (tens of thousands of files).
(cd "$w/many" && find . -name '*.gsc' | LC_ALL=C sort | sed 's|^\./||') >"$w/all.txt"
half=$((copies / 2))
awk -F/ -v h="$half" '{ c = substr($1, 2) + 0; if (c <= h) print }' "$w/all.txt" >"$w/half.txt"
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
# The ~100 MB just written are flushed to disk now, not during the timings.
sync

# best5 CMD...: best wall time of 5 runs in ms ($t); peak RSS of the last run in MB ($peak).
best5() {
    t=""
    for _ in 1 2 3 4 5; do
        t0=$(now_ns)
        if [ $have_time = 1 ]; then
            (cd "$w/many" && /usr/bin/time -f %M -o "$w/rss" "$@" >/dev/null 2>"$w/err")
        else
            (cd "$w/many" && "$@" >/dev/null 2>"$w/err")
        fi
        rc=$?
        t1=$(now_ns)
        if [ $rc -gt 1 ]; then
            echo "bench: '$1' failed (exit $rc):" >&2
            head -5 "$w/err" >&2
            exit 1
        fi
        ms1=$(((t1 - t0) / 1000000))
        if [ -z "$t" ] || [ "$ms1" -lt "$t" ]; then t=$ms1; fi
    done
    peak="n/a"
    [ $have_time = 1 ] && peak=$(awk '{ v = $1 } END { printf "%.1f", v / 1024 }' "$w/rss")
}

echo
echo "many files: $kind, JSON output, against wc -l over the same files"
printf '  %-34s %9s %10s   %-26s %s\n' "workload" "wall s" "peak MB" "throughput" "x wc -l"
many_ms=""
for set in half all; do
    # shellcheck disable=SC2046
    set -- $(cat "$w/$set.txt")
    files=$#
    bytes=$(cd "$w/many" && cat "$@" | wc -c)
    best5 wc -l "$@"
    wc_ms=$t
    for j in 1 "$jobs"; do
        best5 "$ATRC" -j "$j" --format json --no-xanim -g "$game" "$@"
        awk -v f="$files" -v b="$bytes" -v j="$j" -v ms="$t" -v wc="$wc_ms" -v peak="$peak" 'BEGIN {
            s = ms / 1000; if (s <= 0) s = 0.001
            printf "  %-34s %9.3f %10s   %6.1f MiB/s = %6.1f MB/s   x%.2f\n",
                sprintf("%d files, %.0f MiB, -j %d", f, b / 1048576, j), s, peak, b / 1048576 / s, b / 1e6 / s, (wc > 0 ? ms / wc : 0) }'
    done
    awk -v ms="$wc_ms" 'BEGIN { printf "  %-34s %9.3f\n", "wc -l over the same files", ms / 1000 }'
    many_ms="$many_ms $t"
done

echo
echo "scaling (best wall time at n, 2n, 4n)"
# shellcheck disable=SC2086
ratio "tree, every node kept" $tree_ms
# shellcheck disable=SC2086
ratio "tree, pruned" $prune_ms
# shellcheck disable=SC2086
ratio "references" $refs_ms
# shellcheck disable=SC2086
ratio "script size" $script_ms
# shellcheck disable=SC2086
ratio "level mode, chain of scripts" $walk_ms
# shellcheck disable=SC2086
ratio "warnings, one line" $warn_ms
# shellcheck disable=SC2086
ratio "statements, one function" $stmt_ms
# shellcheck disable=SC2086
ratio "statements, all passes" $full_ms
# shellcheck disable=SC2086
set -- $many_ms
awk -v a="$1" -v b="$2" 'BEGIN { r = a > 0 ? b / a : 0
    printf "  %-34s n->2n x%.2f   %s\n", "many files (default -j)", r, (b < 200 ? "too fast to judge" : (r > 3 ? "SUPERLINEAR?" : "linear")) }'
[ $have_time = 1 ] || echo "(peak memory needs GNU time: scripts/ensure-deps.sh bench)"

# The editor: `atrc lsp` on a CoD4 single-player level (about 300 scripts),
# one-line edits until the diagnostics are published, hover, definition,
# completion, references, rename and workspace symbols, each with the
# server's CPU per request and its budget, memory over the edits
# (scripts/lsp-bench.py).  LSP_EDITS=N edits (1000).
cod4=${COD4_CORPUS:-../shared/corpus/cod4-game}
if [ -d "$cod4/maps" ] && command -v python3 >/dev/null 2>&1; then
    ATRC="$ATRC" python3 scripts/lsp-bench.py "$cod4" cod4 killhouse animscripts/combat.gsc "${LSP_EDITS:-1000}" || exit 1
else
    echo "== editor: skipped ($cod4 or python3 missing)"
fi
