// The tree as a graph: a box per node, laid out once per structure (a tidy tree, see
// layout), in a canvas the view zooms and pans (see View).

import { STATUS } from './history.js';

const GAP_X = 14; // between siblings
const GAP_Y = 34; // between a node and its children
const PAD = 24; // around the tree
const INDENT = 20; // of stacked leaves under their parent
const STACK_GAP = 7; // between stacked leaves
const MAX_PORTS = 3; // shown in a box; the rest in the tooltip and the detail panel
const PARALLEL = new Set(['Parallel', 'ParallelAll']);

// The scale below which a tree is collapsed, level by level, when it is first shown.
export const READABLE = 0.72;

export class Graph {
  // canvas holds the edges (an svg) and the nodes (a div); the boxes are measured
  // once, here, so that a tick never changes the layout.
  constructor(canvas, nodesEl, edgesEl, info, onSelect) {
    this.canvas = canvas;
    this.box = nodesEl;
    this.svg = edgesEl;
    this.onSelect = onSelect;
    this.nodes = info.nodes.map((n) => ({ ...n, kids: [], el: null, collapsed: false, up: null, depth: 0 }));
    this.byUID = new Map(this.nodes.map((n) => [n.uid, n]));
    for (const n of this.nodes) {
      const p = n.parent ? this.byUID.get(n.parent) : null;
      if (p) { p.kids.push(n); n.up = p; }
    }
    this.root = this.nodes.find((n) => !n.up);
    const walk = (n, d) => { n.depth = d; n.kids.forEach((k) => walk(k, d + 1)); };
    if (this.root) walk(this.root, 0);
    for (const n of this.nodes) n.parallel = !!n.up && PARALLEL.has(n.up.id);
    this.box.replaceChildren(...this.nodes.map((n) => this.element(n)));
    for (const n of this.nodes) { n.w = n.el.offsetWidth; n.h = n.el.offsetHeight; }
    this.layout();
  }

  element(n) {
    const el = document.createElement('div');
    el.className = 'node';
    Object.assign(el.dataset, { uid: n.uid, parent: n.parent || 0, kind: n.kind, path: n.path, status: 'IDLE' });
    el.title = tooltip(n);
    const head = document.createElement('div');
    head.className = 'head';
    const name = document.createElement('span');
    name.className = 'name';
    name.textContent = n.name || n.id;
    head.append(name);
    if (n.kids.length) {
      const fold = document.createElement('button');
      fold.className = 'fold';
      fold.title = 'collapse';
      fold.textContent = '▾';
      fold.onclick = (e) => { e.stopPropagation(); this.toggle(n); };
      head.append(fold);
    }
    const id = document.createElement('div');
    id.className = 'id';
    id.textContent = `${n.name === n.id ? n.kind : n.id} · #${n.uid}`;
    el.append(head, id);
    const ports = n.ports || [];
    if (ports.length) {
      const dl = document.createElement('dl');
      for (const [k, v] of ports.slice(0, MAX_PORTS)) {
        const dt = document.createElement('dt');
        const dd = document.createElement('dd');
        dt.textContent = k;
        dd.textContent = v;
        dl.append(dt, dd);
      }
      el.append(dl);
      if (ports.length > MAX_PORTS) {
        const more = document.createElement('div');
        more.className = 'more';
        more.textContent = `+${ports.length - MAX_PORTS} more`;
        el.append(more);
      }
    }
    const trail = document.createElement('div');
    trail.className = 'trail';
    el.append(trail);
    el.onclick = () => this.onSelect && this.onSelect(n);
    n.el = el;
    n.trail = trail;
    return el;
  }

  // toggle folds or unfolds n's subtree.
  toggle(n, collapsed = !n.collapsed) {
    if (!n.kids.length || n.collapsed === collapsed) return;
    const before = { x: n.x, y: n.y };
    this.fold(n, collapsed);
    this.layout();
    if (this.onMove) this.onMove(n.x - before.x, n.y - before.y);
  }

  fold(n, collapsed) {
    n.collapsed = collapsed;
    n.el.classList.toggle('collapsed', collapsed);
    const b = n.el.querySelector('.fold');
    b.textContent = collapsed ? '▸' : '▾';
    b.title = collapsed ? 'expand' : 'collapse';
    n.el.dataset.hidden = count(n) - 1;
  }

  // reveal unfolds the ancestors of n; true if any was folded.
  reveal(n) {
    let changed = false;
    for (let p = n.up; p; p = p.up) if (p.collapsed) { this.fold(p, false); changed = true; }
    if (changed) this.layout();
    return changed;
  }

