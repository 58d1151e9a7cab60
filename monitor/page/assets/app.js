// The page: picks a tree, follows its stream of events, and shows the frame the
// timeline points at — the last one while following the tree live — in a view that
// zooms, pans, follows the running nodes and finds nodes.

import { History } from './history.js';
import { Graph, View } from './graph.js';
import { renderBlackboard } from './blackboard.js';
import { renderDetail } from './detail.js';
import { Picker } from './picker.js';

const $ = (id) => document.getElementById(id);

let stream = null; // the EventSource
let info = null; // the tree's description
let graph = null;
let hist = null;
let state = null; // the state shown
let view = -1; // the frame shown; -1: the state before the first frame
let follow = true; // show each new frame as it comes (live), or stay (paused)
let synced = false; // the feed follows the tree's changes
let player = null; // the timer of a replay that plays
let selected = null; // the node whose details are shown
let fitted = true; // the view shows the whole tree, as fit left it
const found = { query: '', matches: [], at: -1 };

const camera = new View($('graph'), $('canvas'));
camera.onUser = (how) => { fitted = false; if (how === 'pan') setTracking(false); }; // zooming keeps following
const picker = new Picker((name) => { location.hash = encodeURIComponent(name); });

async function start() {
  const trees = await (await fetch('api/trees')).json();
  picker.set(trees);
  window.onhashchange = () => open(current(trees));
  if (!trees.length) return say('no trees');
  open(current(trees));
}

function current(trees) {
  const name = decodeURIComponent(location.hash.slice(1));
  return trees.some((t) => t.name === name) ? name : trees[0].name;
}

function open(name) {
  picker.show(name);
  if (stream) stream.close();
  info = null;
  stream = new EventSource(`api/trees/${encodeURIComponent(name)}/events`);
  stream.addEventListener('snapshot', (e) => load(JSON.parse(e.data)));
  stream.addEventListener('tick', (e) => tick(JSON.parse(e.data)));
  stream.addEventListener('stale', () => { synced = false; show(); });
  stream.addEventListener('gone', () => { stream.close(); say('the tree was removed'); });
  stream.onerror = () => {
    if (stream.readyState !== EventSource.CLOSED) say('disconnected: reconnecting…');
    else say('the monitor refused the stream (the tree is gone, or too many viewers): reload to try again');
  };
}

function load(snap) {
  const fresh = !info || JSON.stringify(info) !== JSON.stringify(snap.info);
  if (fresh) {
    info = snap.info;
    selected = null;
    graph = new Graph($('canvas'), $('nodes'), $('edges'), info, clicked);
    graph.onMove = (dx, dy) => camera.pan(-dx * camera.s, -dy * camera.s); // a fold keeps its node in place
    graph.collapseToFit(camera.width, camera.height);
    fitView();
    follow = info.live;
    setTracking(info.live);
    view = info.live ? snap.frames.length - 1 : Math.min(0, snap.frames.length - 1);
    search(found.query);
  }
  hist = new History(snap);
  synced = snap.synced;
  if (follow || view >= hist.length) view = hist.length - 1;
  show();
}

function tick(frame) {
  const dropped = hist.dropped;
  hist.push(frame);
  synced = true;
  view = follow ? hist.length - 1 : Math.max(view - (hist.dropped - dropped), -1);
  show();
}

function show() {
  if (!hist) return;
  const s = hist.at(view);
  state = s;
  graph.update(s);
  renderBlackboard($('blackboard'), info, s);
  renderRunning(s);
  if (selected) renderDetail($('detail-body'), selected, info, hist, view, s);
  if (tracking) track();
  $('unit').textContent = info.live ? 'tick' : 'step'; // a .btlog file records changes, not ticks
  $('tick').textContent = s.known ? s.tick : '–';
  const scrub = $('scrub');
  scrub.max = Math.max(hist.length - 1, 0);
  scrub.value = Math.max(view, 0);
  scrub.disabled = hist.length < 2;
  $('back').disabled = view <= 0;
  $('fwd').disabled = view >= hist.length - 1;
  $('live').hidden = !info.live;
  $('live').disabled = follow;
  const playing = info.live ? follow : player !== null;
  $('play').textContent = playing ? '❚❚' : '▶▶';
  $('play').title = playing ? 'pause (space)' : 'play (space)';
  $('pos').textContent = hist.length ? `frame ${view + 1} of ${hist.length}` : 'no frames yet';
  if (!info.live) say(player ? 'replay: playing' : 'replay', 'paused');
  else if (!follow) say('paused', 'paused');
  else if (!synced) say('waiting for the tree to tick');
  else say('live', 'live');
}

