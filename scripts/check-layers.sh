#!/bin/sh
# The include rule of src/ (README, "Design"): a folder per stage, on levels
#   os < base < game < {script, tree, files} < check < compile < output
#      < editor < src/api.c
# A file includes headers of its own folder and of folders on lower levels
# only: never a sibling folder of its level, never a higher one.  cli/ (the
# executable) includes only atrc.h, base/, os/ and its own files, and nothing
# in the library includes cli/.  A module's private header is included by
# that module's files only: check/check_internal.h by check/, output/
# diff_internal.h by output/diff*.c, files/gamefs_internal.h by
# files/gamefs*.c, editor/lookup_internal.h by editor/lookup*.c,
# cli/lsp_server.h by cli/lsp*.c (tests included).  Every include of a project header names its folder.
# Besides the includes, every file of src/: starts with its banner comment,
# has at most 1,200 lines, and hashes no string by a loop of its own (the FNV
# constants or a `* 31u` fold: text_hash and text_hash_bytes, base/text.[ch],
# are the one hash; the allow-list below says why each other file may).
#
# And the house's idioms in src/ (README, "Design", "Containers"):
# - one growable array: no struct outside base/vec.h declares a capacity
#   (`cap`, `*_cap`, `cap_*`, `capacity`) beside its items, and nothing
#   outside it grows a loose triple with vec_push/vec_reserve: a growable
#   array is a VEC (VEC_FIELDS for one with fields of its own);
# - checked sizes: no `n * sizeof` product (either order) inside the
#   arguments of an allocation, memset, memcpy, memmove or memcmp, except inside
#   array_size() (base/arena.h), the checked product;
# - the POSIX subset src/os/os.h lists: outside os/, a header beyond ISO C99
#   is included, and a POSIX function called, only by the files its line in
#   os.h names.
#   sh scripts/check-layers.sh [TOP]   (TOP: the tree's top, default .; exit 1 on a breach)
set -u
cd "${1:-.}" || exit 2
fail=0
find src tests -name '*.[ch]' | LC_ALL=C sort | xargs awk '
function level(d) {
    if (d == "os") return 0
    if (d == "base") return 1
    if (d == "game") return 2
    if (d == "script" || d == "tree" || d == "files") return 3
    if (d == "check") return 4
    if (d == "compile") return 5
    if (d == "output") return 6
    if (d == "editor") return 7
    if (d == "api") return 8
    return -1
}
function breach(why) {
    printf "%s:%d: #include \"%s\": %s\n", FILENAME, FNR, target, why
    bad++
}
/^[ \t]*#[ \t]*include[ \t]*"/ {
    target = $0
    sub(/^[^"]*"/, "", target)
    sub(/".*/, "", target)
    file = FILENAME
    n = split(file, part, "/")
    base = part[n]
    # private headers: tests too
    if (target == "check/check_internal.h" && file !~ /^src\/check\//)
        breach("check_internal.h is private to check/")
    if (target == "output/diff_internal.h" && file !~ /^src\/output\/diff[^\/]*\.c$/)
        breach("diff_internal.h is private to output/diff*.c")
    if (target == "files/gamefs_internal.h" && file !~ /^src\/files\/gamefs[^\/]*\.c$/)
        breach("gamefs_internal.h is private to files/gamefs*.c")
    if (target == "cli/lsp_server.h" && file !~ /^src\/cli\/lsp[^\/]*\.c$/)
        breach("cli/lsp_server.h is private to cli/lsp*.c")
    if (target == "editor/lookup_internal.h" && file !~ /^src\/editor\/lookup[^\/]*\.c$/)
        breach("lookup_internal.h is private to editor/lookup*.c")
    if (part[1] != "src") next
    own = n == 2 ? "api" : part[2]
    if (target == "atrc.h") next
    if (index(target, "/") == 0) {
        # generated in the build directory: the grammar belongs to script/
        if (target == "gsc_parser.h") tdir = "script"
        else { breach("a project header is named with its folder"); next }
    } else {
        tdir = target
        sub(/\/.*/, "", tdir)
    }
    if (own == "cli") {
        if (tdir != "cli" && tdir != "base" && tdir != "os")
            breach("cli/ includes only atrc.h, base/, os/ and cli/")
        next
    }
    if (tdir == own) next
    if (tdir == "cli") { breach("the library never includes cli/"); next }
    if (level(tdir) < 0) { breach("no such stage folder"); next }
    if (level(tdir) == level(own)) breach(own "/ and " tdir "/ are on one level: siblings do not include each other")
    else if (level(tdir) > level(own)) breach(tdir "/ is above " own "/")
}
END {
    if (bad) { printf "check-layers: %d include%s against the rule (README, \"Design\")\n", bad, bad == 1 ? "" : "s"; exit 1 }
}' || fail=1
[ "$fail" = 1 ] || echo "layers: every include points down"

# Files that may hold a hash's constants, and why: none of them hashes a
# string for a table.
hash_allowed='
src/base/text.c         the one string hash (text_hash)
src/tree/atr_build.c    the engine'"'"'s tree checksum (stock-behavior.md 4.6), a value the output reports
src/game/anim_builtins.h the quick-test key of a fixed table, whose filter bits are a constant
'
find src -name '*.[ch]' | LC_ALL=C sort | xargs awk -v allowed="$hash_allowed" '
BEGIN {
    n = split(allowed, line, "\n")
    for (i = 1; i <= n; i++) if (split(line[i], w, " ") > 0) may_hash[w[1]] = 1
}
FNR == 1 && $0 !~ /^\/\*/ { printf "%s:1: no banner comment: a file starts with what it holds\n", FILENAME; bad++ }
FNR == 1201 { printf "%s:1201: over 1,200 lines: split it along its sections\n", FILENAME; bad++ }
/16777619|2166136261|\* ?31u/ && !(FILENAME in may_hash) {
    printf "%s:%d: a string hash of its own: use text_hash or text_hash_bytes (base/text.h)\n", FILENAME, FNR; bad++
}
END {
    if (bad) { printf "check-layers: %d file rule%s broken\n", bad, bad == 1 ? "" : "s"; exit 1 }
}' || fail=1
[ "$fail" = 1 ] || echo "layers: every file has a banner, at most 1,200 lines, no hash of its own"

# ---- the idioms: one growable array, checked sizes, the POSIX subset ----
find src -name '*.[ch]' | LC_ALL=C sort | xargs awk -v subset=src/os/os.h '
BEGIN {
    q = sprintf("%c", 39)
    # Structs whose capacity belongs to no growable array (FILE:TAG), each with why.
    allowed["src/base/outbuf.h:outbuf"] = "a stream block or a growing string beside a FILE: its own shape, grown by outbuf.c"
    allowed["src/base/arena.c:arena_block"] = "the size of one arena block, fixed when it is made"
    allowed["src/check/check_internal.h:call_block"] = "one arena block of call records: a full one is followed by a new one, never grown"
    allowed["src/check/check_internal.h:cval"] = "the room of a constant string in the scratch arena (appended to), no array"
    iso = " assert.h complex.h ctype.h errno.h fenv.h float.h inttypes.h iso646.h limits.h locale.h math.h setjmp.h signal.h stdarg.h stdbool.h stddef.h stdint.h stdio.h stdlib.h string.h tgmath.h time.h wchar.h wctype.h "
    # Libraries (Debian packages), by the files that use them.
    lib["zip.h"] = " files/gamefs_internal.h "
    # POSIX functions a file might call; the ones os.h lists are allowed
    # where it says, the others nowhere outside os/.
    split("open openat creat read write close lseek pread pwrite stat fstat lstat access unlink rmdir mkdir " \
          "getcwd chdir fileno fdopen popen pclose pipe fork vfork execv execve execvp execl execlp dup dup2 " \
          "isatty sysconf pathconf realpath opendir fdopendir readdir closedir fcntl ioctl mmap munmap kill " \
          "sigaction sigprocmask sigemptyset sigaddset strdup strndup strcasecmp strncasecmp strtok_r " \
          "strerror_r getline getdelim mkstemp mkdtemp setenv unsetenv clock_gettime nanosleep usleep sleep " \
          "getpid getppid fsync fdatasync ftruncate truncate select poll localtime_r gmtime_r rand_r " \
          "sched_yield open_memstream fmemopen fopencookie alarm link symlink readlink chmod fchmod umask " \
          "getrlimit setrlimit S_ISREG S_ISDIR S_ISFIFO S_ISLNK", w, " ")
    for (i in w) posix[w[i]] = 1
    # os.h: "**   <HEADER>  NAME ...: FILE ..." (FILEs below src/, or
    # "everywhere"), FILEs continued on deeper-indented lines.
    cont = 0
    while ((getline l < subset) > 0) {
        if (l ~ /\*\//) break
        if (l ~ /^\*\*   <[A-Za-z0-9_\/]+\.h>/ && index(l, ":")) {
            sub(/^\*\*   </, "", l)
            h = l; sub(/>.*/, "", h)
            sub(/^[^>]*>[ \t]*/, "", l)
            names = substr(l, 1, index(l, ":") - 1)
            files = " " substr(l, index(l, ":") + 1) " "
            cont = 1
            entry[++entries] = h
            enames[entries] = names
            efiles[entries] = files
        } else if (cont && l ~ /^\*\*        +[^ <:]/ && l !~ /[<:]/) {
            sub(/^\*\* +/, "", l)
            efiles[entries] = efiles[entries] l " "
        } else cont = 0
    }
    for (e = 1; e <= entries; e++) {
        hdrf[entry[e]] = hdrf[entry[e]] efiles[e]
        n = split(enames[e], w, /[ \t]+/)
        for (i = 1; i <= n; i++) {
            if (w[i] == "") continue
            if (w[i] ~ /\*$/) { p = w[i]; sub(/\*$/, "", p); prefixf[p] = prefixf[p] efiles[e]; continue }
            callf[w[i]] = callf[w[i]] efiles[e]
            callh[w[i]] = entry[e]
        }
    }
}
function breach(line, what) {
    printf "%s:%d: %s\n", FILENAME, line, what
    bad++
}
function allowed_in(files) {
    return files ~ / everywhere / || index(files, " " rel " ") > 0
}
# The line without comments and with empty literals; a comment left open
# continues on the next line (in_comment).
function strip(s,    out, c) {
    out = ""
    while (s != "") {
        if (in_comment) {
            if (!index(s, "*/")) return out
            s = substr(s, index(s, "*/") + 2)
            in_comment = 0
            out = out " "
            continue
        }
        if (!match(s, "/[*]|//|\"|" q)) return out s
        out = out substr(s, 1, RSTART - 1)
        c = substr(s, RSTART, RLENGTH)
        s = substr(s, RSTART + RLENGTH)
        if (c == "/*") in_comment = 1
        else if (c == "//") return out
        else {
            while (s != "" && substr(s, 1, 1) != c) s = substr(s, substr(s, 1, 1) == "\\" ? 3 : 2)
            s = substr(s, 2)
            out = out c c
        }
    }
    return out
}
# A capacity declared in a segment of a record body.
function member(seg, line,    name) {
    if (depth == 0 || stack[depth] == "") return
    if (!match(seg, /(^|[^A-Za-z0-9_])(cap|capacity|cap_[A-Za-z0-9_]+|[A-Za-z0-9_]+_cap)[ \t]*(\[[^]]*\])?[ \t]*[,;]/)) return
    name = substr(seg, RSTART, RLENGTH)
    sub(/^[^A-Za-z0-9_]/, "", name)
    sub(/[^A-Za-z0-9_].*/, "", name)
    if ((FILENAME ":" stack[depth]) in allowed) return
    breach(line, q name q " in struct " stack[depth] ": a capacity outside VEC (base/vec.h): make the array a VEC")
}
# The balanced parenthesised text at the start of s ("(...)"), or all of s.
function group(s,    i, d, c) {
    d = 0
    for (i = 1; i <= length(s); i++) {
        c = substr(s, i, 1)
        if (c == "(") d++
        else if (c == ")" && --d == 0) return substr(s, 1, i)
    }
    return s
}
# Every allocation, memset, memcpy, memmove and memcmp call of the file whose
# arguments multiply by a sizeof outside array_size().
function sizes(text,    line, call, args, at, rest) {
    line = 1
    while (match(text, /(^|[^A-Za-z0-9_>.])(xmalloc|xrealloc|xcalloc|malloc|realloc|calloc|arena_alloc|arena_zalloc|arena_take|arena_fits|arena_reserve|memset|memcpy|memmove|memcmp)[ \t\n]*\(/)) {
        call = substr(text, RSTART, RLENGTH)
        line += gsub(/\n/, "\n", call)
        at = substr(text, 1, RSTART - 1)
        line += gsub(/\n/, "\n", at)
        sub(/^[^A-Za-z_]/, "", call)
        sub(/[ \t\n]*\($/, "", call)
        text = substr(text, RSTART + RLENGTH - 1)
        args = group(text)
        while (match(args, /array_size[ \t\n]*\(/)) {
            rest = substr(args, RSTART + RLENGTH - 1)
            args = substr(args, 1, RSTART - 1) substr(rest, length(group(rest)) + 1)
        }
        gsub(/\n/, " ", args)
        gsub(/sizeof[ \t]*\*+/, "sizeof ", args)
        if (args ~ /\*[ \t]*sizeof([^A-Za-z0-9_]|$)/ || args ~ /sizeof[ \t]*\([^()]*\)[ \t]*\*/ ||
            args ~ /sizeof[ \t]+[A-Za-z_][A-Za-z0-9_]*((->|\.)[A-Za-z_][A-Za-z0-9_]*|\[[^]]*\])*[ \t]*\*/)
            breach(line, call "(): an unchecked size product: array_size(n, size) (base/arena.h)")
        text = substr(text, 2)
    }
}
function file_end() {
    if (FILENAME_DONE != "" && FILENAME_DONE != "src/base/vec.h") {
        save = FILENAME
        FILENAME = FILENAME_DONE
        sizes(ftext)
        FILENAME = save
    }
}
FNR == 1 {
    file_end()
    FILENAME_DONE = FILENAME
    ftext = ""
    in_comment = 0
    depth = 0
    prev = ""
    rel = FILENAME
    sub(/^src\//, "", rel)
    in_os = FILENAME ~ /^src\/os\//
}
{
    line = strip($0)
    ftext = ftext line "\n"
    # records: a "{" after struct/union (TAG), on its line or the line before
    t = line
    while (match(t, /[{}]/)) {
        c = substr(t, RSTART, 1)
        before = substr(t, 1, RSTART - 1)
        t = substr(t, RSTART + 1)
        member(before, FNR)
        if (c == "}") { if (depth) depth--; continue }
        head = before ~ /[^ \t]/ ? before : prev
        tag = ""
        if (head ~ /(^|[^A-Za-z0-9_])(struct|union)([ \t]+[A-Za-z_][A-Za-z0-9_]*)?[ \t]*$/) {
            sub(/[ \t]+$/, "", head)
            tag = head
            sub(/.*[^A-Za-z0-9_]/, "", tag)
            if (tag == "struct" || tag == "union") tag = "(anonymous)"
        }
        stack[++depth] = tag
    }
    member(t, FNR)
    if (line ~ /[^ \t]/) prev = line
    if (FILENAME != "src/base/vec.h" && match(line, /(^|[^A-Za-z0-9_])vec_(push|reserve)[ \t]*\(/))
        breach(FNR, "vec_push/vec_reserve grow a loose triple: make it a VEC (VEC_PUSH, VEC_RESERVE)")
    if (in_os) next
    # the POSIX subset: headers beyond ISO C99, then calls
    if (match(line, /^[ \t]*#[ \t]*include[ \t]*<[^>]+>/)) {
        h = substr(line, RSTART, RLENGTH)
        sub(/.*</, "", h)
        sub(/>.*/, "", h)
        if (index(iso, " " h " ")) next
        if (h in lib) { if (!allowed_in(lib[h])) breach(FNR, "<" h ">: its library is used by " lib[h] "only"); next }
        if (!(h in hdrf)) breach(FNR, "<" h ">: beyond ISO C99 and not in the POSIX subset of src/os/os.h")
        else if (!allowed_in(hdrf[h])) breach(FNR, "<" h ">: src/os/os.h does not list " rel " for it")
        next
    }
    t = line
    while (match(t, /(^|[^A-Za-z0-9_>.])[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) {
        name = substr(t, RSTART, RLENGTH)
        t = substr(t, RSTART + RLENGTH)
        sub(/^[^A-Za-z_]/, "", name)
        sub(/[ \t]*\($/, "", name)
        if (name in callf) {
            if (!allowed_in(callf[name])) breach(FNR, q name q " (POSIX, <" callh[name] ">): src/os/os.h does not list " rel " for it")
            continue
        }
        p = ""
        for (x in prefixf) if (index(name, x) == 1) p = x
        if (p != "") {
            if (!allowed_in(prefixf[p])) breach(FNR, q name q " (POSIX): src/os/os.h does not list " rel " for " p "*")
        } else if (name in posix || name ~ /^pthread_/)
            breach(FNR, q name q " is POSIX and not in the subset of src/os/os.h: wrap it in os/ or list it there")
    }
}
END {
    file_end()
    if (bad) { printf "check-layers: %d breach%s of the idioms (README, \"Design\"; src/os/os.h)\n", bad, bad == 1 ? "" : "es"; exit 1 }
}' || fail=1
[ "$fail" = 1 ] && exit 1
echo "layers: one growable array, checked sizes, the POSIX subset of os.h"
