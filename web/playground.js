// The playground: two editors (scripts, trees), and after every change one
// run of the wasm CLI whose JSON fills the reference table, the picture and
// the diagnostics.
import { Compiler } from './compiler.js';
import { drawTree, legendSwatch, hex } from './treeview.js';

const $ = (sel) => document.querySelector(sel);
function elem(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}
const TREE_DIR = 'game/animtrees/';
const NAME_OK = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

// The state a run is made from; window.playground shows it (and the last
// run) to tests and to the curious.
const state = {
  scripts: [], trees: [], script: 0, tree: 0,
  profile: 'uo', animCheck: false,
  explain: null, // the packed value whose --explain is shown, or null
};
const pg = { state, runs: 0, last: null, ready: false, error: null };
window.playground = pg;

// ---- editors: a textarea with a line-number gutter that marks diagnostics ----

class Editor {
  constructor(root, onInput) {
    this.gutter = elem('pre', 'gutter');
    this.gutter.setAttribute('aria-hidden', 'true');
    this.area = elem('textarea');
    for (const [k, v] of Object.entries({ spellcheck: 'false', autocapitalize: 'off', autocomplete: 'off',
      wrap: 'off', 'aria-label': root.dataset.label })) this.area.setAttribute(k, v);
    root.replaceChildren(this.gutter, this.area);
    this.marks = new Map();
    this.area.addEventListener('input', () => { this.paintGutter(); onInput(this.area.value); });
    this.area.addEventListener('scroll', () => { this.gutter.scrollTop = this.area.scrollTop; });
    this.area.addEventListener('keydown', (e) => {
      if (e.key === 'Tab' && !e.shiftKey && !e.ctrlKey && !e.altKey && !e.metaKey) {
        e.preventDefault();
        document.execCommand('insertText', false, '\t');
      }
    });
  }

  set text(t) { this.area.value = t; this.area.scrollTop = 0; this.paintGutter(); }
  get text() { return this.area.value; }

  // marks: Map line -> 'error' | 'warning'
  mark(marks) { this.marks = marks; this.paintGutter(); }

  // Rebuilt only when the line count or the marks change: a keystroke
  // within a line of a 2,900-line file costs nothing here.
  paintGutter() {
    let lines = 1;
    const v = this.area.value;
    for (let at = v.indexOf('\n'); at >= 0; at = v.indexOf('\n', at + 1)) lines++;
    const key = lines + ' ' + JSON.stringify([...this.marks]);
    if (key === this.painted) { this.gutter.scrollTop = this.area.scrollTop; return; }
    this.painted = key;
    const frag = document.createDocumentFragment();
    for (let i = 1; i <= lines; i++) {
      const s = document.createElement('span');
      s.textContent = i;
      const m = this.marks.get(i);
      if (m) s.className = m;
      frag.append(s);
    }
    this.gutter.replaceChildren(frag);
    this.gutter.scrollTop = this.area.scrollTop;
  }

  // Puts the caret at a 1-based line and byte column (atrc counts bytes).
  reveal(line, column) {
    const lines = this.area.value.split('\n');
    let offset = 0;
    for (let i = 0; i < Math.min(line - 1, lines.length); i++) offset += lines[i].length + 1;
    const text = lines[line - 1] || '';
    const bytes = new TextEncoder().encode(text);
    const prefix = new TextDecoder().decode(bytes.slice(0, Math.max(0, (column || 1) - 1)));
    const at = offset + Math.min(prefix.length, text.length);
    this.area.focus();
    this.area.setSelectionRange(at, at + 1);
    const lineHeight = 20;
    this.area.scrollTop = Math.max(0, (line - 4) * lineHeight);
  }
}

const scriptEditor = new Editor($('#script-editor'), (t) => { state.scripts[state.script].text = t; schedule(); });
const treeEditor = new Editor($('#tree-editor'), (t) => { state.trees[state.tree].text = t; schedule(); });

// ---- tabs ----

