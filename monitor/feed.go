package monitor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
)

// Feed connects a tree to its Monitor. It needs nothing from the program once the tree
// is added: the tree may be ticked in any way (TickOnce, TickWhileRunning, …).
//
// A feed observes its tree (bt.Tree.SubscribeBatch) only while a browser is connected
// (or always, with ObserveAlways). It starts and stops on the goroutine that ticks the
// tree, at the start of the tick after a browser came or the last one went
// (bt.Tree.Do): until then, and while no browser is connected, the tree is not
// observed and ticks as fast as a tree without a monitor.
//
// While it observes, the tree hands the feed the changes of each tick when the tick
// ends (a copy of four bytes per change); the feed then records the blackboard scopes
// whose entries changed (a Blackboard.MarshalJSON of each scope) and hands the frame to
// the monitor's own goroutine, which never makes the tick wait: if it falls behind by
// Buffer frames, the frames in between are dropped and the next one lists every node's
// status. A Halt makes a frame of its own, with the number of the last tick.
//
// The statuses a frame that lists them gives are the ones the changes before it gave
// (see keyframe): the monitor's goroutine follows them from frame to frame, and while
// frames are dropped the feed keeps the last status of each node they changed
// (behind), so that the ticking goroutine does not follow every change.
type Feed struct {
	hub  *hub
	tree *bt.Tree
	m    *Monitor
	name string

	queued atomic.Bool // sync is queued with Tree.Do

	// The ticking goroutine's.
	cancel  func()         // the subscription; nil while the feed does not observe
	observe func(bt.Batch) // what it subscribes (see observer)
	reload  func()         // cancels OnReload (see reload.go)
	cur     *batch         // the frame being recorded
	scopes  []scopeSeen
	closed  bool

	// full is set when changes were not sent (the hub was too far behind, or a tick
	// made more than a frame records): the next frame lists every node's status. Till
	// then behind holds, by UID-1, the last status each node the changes not sent
	// changed (noStatus: none), and touched their UIDs.
	full    bool
	behind  []bt.Status
	touched []uint16
}

// noStatus marks a node that the changes not sent did not change (see Feed.behind).
const noStatus bt.Status = 0xff

// scopeSeen is a blackboard scope of the tree and its entries as a frame last recorded
// them.
type scopeSeen struct {
	bb   *blackboard.Blackboard
	ents []*blackboard.Entry // its entries, listed again when it has more
	seen []seenEntry         // ents as last recorded; another length: not recorded since they were listed
}

// seenEntry is an entry of a scope as a frame last recorded it: the scope changed when
// an entry came or went, was written (its Seq), or was unset.
type seenEntry struct {
	e      *blackboard.Entry
	seq    uint64
	exists bool
}

// batch is what the ticking goroutine copies of a frame for the monitor's goroutine,
// which writes the JSON: the changes, and the entries of the scopes that changed (a
// blackboard.Value is immutable but for the Go value a KindOther holds, which is
// written at once). Batches go back and forth, so that a tick allocates nothing.
type batch struct {
	changes []bt.Change
	scopes  []scopeMark
	vals    []entryVal
	time    time.Time  // when the tick began (the frame's milliseconds are the hub's to compute)
	tick    uint64     // the tree's tick count
	kind    recordKind // what the frame gives
	// What few frames carry: a keyframe's statuses (see recordKind), a reload's tree.
	statuses statuses
	info     *treeInfo
}

// scopeMark is a scope that changed; its entries are vals[start of the next one : end].
type scopeMark struct {
	scope, end int
}

// entryVal is an entry as recorded: its key and value, or for a KindOther its JSON or
// the error writing it.
type entryVal struct {
	key string
	v   blackboard.Value
	js  []byte
	err error
}

func (b *batch) reset() {
	b.changes = b.changes[:0]
	b.resetScopes()
	b.statuses, b.info = nil, nil
}

// resetScopes forgets the scopes recorded.
func (b *batch) resetScopes() {
	b.scopes = b.scopes[:0]
	clear(b.vals) // drop the references to the values
	b.vals = b.vals[:0]
}

// maxChanges bounds the changes one frame records; a tick that makes more (a loop
// inside one tick) becomes a keyframe.
const maxChanges = 1 << 16

