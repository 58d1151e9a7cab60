package monitor

import (
	"bytes"
	"encoding/json"
	"fmt"
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
type Feed struct {
	hub  *hub
	tree *bt.Tree
	m    *Monitor
	name string

	queued atomic.Bool // sync is queued with Tree.Do

	// The ticking goroutine's.
	cancel func()      // the subscription; nil while the feed does not observe
	reload func()      // cancels OnReload (see reload.go)
	cur    *batch      // the frame being recorded
	full   bool        // changes were dropped: the next frame is a keyframe
	shown  []bt.Status // by UID-1, the status observers were last told of
	scopes []*blackboard.Blackboard
	seen   [][]seenEntry         // by scope, its entries as last recorded
	ents   [][]*blackboard.Entry // by scope, its entries (listed again when it has more)
	closed bool
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
	b.changes, b.scopes = b.changes[:0], b.scopes[:0]
	clear(b.vals) // drop the references to the values
	b.vals = b.vals[:0]
}

// maxChanges bounds the changes one frame records; a tick that makes more (a loop
// inside one tick) becomes a keyframe.
const maxChanges = 1 << 16

// newFeed makes the feed of tree t, added to m under name with hub h. It observes the
// tree at once if the monitor observes always. The ticking goroutine calls it.
func newFeed(m *Monitor, name string, h *hub, t *bt.Tree, scopes []*blackboard.Blackboard) *Feed {
	f := &Feed{hub: h, tree: t, m: m, name: name, scopes: scopes, seen: make([][]seenEntry, len(scopes)),
		ents: make([][]*blackboard.Entry, len(scopes)), cur: &batch{}}
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
		f.send(f.delta(f.tree.Clock().Now()))
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
		f.shown = f.shown[:0]
		for n := range f.tree.Nodes() {
			f.shown = append(f.shown, n.Status())
		}
		f.send(f.keyframe())
	case f.cancel != nil && !want:
		f.stop()
		f.hub.enqueue(record{stop: true}, 0)
	}
}

// stop stops observing the tree.
func (f *Feed) stop() {
	if f.cancel != nil {
		f.cancel()
		f.cancel = nil
	}
	f.cur.reset()
	f.full = false
}

// observe records a batch of changes and, at the end of a tick or Halt, publishes the
// frame; it runs on the ticking goroutine.
func (f *Feed) observe(b bt.Batch) {
	for _, c := range b.Changes {
		f.shown[c.UID()-1] = c.Status()
	}
	switch {
	case f.full:
	case len(f.cur.changes)+len(b.Changes) > maxChanges:
		f.full = true
	default:
		f.cur.changes = append(f.cur.changes, b.Changes...)
	}
	if b.End {
		f.send(f.delta(b.Time))
	}
}

// send hands a frame to the hub. If the hub is too far behind, the frame is dropped
// and a keyframe takes its place (the hub has room for one more record only if it
// drained some; if not, the next send tries again).
func (f *Feed) send(r record) {
	r.b = f.cur
	next, ok := f.hub.enqueue(r, f.m.cfg.buffer)
	switch {
	case !ok:
		f.full = true
		next.reset()
	case next == nil:
		next = &batch{}
	}
	f.cur = next
}

// keyframe is the state of the tree now: every node's status and every scope. A
// node's status is the one observers were last told of, which is not always the one
// the node holds (a control whose children were all skipped is Idle, and Running to
// observers, as in BehaviorTree.CPP's stream: see the bt package doc), so that a keyframe
// agrees with the frames before it.
func (f *Feed) keyframe() record {
	r := record{frame: frame{Tick: f.tree.Ticks(), Time: millis(f.tree.Clock().Now())}}
	r.Statuses = append(make(statuses, 0, len(f.shown)), f.shown...)
	f.cur.reset()
	f.full = false
	f.blackboards(true)
	return r
}

// delta is the frame of the changes since the last one, at time t.
func (f *Feed) delta(t time.Time) record {
	if f.full {
		return f.keyframe()
	}
	f.blackboards(false)
	return record{frame: frame{Tick: f.tree.Ticks(), Time: millis(t)}}
}

// blackboards records in f.cur the entries of the scopes that changed since they were
// last recorded (all of them: every scope). It allocates nothing once the slices have
// grown, but for a KindOther value that changed, which it writes as JSON at once.
func (f *Feed) blackboards(all bool) {
	b := f.cur
	for i, bb := range f.scopes {
		ents := f.ents[i]
		if bb.Len() != len(ents) { // entries were made: list them again (the map is not walked every tick)
			clear(ents)
			ents = bb.AppendEntries(ents[:0])
			f.ents[i] = ents
		}
		seen := f.seen[i]
		if !all && !changed(seen, ents) {
			continue
		}
		seen = seen[:0]
		for _, e := range ents {
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
		f.seen[i] = seen
		b.scopes = append(b.scopes, scopeMark{scope: i, end: len(b.vals)})
	}
}

// changed tells whether a scope's entries differ from those last recorded.
func changed(seen []seenEntry, ents []*blackboard.Entry) bool {
	if len(seen) != len(ents) {
		return true
	}
	for i, e := range ents {
		if s := seen[i]; s.e != e || s.exists != e.Exists() || s.seq != e.Seq() {
			return true
		}
	}
	return false
}

// frameOf completes the frame of r from its batch, on the monitor's goroutine: the
// changes, and the JSON of the scopes that changed since it was last sent (a scope
// whose entries were written again with the same values is left out, but on a
// keyframe, which gives every scope).
func (h *hub) frameOf(r *record) frame {
	fr, b := r.frame, r.b
	if b == nil {
		return fr
	}
	if len(b.changes) > 0 {
		fr.Changes = append(changes(nil), b.changes...)
	}
	key := r.Statuses != nil
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