function say(text, cls = '') {
  const el = $('state');
  el.textContent = text;
  el.className = `state ${cls}`;
}

// The view.

function fitView(smooth = false) {
  if (!graph) return;
  camera.fit(graph.W, graph.H, smooth);
  fitted = true;
}

// tracking: the view follows the running nodes (the follow box).
let tracking = false;

function setTracking(on) {
  tracking = on;
  $('follow').checked = on;
  if (on && state) track();
}

// track brings the running nodes into view when they leave it: the box around them
// (or around the folded nodes that hold them), centred, zoomed out if it must be.
function track() {
  const run = graph.running().map((n) => graph.shown(n));
  if (!run.length) return;
  const r = { x1: Infinity, y1: Infinity, x2: -Infinity, y2: -Infinity };
  for (const n of run) {
    r.x1 = Math.min(r.x1, n.x);
    r.y1 = Math.min(r.y1, n.y);
    r.x2 = Math.max(r.x2, n.x + n.w);
    r.y2 = Math.max(r.y2, n.y + n.h);
  }
  if (camera.show(r)) fitted = false;
}

// focus unfolds what hides n, centres it (readable) and makes it flash.
function focus(n) {
  graph.reveal(n);
  if (state) graph.update(state);
  fitted = false;
  setTracking(false);
  camera.centre(n.x + n.w / 2, n.y + n.h / 2, 0.8);
  n.el.classList.remove('flash');
  void n.el.offsetWidth; // restart the animation
  n.el.classList.add('flash');
}

// The running list.

function renderRunning(s) {
  const list = graph.running();
  $('running-count').textContent = list.length ? `(${list.length})` : '';
  const items = list.map((n) => {
    const li = document.createElement('li');
    const a = document.createElement('button');
    a.className = 'link';
    a.dataset.uid = n.uid;
    a.dataset.status = n.status;
    a.title = `${n.path}\nshow it in the tree`;
    const name = document.createElement('span');
    name.className = 'rname';
    name.textContent = n.name || n.id;
    const where = document.createElement('span');
    where.className = 'rpath';
    where.textContent = n.parallel ? `${n.id} · branch of ${n.up.name}` : `${n.id} · ${n.up ? n.up.name : 'root'}`;
    a.append(name, where);
    a.onclick = () => { focus(n); select(n); };
    li.append(a);
    return li;
  });
  if (!items.length) {
    const p = document.createElement('li');
    p.className = 'empty';
    p.textContent = s.known ? 'nothing runs' : '–';
    items.push(p);
  }
  $('running').replaceChildren(...items);
}

// The detail panel.

// clicked: a click on a node, unless it ended a drag.
function clicked(n) {
  if (!camera.moved) select(n);
}

function select(n) {
  if (selected) selected.el.classList.remove('selected');
  selected = n;
  $('detail').hidden = !n;
  if (!n) return;
  n.el.classList.add('selected');
  $('detail-name').textContent = n.name || n.id;
  renderDetail($('detail-body'), n, info, hist, view, state);
}

// Find.

function search(q) {
  found.query = q;
  for (const n of found.matches) n.el.classList.remove('match', 'current');
  for (const n of graph ? graph.nodes : []) n.el.classList.remove('match-inside');
  found.matches = [];
  found.at = -1;
  const needle = q.trim().toLowerCase();
  if (needle && graph) {
    found.matches = graph.nodes.filter((n) => [n.name, n.id, n.path].some((x) => (x || '').toLowerCase().includes(needle)));
    for (const n of found.matches) {
      n.el.classList.add('match');
      graph.shown(n).el.classList.add('match-inside');
    }
  }
  countMatches();
}

function countMatches() {
  const n = found.matches.length;
  $('find-count').textContent = !found.query.trim() ? '' : !n ? 'no match' : found.at < 0 ? `${n} found` : `${found.at + 1} of ${n}`;
}

