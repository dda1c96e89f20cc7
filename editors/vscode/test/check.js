'use strict';
// make check-vscode: the extension's grammars, its executable lookup and
// missing-executable message, and the packaged .vsix.
//
//   node test/check.js                          grammars and extension code
//   node test/check.js --vsix FILE --version V  and the package's contents
//   [--platform-vsix FILE TARGET EXECUTABLE]...  and a platform's package's
//   node test/check.js --atrc PATH              and the grammar against atrc's
//                                               parser on corpus scripts
//
// The grammars are run by the engine VS Code itself uses (vscode-textmate on
// the Oniguruma regex library, vscode-oniguruma): every regex is compiled by
// Oniguruma, then sample lines are tokenized and their scopes compared.
// Corpus trees (../shared/corpus, when present) must tokenize without an
// invalid token.

const fs = require('fs');
const os = require('os');
const path = require('path');
const zlib = require('zlib');
const Module = require('module');

const HERE = path.resolve(__dirname, '..');
const REPO = path.resolve(HERE, '..', '..');

let passed = 0;
let failed = 0;
function ok(cond, what, detail) {
    if (cond) {
        passed++;
    } else {
        failed++;
        console.log(`FAIL: ${what}${detail ? '\n      ' + detail : ''}`);
    }
}

// ---------------------------------------------------------------- grammars

function readJson(file) {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
}

// Every regex of a grammar (match, begin, end, while), with where it is.
function grammarRegexes(node, where, out) {
    if (Array.isArray(node)) {
        node.forEach((n, i) => grammarRegexes(n, `${where}[${i}]`, out));
    } else if (node && typeof node === 'object') {
        for (const [k, v] of Object.entries(node)) {
            if (['match', 'begin', 'end', 'while'].includes(k) && typeof v === 'string') out.push([`${where}.${k}`, v]);
            else grammarRegexes(v, `${where}.${k}`, out);
        }
    }
    return out;
}

// Every `include` names a repository entry that exists.
function grammarIncludes(node, repo, where, out) {
    if (Array.isArray(node)) {
        node.forEach((n, i) => grammarIncludes(n, repo, `${where}[${i}]`, out));
    } else if (node && typeof node === 'object') {
        for (const [k, v] of Object.entries(node)) {
            if (k === 'include' && typeof v === 'string' && v.startsWith('#')) {
                if (!Object.prototype.hasOwnProperty.call(repo, v.slice(1))) out.push(`${where}: ${v}`);
            } else {
                grammarIncludes(v, repo, `${where}.${k}`, out);
            }
        }
    }
    return out;
}

// Lines -> [[{text, scopes}]], one array of tokens per line.
function tokenize(grammar, vsctm, text) {
    let stack = vsctm.INITIAL;
    return text.split('\n').map(line => {
        const r = grammar.tokenizeLine(line, stack);
        stack = r.ruleStack;
        return r.tokens.map(t => ({ text: line.slice(t.startIndex, t.endIndex), scopes: t.scopes }));
    });
}

function show(lines) {
    return lines.map(toks => toks.map(t => JSON.stringify(t.text) + '=' + t.scopes.slice(1).join(' ')).join('  ')).join('\n      ');
}

// One case: the source, then expectations [line, text, scope] (the first
// token of that line whose text, trimmed, is `text`, must have `scope`
// among its scopes), or [line, text, '!prefix'] (no scope starting so).
function runCase(grammar, vsctm, lang, source, expects) {
    const lines = tokenize(grammar, vsctm, source);
    for (const [ln, text, scope] of expects) {
        const tok = (lines[ln] || []).find(t => t.text.trim() === text);
        const label = `${lang} ${JSON.stringify(source.split('\n')[ln])}: ${JSON.stringify(text)} ${scope}`;
        if (!tok) {
            ok(false, label, 'no such token in:\n      ' + show(lines));
        } else if (scope.startsWith('!')) {
            ok(!tok.scopes.some(s => s.startsWith(scope.slice(1))), label, tok.scopes.join(' '));
        } else {
            ok(tok.scopes.includes(scope), label, tok.scopes.join(' '));
        }
    }
}