// newFeed makes the feed of tree t, added to m under name with hub h. It observes the
// tree at once if the monitor observes always. The ticking goroutine calls it.
func newFeed(m *Monitor, name string, h *hub, t *bt.Tree, scopes []*blackboard.Blackboard) *Feed {
	f := &Feed{hub: h, tree: t, m: m, name: name, scopes: scopesOf(scopes), cur: &batch{}}
	f.observe = f.observer()
	h.setWake(f.wake)
	f.reload = t.OnReload(f.reloaded)
	f.sync()
	return f
}

// wake asks the ticking goroutine to start or stop observing the tree, as browsers
// came or went; the hub calls it, from any goroutine.
func (f *Feed) wake() {
	if f.queued.CompareAndSwap(false, true) {
		f.tree.Do(func() {
			f.queued.Store(false)
			f.sync()
		})
	}
}

// Ticked does nothing.
//
// Deprecated: a Feed follows the ticks of its tree by itself (see Feed); programs no
// longer call anything after a tick.
func (f *Feed) Ticked() {}

// Sync makes the feed catch up with the tree now rather than at the next tick: it
// starts observing the tree if a browser is waiting for it, and publishes the state of
// the tree (its blackboard, for one already observed). It is for a tree that does not
// tick — one the program holds before its first tick, or between runs — and whose
// blackboard the program changes. Call it on the goroutine that ticks the tree, between
// ticks.
func (f *Feed) Sync() {
	if f.cancel == nil {
		f.sync() // a keyframe, if it starts observing
		return
	}
	f.sync()
	if f.cancel != nil {
		f.observe(bt.Batch{Time: f.tree.Clock().Now(), End: true})
	}
}

// Ticks returns the tree's tick count (bt.Tree.Ticks). Call it on the goroutine that
// ticks the tree.
func (f *Feed) Ticks() uint64 { return f.tree.Ticks() }

// Watchers returns the number of browsers connected to the tree. It may be called from
// any goroutine.
func (f *Feed) Watchers() int {
	f.hub.mu.Lock()
	defer f.hub.mu.Unlock()
	return len(f.hub.clients)
}

// Close removes the tree from its monitor (browsers watching it are told it is gone)
// and stops observing it. Call it on the goroutine that ticks the tree, between ticks.
func (f *Feed) Close() {
	if f.closed {
		return
	}
	f.closed = true
	f.reload()
	f.m.remove(f.name, f.hub)
	f.stop()
}

// sync starts observing the tree when it is wanted, with a keyframe, or stops.
func (f *Feed) sync() {
	want := f.hub.want.Load() && !f.closed
	switch {
	case f.cancel == nil && want:
		f.cancel = f.tree.SubscribeBatch(f.observe)
		f.keyframe()
	case f.cancel != nil && !want:
		f.stop()
		f.hub.enqueue(&batch{kind: recStop}, 0)
	}
}

// stop stops observing the tree.
func (f *Feed) stop() {
	if f.cancel != nil {
		f.cancel()
		f.cancel = nil
	}
	f.cur.reset()
	f.catchUp()
}

// observer returns the function the feed subscribes to its tree: it records a batch
// of changes and, at the end of a tick or Halt, publishes the frame, on the ticking
// goroutine. (A closure over f, called as it is: the method value f.observe would
// pass the batch on through a wrapper of its own.)
func (f *Feed) observer() func(bt.Batch) {
	return func(b bt.Batch) {
		cur := f.cur
		cur.time = b.Time // (the frame's, when b ends the tick; here, so that b need not be kept across the calls)
		if !f.full && len(cur.changes)+len(b.Changes) <= maxChanges {
			cur.changes = append(cur.changes, b.Changes...)
		} else {
			f.overflow(b.Changes)
		}
		if !b.End {
			return
		}
		// The end of a tick or Halt: hand the hub the frame of the changes since the
		// last one, the scopes that changed, or, after changes were not sent, every
		// node's status and every scope. If the hub is too far behind, the frame is
		// not sent: its changes are kept (see Feed.behind) for the next one, which
		// gives every status.
		if f.full {
			f.publishAll(b.Time)
			return
		}
		f.blackboards(false)
		cur.kind, cur.tick = recDelta, f.tree.Ticks()
		next, ok := f.hub.enqueue(cur, f.hub.buffer)
		if ok {
			f.cur = next
			return
		}
		f.fallBehind(cur.changes)
		cur.changes = cur.changes[:0]
		cur.resetScopes()
	}
}

