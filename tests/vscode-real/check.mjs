// make check-vscode-real: VS Code itself (code-server, installed by
// scripts/code-server.sh) with the extension installed from its linux-x64
// .vsix as the README says (no setting, no atrc on PATH: the package's own
// atrc runs), driven in Debian's chromium by
// playwright-core (tests/web's package) like a person at the keyboard:
// open a stock CoD4 level script (Windows-1252, CRLF, no final newline), see
// the error typed into it in the Problems panel, hover a %name (its packed
// value), go to its .atr line (F12), complete a %name on an unfinished line,
// delete the lines typed and save: each file byte for byte the stock one.
// A screenshot of each step goes to OUT (build/vscode-real/).
//   ATRC=build/atrc CODE_SERVER=.../entry.js VSIX=build/x.vsix COD4_GAME=dir OUT=build/vscode-real node tests/vscode-real/check.mjs
import { createRequire } from 'node:module';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const { chromium } = createRequire(path.join(REPO, 'tests/web/package.json'))('playwright-core');
const { CODE_SERVER, VSIX, COD4_GAME, OUT } = process.env;
const ATRC = process.env.ATRC && path.resolve(process.env.ATRC);
if (!ATRC || !CODE_SERVER || !VSIX || !COD4_GAME || !OUT) {
  console.error('usage: ATRC=... CODE_SERVER=.../entry.js VSIX=... COD4_GAME=... OUT=... node tests/vscode-real/check.mjs');
  process.exit(2);
}
const hex = (v) => '0x' + (v >>> 0).toString(16).padStart(8, '0');
let passed = 0, failed = 0, shots = 0;
function check(name, ok, detail) {
  if (ok) { passed++; console.log(`ok   ${name}`); }
  else { failed++; console.log(`FAIL ${name}${detail ? ': ' + detail : ''}`); }
  return ok;
}

// ---- the workspace: copies of two stock scripts over the stock game ----
const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'atrc-vscode-')));
const ws = path.join(tmp, 'killhouse');
fs.mkdirSync(path.join(ws, 'maps'), { recursive: true });
const stock = (f) => path.join(COD4_GAME, f);
for (const f of ['maps/killhouse.gsc', 'maps/killhouse_anim.gsc']) {
  fs.writeFileSync(path.join(ws, f), fs.readFileSync(stock(f)));
}
fs.writeFileSync(path.join(ws, 'atrc.flags'),
  ['--profile', 'cod4', '-g', COD4_GAME, '-g', '.', '--map', 'killhouse', '--sp', ''].join('\n'));
function cli() {
  const r = spawnSync(ATRC, ['--format', 'json', '@atrc.flags'], { cwd: ws, encoding: 'utf8', maxBuffer: 1 << 28 });
  return JSON.parse(r.stdout);
}