const GSC_CASES = [
    ['#include maps\\mp\\_utility;', [
        [0, '#include', 'keyword.control.directive.include.gsc'],
        [0, 'maps\\mp\\_utility', 'entity.name.namespace.gsc']]],
    ['#using_animtree("soldier");', [
        [0, '#using_animtree', 'keyword.control.directive.using-animtree.gsc'],
        [0, 'soldier', 'entity.name.type.animtree.gsc'],
        [0, 'soldier', 'string.quoted.double.gsc']]],
    ['main()\n{\n\tself setAnimKnobAll(%stand_idle, %root, 1, 0.2);\n}', [
        [0, 'main', 'entity.name.function.gsc'],
        [2, 'self', 'variable.language.gsc'],
        [2, 'setAnimKnobAll', 'entity.name.function.call.gsc'],
        [2, '%', 'punctuation.definition.anim.gsc'],
        [2, 'stand_idle', 'constant.other.anim.name.gsc'],
        [2, 'root', 'constant.other.anim.name.gsc'],
        [2, '1', 'constant.numeric.integer.gsc'],
        [2, '0.2', 'constant.numeric.float.gsc']]],
    ['choose_idle(roll) // picks one', [
        [0, 'choose_idle', 'entity.name.function.gsc'],
        [0, 'picks one', 'comment.line.double-slash.gsc']]],
    ['Reload(fraction, anim/*, hand*/) // CoD1 animscripts/combat.gsc', [
        [0, 'Reload', 'entity.name.function.gsc'],
        [0, ', hand', 'comment.block.gsc']]],
    ['gunfireloopfxthread (fxId, fxPos,\n\t\tend_condition)\nkillcam(\n\tattackerNum, // the attacker\n\tkillcamentity)\n\tindented()', [
        [0, 'gunfireloopfxthread', 'entity.name.function.gsc'],
        [2, 'killcam', 'entity.name.function.gsc'],
        [5, 'indented', 'entity.name.function.gsc']]],
    ['\tfoo(a,\n\t\tb);', [
        [0, 'foo', 'entity.name.function.call.gsc'],
        [0, 'foo', '!entity.name.function.gsc']]],
    ['foo(1);', [
        [0, 'foo', 'entity.name.function.call.gsc'],
        [0, 'foo', '!entity.name.function.gsc']]],
    ['if (x)', [
        [0, 'if', 'keyword.control.gsc'],
        [0, 'if', '!entity.name.function']]],
    ['\tif (roll % 2 == 0)', [
        [0, 'if', 'keyword.control.gsc'],
        [0, '%', 'keyword.operator.arithmetic.gsc'],
        [0, '%', '!constant.other.anim'],
        [0, '==', 'keyword.operator.comparison.gsc']]],
    ['\tx = a %b + f() % n + c[0]%m;', [
        [0, '%', 'keyword.operator.arithmetic.gsc'],
        [0, 'b', '!constant.other.anim'],
        [0, 'n', '!constant.other.anim'],
        [0, 'm', '!constant.other.anim']]],
    ['\treturn %stand_idle;', [
        [0, 'return', 'keyword.control.gsc'],
        [0, 'stand_idle', 'constant.other.anim.name.gsc']]],
    ['\tcase %walk:', [
        [0, 'case', 'keyword.control.gsc'],
        [0, 'walk', 'constant.other.anim.name.gsc']]],
    ['\tx = % walk; y = [%a]; x %= 2;', [
        [0, 'walk', 'constant.other.anim.name.gsc'],
        [0, 'a', 'constant.other.anim.name.gsc'],
        [0, '%=', 'keyword.operator.assignment.compound.gsc']]],
    ['\t/# println("death"); #/', [
        [0, '/#', 'keyword.control.directive.developer.begin.gsc'],
        [0, 'println', 'entity.name.function.call.gsc'],
        [0, 'println', 'meta.developer-block.gsc'],
        [0, 'death', 'string.quoted.double.gsc'],
        [0, '#/', 'keyword.control.directive.developer.end.gsc']]],
    ['/#\ndev_only()\n{\n\tx = %dev_anim; // "#/" in a comment\n}\n#/\nafter()', [
        [1, 'dev_only', 'entity.name.function.gsc'],
        [1, 'dev_only', 'meta.developer-block.gsc'],
        [3, 'dev_anim', 'constant.other.anim.name.gsc'],
        [3, 'dev_anim', 'meta.developer-block.gsc'],
        [3, '"#/" in a comment', 'comment.line.double-slash.gsc'],
        [5, '#/', 'keyword.control.directive.developer.end.gsc'],
        [6, 'after', '!meta.developer-block']]],
    ['// %walk "not a string"', [
        [0, '%walk "not a string"', 'comment.line.double-slash.gsc']]],
    ['/* a %b\n still */ y = 1;', [
        [0, 'a %b', 'comment.block.gsc'],
        [1, 'still', 'comment.block.gsc'],
        [1, 'y', '!comment'],
        [1, '1', 'constant.numeric.integer.gsc']]],
    ['\tmaps\\mp\\_utility::func(1); thread ::callback(); p = a\\b :: c;', [
        [0, 'maps\\mp\\_utility', 'entity.name.namespace.gsc'],
        [0, '::', 'punctuation.separator.namespace.gsc'],
        [0, 'func', 'entity.name.function.call.gsc'],
        [0, 'thread', 'keyword.other.gsc'],
        [0, 'callback', 'entity.name.function.call.gsc'],
        [0, 'a\\b', 'entity.name.namespace.gsc'],
        [0, 'c', 'entity.name.function.call.gsc']]],
    ['\tturret UseAnimTree(#animtree);', [
        [0, '#animtree', 'variable.language.animtree.gsc'],
        [0, 'UseAnimTree', 'entity.name.function.call.gsc']]],
    ['\ts = "a \\"q\\" %x"; t = &"MP_HELLO";', [
        [0, '\\"', 'constant.character.escape.gsc'],
        [0, '%x', 'string.quoted.double.gsc'],
        [0, '%x', '!constant.other.anim'],
        [0, '&', 'storage.modifier.localized.gsc'],
        [0, 'MP_HELLO', 'string.quoted.double.localized.gsc']]],
    ['\tx = "unterminated\n\ty = 1;', [
        [0, 'unterminated', 'string.quoted.double.gsc'],
        [1, 'y', '!string'],
        [1, '1', 'constant.numeric.integer.gsc']]],
    ['\tn = deaths.size; z = .5; w = 007;', [
        [0, '.size', 'support.variable.size.gsc'],
        [0, '.5', 'constant.numeric.float.gsc'],
        [0, '007', 'constant.numeric.integer.gsc']]],
    ['\tx = (int)y; f(int);', [
        [0, '(int)', 'storage.type.cast.gsc']]],
    ['\tf(int);', [
        [0, 'int', '!storage.type.cast']]],
    ['\tIF (x) Self waittill("go"); level notify("done"); self endon("death");', [
        [0, 'IF', '!keyword'],
        [0, 'Self', '!variable.language'],
        [0, 'waittill', 'keyword.other.gsc'],
        [0, 'level', 'variable.language.gsc'],
        [0, 'notify', 'keyword.other.gsc'],
        [0, 'endon', 'keyword.other.gsc']]],
    ['\tif (!isdefined(x) || x == undefined) { wait 0.05; waittillframeend; }', [
        [0, 'isdefined', 'entity.name.function.call.gsc'],
        [0, '||', 'keyword.operator.logical.gsc'],
        [0, 'undefined', 'constant.language.gsc'],
        [0, 'wait', 'keyword.control.gsc'],
        [0, 'waittillframeend', 'keyword.control.gsc']]],
    ['\tself [[ level.func ]](%idle);', [
        [0, '[[', 'punctuation.section.pointer-call.begin.gsc'],
        [0, 'idle', 'constant.other.anim.name.gsc']]]
];