// overflow keeps changes that the frame cannot record (see Feed.behind): all of
// them once changes were not sent, or those of a tick that made more changes than a
// frame records, with the frame's.
func (f *Feed) overflow(cs []bt.Change) {
	if !f.full {
		f.fallBehind(f.cur.changes)
		f.cur.changes = f.cur.changes[:0]
	}
	f.fallBehind(cs)
}

// publishAll publishes the frame after changes were not sent: its frame gives every status and
// every scope.
func (f *Feed) publishAll(t time.Time) {
	b := f.cur
	b.changes = b.changes[:0]
	for _, uid := range f.touched {
		b.changes = append(b.changes, bt.MakeChange(uid, bt.Idle, f.behind[uid-1]))
	}
	f.blackboards(true)
	b.time, b.kind, b.tick = t, recCatchUp, f.tree.Ticks()
	if f.send() {
		f.catchUp()
		return
	}
	b.changes = b.changes[:0]
	b.resetScopes()
}

// fallBehind keeps the changes cs, which will not be sent, in Feed.behind.
func (f *Feed) fallBehind(cs []bt.Change) {
	if !f.full {
		f.full = true
		if n := f.tree.Len(); len(f.behind) != n {
			f.behind = make([]bt.Status, n)
			for i := range f.behind {
				f.behind[i] = noStatus
			}
		}
	}
	for _, c := range cs {
		i := int(c.UID()) - 1
		if i >= len(f.behind) {
			continue // (cannot be: a UID names a node of the tree)
		}
		if f.behind[i] == noStatus {
			f.touched = append(f.touched, c.UID())
		}
		f.behind[i] = c.Status()
	}
}

// catchUp forgets the changes kept while frames were not sent: a frame that gives
// every status went.
func (f *Feed) catchUp() {
	for _, uid := range f.touched {
		f.behind[uid-1] = noStatus
	}
	f.touched = f.touched[:0]
	f.full = false
}

// send hands the frame in f.cur to the hub, and reports whether the hub took it; if
// it did not (it is too far behind), f.cur is still the feed's.
func (f *Feed) send() bool {
	next, ok := f.hub.enqueue(f.cur, f.hub.buffer)
	if ok {
		f.cur = next
	}
	return ok
}

// keyframe sends the state of the tree now: every node's status and every scope. It
// is for the start of observing and for a reload, when observers were told nothing
// yet, so each node's status is the one it holds. (Later, a node's status for
// observers is the one they were last told of, which is not always the one the node
// holds: a control whose children were all skipped is Idle, and Running to observers,
// as in BehaviorTree.CPP's stream (see the bt package doc). The frames that list every
// status then take them from the changes: see Feed.)
func (f *Feed) keyframe() {
	f.catchUp()
	f.recordKey()
	f.send()
}

// recordKey records the state of the tree now in f.cur.
func (f *Feed) recordKey() {
	f.cur.reset()
	f.cur.statuses = make(statuses, 0, f.tree.Len())
	for n := range f.tree.Nodes() {
		f.cur.statuses = append(f.cur.statuses, n.Status())
	}
	f.blackboards(true)
	f.cur.time, f.cur.kind, f.cur.tick = f.tree.Clock().Now(), recKey, f.tree.Ticks()
}

// scopesOf returns the scopes' records, nothing recorded yet.
func scopesOf(bbs []*blackboard.Blackboard) []scopeSeen {
	s := make([]scopeSeen, len(bbs))
	for i, bb := range bbs {
		s[i].bb = bb
	}
	return s
}

