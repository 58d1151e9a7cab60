package bt

import (
	"sync/atomic"
	"time"
)

// alarm is the timer of a time-based node (Timeout, Delay, Sleep, Time, TestNode).
//
// BehaviorTree.CPP acts from its timer thread (Timeout halts the child there). In bt the
// tree belongs to the goroutine that ticks it, so the timer only records that it rang
// and wakes the tree; the node acts on the next tick. The timer is made once per node,
// on its first activation, and reset on later ones: no goroutine exists while it waits,
// and none is started per tick.
//
// Each activation has a generation number, which the timer function records when it
// rings, so that a ring left over from an earlier activation is ignored. A ring of an
// earlier activation that runs late — after the timer was reset, which does not wait
// for a function already started — reads the new generation; it is told apart by the
// time: a ring before the armed deadline (due) records nothing, so that the ring at the
// deadline finds the generation new and wakes the tree.
type alarm struct {
	timer    Timer
	tree     *Tree
	clock    Clock // the tree's, read once: the timer's goroutine reads it, not the tree's
	deadline time.Time
	armed    atomic.Uint64 // the generation the timer is armed for
	due      atomic.Int64  // its deadline, in UnixNano; stored before armed
	rang     atomic.Uint64 // the generation recorded by the last ring
	gen      uint64        // the current generation; only the ticking goroutine uses it
	wake     wakeClaim     // the wake-up of the last ring, taken back by stop
}

// set arms the alarm to ring after d, for a new activation.
func (a *alarm) set(n *Node, d time.Duration) {
	a.gen++
	a.bind(n)
	a.deadline = a.clock.Now().Add(d)
	a.due.Store(a.deadline.UnixNano())
	a.armed.Store(a.gen)
	if d <= 0 { // due now: ring at once, deterministically
		a.ring()
		return
	}
	if a.timer == nil {
		a.timer = a.clock.AfterFunc(d, a.ring)
		return
	}
	a.timer.Reset(d)
}

// bind notes the node's tree and its clock, once: the timer's goroutine reads them (a
// reload may give the tree another configuration, not the alarm another clock).
func (a *alarm) bind(n *Node) {
	if a.tree == nil {
		a.tree, a.clock = n.Tree(), n.Tree().Clock()
	}
}

// ring runs in the timer's goroutine: it must not touch the tree but to wake it.
func (a *alarm) ring() {
	g := a.armed.Load() // then due, which set stored before it: g's deadline or a later one
	if g == 0 || a.clock.Now().UnixNano() < a.due.Load() {
		return // nothing armed, or a late ring of an earlier activation
	}
	// Only ever move rang forward: a ring of an earlier activation that was delayed
	// must not overwrite the ring of the current one, nor wake the tree.
	for {
		r := a.rang.Load()
		if g <= r {
			return
		}
		if a.rang.CompareAndSwap(r, g) {
			break
		}
	}
	a.wake.post(a.tree)
}

// done reports whether the alarm rang for the current activation.
func (a *alarm) done() bool {
	return a.gen != 0 && a.rang.Load() == a.gen && !a.clock.Now().Before(a.deadline)
}

// stop cancels a pending alarm and ends the activation: a late ring is ignored, and
// the wake-up of a ring the tree has not acted on is taken back.
func (a *alarm) stop() {
	if a.timer != nil {
		a.timer.Stop()
	}
	a.gen++
	a.armed.Store(0) // nothing is armed: a late ring finds nothing to record
	if a.tree != nil {
		a.wake.revoke(a.tree)
	}
}

// millis converts a port's milliseconds to a duration.
func millis[T int | uint32](ms T) time.Duration { return time.Duration(ms) * time.Millisecond }

// saveState saves the alarm of an activation as the time left until its deadline on
// the tree's clock ("timer"), whether it rang ("rang") and whether the wake-up of its
// ring is still pending ("timerWake"). An alarm that was stopped, or never set, saves
// nothing.
func (a *alarm) saveState(w *stateWriter) {
	a.wake.saveState(w, "timerWake")
	if a.gen == 0 || a.armed.Load() != a.gen {
		return
	}
	w.text("timer", a.deadline.Sub(w.now).String())
	w.flag("rang", a.rang.Load() == a.gen)
}

// restoreState sets the alarm again for the time that was left, from the restoring
// tree's clock: a deadline that has passed rings at once. An alarm that had rung is
// restored rung, without a timer.
func (a *alarm) restoreState(n *Node, r *stateReader) {
	wake := r.flag("timerWake")
	left, active := r.duration("timer")
	rang := r.flag("rang")
	if rang && !active {
		r.fail(`field "rang" without "timer"`)
	}
	if !r.applying() {
		return
	}
	switch {
	case !active && a.gen != 0 && a.armed.Load() == a.gen:
		a.stop() // the restoring tree's last activation
	case !active:
	case !rang:
		a.set(n, left)
	default:
		a.gen++
		a.bind(n)
		a.deadline = r.now.Add(left)
		a.due.Store(a.deadline.UnixNano())
		a.armed.Store(a.gen)
		a.rang.Store(a.gen)
	}
	if wake {
		a.wake.post(n.Tree())
	}
}