const ATR_CASES = [
    ['stand_idle\nwalk_cycle : loopsync complete\n{\n\twalk_forward\n}', [
        [0, 'stand_idle', 'entity.name.tag.node.atr'],
        [1, 'walk_cycle', 'entity.name.tag.node.atr'],
        [1, ':', 'punctuation.separator.properties.atr'],
        [1, 'loopsync', 'keyword.other.property.atr'],
        [1, 'complete', 'keyword.other.property.atr'],
        [2, '{', 'punctuation.section.block.begin.atr'],
        [3, 'walk_forward', 'entity.name.tag.node.atr'],
        [4, '}', 'punctuation.section.block.end.atr']]],
    ['x : LoopSync NONLOOPSYNC additive bogus', [
        [0, 'LoopSync', 'keyword.other.property.atr'],
        [0, 'NONLOOPSYNC', 'keyword.other.property.atr'],
        [0, 'additive', 'keyword.other.property.atr'],
        [0, 'bogus', 'invalid.illegal.property.atr']]],
    ['walk: loopsync', [
        [0, 'walk:', 'invalid.illegal.token.atr']]],
    ['a{\n}x\na-b\n123_ok', [
        [0, 'a{', 'invalid.illegal.token.atr'],
        [1, '}x', 'invalid.illegal.token.atr'],
        [2, 'a-b', 'invalid.illegal.token.atr'],
        [3, '123_ok', 'entity.name.tag.node.atr']]],
    ['idle // : loopsync\nwalk//x', [
        [0, 'idle', 'entity.name.tag.node.atr'],
        [0, ': loopsync', 'comment.line.double-slash.atr'],
        [1, 'walk//x', 'invalid.illegal.token.atr']]],
    ['/* c\n d */ run\n/*/ done', [
        [0, '* c', 'comment.block.atr'],
        [1, 'd', 'comment.block.atr'],
        [1, 'run', 'entity.name.tag.node.atr'],
        [2, 'done', 'entity.name.tag.node.atr']]],
    ['"quoted name"', [
        [0, 'quoted name', 'string.quoted.double.atr']]]
];

// .atr files of the corpus: stock trees are valid, so no invalid token.
function corpusTrees() {
    const root = path.join(REPO, '..', 'shared', 'corpus');
    const out = [];
    const walk = dir => {
        let ents;
        try { ents = fs.readdirSync(dir, { withFileTypes: true }); } catch (e) { return; }
        for (const e of ents) {
            const p = path.join(dir, e.name);
            if (e.isDirectory()) walk(p);
            else if (/\.atr$/i.test(e.name)) out.push(p);
        }
    };
    walk(root);
    return out.sort();
}

async function checkGrammars() {
    const vsctm = require('vscode-textmate');
    const oniguruma = require('vscode-oniguruma');
    const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
    await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));

    const manifest = readJson(path.join(HERE, 'package.json'));
    const files = {};
    for (const g of manifest.contributes.grammars) {
        const file = path.join(HERE, g.path);
        const raw = readJson(file);
        files[g.scopeName] = file;
        ok(raw.scopeName === g.scopeName, `${g.path}: scopeName ${raw.scopeName} is ${g.scopeName}`);
        for (const [where, re] of grammarRegexes(raw, g.path, [])) {
            let err = null;
            try { oniguruma.createOnigScanner([re]).dispose(); } catch (e) { err = e; }
            ok(!err, `${where} compiles in Oniguruma`, err && `${re}: ${err.message}`);
        }
        const bad = grammarIncludes(raw, raw.repository || {}, g.path, []);
        ok(bad.length === 0, `${g.path}: every include names a repository rule`, bad.join(', '));
    }

    const registry = new vsctm.Registry({
        onigLib: Promise.resolve({
            createOnigScanner: p => new oniguruma.OnigScanner(p),
            createOnigString: s => new oniguruma.OnigString(s)
        }),
        loadGrammar: async scope => {
            const file = files[scope];
            return file ? vsctm.parseRawGrammar(fs.readFileSync(file, 'utf8'), file) : null;
        }
    });
    const gsc = await registry.loadGrammar('source.gsc');
    const atr = await registry.loadGrammar('source.atr');
    for (const [src, exp] of GSC_CASES) runCase(gsc, vsctm, 'gsc', src, exp);
    for (const [src, exp] of ATR_CASES) runCase(atr, vsctm, 'atr', src, exp);

    // The repository's own samples, and the corpus trees when present.
    const trees = corpusTrees();
    const samples = ['samples/game/animtrees', 'samples/packing/game/animtrees']
        .map(d => path.join(REPO, d))
        .filter(d => fs.existsSync(d))
        .flatMap(d => fs.readdirSync(d).filter(f => f.endsWith('.atr')).map(f => path.join(d, f)));
    const bad = [];
    const t0 = Date.now();
    for (const file of samples.concat(trees)) {
        const lines = tokenize(atr, vsctm, fs.readFileSync(file, 'latin1').replace(/\r/g, ''));
        lines.forEach((toks, i) => {
            const t = toks.find(tok => tok.scopes.some(s => s.startsWith('invalid')));
            if (t && bad.length < 5) bad.push(`${file}:${i + 1}: ${JSON.stringify(t.text)}`);
        });
    }
    ok(bad.length === 0, `${samples.length} sample and ${trees.length} corpus trees tokenize without an invalid token`, bad.join('\n      '));
    if (trees.length === 0) console.log('check-vscode: no corpus trees (../shared/corpus): only the samples were tokenized');
    else console.log(`check-vscode: ${samples.length + trees.length} trees tokenized in ${Date.now() - t0} ms`);
    return gsc;
}

