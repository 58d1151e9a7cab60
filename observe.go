package bt

import (
	"slices"
	"time"
)

// StatusChange is an event sent to the tree's observers each time a node's stored
// status changes (including resets to Idle).
type StatusChange struct {
	Node     *Node
	Previous Status
	Status   Status
	Time     time.Time // from the tree's clock
}

// Subscribe registers fn to be called, on the ticking goroutine, for every status change
// of every node of the tree, and returns a function that cancels the subscription.
// Observers must not tick or halt the tree. While nobody subscribes, a status change
// is a byte store: subscribing marks every node's status byte, which sends its changes
// to the observers. Subscribe and the cancel function must not be called during a tick.
// Subscribing nil does nothing.
func (t *Tree) Subscribe(fn func(StatusChange)) (cancel func()) {
	if fn == nil {
		return func() {}
	}
	o := &observer{fn: fn}
	t.observers = append(slices.Clip(t.observers), o)
	t.markObserved(true)
	return func() {
		i := slices.Index(t.observers, o)
		if i < 0 {
			return
		}
		t.observers = slices.Delete(slices.Clone(t.observers), i, i+1)
		if len(t.observers) == 0 {
			t.observers = nil
			t.markObserved(false)
		}
	}
}

// markObserved switches every node between the store-only and the notifying path.
func (t *Tree) markObserved(on bool) {
	for i := range t.status {
		if on {
			t.status[i] |= observedBit
		} else {
			t.status[i] &^= flagBits
		}
	}
}

type observer struct{ fn func(StatusChange) }

// notify tells the observers of a change of n's status. (An observer that panics while
// a node is halted is reported as a failure of that node's halt.)
func (t *Tree) notify(n *Node, prev, s Status) {
	ev := StatusChange{Node: n, Previous: prev, Status: s, Time: t.clock.Now()}
	for _, o := range t.observers {
		o.fn(ev)
	}
}
