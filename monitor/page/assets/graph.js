// The tree as a graph: a box per node, top-down, with its subtrees collapsible.

import { STATUS } from './history.js';

const GAP_X = 18, GAP_Y = 42, PAD = 16;

export class Graph {
  constructor(nodesEl, edgesEl, info) {
    this.box = nodesEl;
    this.svg = edgesEl;
    this.nodes = info.nodes.map((n) => ({ ...n, kids: [], el: null, collapsed: false }));
    const byUID = new Map(this.nodes.map((n) => [n.uid, n]));
    for (const n of this.nodes) if (n.parent) byUID.get(n.parent)?.kids.push(n);
    this.root = this.nodes.find((n) => !n.parent);
    this.box.replaceChildren(...this.nodes.map((n) => this.element(n)));
    this.layout();
  }

  element(n) {
    const el = document.createElement('div');
    el.className = 'node';
    Object.assign(el.dataset, { uid: n.uid, kind: n.kind, path: n.path, status: 'IDLE' });
    el.title = n.path;
    const head = document.createElement('div');
    head.className = 'head';
    const name = document.createElement('span');
    name.className = 'name';
    name.textContent = n.name;
    head.append(name);
    if (n.kids.length) {
      const fold = document.createElement('button');
      fold.className = 'fold';
      fold.title = 'collapse';
      fold.textContent = '▾';
      fold.onclick = () => this.toggle(n);
      head.append(fold);
    }
    const id = document.createElement('div');
    id.className = 'id';
    id.textContent = `${n.name === n.id ? n.kind : n.id} · #${n.uid}`;
    el.append(head, id);
    if (n.ports && n.ports.length) {
      const dl = document.createElement('dl');
      for (const [k, v] of n.ports) {
        const dt = document.createElement('dt');
        const dd = document.createElement('dd');
        dt.textContent = k;
        dd.textContent = v;
        dd.title = v;
        dl.append(dt, dd);
      }
      el.append(dl);
    }
    const trail = document.createElement('div');
    trail.className = 'trail';
    el.append(trail);
    n.el = el;
    n.trail = trail;
    return el;
  }

  toggle(n) {
    n.collapsed = !n.collapsed;
    n.el.classList.toggle('collapsed', n.collapsed);
    n.el.querySelector('.fold').textContent = n.collapsed ? '▸' : '▾';
    n.el.dataset.hidden = count(n) - 1;
    this.layout();
  }

  // update shows the statuses of state s.
  update(s) {
    for (const n of this.nodes) {
      const st = STATUS[s.statuses[n.uid - 1]];
      const last = s.last[n.uid - 1];
      n.el.dataset.status = st;
      if (last) n.el.dataset.last = STATUS[last];
      else delete n.el.dataset.last;
      const trail = s.trails.get(n.uid);
      n.el.classList.toggle('changed', !!trail);
      n.trail.textContent = trail ? trail.map((x) => STATUS[x]).join(' → ') : '';
    }
    this.layout(); // a trail changes a box's height
  }

  // layout places the visible nodes: each subtree as wide as its widest row, parents
  // centred over their children, rows as tall as their tallest box.
  layout() {
    const root = this.root;
    if (!root) return;
    for (const n of this.nodes) n.el.hidden = true;
    const rows = [];
    const measure = (n, depth) => {
      n.el.hidden = false;
      n.w = n.el.offsetWidth;
      n.h = n.el.offsetHeight;
      rows[depth] = Math.max(rows[depth] || 0, n.h);
      const kids = n.collapsed ? [] : n.kids;
      let kw = -GAP_X;
      for (const k of kids) kw += measure(k, depth + 1) + GAP_X;
      n.span = Math.max(n.w, kw);
      n.kidsWidth = kw;
      return n.span;
    };
    measure(root, 0);
    const top = [PAD];
    for (let d = 1; d <= rows.length; d++) top[d] = top[d - 1] + rows[d - 1] + GAP_Y;
    const edges = [];
    const place = (n, left, depth) => {
      n.x = left + (n.span - n.w) / 2;
      n.y = top[depth];
      n.el.style.left = `${n.x}px`;
      n.el.style.top = `${n.y}px`;
      if (n.collapsed) return;
      let x = left + (n.span - n.kidsWidth) / 2;
      for (const k of n.kids) {
        place(k, x, depth + 1);
        x += k.span + GAP_X;
        edges.push(curve(n.x + n.w / 2, n.y + n.h, k.x + k.w / 2, k.y));
      }
    };
    place(root, PAD, 0);
    const w = root.span + 2 * PAD, h = top[rows.length] + PAD;
    this.box.style.width = `${w}px`;
    this.box.style.height = `${h}px`;
    this.svg.setAttribute('width', w);
    this.svg.setAttribute('height', h);
    this.svg.innerHTML = edges.map((d) => `<path d="${d}"/>`).join('');
  }
}

function curve(x1, y1, x2, y2) {
  const m = (y1 + y2) / 2;
  return `M${x1},${y1} C${x1},${m} ${x2},${m} ${x2},${y2}`;
}

function count(n) {
  return 1 + n.kids.reduce((sum, k) => sum + count(k), 0);
}