function paintTabs() {
  const diagFiles = new Map();
  for (const d of (pg.last && pg.last.json ? pg.last.json.diagnostics : [])) {
    if (!d.file) continue;
    if (diagFiles.get(d.file) !== 'error') diagFiles.set(d.file, d.severity);
  }
  for (const [list, which, box] of [[state.scripts, 'script', $('#script-tabs')], [state.trees, 'tree', $('#tree-tabs')]]) {
    box.replaceChildren(...list.map((f, i) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'tab';
      b.setAttribute('role', 'tab');
      b.setAttribute('aria-selected', String(i === state[which]));
      b.textContent = f.name;
      b.title = which === 'tree' ? TREE_DIR + f.name : f.name;
      const sev = diagFiles.get(which === 'tree' ? TREE_DIR + f.name : f.name);
      if (sev) b.classList.add('has-' + sev);
      b.addEventListener('click', () => selectFile(which, i));
      return b;
    }));
  }
}

function selectFile(which, i) {
  state[which] = i;
  if (which === 'script') scriptEditor.text = state.scripts[i].text;
  else treeEditor.text = state.trees[i].text;
  paintTabs();
  paintMarks();
}

function addFile(which) {
  const ext = which === 'script' ? '.gsc' : '.atr';
  const list = which === 'script' ? state.scripts : state.trees;
  let name = window.prompt(which === 'script' ? 'Name of the new script (e.g. b.gsc)' : 'Name of the new tree (e.g. other.atr)');
  if (!name) return;
  name = name.trim();
  if (!name.toLowerCase().endsWith(ext)) name += ext;
  if (!NAME_OK.test(name) || list.some((f) => f.name.toLowerCase() === name.toLowerCase())) {
    window.alert(`'${name}' cannot be used: letters, digits, '_', '.' and '-' only, and not a name already there.`);
    return;
  }
  const tree = state.trees.length ? state.trees[0].name.replace(/\.atr$/i, '') : 'example';
  list.push({ name, text: which === 'script' ? `#using_animtree("${tree}");\n\nmain()\n{\n}\n` : 'idle\n' });
  selectFile(which, list.length - 1);
  schedule();
}
$('#add-script').addEventListener('click', () => addFile('script'));
$('#add-tree').addEventListener('click', () => addFile('tree'));

// ---- running atrc ----

function commandArgs(mode) {
  const args = ['-j', '1', '--no-xanim', ...mode, '--profile', state.profile];
  if (state.animCheck) args.push('--anim-check');
  args.push('-g', 'game', ...state.scripts.map((f) => f.name));
  return args;
}

let compiler = null;
let pending = false;
let running = false;
// True when the last run saw the editors as they are now.
pg.settled = () => !loading && !pending && !running && pg.last !== null;

function schedule() {
  pending = true;
  if (!running) setTimeout(runNow, 0);
}

async function runNow() {
  if (!compiler || running || !pending) return;
  pending = false;
  running = true;
  const files = [
    ...state.scripts.map((f) => ({ path: f.name, text: f.text })),
    ...state.trees.map((f) => ({ path: TREE_DIR + f.name, text: f.text })),
  ];
  const args = commandArgs(['--format', 'json', '--show-pruned']);
  try {
    const r = await compiler.run(files, args);
    // The same output as the last run (a keystroke in a comment, a name
    // typed back): the page already shows it.
    const prev = pg.last;
    const same = prev && prev.output === r.output && prev.stderr === r.stderr && prev.status === r.status &&
      prev.args.join('\0') === args.join('\0');
    let json = same ? prev.json : null;
    if (!same) try { json = r.output ? JSON.parse(r.output) : null; } catch (e) { json = null; }
    pg.runs++;
    pg.last = { files, args, ...r, json };
    if (same) showStatus(pg.last); else show(pg.last);
    // The chosen value, explained by the same files (while a reference has it).
    const v = state.explain;
    if (v !== null && json && json.references.some((x) => x.kind !== 'animtree' && x.value === v)) {
      const eargs = commandArgs(['--explain', hex(v)]);
      const e = await compiler.run(files, eargs);
      pg.lastExplain = { files, args: eargs, ...e };
      showExplain(hex(v), e.output + e.stderr);
    } else {
      pg.lastExplain = null;
      showExplain(null);
    }
  } catch (e) {
    pg.error = String(e);
    $('#status').textContent = 'the compiler failed: ' + e;
    $('#status').classList.add('bad');
  }
  running = false;
  if (pending) setTimeout(runNow, 0);
}

// ---- showing a run ----

