// The history of a tree: the state before its first frame (the base) and the frames
// after it, from which the state at any frame is computed.

// STATUS names the statuses by number, as BehaviorTree.CPP numbers them.
export const STATUS = ['IDLE', 'RUNNING', 'SUCCESS', 'FAILURE', 'SKIPPED'];

// A state is what the page shows at one frame:
//   tick, time     of the frame
//   known          whether the statuses are known (a feed that never observed its tree)
//   statuses[i]    the status of the node whose UID is i+1
//   last[i]        the status it had before it was reset to IDLE (0: none)
//   bb[scope]      the entries of each blackboard scope
//   trails         UID → the statuses the node went through in the frame
//   bbChanged      "scope/key" of the entries the frame changed
function empty(nodes, scopes) {
  return {
    tick: 0, time: 0, known: false,
    statuses: new Array(nodes).fill(0), last: new Array(nodes).fill(0),
    bb: new Array(scopes).fill(null).map(() => ({})),
    trails: new Map(), bbChanged: new Set(),
  };
}

function copy(s) {
  return { ...s, statuses: s.statuses.slice(), last: s.last.slice(), bb: s.bb.slice(),
    trails: new Map(), bbChanged: new Set() };
}

// apply changes s into the state after frame f; note records what f changed.
function apply(s, f, note) {
  s.tick = f.tick;
  s.time = f.time;
  s.trails = new Map();
  s.bbChanged = new Set();
  if (f.statuses) {
    s.statuses = f.statuses.slice();
    s.last = new Array(s.statuses.length).fill(0);
    s.known = true;
  }
  for (const [uid, prev, status] of f.changes || []) {
    s.statuses[uid - 1] = status;
    s.last[uid - 1] = status === 0 ? prev : 0;
    if (note) {
      if (!s.trails.has(uid)) s.trails.set(uid, [prev]);
      s.trails.get(uid).push(status);
    }
  }
  for (const { scope, entries } of f.bb || []) {
    if (note && !f.statuses) {
      const old = s.bb[scope] || {};
      for (const key of new Set([...Object.keys(old), ...Object.keys(entries)])) {
        if (JSON.stringify(old[key]) !== JSON.stringify(entries[key])) s.bbChanged.add(`${scope}/${key}`);
      }
    }
    s.bb[scope] = entries;
  }
  return s;
}

export class History {
  // snapshot is the "snapshot" event of the stream.
  constructor(snapshot) {
    const { nodes, scopes, limit } = snapshot.info;
    this.limit = limit; // frames kept; 0: all
    const size = Math.max(0, ...nodes.map((n) => n.uid)); // a .btlog file may skip UIDs
    this.base = apply(empty(size, scopes.length), snapshot.base, false);
    this.base.known = snapshot.base.statuses != null;
    this.frames = snapshot.frames;
    this.dropped = 0; // frames dropped from the front since the snapshot
    this.cache = null;
  }

  get length() { return this.frames.length; }

  push(frame) {
    this.frames.push(frame);
    if (this.limit && this.frames.length > this.limit) {
      this.base = apply(copy(this.base), this.frames.shift(), false);
      this.dropped++;
      this.cache = null;
    }
  }

  // at returns the state after frame i; -1 is the base.
  at(i) {
    let s, from;
    if (this.cache && this.cache.index <= i) {
      ({ state: s, index: from } = this.cache);
    } else {
      s = copy(this.base);
      from = -1;
    }
    for (let k = from + 1; k <= i; k++) apply(s, this.frames[k], k === i);
    this.cache = { index: i, state: s };
    return s;
  }
}
