// The detail panel of a node: its model (kind, ports with their values, remapped
// entries and defaults), its counters and its last transitions, over the frames the
// page holds up to the one shown.

import { STATUS } from './history.js';

const LAST = 10; // transitions listed

export function renderDetail(el, n, info, hist, view, s) {
  const parts = [];
  const meta = dl([
    ['ID', n.id], ['kind', n.kind], ['UID', `#${n.uid}`], ['path', n.path],
    ['status', STATUS[s.statuses[n.uid - 1]]],
  ]);
  meta.className = 'meta';
  parts.push(meta);
  if (n.desc) parts.push(para(n.desc, 'desc'));
  parts.push(heading('Ports'), ports(n, info, s));
  const c = counters(n.uid, hist, view);
  parts.push(heading(`Counters ${hist.length ? `(${Math.max(view + 1, 0)} frames, from ${info.live ? 'tick' : 'step'} ${hist.frames[0]?.tick ?? '–'})` : ''}`));
  const stats = dl([
    ['ticked', `${c.ticks}`], ['transitions', `${c.transitions}`], ['successes', `${c.successes}`],
    ['failures', `${c.failures}`], ['time running', duration(c.running)],
  ]);
  stats.className = 'counters';
  stats.title = 'ticked: the frames in which the node changed or was running; transitions: its changes to a status other than IDLE (as btlog.Stats counts them)';
  parts.push(stats);
  parts.push(heading('Last transitions'));
  if (!c.log.length) parts.push(para(c.keyframes ? 'none in the frames held (a keyframe gives statuses, not transitions)' : 'none in the frames held', 'empty'));
  else {
    const ol = document.createElement('ol');
    ol.className = 'transitions';
    for (const t of c.log.slice(-LAST).reverse()) {
      const li = document.createElement('li');
      const when = document.createElement('span');
      when.className = 'when';
      when.textContent = `${info.live ? 'tick' : 'step'} ${t.tick} · ${clock(t.time)}`;
      const what = document.createElement('span');
      what.innerHTML = `<i data-status="${STATUS[t.prev]}"></i>${STATUS[t.prev]} → <i data-status="${STATUS[t.now]}"></i>${STATUS[t.now]}`;
      li.append(when, what);
      ol.append(li);
    }
    parts.push(ol);
  }
  el.replaceChildren(...parts);
}

// ports lists the ports the model declares, with the value the node sets (or the
// default it falls back on) and, for a port remapped to an entry, the entry's value;
// then the other attributes (scripted conditions).
function ports(n, info, s) {
  const set = new Map(n.ports || []);
  const rows = [];
  for (const p of n.model || []) {
    const v = set.get(p.name);
    set.delete(p.name);
    let value = v ?? '';
    let note = '';
    if (v === undefined) note = p.hasDefault ? `default ${p.default}` : 'not set';
    else if (p.hasDefault && v === p.default) note = 'default';
    rows.push({ name: p.name, dir: p.dir, type: p.type, value, note, entry: entry(v, n, info, s), desc: p.desc });
  }
  for (const [name, v] of set) rows.push({ name, dir: '', type: '', value: v, note: '', entry: entry(v, n, info, s) });
  if (!rows.length) return para('none', 'empty');
  const table = document.createElement('table');
  table.className = 'ports';
  for (const r of rows) {
    const tr = table.insertRow();
    const k = tr.insertCell();
    k.className = 'key';
    k.textContent = `${arrow(r.dir)} ${r.name}`;
    k.title = [r.dir, r.type, r.desc].filter(Boolean).join(' · ');
    const v = tr.insertCell();
    v.className = 'value';
    v.textContent = r.value;
    if (r.note) v.append(span(` (${r.note})`, 'note'));
    if (r.entry !== null) v.append(span(` = ${r.entry}`, 'entry'));
  }
  return table;
}

// entry is the value of the blackboard entry a port's value names ("{key}", "{@key}"
// for the root's), as the frame shown has it; null if it names none.
function entry(v, n, info, s) {
  const m = /^\{(@?)([^{}]+)\}$/.exec(v || '');
  if (!m) return null;
  if (!info.live) return null; // a .btlog file has no blackboard
  let scope = m[1] ? 0 : n.scope;
  for (;;) {
    const entries = s.bb[scope] || {};
    if (m[2] in entries) return JSON.stringify(entries[m[2]]);
    if (scope === 0) return '(no entry)';
    scope = 0; // a subtree's auto-remapped keys resolve in the root's scope
  }
}

// counters go through the frames up to view: the node's transitions, successes and
// failures, the frames in which it was ticked, and the time it spent running.
function counters(uid, hist, view) {
  const c = { ticks: 0, transitions: 0, successes: 0, failures: 0, running: 0, log: [], keyframes: false };
  let st = hist.base.known ? hist.base.statuses[uid - 1] : 0;
  let from = st === 1 ? hist.base.time : null;
  let last = hist.base.time;
  for (let k = 0; k <= view && k < hist.frames.length; k++) {
    const f = hist.frames[k];
    last = f.time;
    if (f.statuses) {
      c.keyframes = true;
      st = f.statuses[uid - 1];
      if (st === 1 && from === null) from = f.time;
      if (st !== 1 && from !== null) { c.running += f.time - from; from = null; }
      continue;
    }
    const was = st === 1;
    let changed = false;
    for (const [u, prev, now] of f.changes || []) {
      if (u !== uid) continue;
      changed = true;
      c.log.push({ tick: f.tick, time: f.time, prev, now });
      if (now !== 0) c.transitions++;
      if (now === 2) c.successes++;
      if (now === 3) c.failures++;
      if (now === 1 && from === null) from = f.time;
      if (now !== 1 && from !== null) { c.running += f.time - from; from = null; }
      st = now;
    }
    if (changed || was) c.ticks++;
  }
  if (from !== null) c.running += last - from;
  return c;
}

function arrow(dir) { return { input: '→', output: '←', inout: '↔' }[dir] || '·'; }

function duration(ms) {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60000) return `${(ms / 1000).toFixed(2)} s`;
  return `${Math.floor(ms / 60000)} min ${Math.round((ms % 60000) / 1000)} s`;
}

function clock(ms) {
  const d = new Date(ms);
  const p = (x, n = 2) => String(x).padStart(n, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
}

function dl(pairs) {
  const d = document.createElement('dl');
  for (const [k, v] of pairs) {
    const dt = document.createElement('dt');
    const dd = document.createElement('dd');
    dt.textContent = k;
    dd.textContent = v;
    dd.dataset.key = k;
    d.append(dt, dd);
  }
  return d;
}

function heading(text) {
  const h = document.createElement('h3');
  h.textContent = text;
  return h;
}

function para(text, cls) {
  const p = document.createElement('p');
  p.className = cls;
  p.textContent = text;
  return p;
}

function span(text, cls) {
  const e = document.createElement('span');
  e.className = cls;
  e.textContent = text;
  return e;
}