  // shown is n, or its nearest ancestor drawn (n is in a folded subtree).
  shown(n) {
    let v = n;
    for (let p = n.up; p; p = p.up) if (p.collapsed) v = p;
    return v;
  }

  // collapseToFit folds the deepest level of open branches, then the next, until the
  // tree fits the w×h view at READABLE scale or more, keeping the root's children.
  collapseToFit(w, h) {
    for (;;) {
      if (Math.min(w / this.W, h / this.H) >= READABLE) return;
      let deepest = -1;
      for (const n of this.nodes) {
        if (n.kids.length && !n.collapsed && this.shown(n) === n) deepest = Math.max(deepest, n.depth);
      }
      if (deepest < 1) return;
      for (const n of this.nodes) {
        if (n.depth === deepest && n.kids.length && this.shown(n) === n) this.fold(n, true);
      }
      this.layout();
    }
  }

  // update shows the statuses of state s: colours, trails, edges; never the layout.
  update(s) {
    for (const n of this.nodes) {
      const st = STATUS[s.statuses[n.uid - 1]];
      const last = s.last[n.uid - 1];
      n.status = st;
      n.el.dataset.status = st;
      if (last) n.el.dataset.last = STATUS[last];
      else delete n.el.dataset.last;
      const trail = s.trails.get(n.uid);
      n.el.classList.toggle('changed', !!trail);
      n.trail.textContent = trail ? trail.map((x) => STATUS[x]).join(' → ') : '';
      if (n.edge) n.edge.dataset.status = st;
    }
    for (const n of this.nodes) {
      if (!n.collapsed) { delete n.el.dataset.inner; continue; }
      const inner = anyBelow(n, (k) => k.status === 'RUNNING');
      if (inner) n.el.dataset.inner = 'RUNNING';
      else delete n.el.dataset.inner;
    }
  }

  // running lists what runs now: the running leaves, and every running child of a
  // Parallel (a branch that runs beside others).
  running() {
    return this.nodes.filter((n) => n.status === 'RUNNING' && (!n.kids.length || n.parallel));
  }

  // layout places the nodes drawn (a tidy tree: each subtree as close to its left
  // sibling as their boxes allow at every height, a parent centred over its children;
  // a parent whose children are all leaves stacks them under itself) and draws the edges.
  layout() {
    const root = this.root;
    if (!root) { this.W = this.H = 0; return; }
    for (const n of this.nodes) n.drawn = false;
    place(root);
    root.x = 0;
    root.y = 0;
    let minX = Infinity, maxX = -Infinity, maxY = 0;
    const abs = (n) => {
      n.drawn = true;
      minX = Math.min(minX, n.x);
      maxX = Math.max(maxX, n.x + n.w);
      maxY = Math.max(maxY, n.y + n.h);
      if (n.collapsed) return;
      for (const k of n.kids) { k.x = n.x + k.rx; k.y = n.y + k.ry; abs(k); }
    };
    abs(root);
    const paths = [];
    for (const n of this.nodes) {
      n.el.hidden = !n.drawn;
      n.edge = null;
      if (!n.drawn) continue;
      n.x += PAD - minX;
      n.y += PAD;
      n.el.style.transform = `translate(${n.x}px,${n.y}px)`;
      n.el.classList.toggle('stacked', !!n.stacked);
    }
    for (const n of this.nodes) {
      if (!n.drawn || n.collapsed) continue;
      for (const k of n.kids) paths.push([k, n.stack ? elbow(n, k) : curve(n, k)]);
    }
    this.W = maxX - minX + 2 * PAD;
    this.H = maxY + 2 * PAD + 16; // room for the trail under the lowest boxes
    this.canvas.style.width = `${this.W}px`;
    this.canvas.style.height = `${this.H}px`;
    this.svg.setAttribute('width', this.W);
    this.svg.setAttribute('height', this.H);
    const ns = 'http://www.w3.org/2000/svg';
    this.svg.replaceChildren(...paths.map(([k, d]) => {
      const p = document.createElementNS(ns, 'path');
      p.setAttribute('d', d);
      p.dataset.status = k.status || 'IDLE';
      k.edge = p;
      return p;
    }));
  }
}

