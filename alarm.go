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
// Each activation has a generation number. The timer function stores the generation
// it was armed for, so a timer that rings just as it is stopped or re-armed cannot be
// mistaken for the current activation's.
type alarm struct {
	timer Timer
	tree  *Tree
	armed atomic.Uint64 // the generation the timer is armed for
	rang  atomic.Uint64 // the generation whose timer rang
	gen   uint64        // the current generation; only the ticking goroutine uses it
}

// set arms the alarm to ring after d, for a new activation. Read the tree's clock
// only here, never per tick.
func (a *alarm) set(n *Node, d time.Duration) {
	a.gen++
	a.armed.Store(a.gen)
	if a.timer == nil {
		a.tree = n.Tree()
		a.timer = a.tree.Clock().AfterFunc(d, a.ring)
		return
	}
	a.timer.Reset(d)
}

// ring runs in the timer's goroutine: it must not touch the tree but to wake it.
func (a *alarm) ring() {
	a.rang.Store(a.armed.Load())
	a.tree.WakeUp()
}

// done reports whether the alarm rang for the current activation.
func (a *alarm) done() bool { return a.gen != 0 && a.rang.Load() == a.gen }

// stop cancels a pending alarm and ends the activation: a late ring is ignored.
func (a *alarm) stop() {
	if a.timer != nil {
		a.timer.Stop()
	}
	a.gen++
	a.armed.Store(a.gen)
}

// millis converts a port's milliseconds to a duration.
func millis[T int | uint32](ms T) time.Duration { return time.Duration(ms) * time.Millisecond }
