package monitor

import (
	"bytes"
	"encoding/json"

	"github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
)

// Feed connects a ticking tree to its Monitor. Call Ticked after every tick, on the
// goroutine that ticks the tree:
//
//	for {
//		status, err := tree.TickOnce()
//		feed.Ticked()
//		…
//	}
//
// A feed observes its tree (Tree.Subscribe) only while a browser is connected (or
// always, with ObserveAlways), and Ticked is where it starts and stops: Subscribe may
// not be called during a tick, so a browser that connects is served from the next
// Ticked or Sync on. Until then, and while no browser is connected, the tree is not
// observed and Ticked costs a few loads and a branch: the tree ticks as fast as a
// tree without a monitor.
//
// While it observes, a feed records the changes of each tick on the ticking goroutine
// (a few stores each) and, in Ticked, the blackboard scopes whose entries changed (a
// Blackboard.MarshalJSON of each scope), and hands the frame to the monitor's own
// goroutine, which never makes the tick wait: if it falls behind by Buffer frames, the
// frames in between are dropped and the next one lists every node's status.
//
// A Feed's methods must be called on the goroutine that ticks the tree, between ticks.
type Feed struct {
	hub  *hub
	tree *bt.Tree
	m    *Monitor
	name string

	// The ticking goroutine's.
	cancel  func() // the subscription; nil while the feed does not observe
	ticks   uint64
	changes []change
	full    bool // changes were dropped: the next frame is a keyframe
	scopes  []*blackboard.Blackboard
	bb      [][]byte // the last JSON of each scope sent
	closed  bool
}

// maxChanges bounds the changes one frame records; a tick that makes more (a loop
// inside one tick) becomes a keyframe.
const maxChanges = 1 << 16

// Ticked tells the monitor that the tree ticked once: it counts the tick and publishes
// what it changed. It is also where the feed starts or stops observing the tree, as
// browsers come and go.
func (f *Feed) Ticked() {
	f.ticks++
	if f.cancel != nil || f.hub.want.Load() {
		f.sync()
	}
}

// Sync publishes the changes since the last Ticked or Sync without counting a tick:
// those a Halt made, or none, to show a browser that connected to a tree that does
// not tick (yet) its current state.
func (f *Feed) Sync() {
	if f.cancel != nil || f.hub.want.Load() {
		f.sync()
	}
}

// Ticks returns the number of Ticked calls.
func (f *Feed) Ticks() uint64 { return f.ticks }

// Watchers returns the number of browsers connected to the tree. It may be called from
// any goroutine.
func (f *Feed) Watchers() int {
	f.hub.mu.Lock()
	defer f.hub.mu.Unlock()
	return len(f.hub.clients)
}

// Close removes the tree from its monitor (browsers watching it are told it is gone)
// and stops observing it.
func (f *Feed) Close() {
	if f.closed {
		return
	}
	f.closed = true
	f.m.remove(f.name, f.hub)
	f.stop()
}

func (f *Feed) sync() {
	want := f.hub.want.Load() && !f.closed
	switch {
	case f.cancel == nil && want:
		f.cancel = f.tree.Subscribe(f.observe)
		f.send(f.keyframe())
	case f.cancel != nil && !want:
		f.stop()
		f.hub.enqueue(record{stop: true}, 0)
	case f.cancel != nil:
		f.send(f.delta())
	}
}

// stop stops observing the tree.
func (f *Feed) stop() {
	if f.cancel != nil {
		f.cancel()
		f.cancel = nil
	}
	f.changes, f.full = f.changes[:0], false
}

// observe records a change; it runs on the ticking goroutine, during the tick.
func (f *Feed) observe(c bt.StatusChange) {
	if len(f.changes) == maxChanges {
		f.full = true
		return
	}
	f.changes = append(f.changes, change{c.Node.UID(), c.Previous, c.Status})
}

// send hands a frame to the hub. If the hub is too far behind, the frame is dropped
// and a keyframe takes its place (the hub has room for one more record only if it
// drained some; if not, the next send tries again).
func (f *Feed) send(r record) {
	if !f.hub.enqueue(r, f.m.cfg.buffer) {
		f.full = true
	}
}

// keyframe is the state of the tree now: every node's status and every scope.
func (f *Feed) keyframe() record {
	r := record{frame: frame{Tick: f.ticks, Time: millis(f.tree.Clock().Now())}}
	r.Statuses = make(statuses, 0, f.tree.Len())
	for n := range f.tree.Nodes() {
		r.Statuses = append(r.Statuses, n.Status())
	}
	f.changes, f.full = f.changes[:0], false
	clear(f.bb) // every scope, changed or not
	r.BB = f.blackboards()
	return r
}

// delta is the frame of the changes since the last one.
func (f *Feed) delta() record {
	if f.full {
		return f.keyframe()
	}
	r := record{frame: frame{Tick: f.ticks, Time: millis(f.tree.Clock().Now())}}
	if len(f.changes) > 0 {
		r.Changes = append([]change(nil), f.changes...)
		f.changes = f.changes[:0]
	}
	r.BB = f.blackboards()
	return r
}

// blackboards returns the scopes whose JSON changed since it was last sent.
func (f *Feed) blackboards() []scopeJSON {
	var out []scopeJSON
	for i, bb := range f.scopes {
		js, err := bb.MarshalJSON()
		if err != nil { // a value encoding/json cannot write: show why
			msg, _ := json.Marshal(err.Error())
			js = append(append([]byte(`{"(error)":`), msg...), '}')
		}
		if f.bb[i] != nil && bytes.Equal(js, f.bb[i]) {
			continue
		}
		f.bb[i] = js
		out = append(out, scopeJSON{Scope: i, Entries: json.RawMessage(js)})
	}
	return out
}
