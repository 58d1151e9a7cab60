// The page: picks a tree, follows its stream of events, and shows the frame the
// timeline points at — the last one while following the tree live.

import { History } from './history.js';
import { Graph } from './graph.js';
import { renderBlackboard } from './blackboard.js';

const $ = (id) => document.getElementById(id);

let stream = null; // the EventSource
let info = null; // the tree's description
let graph = null;
let hist = null;
let view = -1; // the frame shown; -1: the state before the first frame
let follow = true; // show each new frame as it comes (live), or stay (paused)
let synced = false; // the feed follows the tree's changes
let player = null; // the timer of a replay that plays

async function start() {
  const trees = await (await fetch('api/trees')).json();
  const select = $('trees');
  select.replaceChildren(...trees.map((t) => new Option(`${t.name}${t.live ? '' : ' (replay)'}`, t.name)));
  select.hidden = trees.length < 2;
  select.onchange = () => { location.hash = encodeURIComponent(select.value); };
  window.onhashchange = () => open(current(trees));
  if (!trees.length) return say('no trees');
  open(current(trees));
}

function current(trees) {
  const name = decodeURIComponent(location.hash.slice(1));
  return trees.some((t) => t.name === name) ? name : trees[0].name;
}

function open(name) {
  $('trees').value = name;
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
    graph = new Graph($('nodes'), $('edges'), info);
    follow = info.live;
    view = info.live ? snap.frames.length - 1 : Math.min(0, snap.frames.length - 1);
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
  graph.update(s);
  renderBlackboard($('blackboard'), info.scopes, s);
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
  const step = () => {
    if (view >= hist.length - 1) {
      player = null;
      return show();
    }
    const wait = view < 0 ? 0 : hist.frames[view + 1].time - hist.frames[view].time;
    player = setTimeout(() => { view++; show(); step(); }, Math.min(Math.max(wait, 20), 2000));
  };
  step();
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
document.addEventListener('keydown', (e) => {
  if (e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT') return;
  if (e.key === 'ArrowLeft') goTo(view - 1);
  else if (e.key === 'ArrowRight') goTo(view + 1);
  else if (e.key === ' ') { e.preventDefault(); toggle(); }
});

start().catch((err) => say(`error: ${err.message}`));