function step(dir) {
  const n = found.matches.length;
  if (!n) return;
  if (found.at >= 0) found.matches[found.at].el.classList.remove('current');
  found.at = found.at < 0 ? (dir > 0 ? 0 : n - 1) : (found.at + dir + n) % n;
  const m = found.matches[found.at];
  m.el.classList.add('current');
  focus(m);
  for (const k of graph.nodes) k.el.classList.remove('match-inside');
  for (const k of found.matches) graph.shown(k).el.classList.add('match-inside');
  countMatches();
}

// The timeline.

// goTo shows frame i and stops following the tree.
function goTo(i) {
  if (!hist) return;
  follow = false;
  view = Math.max(-1, Math.min(i, hist.length - 1));
  show();
}

function resume() {
  follow = true;
  if (hist) view = hist.length - 1;
  show();
}

// play steps a replay through its frames at the pace they were recorded (20 ms to 2 s
// apart), from the frame shown.
function play() {
  if (player !== null) {
    clearTimeout(player);
    player = null;
    return show();
  }
  if (view >= hist.length - 1) view = -1;
  const next = () => {
    if (view >= hist.length - 1) {
      player = null;
      return show();
    }
    const wait = view < 0 ? 0 : hist.frames[view + 1].time - hist.frames[view].time;
    player = setTimeout(() => { view++; show(); next(); }, Math.min(Math.max(wait, 20), 2000));
  };
  next();
  show();
}

function toggle() {
  if (!info) return;
  if (!info.live) return play();
  if (follow) goTo(view);
  else resume();
}

$('back').onclick = () => goTo(view - 1);
$('fwd').onclick = () => goTo(view + 1);
$('scrub').oninput = (e) => goTo(Number(e.target.value));
$('live').onclick = resume;
$('play').onclick = toggle;
$('zoom-in').onclick = () => { camera.zoomAt(1.25, undefined, undefined, true); camera.user('zoom'); };
$('zoom-out').onclick = () => { camera.zoomAt(0.8, undefined, undefined, true); camera.user('zoom'); };
$('fit').onclick = () => fitView(true);
$('expand').onclick = () => {
  if (!graph) return;
  for (const n of graph.nodes) if (n.collapsed) graph.fold(n, false);
  graph.layout();
  if (state) graph.update(state);
  fitView(true);
};
$('follow').onchange = (e) => setTracking(e.target.checked);
$('detail-close').onclick = () => select(null);
$('find').oninput = (e) => search(e.target.value);
$('find').onkeydown = (e) => {
  if (e.key === 'Enter') { e.preventDefault(); step(e.shiftKey ? -1 : 1); }
  else if (e.key === 'Escape') { e.target.value = ''; search(''); e.target.blur(); }
};
$('find-next').onclick = () => step(1);
$('find-prev').onclick = () => step(-1);
window.addEventListener('resize', () => { if (fitted) fitView(); });

document.addEventListener('keydown', (e) => {
  if (e.target.closest('input, select, textarea') || e.ctrlKey || e.metaKey || e.altKey) return;
  const pan = 80;
  switch (e.key) {
    case 'ArrowLeft': if (e.shiftKey) goTo(view - 1); else { camera.pan(pan, 0, true); camera.user(); } break;
    case 'ArrowRight': if (e.shiftKey) goTo(view + 1); else { camera.pan(-pan, 0, true); camera.user(); } break;
    case 'ArrowUp': camera.pan(0, pan, true); camera.user(); break;
    case 'ArrowDown': camera.pan(0, -pan, true); camera.user(); break;
    case ',': goTo(view - 1); break;
    case '.': goTo(view + 1); break;
    case '+': case '=': camera.zoomAt(1.25, undefined, undefined, true); camera.user('zoom'); break;
    case '-': case '_': camera.zoomAt(0.8, undefined, undefined, true); camera.user('zoom'); break;
    case '0': fitView(true); break;
    case 'f': setTracking(!tracking); break;
    case '/': $('find').focus(); break;
    case 'Escape': select(null); break;
    case ' ': toggle(); break;
    default: return;
  }
  e.preventDefault();
});

start().catch((err) => say(`error: ${err.message}`));