function fileTarget(file) {
  if (!file) return null;
  if (file.startsWith(TREE_DIR)) {
    const i = state.trees.findIndex((f) => f.name === file.slice(TREE_DIR.length));
    return i < 0 ? null : { which: 'tree', i };
  }
  const i = state.scripts.findIndex((f) => f.name === file);
  return i < 0 ? null : { which: 'script', i };
}

function reveal(file, line, column) {
  const t = fileTarget(file);
  if (!t) return;
  if (state[t.which] !== t.i) selectFile(t.which, t.i);
  (t.which === 'script' ? scriptEditor : treeEditor).reveal(line, column);
}

function link(file, line, column) {
  const a = document.createElement('a');
  a.href = '#';
  a.textContent = `${file}:${line}:${column}`;
  a.addEventListener('click', (e) => { e.preventDefault(); reveal(file, line, column); });
  return a;
}

function paintMarks() {
  const json = pg.last && pg.last.json;
  const marks = { script: new Map(), tree: new Map() };
  for (const d of json ? json.diagnostics : []) {
    const t = fileTarget(d.file);
    if (!t || t.i !== state[t.which] || !d.line) continue;
    if (marks[t.which].get(d.line) !== 'error') marks[t.which].set(d.line, d.severity);
  }
  scriptEditor.mark(marks.script);
  treeEditor.mark(marks.tree);
}

function cell(cls, content) {
  const td = elem('td', cls);
  if (typeof content === 'string') td.textContent = content; else if (content) td.append(content);
  return td;
}

// What each part of the page last showed, by a key of what it was made
// from: a part whose input is unchanged (most keystrokes change one value,
// or none) is left as it is, so that a large tree re-renders in
// milliseconds (make check-web times it).
const shownKeys = { refs: null, trees: new Map(), diags: null };

// What the run-time checks know of a node (as the editor's hover): leaf or
// group, looping, and whether it has time (a group has its sync group's,
// from a loopsync/nonloopsync bit on itself or an ancestor).
const SYNC = 0x01 | 0x02;
// Each tree's nodes by index, made once per tree of a run (a row per
// reference asks, so no reference may cost the whole tree).
const nodesByIndex = new WeakMap();
function animFacts(tree, index) {
  let byIndex = nodesByIndex.get(tree);
  if (!byIndex) {
    byIndex = new Map(tree.nodes.filter((n) => n.index !== null).map((n) => [n.index, n]));
    nodesByIndex.set(tree, byIndex);
  }
  const n = byIndex.get(index);
  if (!n) return '';
  if (!n.child_count) return n.looping === undefined ? 'leaf' : `leaf, ${n.looping ? 'looping' : 'not looping'}`;
  for (let p = n; p; p = p.parent === null ? null : byIndex.get(p.parent)) {
    if (p.flags & SYNC) return `group, has time (${p === n ? 'its own' : `'${p.name}'`} ${p.flags & 1 ? 'loopsync' : 'nonloopsync'})`;
  }
  return 'group, no time: neither it nor an ancestor is loopsync/nonloopsync, so a flagged call or getanimtime on it fails while the level runs';
}

function showReferences(json) {
  const key = JSON.stringify([json ? json.references : null, json ? json.trees.map((t) => [t.name, t.index]) : null,
    state.explain]);
  if (key === shownKeys.refs) return;
  shownKeys.refs = key;
  const body = $('#refs tbody');
  const trees = new Map((json ? json.trees : []).map((t) => [t.name, t]));
  const rows = (json ? json.references : []).map((r) => {
    const tr = document.createElement('tr');
    const tree = trees.get(r.tree);
    const resolved = r.value !== null && r.value !== undefined;
    if (!resolved) tr.classList.add('unresolved');
    tr.dataset.tree = r.tree;
    tr.append(cell('where', r.file ? link(r.file, r.line, r.column) : '<engine>'));
    tr.append(cell('ref', r.kind === 'animtree' ? '#animtree' : '%' + r.name));
    tr.append(cell('tree', tree ? `${r.tree}[${tree.index}]` : r.tree));
    if (r.kind === 'animtree') {
      tr.append(cell('node', '—'));
      tr.append(cell('value', resolved ? String(r.value) : (r.developer ? 'not compiled' : 'unresolved')));
      tr.append(cell('dec', resolved ? 'tree index' : ''));
    } else {
      const node = resolved ? r.value & 0xffff : null;
      if (resolved) tr.dataset.index = node;
      const nodeCell = cell('node', resolved ? String(node) : '—');
      if (resolved && tree) nodeCell.title = nodeCell.dataset.facts = animFacts(tree, node);
      tr.append(nodeCell);
      tr.append(cell('value', resolved ? hex(r.value) : (r.developer ? 'not compiled' : 'unresolved')));
      tr.append(cell('dec', resolved ? String(r.value) : ''));
    }
    if (resolved && r.kind !== 'animtree') {
      tr.classList.add('explainable');
      tr.title = 'Click to explain this value (--explain)';
      if (r.value === state.explain) tr.classList.add('chosen');
      tr.addEventListener('click', (e) => {
        if (e.target.closest('a')) return;
        state.explain = state.explain === r.value ? null : r.value;
        schedule();
      });
    }
    tr.addEventListener('mouseenter', () => light(r.tree, tr.dataset.index, true));
    tr.addEventListener('mouseleave', () => light(r.tree, tr.dataset.index, false));
    return tr;
  });
  body.replaceChildren(...rows);
  $('#refs-empty').hidden = rows.length > 0;
}

