// Draws the trees of one atrc JSON document (--format json --show-pruned) as
// SVG outlines: one row per node, depth to the right, so a wide tree grows
// downwards and stays readable at 100%.  Children in the engine's order (the
// compact nodes' indices ascend), then the siblings pruning removed.

const SVG = 'http://www.w3.org/2000/svg';
const ROW = 30, BOX = 22, INDENT = 24, PAD = 12, CHAR = 7.6;
const FLAG = { loopsync: 1, nonloopsync: 2, complete: 8, additive: 16 };

export const hex = (v) => '0x' + (v >>> 0).toString(16).padStart(8, '0');

function el(name, attrs = {}, text) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// A node's kind, as the class names of its picture.
export function nodeClasses(n) {
  const c = ['node'];
  const group = n.pruned ? n.group : n.child_count > 0;
  c.push(group ? 'group' : 'leaf');
  if (n.pruned) c.push('pruned');
  if (!n.pruned && !group && (n.name === 'void' || n.name === 'void_loop')) c.push('placeholder');
  const f = n.flags || 0;
  for (const [k, bit] of Object.entries(FLAG)) if (f & bit) c.push(k);
  return c;
}

function describe(n, treeIndex) {
  if (n.pruned) {
    return `${n.name}: pruned ${n.group ? 'group' : 'leaf'} (no index), declared at line ${n.line}, column ${n.column}`;
  }
  const v = hex((treeIndex << 16) | n.index);
  const parts = [`${n.name}: node ${n.index} = ${v}`];
  if (n.child_count > 0) {
    parts.push(`group of ${n.child_count}, children ${n.first_child}..${n.first_child + n.child_count - 1}`);
    const f = Object.entries(FLAG).filter(([, bit]) => (n.flags || 0) & bit).map(([k]) => k);
    if (f.length) parts.push(f.join(' '));
  } else {
    parts.push('leaf');
    if (n.name === 'void' || n.name === 'void_loop') parts.push('placeholder added by pruning');
  }
  return parts.join(', ');
}

// Rows in drawing order: [{i, depth}] over tree.nodes positions.
export function layoutRows(nodes) {
  const kids = nodes.map(() => []);
  let root = -1;
  nodes.forEach((n, i) => {
    const p = n.parent !== null && n.parent !== undefined ? n.parent
      : (n.pruned_parent !== undefined ? n.pruned_parent : null);
    if (p === null) { if (root < 0) root = i; return; }
    if (p >= 0 && p < nodes.length) kids[p].push(i);
  });
  // Compact children come before the pruned ones in the document; among the
  // compact ones, ascending index is the engine's order.
  for (const k of kids) k.sort((a, b) => {
    const na = nodes[a], nb = nodes[b];
    if (!na.pruned && !nb.pruned) return na.index - nb.index;
    if (na.pruned !== nb.pruned) return na.pruned ? 1 : -1;
    return a - b;
  });
  const rows = [];
  if (root < 0) return rows;
  const stack = [[root, 0]];
  while (stack.length) {
    const [i, depth] = stack.pop();
    rows.push({ i, depth });
    const k = kids[i];
    for (let j = k.length - 1; j >= 0; j--) stack.push([k[j], depth + 1]);
  }
  return rows;
}

// refs: Map from "tree/index" to the number of references resolving there.
export function drawTree(tree, refs, onPick) {
  const rows = layoutRows(tree.nodes);
  const pos = new Map();
  let width = 0;
  rows.forEach((r, row) => {
    const n = tree.nodes[r.i];
    const x = PAD + r.depth * INDENT, y = PAD + row * ROW;
    const w = Math.max(34, Math.ceil(n.name.length * CHAR) + 18);
    pos.set(r.i, { x, y, w });
    const meta = n.pruned ? 'pruned' : `#${n.index}  ${hex((tree.index << 16) | n.index)}`;
    width = Math.max(width, x + w + 14 + meta.length * CHAR + 30);
  });
  const height = PAD * 2 + rows.length * ROW - (ROW - BOX);
  const svg = el('svg', { width: Math.ceil(width), height, viewBox: `0 0 ${Math.ceil(width)} ${height}`,
    role: 'img', 'aria-label': `tree ${tree.name}` });
  svg.classList.add('tree');
  svg.dataset.tree = tree.name;

  const edges = el('g');
  const boxes = el('g');
  svg.append(edges, boxes);
  for (const r of rows) {
    const n = tree.nodes[r.i];
    const p = pos.get(r.i);
    const parent = n.parent !== null && n.parent !== undefined ? n.parent : n.pruned_parent;
    if (parent !== undefined && parent !== null && pos.has(parent)) {
      const q = pos.get(parent);
      const x0 = q.x + 10, y0 = q.y + BOX, y1 = p.y + BOX / 2;
      const e = el('path', { d: `M${x0},${y0} V${y1} H${p.x}` });
      e.classList.add('edge');
      if (n.pruned) e.classList.add('pruned');
      edges.append(e);
    }
    const g = el('g', { transform: `translate(${p.x},${p.y})` });
    for (const c of nodeClasses(n)) g.classList.add(c);
    g.dataset.name = n.name;
    if (!n.pruned) g.dataset.index = n.index;
    g.append(el('title', {}, describe(n, tree.index)));
    g.append(el('rect', { width: p.w, height: BOX, rx: 5 }));
    if ((n.flags || 0) & FLAG.additive) {
      const inner = el('rect', { x: 3, y: 3, width: p.w - 6, height: BOX - 6, rx: 3 });
      inner.classList.add('inner');
      g.append(inner);
    }
    g.append(el('text', { x: 9, y: BOX / 2 }, n.name));
    const meta = el('text', { x: p.w + 10, y: BOX / 2 });
    meta.classList.add('meta');
    if (n.pruned) {
      meta.textContent = 'pruned';
    } else {
      const idx = el('tspan', {}, `#${n.index}  `);
      const v = el('tspan', {}, hex((tree.index << 16) | n.index));
      v.classList.add('v');
      meta.append(idx, v);
      const count = refs.get(`${tree.name}/${n.index}`) || 0;
      if (count) {
        const dot = el('circle', { cx: p.w, cy: 0, r: 4.5 });
        dot.classList.add('dot');
        dot.append(el('title', {}, `${count} reference${count === 1 ? '' : 's'} from the scripts`));
        g.append(dot);
        g.classList.add('referenced');
      }
    }
    g.append(meta);
    if (onPick) g.addEventListener('click', () => onPick(tree, n));
    boxes.append(g);
  }
  return svg;
}

// A swatch for the legend: a small box drawn like a node of that kind.
export function legendSwatch(classes) {
  const svg = el('svg', { width: 26, height: 16, viewBox: '0 0 26 16', 'aria-hidden': 'true' });
  const g = el('g', { transform: 'translate(1,1)' });
  for (const c of ['node', ...classes]) g.classList.add(c);
  g.append(el('rect', { width: 24, height: 14, rx: 4 }));
  if (classes.includes('additive')) {
    const inner = el('rect', { x: 3, y: 3, width: 18, height: 8, rx: 2 });
    inner.classList.add('inner');
    g.append(inner);
  }
  if (classes.includes('referenced')) {
    const dot = el('circle', { cx: 24, cy: 0, r: 4 });
    dot.classList.add('dot');
    g.append(dot);
  }
  svg.append(g);
  return svg;
}