// place lays out n's subtree relative to n (its children's rx, ry) and returns the
// boxes the subtree covers, relative to n's top left corner.
function place(n) {
  const own = [0, 0, n.w, n.h];
  n.stack = false;
  for (const k of n.kids) k.stacked = false;
  if (n.collapsed || !n.kids.length) return [own];
  const kids = n.kids;
  if (kids.length > 1 && kids.every((k) => !k.kids.length)) {
    n.stack = true;
    let y = n.h + 2 * STACK_GAP;
    const boxes = [own];
    for (const k of kids) {
      k.stacked = true;
      k.rx = INDENT;
      k.ry = y;
      boxes.push([INDENT, y, INDENT + k.w, y + k.h]);
      y += k.h + STACK_GAP;
    }
    return boxes;
  }
  let acc = [];
  for (let i = 0; i < kids.length; i++) {
    const k = kids[i];
    const boxes = place(k);
    let shift = 0;
    if (i > 0) {
      shift = -Infinity;
      for (const b of boxes) {
        for (const a of acc) {
          if (a[1] < b[3] && b[1] < a[3]) shift = Math.max(shift, a[2] + GAP_X - b[0]);
        }
      }
      if (shift === -Infinity) shift = kids[i - 1].rx + kids[i - 1].w + GAP_X;
    }
    k.rx = shift;
    for (const b of boxes) acc.push([b[0] + shift, b[1], b[2] + shift, b[3]]);
    acc = merge(acc);
  }
  const first = kids[0], last = kids[kids.length - 1];
  const centre = (first.rx + first.w / 2 + last.rx + last.w / 2) / 2;
  const dx = n.w / 2 - centre, dy = n.h + GAP_Y;
  for (const k of kids) { k.rx += dx; k.ry = dy; }
  return merge([own, ...acc.map((b) => [b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy])]);
}

// merge makes one box of the boxes that start at the same height (a row of cousins:
// nothing can come between them), so that a subtree is as many boxes as it has rows and
// laying out a tree of n nodes takes about n × rows², not n².
function merge(boxes) {
  const rows = new Map();
  for (const b of boxes) {
    const r = rows.get(b[1]);
    if (!r) rows.set(b[1], b.slice());
    else { r[0] = Math.min(r[0], b[0]); r[2] = Math.max(r[2], b[2]); r[3] = Math.max(r[3], b[3]); }
  }
  return [...rows.values()];
}

function curve(n, k) {
  const x1 = n.x + n.w / 2, y1 = n.y + n.h, x2 = k.x + k.w / 2, y2 = k.y;
  const m = (y1 + y2) / 2;
  return `M${x1},${y1} C${x1},${m} ${x2},${m} ${x2},${y2}`;
}

function elbow(n, k) {
  const x = n.x + INDENT / 2, y = k.y + Math.min(k.h / 2, 14);
  return `M${x},${n.y + n.h} V${y - 4} Q${x},${y} ${x + 4},${y} H${k.x}`;
}

function count(n) {
  return 1 + n.kids.reduce((sum, k) => sum + count(k), 0);
}

function anyBelow(n, f) {
  return n.kids.some((k) => f(k) || anyBelow(k, f));
}

// tooltip is what hovering a node shows: its full name, ID, kind, UID, path and ports.
function tooltip(n) {
  const lines = [n.name, `${n.id} (${n.kind}) #${n.uid}`, n.path];
  for (const [k, v] of n.ports || []) lines.push(`${k} = ${v}`);
  return lines.join('\n');
}

// View zooms and pans a canvas inside a viewport: the wheel and a pinch zoom, a drag
// pans; fit shows the whole canvas; centre and follow move it, smoothly.
export class View {
  constructor(viewport, canvas) {
    this.vp = viewport;
    this.canvas = canvas;
    this.s = 1;
    this.tx = 0;
    this.ty = 0;
    this.onUser = null; // called when the user moves the view
    this.pointers = new Map();
    viewport.addEventListener('wheel', (e) => this.wheel(e), { passive: false });
    viewport.addEventListener('pointerdown', (e) => this.down(e));
    viewport.addEventListener('pointermove', (e) => this.move(e));
    viewport.addEventListener('pointerup', (e) => this.up(e));
    viewport.addEventListener('pointercancel', (e) => this.up(e));
  }

  get width() { return this.vp.clientWidth; }
  get height() { return this.vp.clientHeight; }

  apply(smooth = false) {
    this.canvas.classList.toggle('smooth', smooth);
    clearTimeout(this.settle);
    if (smooth) { // data-moving tells that the view is still on its way (for tests)
      this.canvas.dataset.moving = '1';
      this.settle = setTimeout(() => delete this.canvas.dataset.moving, 400);
    } else delete this.canvas.dataset.moving;
    this.canvas.style.transform = `translate(${this.tx}px,${this.ty}px) scale(${this.s})`;
    this.vp.dataset.scale = this.s.toFixed(3);
  }