function light(tree, index, on) {
  if (index === undefined) return;
  for (const g of document.querySelectorAll(`#picture svg[data-tree="${CSS.escape(tree)}"] .node[data-index="${index}"]`)) {
    g.classList.toggle('lit', on);
  }
}

function showPicture(json) {
  const box = $('#picture');
  const parts = [];
  const refs = new Map();
  for (const r of json ? json.references : []) {
    if (r.kind !== 'anim' && r.kind !== 'engine') continue;
    if (r.value === null || r.value === undefined) continue;
    const k = `${r.tree}/${r.value & 0xffff}`;
    refs.set(k, (refs.get(k) || 0) + 1);
  }
  const kept = new Map();
  for (const t of json ? json.trees : []) {
    const counts = t.nodes.map((n) => (n.pruned ? 0 : refs.get(`${t.name}/${n.index}`) || 0));
    const key = JSON.stringify([t, counts]);
    const old = shownKeys.trees.get(key);
    if (old) {
      parts.push(...old);
      kept.set(key, old);
      continue;
    }
    const first = parts.length;
    const h = document.createElement('h3');
    h.textContent = `tree ${t.index} ${t.name}`;
    const small = document.createElement('small');
    const count = t.nodes.filter((n) => !n.pruned).length;
    small.textContent = t.file
      ? `${t.file} · ${count} node${count === 1 ? '' : 's'}` + (t.checksum !== null ? ` · checksum ${hex(t.checksum)}` : '')
      : 'no file';
    h.append(small);
    parts.push(h);
    if (!t.nodes.length) {
      parts.push(elem('p', 'nottree', t.file ? 'not built: see the diagnostics' : `no animtrees/${t.name}.atr: add a tree of that name`));
      continue;
    }
    parts.push(drawTree(t, refs, (tree, n) => {
      if (n.pruned && n.line) reveal(tree.file, n.line, n.column);
      for (const tr of document.querySelectorAll('#refs tbody tr')) {
        tr.classList.toggle('lit', !n.pruned && tr.dataset.tree === tree.name && tr.dataset.index === String(n.index));
      }
    }));
    kept.set(key, parts.slice(first));
  }
  if (!parts.length) {
    parts.push(elem('p', 'empty', 'No tree registered: a script needs #using_animtree("name"); and a reference.'));
  }
  shownKeys.trees = kept;
  // the same elements in the same order: nothing to move
  const now = [...box.children];
  if (now.length !== parts.length || now.some((e, i) => e !== parts[i])) box.replaceChildren(...parts);
}

function showExplain(value, text) {
  const box = $('#explain');
  box.hidden = value === null;
  if (value === null) return;
  $('#explain-title').textContent = `atrc --explain ${value}`;
  $('#explain pre').textContent = text;
}