// The grammar against atrc's own parser on the stock AI scripts of the
// corpus: every `%name` animation literal and every function definition
// atrc's --dump-ast shows (line:column of the `%` or the name) is where the
// grammar scopes one, and the grammar scopes none elsewhere.
function checkAgainstParser(gsc, atrc) {
    const { execFileSync } = require('child_process');
    const vsctm = require('vscode-textmate');
    const corpus = path.join(REPO, '..', 'shared', 'corpus');
    const games = [['cod1-game', 'cod1'], ['cod4-game', 'cod4']];
    for (const [dir, profile] of games) {
        const d = path.join(corpus, dir, 'animscripts');
        if (!fs.existsSync(d)) {
            console.log(`check-vscode: ${d} not present: its scripts are not compared with atrc's parser`);
            continue;
        }
        const files = fs.readdirSync(d).filter(f => f.endsWith('.gsc')).sort().map(f => path.join(d, f));
        const counts = { anim: 0, function: 0 };
        const diffs = [];
        let compared = 0;
        for (const file of files) {
            let ast;
            try {
                ast = execFileSync(atrc, ['--profile', profile, '--dump-ast', file], { encoding: 'latin1', stdio: ['ignore', 'pipe', 'ignore'] });
            } catch (e) {
                /* a script atrc rejects (status 1) has no syntax tree to compare */
                if (e.status !== 1) ok(false, `atrc --dump-ast ${file} exits with status 0 or 1`, `status ${e.status}, signal ${e.signal}`);
                continue;
            }
            compared++;
            const want = { anim: new Set(), function: new Set() };
            for (const m of ast.matchAll(/\((anim|function) (\d+):(\d+) /g)) want[m[1]].add(`${m[2]}:${m[3]}`);
            const got = { anim: new Set(), function: new Set() };
            tokenize(gsc, vsctm, fs.readFileSync(file, 'latin1').replace(/\r/g, '')).forEach((toks, i) => {
                let col = 1;
                for (const t of toks) {
                    if (t.scopes.includes('punctuation.definition.anim.gsc')) got.anim.add(`${i + 1}:${col}`);
                    if (t.scopes.includes('entity.name.function.gsc')) got.function.add(`${i + 1}:${col}`);
                    col += t.text.length;
                }
            });
            for (const kind of ['anim', 'function']) {
                counts[kind] += want[kind].size;
                for (const p of want[kind]) if (!got[kind].has(p)) diffs.push(`${file}:${p}: atrc has ${kind}, the grammar not`);
                for (const p of got[kind]) if (!want[kind].has(p)) diffs.push(`${file}:${p}: the grammar has ${kind}, atrc not`);
            }
        }
        console.log(`check-vscode: ${dir}/animscripts: ${compared} scripts, ${counts.anim} %name literals, ${counts.function} function definitions compared with atrc`);
        ok(compared > 0 && diffs.length === 0,
            `${dir}/animscripts: ${compared} scripts, the grammar's ${counts.anim} %name literals and ${counts.function} function definitions are atrc's`,
            diffs.slice(0, 8).join('\n      '));
    }
}

// ---------------------------------------------------- extension, no VS Code

function checkExecutableLookup(extDir) {
    const { findExecutable } = require(path.join(extDir, 'lib', 'executable.js'));
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'atrc-vscode-'));
    try {
        const bin = path.join(tmp, 'bin');
        fs.mkdirSync(bin);
        const exe = path.join(bin, 'atrc');
        fs.writeFileSync(exe, '#!/bin/sh\n');
        fs.chmodSync(exe, 0o755);
        const plain = path.join(bin, 'notexec');
        fs.writeFileSync(plain, '');
        fs.chmodSync(plain, 0o644);
        const env = { PATH: ['/nonexistent', bin].join(path.delimiter), HOME: tmp };
        const opts = { env, cwd: tmp, platform: 'linux' };
        ok(findExecutable('atrc', opts) === exe, 'a bare name is found on PATH');
        ok(findExecutable('notexec', opts) === null, 'a file without execute permission is not an executable');
        ok(findExecutable('missing-atrc', opts) === null, 'a name not on PATH is not found');
        ok(findExecutable('bin/atrc', opts) === exe, 'a relative path is taken from the workspace folder');
        ok(findExecutable(exe, opts) === exe, 'an absolute path is that file');
        ok(findExecutable('~/bin/atrc', opts) === exe, '~/ is the home directory');
        ok(findExecutable('bin', opts) === null, 'a directory is not an executable');
        ok(findExecutable('', opts) === null, 'an empty setting finds nothing');
        // the atrc a platform's package carries
        const { bundledExecutable, installSteps } = require(path.join(extDir, 'lib', 'executable.js'));
        fs.mkdirSync(path.join(tmp, 'ext', 'bin', 'linux-x64'), { recursive: true });
        fs.mkdirSync(path.join(tmp, 'ext', 'bin', 'win32-x64'), { recursive: true });
        fs.copyFileSync(exe, path.join(tmp, 'ext', 'bin', 'linux-x64', 'atrc'));
        fs.chmodSync(path.join(tmp, 'ext', 'bin', 'linux-x64', 'atrc'), 0o755);
        fs.writeFileSync(path.join(tmp, 'ext', 'bin', 'win32-x64', 'atrc.exe'), 'MZ');
        const ext = path.join(tmp, 'ext');
        ok(bundledExecutable(ext, { platform: 'linux', arch: 'x64' }) === path.join(ext, 'bin', 'linux-x64', 'atrc'),
            "linux-x64: the package's bin/linux-x64/atrc");
        ok(bundledExecutable(ext, { platform: 'win32', arch: 'x64' }) === path.join(ext, 'bin', 'win32-x64', 'atrc.exe'),
            "win32-x64: the package's bin/win32-x64/atrc.exe");
        ok(bundledExecutable(ext, { platform: 'linux', arch: 'arm64' }) === null, 'no atrc for a platform the package lacks');
        ok(bundledExecutable(null) === null, 'no extension directory, no bundled atrc');
        const win = installSteps('win32'), linux = installSteps('linux');
        ok(/win32-x64 package/.test(win) && /atrc\.exe/.test(win) && /win64\.zip/.test(win) && !/make install/.test(win),
            "Windows' steps: the win32-x64 package or atrc.exe from the release zip", win);
        ok(/linux-x64 package/.test(linux) && /make install/.test(linux) && !/atrc\.exe\b/.test(linux),
            "Linux's steps: the linux-x64 package or make install", linux);
    } finally {
        fs.rmSync(tmp, { recursive: true, force: true });
    }
}

