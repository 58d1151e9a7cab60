package bt

import "sync"

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
// The check for work costs a tick no more than the one atomic load of its other checks.
func (t *Tree) Do(f func()) {
	if f == nil {
		return
	}
	q := t.queue.Load()
	if q == nil { // the first call: the tree gets its queue
		t.queue.CompareAndSwap(nil, new(queue))
		q = t.queue.Load()
	}
	q.mu.Lock()
	q.fns = append(q.fns, f)
	t.attention.Or(attnQueued)
	q.mu.Unlock()
}

// queue holds the functions given to Do. A tree gets one when Do is first called;
// attnQueued in Tree.attention says it holds some.
type queue struct {
	mu  sync.Mutex
	fns []func()
}

// runQueued runs the functions given to Do, if any; the ticking goroutine calls it
// before ticking the root. They run between two ticks of the root, where the tree may
// be saved (Snapshot): they do not count as run during the tick.
func (t *Tree) runQueued() {
	q := t.queue.Load()
	if q == nil {
		return
	}
	q.mu.Lock()
	fns := q.fns
	q.fns = nil
	t.attention.And(^uint32(attnQueued))
	q.mu.Unlock()
	ticking := t.ticking
	t.ticking = false
	defer func() {
		t.ticking = ticking
		if len(fns) > 0 { // after a panic, the functions not run yet run at the next tick
			q.mu.Lock()
			q.fns = append(fns, q.fns...)
			t.attention.Or(attnQueued)
			q.mu.Unlock()
		}
	}()
	for len(fns) > 0 {
		f := fns[0]
		fns = fns[1:]
		f()
	}
}
