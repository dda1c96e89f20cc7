# Sourced by tests/hostile/run.sh (its helpers, its temporary directory):
# response files and the project file (`@FILE`, atrc.flags) that are too
# deep, too many, too large, cyclic or malformed get a located error and
# exit status 2, quickly.

if begin "@FILE nested deeper than 16 files"; then
    mkdir -p deep
    for k in $(seq 0 20); do echo "@f$((k + 1)).flags" >deep/f$k.flags; done
    echo ok.gsc >deep/f21.flags
    run @deep/f0.flags
    expect 2 "deep/f15.flags:1: error: 'f16.flags': response files nested too deep (max 16)"
fi
if begin "@FILE that includes itself"; then
    printf '%s\n' ok.gsc '@self.flags' >self.flags
    run @self.flags
    expect 2 "self.flags:2: error: 'self.flags' includes itself (a cycle of response files)"
fi
if begin "@FILE with a NUL byte in an argument"; then
    printf 'ok.gsc\n-g\000x\n' >nul.flags
    run @nul.flags
    expect 2 "nul.flags:2: error: a NUL byte in an argument"
fi
if begin "@FILE with over 100000 arguments"; then
    seq 1 100001 | sed 's/.*/ok.gsc/' >many.flags
    run @many.flags
    expect 2 "many.flags:100001: error: too many arguments (max 100000) once response files are read"
fi
if begin "@FILE expanding exponentially"; then
    mkdir -p expo
    for k in $(seq 0 12); do
        for j in 1 2 3 4 5 6 7 8 9 10; do echo "@e$((k + 1)).flags"; done >expo/e$k.flags
    done
    echo '# empty' >expo/e13.flags
    run @expo/e0.flags
    expect 2 "error: too many response files read (max 10000)"
fi
if begin "@FILE with over 1000000 lines"; then
    seq 1 1000001 | sed 's/.*/#/' >lines.flags
    run @lines.flags
    expect 2 "lines.flags:1000001: error: too many lines in response files (max 1000000)"
    rm -f lines.flags
fi
if begin "@FILE over 16 MB"; then
    head -c 17000000 /dev/zero | tr '\000' 'x' >big.flags
    run @big.flags
    expect 2 "atrc: error: 'big.flags' is too large for a response file (over 16 MB)"
    rm -f big.flags
fi
if begin "relative -o in a project file is the file's directory's"; then
    mkdir -p projo && cp ok.gsc projo/ && rm -f projo/out.txt out.txt
    printf '%s\n' -g ../game -o out.txt ok.gsc >projo/atrc.flags
    run @projo/atrc.flags
    expect 0 ""
    [ -s projo/out.txt ] && [ ! -e out.txt ] || { pass=$((pass - 1)); bad "-o out.txt was not written to projo/out.txt"; }
fi