// The server's spelling of an atrc-archive: URI goes back to it unchanged,
// though VS Code's parse re-encodes it (here: '!' as %21, as VS Code does).
function checkArchiveUris(extDir) {
    const { ARCHIVE_SCHEME, archiveUriConverters } = require(path.join(extDir, 'lib', 'archive-uris.js'));
    const parse = s => {
        const scheme = s.slice(0, s.indexOf(':'));
        const rest = decodeURIComponent(s.slice(scheme.length + 1));
        return { scheme, toString: () => scheme + ':' + encodeURI(rest).replace(/!/g, '%21') };
    };
    const c = archiveUriConverters(parse);
    const server = 'atrc-archive:///games/cod4/main/iw%2007.iwd!/maps/mp/_load%21.gsc';
    const uri = c.protocol2Code(server);
    ok(ARCHIVE_SCHEME === 'atrc-archive' && uri.toString() !== server, 'a parsed archive URI is spelled differently (the stand-in re-encodes)');
    ok(c.code2Protocol(uri) === server, 'an archive URI goes back to the server as the server spelled it', c.code2Protocol(uri));
    const file = c.protocol2Code('file:///games/a%20b.gsc');
    ok(c.code2Protocol(file) === file.toString(), 'a file: URI goes to the server as VS Code spells it');
    const unseen = parse('atrc-archive:///x.iwd!/y.gsc');
    ok(c.code2Protocol(unseen) === unseen.toString(), 'an archive URI the server never sent goes as VS Code spells it');
}