function showDiagnostics(run) {
  const key = JSON.stringify(run.json ? run.json.diagnostics : run.stderr);
  if (key === shownKeys.diags) return;
  shownKeys.diags = key;
  const list = $('#diagnostics');
  const items = [];
  const diags = run.json ? run.json.diagnostics : null;
  if (diags) {
    for (const d of diags) {
      const li = document.createElement('li');
      li.className = d.severity;
      if (d.file && d.line) {
        li.append(link(d.file, d.line, d.column), ': ');
      } else {
        li.append('atrc: ');
      }
      li.append(elem('span', 'sev', d.severity), ': ' + d.message);
      items.push(li);
    }
  } else {
    // No JSON (a usage error): what atrc printed.
    for (const line of run.stderr.split('\n').filter((l) => l)) {
      items.push(elem('li', /error/.test(line) ? 'error' : 'warning', line));
    }
  }
  if (!items.length) items.push(elem('li', 'none', 'No errors, no warnings.'));
  list.replaceChildren(...items);
  const e = diags ? diags.filter((d) => d.severity === 'error').length : 0;
  const w = diags ? diags.filter((d) => d.severity === 'warning').length : 0;
  $('#diag-summary').textContent = diags ? `${e} error${e === 1 ? '' : 's'}, ${w} warning${w === 1 ? '' : 's'}` : '';
}

function show(run) {
  showReferences(run.json);
  showPicture(run.json);
  showDiagnostics(run);
  paintTabs();
  paintMarks();
  showStatus(run);
}

function showStatus(run) {
  const st = $('#status');
  const nrefs = run.json ? run.json.references.length : 0;
  st.textContent = `exit ${run.status} · ${run.ms.toFixed(1)} ms · ${nrefs} reference${nrefs === 1 ? '' : 's'}`;
  st.classList.toggle('bad', run.status !== 0);
  document.body.dataset.runs = String(pg.runs);
  $('#command').textContent = 'atrc ' + run.args.join(' ');
}

// ---- examples, profile, options ----

let examples = [];
let loading = false;

async function loadExample(id) {
  loading = true;
  try {
    await fillExample(id);
  } finally {
    loading = false;
  }
}

async function fillExample(id) {
  const ex = examples.find((e) => e.id === id) || examples[0];
  const fetchText = async (p) => {
    const r = await fetch(p);
    if (!r.ok) throw new Error(`cannot load ${p}: HTTP ${r.status}`);
    return r.text();
  };
  const base = (p) => p.slice(p.lastIndexOf('/') + 1);
  state.scripts = await Promise.all(ex.scripts.map(async (p) => ({ name: base(p), text: await fetchText(p) })));
  state.trees = await Promise.all(ex.trees.map(async (p) => ({ name: base(p), text: await fetchText(p) })));
  state.script = 0;
  state.tree = 0;
  state.profile = ex.profile || 'uo';
  $('#profile').value = state.profile;
  $('#example').value = ex.id;
  $('#intro').textContent = ex.intro || '';
  scriptEditor.text = state.scripts[0].text;
  treeEditor.text = state.trees[0].text;
  paintTabs();
  schedule();
}

function buildLegend() {
  const items = [
    [['group'], 'group'], [['leaf'], 'leaf'], [['leaf', 'referenced'], 'referenced by a script'],
    [['group', 'loopsync'], 'loopsync'], [['group', 'nonloopsync'], 'nonloopsync'],
    [['group', 'complete'], 'complete'], [['group', 'additive'], 'additive (cod4)'],
    [['leaf', 'placeholder'], 'placeholder (void)'], [['leaf', 'pruned'], 'pruned: no index'],
  ];
  $('#legend').replaceChildren(...items.map(([cls, label]) => {
    const s = document.createElement('span');
    s.append(legendSwatch(cls), label);
    return s;
  }));
}

$('#profile').addEventListener('change', (e) => { state.profile = e.target.value; schedule(); });
$('#anim-check').addEventListener('change', (e) => { state.animCheck = e.target.checked; schedule(); });
$('#example').addEventListener('change', (e) => { loadExample(e.target.value); });

async function start() {
  buildLegend();
  try {
    examples = await (await fetch('examples.json')).json();
    $('#example').replaceChildren(...examples.map((e) => {
      const o = document.createElement('option');
      o.value = e.id;
      o.textContent = e.title;
      return o;
    }));
    compiler = await Compiler.load();
    const wanted = new URLSearchParams(location.search).get('example');
    await loadExample(wanted || examples[0].id);
    pg.ready = true;
  } catch (e) {
    pg.error = String(e);
    $('#status').textContent = location.protocol === 'file:'
      ? 'cannot start from a file: serve this folder over http (python3 -m http.server) and open it there'
      : 'cannot start: ' + e;
    $('#status').classList.add('bad');
  }
}

start();
