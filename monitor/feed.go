package monitor

import (
	"bytes"
	"encoding/json"
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
	cancel  func() // the subscription; nil while the feed does not observe
	reload  func() // cancels OnReload (see reload.go)
	changes []bt.Change
	full    bool        // changes were dropped: the next frame is a keyframe
	shown   []bt.Status // by UID-1, the status observers were last told of
	scopes  []*blackboard.Blackboard
	bb      [][]byte // the last JSON of each scope sent
	closed  bool
}

// maxChanges bounds the changes one frame records; a tick that makes more (a loop
// inside one tick) becomes a keyframe.
const maxChanges = 1 << 16

// newFeed makes the feed of tree t, added to m under name with hub h. It observes the
// tree at once if the monitor observes always. The ticking goroutine calls it.
func newFeed(m *Monitor, name string, h *hub, t *bt.Tree, scopes []*blackboard.Blackboard) *Feed {
	f := &Feed{hub: h, tree: t, m: m, name: name, scopes: scopes, bb: make([][]byte, len(scopes))}
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
	f.changes, f.full = f.changes[:0], false
}

// observe records a batch of changes and, at the end of a tick or Halt, publishes the
// frame; it runs on the ticking goroutine.
func (f *Feed) observe(b bt.Batch) {
	for _, c := range b.Changes {
		f.shown[c.UID()-1] = c.Status()
	}
	switch {
	case f.full:
	case len(f.changes)+len(b.Changes) > maxChanges:
		f.full = true
	default:
		f.changes = append(f.changes, b.Changes...)
	}
	if b.End {
		f.send(f.delta(b.Time))
	}
}

// send hands a frame to the hub. If the hub is too far behind, the frame is dropped
// and a keyframe takes its place (the hub has room for one more record only if it
// drained some; if not, the next send tries again).
func (f *Feed) send(r record) {
	if !f.hub.enqueue(r, f.m.cfg.buffer) {
		f.full = true
	}
}

// keyframe is the state of the tree now: every node's status and every scope. A
// node's status is the one observers were last told of, which is not always the one
// the node holds (a control whose children were all skipped is Idle, and Running to
// observers, as in BehaviorTree.CPP's stream: see the bt package doc), so that a keyframe
// agrees with the frames before it.
func (f *Feed) keyframe() record {
	r := record{frame: frame{Tick: f.tree.Ticks(), Time: millis(f.tree.Clock().Now())}}
	r.Statuses = append(make(statuses, 0, len(f.shown)), f.shown...)
	f.changes, f.full = f.changes[:0], false
	clear(f.bb) // every scope, changed or not
	r.BB = f.blackboards()
	return r
}

// delta is the frame of the changes since the last one, at time t.
func (f *Feed) delta(t time.Time) record {
	if f.full {
		return f.keyframe()
	}
	r := record{frame: frame{Tick: f.tree.Ticks(), Time: millis(t)}}
	if len(f.changes) > 0 {
		r.Changes = append(changes(nil), f.changes...)
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