// Activates extension.js with a stand-in for the vscode module.  The setting
// naming an executable that does not exist: the user gets an error message
// naming it, and no client is started.  Then an executable that exists,
// with a stand-in language client: it is started as `EXE lsp`, with
// atrc.flags as initializationOptions.flags; one that fails to start is
// reported.
async function checkActivation(extDir, label) {
    const shown = [];
    const logged = [];
    const settings = { executable: 'atrc-not-installed-anywhere', flags: [] };
    const configured = new Set(['executable']); // the settings the user set (inspect's globalValue)
    const providers = {};
    const listeners = [];
    const fake = {
        workspace: {
            workspaceFolders: undefined,
            getConfiguration: () => ({
                get: (k, d) => (k in settings ? settings[k] : d),
                inspect: k => ({ defaultValue: undefined, globalValue: configured.has(k) ? settings[k] : undefined })
            }),
            onDidChangeConfiguration: f => { listeners.push(f); return { dispose() {} }; },
            registerTextDocumentContentProvider: (scheme, provider) => { providers[scheme] = provider; return { dispose() {} }; },
            createFileSystemWatcher: glob => ({ glob, dispose() {} })
        },
        window: {
            createOutputChannel: () => ({ appendLine: l => logged.push(l), dispose() {} }),
            showErrorMessage: (m, ...items) => { shown.push([m, items]); return Promise.resolve(undefined); }
        },
        commands: { registerCommand: () => ({ dispose() {} }), executeCommand: () => Promise.resolve() },
        Uri: { parse: s => ({ scheme: s.slice(0, s.indexOf(':')), toString: () => s }) }
    };
    const clients = [];
    let startError = null;
    class StandInClient {
        constructor(id, name, server, options) {
            Object.assign(this, { id, name, server, options, started: false, stopped: false });
            clients.push(this);
        }
        start() { return startError ? Promise.reject(startError) : Promise.resolve((this.started = true)); }
        stop() { this.stopped = true; return Promise.resolve(); }
        sendRequest(method, params) { return Promise.resolve(method === 'atrc/archiveEntry' ? { text: 'main() {}\n', params } : null); }
    }
    const origLoad = Module._load;
    let loadedClient = false;
    Module._load = function (request, parent, isMain) {
        if (request === 'vscode') return fake;
        if (request === 'vscode-languageclient/node') {
            loadedClient = true;
            return { LanguageClient: StandInClient };
        }
        return origLoad.call(this, request, parent, isMain);
    };
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'atrc-activate-'));
    try {
        const file = path.join(extDir, 'extension.js');
        delete require.cache[require.resolve(file)];
        const ext = require(file);
        const ctx = { subscriptions: [] };
        await ext.activate(ctx);
        ok(shown.length === 1, `${label}: one error message when the executable is missing`, JSON.stringify(shown));
        const msg = shown.length ? shown[0][0] : '';
        ok(msg.includes('"atrc-not-installed-anywhere"') && msg.includes('atrc.executable') && msg.includes('not found on PATH'),
            `${label}: the message names the setting, its value and the cause`, msg);
        const { installSteps } = require(path.join(extDir, 'lib', 'executable.js'));
        ok(msg.endsWith(installSteps(process.platform)), `${label}: the message gives this platform's steps`, msg);
        ok(shown.length && shown[0][1].includes('Open Settings'), `${label}: the message offers to open the setting`);
        ok(logged.some(l => l === msg), `${label}: the message is also in the output channel`);
        ok(!loadedClient && clients.length === 0, `${label}: no language client is loaded without a server`);
        ok(ctx.subscriptions.length >= 2, `${label}: the restart command and the settings listener are registered`);
        const archive = providers['atrc-archive'];
        ok(!!archive, `${label}: a read-only provider for atrc-archive: documents is registered`);
        if (archive) {
            let err = null;
            try { await archive.provideTextDocumentContent({ path: '/g/main/a.iwd!/maps/x.gsc' }, {}); } catch (e) { err = e; }
            ok(err && /not running/.test(err.message) && err.message.includes('/g/main/a.iwd!/maps/x.gsc'),
                `${label}: an archive entry without a server is an error naming it`, err ? err.message : 'no error');
        }
        settings.executable = './no/such/atrc';
        shown.length = 0;
        const restart = require(file);
        await restart.deactivate();
        await restart.activate({ subscriptions: [] });
        ok(shown.length === 1 && shown[0][0].includes('is not an executable file'),
            `${label}: a path that is not an executable says so`, JSON.stringify(shown));

        const exe = path.join(tmp, 'atrc');
        fs.writeFileSync(exe, '#!/bin/sh\n');
        fs.chmodSync(exe, 0o755);
        settings.executable = exe;
        settings.flags = ['-g', '/games/cod4', '--map', 'killhouse', '--sp'];
        shown.length = 0;
        await restart.deactivate();
        await restart.activate({ subscriptions: [] });
        const c = clients[clients.length - 1];
        ok(shown.length === 0 && c && c.started, `${label}: an existing executable starts a client`, JSON.stringify(shown));
        if (c) {
            ok(c.server.command === exe && JSON.stringify(c.server.args) === '["lsp"]' && c.server.transport === undefined,
                `${label}: the server is started as EXE lsp over stdio`, JSON.stringify(c.server));
            ok(JSON.stringify(c.options.initializationOptions) === JSON.stringify({ flags: settings.flags }),
                `${label}: atrc.flags goes as initializationOptions.flags`, JSON.stringify(c.options.initializationOptions));
            const sel = c.options.documentSelector.map(d => `${d.scheme}:${d.language}`).sort().join(' ');
            ok(sel === 'atrc-archive:atr atrc-archive:gsc file:atr file:gsc', `${label}: the client serves gsc and atr documents`, sel);
            const server = 'atrc-archive:///g/a.iwd!/maps/x.gsc';
            const uri = c.options.uriConverters.protocol2Code(server);
            const text = await providers['atrc-archive'].provideTextDocumentContent(uri, {});
            ok(text === 'main() {}\n', `${label}: an archive entry's text comes from atrc/archiveEntry`, String(text));
            // atrc.inlayHints.enabled: declared, on by default, sent only when off
            const manifest = readJson(path.join(extDir, 'package.json'));
            const decl = manifest.contributes.configuration.properties['atrc.inlayHints.enabled'];
            ok(decl && decl.type === 'boolean' && decl.default === true,
                `${label}: the setting atrc.inlayHints.enabled is declared, a boolean on by default`, JSON.stringify(decl));
            // turned off: a settings event restarts the server with inlayHints false
            settings['inlayHints.enabled'] = false;
            const before = clients.length;
            const listener = listeners[listeners.length - 1];
            await listener({ affectsConfiguration: k => k === 'atrc.inlayHints.enabled' });
            const h = clients[clients.length - 1];
            ok(clients.length === before + 1 && c.stopped && h.started,
                `${label}: changing atrc.inlayHints.enabled restarts the server`, `${before} -> ${clients.length}`);
            ok(JSON.stringify(h.options.initializationOptions) === JSON.stringify({ flags: settings.flags, inlayHints: false }),
                `${label}: atrc.inlayHints.enabled false goes as initializationOptions.inlayHints false`,
                JSON.stringify(h.options.initializationOptions));
            await listener({ affectsConfiguration: k => k === 'editor.fontSize' });
            ok(clients.length === before + 1, `${label}: other settings do not restart the server`);
            delete settings['inlayHints.enabled'];
            await restart.deactivate();
            ok(h.stopped, `${label}: deactivating stops the client`);
        }
        // no executable set: the atrc the platform's package carries
        const own = path.join(tmp, 'ext', 'bin', `${process.platform}-${process.arch}`);
        fs.mkdirSync(own, { recursive: true });
        const bundled = path.join(own, process.platform === 'win32' ? 'atrc.exe' : 'atrc');
        fs.copyFileSync(exe, bundled);
        fs.chmodSync(bundled, 0o755);
        configured.delete('executable');
        settings.executable = 'atrc-not-installed-anywhere';
        await restart.activate({ subscriptions: [], extensionPath: path.join(tmp, 'ext') });
        const b = clients[clients.length - 1];
        ok(b && b.started && b.server.command === bundled, `${label}: unset, atrc.executable is the package's own atrc`,
            b && b.server.command);
        await restart.deactivate();
        configured.add('executable');
        await restart.activate({ subscriptions: [], extensionPath: path.join(tmp, 'ext') });
        ok(shown.length === 1 && shown[0][0].includes('"atrc-not-installed-anywhere"'),
            `${label}: set by the user, atrc.executable wins over the package's atrc`, JSON.stringify(shown));
        await restart.deactivate();
        settings.executable = exe;
        startError = new Error('spawn EACCES');
        shown.length = 0;
        await restart.activate({ subscriptions: [] });
        ok(shown.length === 1 && shown[0][0].includes(`(${exe} lsp) did not start: spawn EACCES`),
            `${label}: a server that does not start is reported`, JSON.stringify(shown));
        await restart.deactivate();
    } finally {
        Module._load = origLoad;
        fs.rmSync(tmp, { recursive: true, force: true });
    }
}

