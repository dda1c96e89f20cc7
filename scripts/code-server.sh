#!/bin/sh
# Installs VS Code itself (code-server, from the npm registry only) into
# DIR for make check-vscode-real; a second run with the same version is a
# no-op (DIR/.installed-VERSION).
#   sh scripts/code-server.sh DIR
# The version is the newest code-server whose engines.node accepts the node
# in use (CODE_SERVER_VERSION=X overrides).  Its install steps that would
# download prebuilt binaries from outside npm are replaced: argon2's and
# kerberos's by builds from source (npm rebuild), @vscode/ripgrep's by
# Debian's rg (scripts/ensure-deps.sh vscode-real installs what the builds
# need).  Prints the install's code-server executable.
set -eu
dir=$1
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
log=$dir/install.log

if [ -z "${CODE_SERVER_VERSION:-}" ]; then
    # each release's version and engines.node (one registry look-up)
    npm view code-server@'>=4' version engines.node --json >"$dir/engines.json" 2>>"$log" || {
        echo "code-server.sh: npm view code-server failed (see $log)" >&2; exit 1; }
    CODE_SERVER_VERSION=$(node -e '
        // npm'"'"'s own semver (npm from npm, or Debian'"'"'s node-semver)
        const semver = require([process.argv[1], "/usr/share/nodejs/semver"].find(p => require("fs").existsSync(p)));
        const rows = JSON.parse(require("fs").readFileSync(process.argv[2], "utf8"));
        const ok = rows.filter(r => !semver.prerelease(r.version) && semver.satisfies(process.version, r["engines.node"] || "*"))
                       .map(r => r.version);
        process.stdout.write(ok.sort(semver.rcompare)[0] || "");
    ' "$(npm root -g)/npm/node_modules/semver" "$dir/engines.json")
    [ -n "$CODE_SERVER_VERSION" ] || { echo "code-server.sh: no code-server release accepts node $(node --version)" >&2; exit 1; }
fi
cs=$dir/node_modules/code-server
if [ -f "$dir/.installed-$CODE_SERVER_VERSION" ]; then
    echo "$cs/out/node/entry.js"
    exit 0
fi
rm -f "$dir"/.installed-*
echo "code-server.sh: installing code-server $CODE_SERVER_VERSION into $dir (a few minutes; log: $log)" >&2
step() { echo "== $*" >>"$log"; "$@" >>"$log" 2>&1 || { echo "code-server.sh: failed: $* (see $log)" >&2; tail -20 "$log" >&2; exit 1; }; }
cd "$dir"
[ -f package.json ] || echo '{"private": true}' >package.json
export npm_config_yes=true npm_config_nodedir=/usr npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
step npm install --ignore-scripts --no-save "code-server@$CODE_SERVER_VERSION"
step npm rebuild argon2
cd "$cs/lib/vscode"
step npm install --omit=dev --ignore-scripts
step npm rebuild native-watchdog node-pty @vscode/spdlog @vscode/deviceid @parcel/watcher kerberos
mkdir -p node_modules/@vscode/ripgrep/bin
ln -sf "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
ln -sfn node_modules node_modules.asar
mkdir -p bin/remote-cli bin/helpers
[ -e bin/remote-cli/code-server ] || ln -s code-linux.sh bin/remote-cli/code-server
[ -e bin/helpers/browser.sh ] || ln -s browser-linux.sh bin/helpers/browser.sh
cd extensions
step npm install --omit=dev --ignore-scripts
touch "$dir/.installed-$CODE_SERVER_VERSION"
echo "$cs/out/node/entry.js"