// ---- code-server: its own home, the extension from the .vsix ----
const home = path.join(tmp, 'home');
const data = path.join(tmp, 'data');
fs.mkdirSync(path.join(data, 'User'), { recursive: true });
// The test machine's choices, none of them atrc's: no welcome page, no trust prompt.
fs.writeFileSync(path.join(data, 'User', 'settings.json'), JSON.stringify({
  'workbench.startupEditor': 'none',
  'security.workspace.trust.enabled': false,
  'workbench.tips.enabled': false,
  'extensions.ignoreRecommendations': true,
  ...(process.env.VSCODE_SETTINGS ? JSON.parse(process.env.VSCODE_SETTINGS) : {}),
}));
// No atrc on PATH and no setting: the platform's package carries its own.
fs.mkdirSync(home, { recursive: true });
const env = {
  ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_DATA_HOME: path.join(home, '.local'),
  PATH: process.env.PATH.split(path.delimiter).filter((d) => !fs.existsSync(path.join(d, 'atrc'))).join(path.delimiter),
  SHELL: '/bin/bash',
};
const base = ['--user-data-dir', data, '--extensions-dir', path.join(tmp, 'extensions'), '--config', path.join(tmp, 'config.yaml')];
const inst = spawnSync(process.execPath, [CODE_SERVER, ...base, '--install-extension', path.resolve(VSIX)], { env, encoding: 'utf8' });
if (!check('code-server --install-extension ' + path.basename(VSIX), inst.status === 0, inst.stdout + inst.stderr)) {
  process.exit(1);
}

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); });
  });
}
const port = await freePort();
const server = spawn(process.execPath, [CODE_SERVER, ...base, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`,
  '--disable-telemetry', '--disable-update-check', '--disable-getting-started-override', ws],
{ env, stdio: ['ignore', 'pipe', 'pipe'] });
let serverLog = '';
server.stdout.on('data', (d) => { serverLog += d; });
server.stderr.on('data', (d) => { serverLog += d; });
await new Promise((resolve, reject) => {
  const t = setTimeout(() => reject(new Error('code-server did not start: ' + serverLog)), 60000);
  const poll = setInterval(() => {
    if (/HTTP server listening/.test(serverLog)) { clearTimeout(t); clearInterval(poll); resolve(); }
  }, 100);
});

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
fs.mkdirSync(OUT, { recursive: true });
async function shot(name) {
  shots++;
  await page.screenshot({ path: path.join(OUT, `${String(shots).padStart(2, '0')}-${name}.png`) });
}
const mod = 'Control';

// A file already open is brought forward by its tab; any other through Quick
// Open. On a loaded machine Quick Open's list may re-render under the click,
// so each attempt that does not make the file's tab active is retried.
async function openFile(rel) {
  const name = path.basename(rel);
  const active = `.tab.active[data-resource-name="${name}"]`;
  let last = null;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const tab = page.locator(`.tab[data-resource-name="${name}"]`);
      if (await tab.count() > 0) {
        await tab.first().click();
      } else {
        await page.keyboard.press(`${mod}+P`);
        await page.waitForSelector('.quick-input-widget input', { state: 'visible' });
        await page.keyboard.type(rel);
        const row = `.quick-input-list .monaco-list-row[aria-label*="${name}"]`;
        await page.waitForSelector(row, { timeout: 60000 }); // the first file search starts ripgrep: slow on a busy machine
        await page.waitForTimeout(300); // the list settles
        await page.click(row);
      }
      await page.waitForSelector(active, { timeout: 20000 });
      await page.waitForTimeout(300);
      return;
    } catch (e) {
      last = e;
      await shot(`open-retry-${name}`).catch(() => {});
      await page.keyboard.press('Escape').catch(() => {});
    }
  }
  throw last;
}
async function goTo(line, column) {
  await page.keyboard.press(`${mod}+G`);
  await page.waitForSelector('.quick-input-widget input', { state: 'visible' });
  await page.keyboard.type(column ? `${line}:${column}` : `${line}`);
  await page.keyboard.press('Enter');
  await page.waitForTimeout(200);
}
async function cursor() {
  const t = await page.locator('#status\\.editor\\.selection').innerText();
  const m = /Ln (\d+), Col (\d+)/.exec(t);
  return m ? { line: +m[1], column: +m[2] } : null;
}
async function save() {
  await page.keyboard.press(`${mod}+S`);
  await page.waitForFunction(() => !document.querySelector('.tab.active.dirty'), null, { timeout: 10000 });
  await page.waitForTimeout(500);
}

let exitStatus = 1;
try {
  await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(ws)}`, { timeout: 120000 });
  await page.waitForSelector('.monaco-workbench', { timeout: 60000 });
  await page.waitForTimeout(2000);

  // 1. open the level script; its encoding is shown in the status bar
  await openFile('maps/killhouse.gsc');
  const enc = await page.locator('#status\\.editor\\.encoding').innerText().catch(() => '');
  check('maps/killhouse.gsc opens as Windows-1252', /1252/.test(enc), `the status bar says '${enc}'`);
  await shot('open-level-script');

  // 2. an error typed into main() (line 9), in the Problems panel where the command line has it
  await goTo(9);
  await page.keyboard.press('Home');
  await page.keyboard.type('x = %atrc_typo;');
  await page.keyboard.press('Enter');
  await save();
  // the command line on the file as saved (the save may land a moment later on a busy machine)
  let want;
  for (let i = 0; i < 40 && !want; i++) {
    want = cli().diagnostics.find((d) => d.file === 'maps/killhouse.gsc');
    if (!want) await page.waitForTimeout(500);
  }
  await page.keyboard.press(`${mod}+Shift+M`);
  let row = '';
  try {
    await page.waitForSelector('.markers-panel .monaco-list-row .marker-message-details, .markers-panel .monaco-list-row', { timeout: 20000 });
    await page.waitForFunction((m) => [...document.querySelectorAll('.markers-panel .monaco-list-row')].some((r) => r.textContent.includes(m)),
      want ? want.message : '#', { timeout: 20000 });
    row = await page.evaluate((m) => [...document.querySelectorAll('.markers-panel .monaco-list-row')].map((r) => r.textContent)
      .find((t) => t.includes(m)) || '', want ? want.message : '#');
  } catch (e) { /* reported below */ }
  check('the typed error is in the Problems panel as the command line says it',
    want && row.includes(want.message) && row.includes(`[Ln ${want.line}, Col ${want.column}]`),
    `command line ${JSON.stringify(want)}, panel row '${row}'`);
  await shot('diagnostics');
  await page.keyboard.press(`${mod}+Shift+M`); // the panel closed again

  // 3. hover a %name of the anim script
  const doc = cli();
  const ref = doc.references.find((r) => r.file === 'maps/killhouse_anim.gsc' && r.kind === 'anim' && r.value !== null);
  await openFile('maps/killhouse_anim.gsc');
  await goTo(ref.line, ref.column + 2);
  await page.keyboard.press(`${mod}+K`);
  await page.keyboard.press(`${mod}+I`);
  let hover = '';
  try {
    await page.waitForSelector('.monaco-hover .hover-contents', { state: 'visible', timeout: 15000 });
    hover = await page.locator('.monaco-hover .hover-contents').first().innerText();
  } catch (e) { /* reported below */ }
  check(`hover on %${ref.name} shows ${hex(ref.value)} (${ref.value})`,
    hover.includes(hex(ref.value)) && hover.includes(String(ref.value)), `hover '${hover}'`);
  // the widget fades in: the screenshot once it and every box around it is
  // opaque with no animation left to run, and a frame has been drawn since
  const shown = await page.waitForFunction(() => {
    const h = document.querySelector('.monaco-hover .hover-contents');
    if (!h) return false;
    for (let e = h; e && e !== document.body; e = e.parentElement) {
      if (getComputedStyle(e).opacity !== '1') return false;
      if (e.getAnimations().some((a) => a.playState !== 'finished')) return false;
    }
    return true;
  }, null, { timeout: 10000 }).then(() => true, () => false);
  check('the hover is fully shown (opaque, its fade-in finished)', shown);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await shot('hover');
  await page.keyboard.press('Escape');

  // 4. F12: the .atr line that declares it
  const tree = doc.trees.find((t) => t.name === ref.tree);
  const atrFile = path.resolve(ws, tree.file);
  const atrLines = fs.readFileSync(atrFile, 'latin1').split('\n');
  const declares = atrLines.findIndex((l) => l.replace(/\/\/.*/, '').trim().split(/[\s{]/)[0].toLowerCase() === ref.name.toLowerCase()) + 1;
  await page.keyboard.press('F12');
  let at = null;
  try {
    await page.waitForSelector(`.tab.active[data-resource-name="${path.basename(atrFile)}"]`, { timeout: 15000 });
    await page.waitForTimeout(300);
    at = await cursor();
  } catch (e) { /* reported below */ }
  check(`F12 on %${ref.name} goes to ${path.basename(atrFile)}:${declares}`, at && at.line === declares,
    `the editor is at ${JSON.stringify(at)}`);
  await shot('definition');

  // 5. completion after '%' on an unfinished line
  await openFile('maps/killhouse_anim.gsc');
  await goTo(ref.line);
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  // a name of the tree the script does not mention (VS Code also offers the
  // words of the document), typed but for its last three letters
  const animText = fs.readFileSync(path.join(ws, 'maps/killhouse_anim.gsc'), 'latin1').toLowerCase();
  const node = tree.nodes.find((n) => n.index > 0 && !n.pruned && n.name.length > 5 && !animText.includes(n.name.toLowerCase()));
  const typed = node.name.slice(0, node.name.length - 3);
  await page.keyboard.type('x = %' + typed, { delay: 30 });
  let labels = [];
  try {
    await page.waitForSelector('.suggest-widget.visible .monaco-list-row', { timeout: 15000 });
    await page.waitForTimeout(300);
    labels = await page.$$eval('.suggest-widget.visible .monaco-list-row', (rows) => rows.map((r) => r.getAttribute('aria-label') || r.textContent));
  } catch (e) { /* reported below */ }
  check(`completion after '%${typed}' on an unfinished line offers ${node.name}`,
    labels.some((l) => l.split(/[\s,]/)[0].toLowerCase() === node.name.toLowerCase()),
    `the list shows ${JSON.stringify(labels.slice(0, 8))}`);
  await shot('completion');
  await page.keyboard.press('Escape');
  // the line typed deleted again, and saved
  await page.keyboard.press(`${mod}+Shift+K`);
  await save();

  // 6. the level script's line deleted again, and saved: both files as the stock ones
  await openFile('maps/killhouse.gsc');
  await goTo(9);
  await page.keyboard.press(`${mod}+Shift+K`);
  await save();
  await shot('saved');
  for (const f of ['maps/killhouse.gsc', 'maps/killhouse_anim.gsc']) {
    const a = fs.readFileSync(path.join(ws, f)), b = fs.readFileSync(stock(f));
    check(`${f} saved through VS Code is the stock file byte for byte`, a.equals(b),
      `${a.length} bytes (${(a.toString('latin1').match(/\xef\xbf\xbd/g) || []).length} U+FFFD) vs ${b.length}`);
  }
  exitStatus = failed ? 1 : 0;
} catch (e) {
  check('the session ran to its end', false, e.stack);
  await shot('error').catch(() => {});
} finally {
  await browser.close();
  server.kill();
  fs.rmSync(tmp, { recursive: true, force: true });
}
console.log(`vscode-real: ${passed} passed, ${failed} failed; screenshots in ${OUT}`);
process.exit(exitStatus);