// The packaged vscode-languageclient/node loads with nothing but the vscode
// module (which the editor provides; here a stand-in that answers anything):
// every module it requires resolves inside the unpacked extension.
function checkClientLoads(extDir) {
    const anything = new Proxy(function () {}, {
        get: (t, k) => (k === 'prototype' ? {} : typeof k === 'symbol' ? undefined : anything),
        construct: () => ({}),
        apply: () => anything
    });
    const origLoad = Module._load;
    const outside = [];
    const prefix = extDir + path.sep;
    Module._load = function (request, parent, isMain) {
        if (request === 'vscode') return anything;
        if (!Module.isBuiltin(request)) {
            const file = Module._resolveFilename(request, parent, isMain);
            if (!file.startsWith(prefix)) outside.push(`${request} -> ${file}`);
        }
        return origLoad.call(this, request, parent, isMain);
    };
    let lc = null;
    let err = null;
    try {
        lc = require(path.join(extDir, 'node_modules', 'vscode-languageclient', 'node'));
    } catch (e) {
        err = e;
    } finally {
        Module._load = origLoad;
    }
    ok(!err && lc && typeof lc.LanguageClient === 'function', 'the packaged vscode-languageclient/node loads and has LanguageClient',
        err && err.message);
    ok(outside.length === 0, 'everything the packaged client requires is inside the package', outside.slice(0, 5).join(', '));
}

// ---------------------------------------------------------------- the vsix

// The entries of a zip archive: name -> Buffer (stored or deflated).
function readZip(buf) {
    let eocd = -1;
    for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65557); i--) {
        if (buf.readUInt32LE(i) === 0x06054b50) { eocd = i; break; }
    }
    if (eocd < 0) throw new Error('not a zip archive (no end of central directory)');
    const count = buf.readUInt16LE(eocd + 10);
    let p = buf.readUInt32LE(eocd + 16);
    const entries = new Map();
    for (let n = 0; n < count; n++) {
        if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error(`bad central directory entry ${n}`);
        const method = buf.readUInt16LE(p + 10);
        const csize = buf.readUInt32LE(p + 20);
        const usize = buf.readUInt32LE(p + 24);
        const nlen = buf.readUInt16LE(p + 28);
        const elen = buf.readUInt16LE(p + 30);
        const clen = buf.readUInt16LE(p + 32);
        const local = buf.readUInt32LE(p + 42);
        const name = buf.toString('utf8', p + 46, p + 46 + nlen);
        p += 46 + nlen + elen + clen;
        if (buf.readUInt32LE(local) !== 0x04034b50) throw new Error(`bad local header for ${name}`);
        const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
        const raw = buf.subarray(start, start + csize);
        let data;
        if (method === 0) data = raw;
        else if (method === 8) data = zlib.inflateRawSync(raw);
        else throw new Error(`${name}: compression method ${method}`);
        if (data.length !== usize) throw new Error(`${name}: ${data.length} bytes, the directory says ${usize}`);
        entries.set(name, data);
    }
    return entries;
}