// blackboards records in f.cur the entries of the scopes that changed since they were
// last recorded (all of them: every scope). It allocates nothing once the slices have
// grown, but for a KindOther value that changed, which it writes as JSON at once.
//
// A scope changed when entries were made in it, or one was written or unset: a tick
// costs a scope that did not change a load of its length and two loads per entry.
// (The check is written out here, not called per scope: it runs at every tick.)
func (f *Feed) blackboards(all bool) {
	for i := range f.scopes {
		sc := &f.scopes[i]
		changed := all || sc.bb.Len() != len(sc.seen)
		for j := 0; !changed && j < len(sc.seen); j++ {
			s := &sc.seen[j]
			changed = s.seq != s.e.Seq() || s.exists != s.e.Exists()
		}
		if changed {
			f.recordScope(i)
		}
	}
}

// recordScope records the entries of scope i in f.cur.
func (f *Feed) recordScope(i int) {
	b, sc := f.cur, &f.scopes[i]
	if n := sc.bb.Len(); n != len(sc.ents) { // entries were made: list them again (the map is not walked every tick)
		clear(sc.ents)
		sc.ents = sc.bb.AppendEntries(sc.ents[:0])
	}
	seen := sc.seen[:0]
	for _, e := range sc.ents {
		seq, exists := e.Seq(), e.Exists()
		v := e.Load() // a write in between shows next time: its Seq differs
		seen = append(seen, seenEntry{e: e, seq: seq, exists: exists})
		if !exists {
			continue
		}
		ev := entryVal{key: e.Key(), v: v}
		if v.Kind() == blackboard.KindOther {
			ev.js, ev.err = v.MarshalJSON()
			ev.v = blackboard.Value{}
		}
		b.vals = append(b.vals, ev)
	}
	sc.seen = seen
	b.scopes = append(b.scopes, scopeMark{scope: i, end: len(b.vals)})
}

// frameOf makes the frame of batch b, on the monitor's goroutine: the changes, and the
// JSON of the scopes that changed since it was last sent (a scope whose entries were
// written again with the same values is left out, but on a keyframe, which gives
// every scope).
//
// It follows the statuses from frame to frame (hub.statuses): a keyframe gives them, a
// delta changes some; the batch of the frame after changes were not sent gives the
// last status of each node they changed, and its frame gives every node's status.
func (h *hub) frameOf(b *batch) frame {
	fr := frame{Tick: b.tick, Time: millis(b.time)}
	switch b.kind {
	case recKey:
		fr.Statuses = b.statuses
		h.statuses = append(h.statuses[:0], b.statuses...)
	case recCatchUp:
		h.follow(b.changes)
		fr.Statuses = slices.Clone(h.statuses)
	default:
		h.follow(b.changes)
		if len(b.changes) > 0 {
			fr.Changes = append(changes(nil), b.changes...)
		}
	}
	key := fr.Statuses != nil
	start := 0
	for _, m := range b.scopes {
		js := scopeJSONOf(b.vals[start:m.end])
		start = m.end
		if !key && h.lastBB[m.scope] != nil && bytes.Equal(js, h.lastBB[m.scope]) {
			continue
		}
		h.lastBB[m.scope] = js
		fr.BB = append(fr.BB, scopeJSON{Scope: m.scope, Entries: json.RawMessage(js)})
	}
	return fr
}

// scopeJSONOf writes a scope's entries as Blackboard.MarshalJSON does; a value that
// encoding/json cannot write makes the scope {"(error)": why}.
func scopeJSONOf(vals []entryVal) []byte {
	buf := []byte{'{'}
	for i, ev := range vals {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendString(buf, ev.key)
		buf = append(buf, ':')
		js, err := ev.js, ev.err
		if ev.js == nil && ev.err == nil {
			js, err = ev.v.MarshalJSON()
		}
		if err != nil {
			msg, _ := json.Marshal(fmt.Sprintf("entry %q: %v", ev.key, err))
			return append(append([]byte(`{"(error)":`), msg...), '}')
		}
		buf = append(buf, js...)
	}
	return append(buf, '}')
}

// appendString writes s as a JSON string, without HTML escaping (as the blackboard
// writes its keys).
func appendString(buf []byte, s string) []byte {
	var w bytes.Buffer
	enc := json.NewEncoder(&w)
	enc.SetEscapeHTML(false)
	enc.Encode(s) // a string: cannot fail
	return append(buf, bytes.TrimSuffix(w.Bytes(), []byte{'\n'})...)
}
