package bt

import (
	"sync"
	"sync/atomic"
)

// Do arranges for f to run on the goroutine that ticks the tree, at the start of its
// next tick (TickOnce, TickExactlyOnce, each round of TickWhileRunning, and each
// re-tick of TickOnce after a wake-up), before any node ticks. It may be called from
// any goroutine, and returns at once.
//
// It is how another goroutine changes a tree that ticks: what must not happen during a
// tick or on another goroutine — Subscribe and its cancel function, Node.SetPreTick and
// SetPostTick, reading statuses — can happen in f. Functions run in the order they were
// given; one given during a tick runs at the start of the next. A tree that is not
// ticked runs none of them. A panic in f stops the tick, which returns it as an error
// (see TickOnce).
//
// The check for work costs a tick one atomic load.
func (t *Tree) Do(f func()) {
	if f == nil {
		return
	}
	q := &t.queue
	q.mu.Lock()
	q.fns = append(q.fns, f)
	q.pending.Store(true)
	q.mu.Unlock()
}

// queue holds the functions given to Do.
type queue struct {
	pending atomic.Bool // fns is not empty
	mu      sync.Mutex
	fns     []func()
}

// runQueued runs the functions given to Do; the ticking goroutine calls it before
// ticking the root.
func (t *Tree) runQueued() {
	if t.queue.pending.Load() {
		t.runQueue()
	}
}

// runQueue runs the functions given to Do between two ticks of the root, where the
// tree may be saved (Snapshot): they do not count as being run during the tick. It is
// kept out of line, so that runQueued, which every tick calls, stays inlined.
//
//go:noinline
func (t *Tree) runQueue() {
	ticking := t.ticking
	t.ticking = false
	t.queue.run()
	t.ticking = ticking
}

func (q *queue) run() {
	q.mu.Lock()
	fns := q.fns
	q.fns = nil
	q.pending.Store(false)
	q.mu.Unlock()
	defer func() { // after a panic, the functions not run yet run at the next tick
		if len(fns) > 0 {
			q.mu.Lock()
			q.fns = append(fns, q.fns...)
			q.pending.Store(true)
			q.mu.Unlock()
		}
	}()
	for len(fns) > 0 {
		f := fns[0]
		fns = fns[1:]
		f()
	}
}