// A platform's package (target set): named for it, its manifest's
// TargetPlatform, and bin/<target>/atrc[.exe] the given executable.
async function checkVsix(file, version, target, bin) {
    const entries = readZip(fs.readFileSync(file));
    const has = name => entries.has(name);
    const text = name => (entries.get(name) || Buffer.alloc(0)).toString('utf8');
    for (const name of ['extension.vsixmanifest', '[Content_Types].xml', 'extension/package.json']) {
        ok(has(name), `${path.basename(file)} holds ${name}`);
    }
    const manifest = JSON.parse(text('extension/package.json'));
    ok(manifest.version === version, `the extension's version ${manifest.version} is atrc's ${version}`);
    const named = target ? `atrc-vscode-${version}-${target}.vsix` : `atrc-vscode-${version}.vsix`;
    ok(path.basename(file) === named, `the package is named ${named}`);
    const vsixml = text('extension.vsixmanifest');
    ok(target ? vsixml.includes(`TargetPlatform="${target}"`) : !vsixml.includes('TargetPlatform='),
        `${named}: the manifest's target platform is ${target || 'none (every platform)'}`);
    const exe = target && `extension/bin/${target}/${target.startsWith('win32') ? 'atrc.exe' : 'atrc'}`;
    if (target) {
        ok(has(exe) && entries.get(exe).equals(fs.readFileSync(bin)), `${named} carries ${bin} as ${exe}`);
    }
    ok(/<Identity\b[^>]*\bId="atrc-vscode"/.test(vsixml) && vsixml.includes(`Version="${version}"`),
        'extension.vsixmanifest names atrc-vscode and its version');

    const langs = manifest.contributes.languages || [];
    for (const [id, ext] of [['gsc', '.gsc'], ['atr', '.atr']]) {
        const l = langs.find(x => x.id === id);
        ok(l && l.extensions.includes(ext), `the language ${id} is declared for ${ext}`);
        // CoD4x's scripts (read under --extension cod4x) are gsc too
        if (id === 'gsc') ok(l && l.extensions.includes('.gsx'), 'the language gsc is declared for .gsx');
        if (l) {
            const conf = 'extension/' + path.posix.normalize(l.configuration);
            let parsed = null;
            try { parsed = JSON.parse(text(conf)); } catch (e) { /* reported below */ }
            ok(parsed && parsed.comments && parsed.comments.lineComment === '//', `${id}'s language configuration ${conf} is packaged`);
        }
        // The stock scripts and trees are Windows-1252: opened as UTF-8 and
        // saved, each non-ASCII byte would become U+FFFD.
        const defaults = (manifest.contributes.configurationDefaults || {})[`[${id}]`] || {};
        ok(defaults['files.encoding'] === 'windows1252', `${id} files open and save as Windows-1252 by default`,
            JSON.stringify(defaults));
        const g = (manifest.contributes.grammars || []).find(x => x.language === id);
        ok(!!g, `a grammar is declared for ${id}`);
        if (g) {
            const entry = 'extension/' + path.posix.normalize(g.path);
            ok(has(entry) && entries.get(entry).equals(fs.readFileSync(path.join(HERE, g.path))),
                `the grammar ${entry} is packaged as in the source`);
        }
    }
    const main = 'extension/' + path.posix.normalize(manifest.main);
    ok(has(main) && entries.get(main).equals(fs.readFileSync(path.join(HERE, manifest.main))), `the entry point ${main} is packaged`);

    // The bundled client: every run-time package of the lock file, none of
    // the build-time ones, no tests.
    const lock = readJson(path.join(HERE, 'package-lock.json'));
    const runtime = [];
    const devtime = [];
    for (const [key, meta] of Object.entries(lock.packages)) {
        if (!key.startsWith('node_modules/')) continue;
        (meta.dev ? devtime : runtime).push([key, meta]);
    }
    ok(runtime.some(([k]) => k === 'node_modules/vscode-languageclient'), 'the lock file has vscode-languageclient as a run-time package');
    for (const [key, meta] of runtime) {
        const pj = `extension/${key}/package.json`;
        let v = null;
        try { v = JSON.parse(text(pj)).version; } catch (e) { /* reported below */ }
        ok(v === meta.version, `the package bundles ${key.replace(/^(node_modules\/)+/, '')} ${meta.version}`, `found ${v}`);
    }
    ok(has('extension/node_modules/vscode-languageclient/node.js'), 'the package bundles vscode-languageclient/node');
    // The licence: atrc's own (the manifest's `license`, LICENSE.txt in the
    // package, named by the .vsixmanifest), and beside every bundled
    // package its own licence file with its copyright and permission notice.
    ok(manifest.license === 'MIT', 'the manifest names the MIT licence', `found ${manifest.license}`);
    ok(has('extension/LICENSE.txt') && entries.get('extension/LICENSE.txt').equals(fs.readFileSync(path.join(HERE, '..', '..', 'LICENSE'))),
        'the package holds atrc\'s LICENSE as extension/LICENSE.txt');
    ok(/<License>extension\/LICENSE\.txt<\/License>/.test(vsixml), 'extension.vsixmanifest names extension/LICENSE.txt as the licence');
    for (const [key] of runtime) {
        const dir = `extension/${key}/`;
        const lic = [...entries.keys()].find(n => n.startsWith(dir) && /^licen[cs]e(\.(md|txt))?$/i.test(n.slice(dir.length)));
        const body = lic ? text(lic) : '';
        ok(!!lic && /Copyright/i.test(body) && /Permission/i.test(body),
            `the bundled ${key.replace(/^(node_modules\/)+/, '')} carries its licence (${lic ? lic.slice(dir.length) : 'none'})`);
    }
    const leaked = devtime.filter(([key]) => has(`extension/${key}/package.json`)).map(([k]) => k);
    ok(leaked.length === 0, 'no build-time package (vsce, vscode-textmate, vscode-oniguruma, ...) is bundled', leaked.slice(0, 5).join(', '));
    ok(![...entries.keys()].some(n => n.startsWith('extension/test/')), 'the tests are not packaged');
    // The extension's own files, and nothing else of the source directory.
    const own = new Set(['extension/package.json', 'extension/readme.md', 'extension/LICENSE.txt', main]);
    if (exe) own.add(exe);
    for (const l of langs) own.add('extension/' + path.posix.normalize(l.configuration));
    for (const g of manifest.contributes.grammars || []) own.add('extension/' + path.posix.normalize(g.path));
    for (const f of fs.readdirSync(path.join(HERE, 'lib'))) own.add(`extension/lib/${f}`);
    const packaged = [...entries.keys()].filter(n => n.startsWith('extension/') && !n.startsWith('extension/node_modules/'));
    const extra = packaged.filter(n => !own.has(n));
    const absent = [...own].filter(n => !has(n));
    ok(extra.length === 0 && absent.length === 0, 'the package holds exactly the extension\'s own files besides node_modules/',
        `extra: ${extra.join(', ')}; absent: ${absent.join(', ')}`);

    // The packaged extension runs on its own (its own lib/ and node_modules/).
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'atrc-vsix-'));
    try {
        for (const [name, data] of entries) {
            if (!name.startsWith('extension/') || name.endsWith('/')) continue;
            const out = path.join(tmp, name);
            fs.mkdirSync(path.dirname(out), { recursive: true });
            fs.writeFileSync(out, data);
        }
        checkExecutableLookup(path.join(tmp, 'extension'));
        checkArchiveUris(path.join(tmp, 'extension'));
        await checkActivation(path.join(tmp, 'extension'), 'packaged extension');
        checkClientLoads(path.join(tmp, 'extension'));
    } finally {
        fs.rmSync(tmp, { recursive: true, force: true });
    }
}

async function main() {
    const args = process.argv.slice(2);
    let vsix = null;
    let version = null;
    let atrc = null;
    const platforms = []; // [FILE, TARGET, EXECUTABLE]
    for (let i = 0; i < args.length; i++) {
        if (args[i] === '--vsix') vsix = args[++i];
        else if (args[i] === '--platform-vsix') platforms.push(args.slice(i + 1, (i += 3) + 1));
        else if (args[i] === '--version') version = args[++i];
        else if (args[i] === '--atrc') atrc = args[++i];
        else { console.error(`check.js: unknown argument ${args[i]}`); process.exit(2); }
    }
    const gsc = await checkGrammars();
    if (atrc) {
        const t0 = Date.now();
        checkAgainstParser(gsc, atrc);
        console.log(`check-vscode: compared with atrc --dump-ast in ${Date.now() - t0} ms`);
    }
    checkExecutableLookup(HERE);
    checkArchiveUris(HERE);
    await checkActivation(HERE, 'extension');
    if (vsix) await checkVsix(vsix, version);
    for (const [file, target, bin] of platforms) await checkVsix(file, version, target, bin);
    console.log(`vscode: ${passed} passed, ${failed} failed`);
    process.exit(failed === 0 ? 0 : 1);
}

main().catch(err => {
    console.error(`check-vscode: ${err && err.stack ? err.stack : err}`);
    process.exit(1);
});