  // user tells the page that the user moved the view: 'pan' or 'zoom'.
  user(how = 'pan') { if (this.onUser) this.onUser(how); }

  // fit scales the canvas (w×h) to the viewport (at most 1:1) and centres it.
  fit(w, h, smooth = false) {
    const m = 12;
    this.s = clamp(Math.min((this.width - 2 * m) / w, (this.height - 2 * m) / h, 1));
    this.tx = (this.width - w * this.s) / 2;
    this.ty = Math.max(m, (this.height - h * this.s) / 2);
    this.apply(smooth);
  }

  zoomAt(factor, cx = this.width / 2, cy = this.height / 2, smooth = false) {
    const s = clamp(this.s * factor);
    this.tx = cx - (cx - this.tx) * (s / this.s);
    this.ty = cy - (cy - this.ty) * (s / this.s);
    this.s = s;
    this.apply(smooth);
  }

  pan(dx, dy, smooth = false) {
    this.tx += dx;
    this.ty += dy;
    this.apply(smooth);
  }

  // centre puts the canvas point (x, y) in the middle of the viewport, zooming in to
  // scale min if the view is smaller.
  centre(x, y, min = 0) {
    this.s = Math.max(this.s, min);
    this.tx = this.width / 2 - x * this.s;
    this.ty = this.height / 2 - y * this.s;
    this.apply(true);
  }

  // visible tells whether the canvas rectangle is inside the viewport, less a margin.
  visible(r, margin) {
    const x1 = r.x1 * this.s + this.tx, x2 = r.x2 * this.s + this.tx;
    const y1 = r.y1 * this.s + this.ty, y2 = r.y2 * this.s + this.ty;
    return x1 >= margin && y1 >= margin && x2 <= this.width - margin && y2 <= this.height - margin;
  }

  // show brings the canvas rectangle into view when it is not: centred, and zoomed
  // out to fit it if it is larger than the view. It moves nothing while the rectangle
  // stays in view, so that following a tree does not jump every tick.
  show(r) {
    const margin = Math.min(this.width, this.height) * 0.08;
    if (this.visible(r, margin)) return false;
    const w = r.x2 - r.x1, h = r.y2 - r.y1;
    this.s = clamp(Math.min(this.s, (this.width - 2 * margin) / w, (this.height - 2 * margin) / h));
    this.tx = this.width / 2 - (r.x1 + w / 2) * this.s;
    this.ty = this.height / 2 - (r.y1 + h / 2) * this.s;
    this.apply(true);
    return true;
  }

  wheel(e) {
    e.preventDefault();
    const r = this.vp.getBoundingClientRect();
    const cx = e.clientX - r.left, cy = e.clientY - r.top;
    const dy = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaY;
    if (e.ctrlKey) { this.zoomAt(Math.exp(-dy * 0.01), cx, cy); this.user('zoom'); } // a pinch on a trackpad
    else if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(dy)) { this.pan(-(e.deltaX || dy), e.shiftKey ? 0 : -dy); this.user(); }
    else { this.zoomAt(Math.exp(-dy * 0.0015), cx, cy); this.user('zoom'); }
  }

  down(e) {
    if (e.button !== 0 || e.target.closest('button, .toolbar')) return;
    this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    this.moved = false;
  }

  move(e) {
    const p = this.pointers.get(e.pointerId);
    if (!p) return;
    if (this.pointers.size === 2) { // a pinch: zoom by the change of the fingers' distance
      const [a, b] = [...this.pointers.values()];
      const before = Math.hypot(a.x - b.x, a.y - b.y);
      p.x = e.clientX;
      p.y = e.clientY;
      const after = Math.hypot(a.x - b.x, a.y - b.y);
      const r = this.vp.getBoundingClientRect();
      if (before > 0) this.zoomAt(after / before, (a.x + b.x) / 2 - r.left, (a.y + b.y) / 2 - r.top);
      this.user('zoom');
      return;
    }
    const dx = e.clientX - p.x, dy = e.clientY - p.y;
    if (!this.moved && Math.hypot(dx, dy) < 4) return; // a click, not a drag
    if (!this.moved) this.vp.setPointerCapture?.(e.pointerId); // not before: a click on a node stays its own
    this.moved = true;
    this.vp.classList.add('dragging');
    p.x = e.clientX;
    p.y = e.clientY;
    this.pan(dx, dy);
    this.user();
  }

  up(e) {
    this.pointers.delete(e.pointerId);
    this.vp.classList.remove('dragging');
  }
}

function clamp(s) { return Math.min(Math.max(s, 0.08), 3); }
