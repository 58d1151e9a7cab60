package bt

import "slices"

// Subscribers that choose, tick by tick, whether they hear the tree: see
// SubscribeBatchWhen.

// SubscribeBatchWhen is SubscribeBatch for a subscriber that chooses, tick by tick,
// whether it hears the tree's changes: a tracer that samples some runs of the tree and
// drops the others has nothing to do with the changes of a dropped run, and the tree
// need not record them.
//
// At each tick (TickOnce, TickExactlyOnce), when the tick is about to tick the root —
// after it halted the tree for an aborted tick and ran the functions given to Do; a
// tick that Stop ends does not tick the root and calls no hear — the tree calls hear on
// the ticking goroutine. fn hears the changes made from then on — that tick's, and those
// made between ticks after it (Halt, a snapshot's Restore, Reload) — if hear returned
// true, and none of them otherwise, until the next call. Until the first call fn hears,
// as SubscribeBatch's does. The root's status, which hear may read, tells a tick that
// begins a run (Idle) from one of a run under way (Running).
//
// While nobody hears the tree — its subscribers are all SubscribeBatchWhen's, and each
// hear said no — the tree records nothing: a tick costs what an unobserved tree's does,
// and the calls of hear. The tree switches between recording and not when who hears it
// changes, with a walk of the status bytes of its nodes (a few instructions a node),
// and the first switch back gets the recording's memory again; so hear's answer is
// best kept for a run of the tree, as a sampler's is. A subscriber that hears again
// after ticks it did not hear was not told of the changes in between: the first change
// it hears of a node may start from a status it was not told of (Change.Previous).
// Every other subscriber hears every change, in the order SubscribeBatch gives.
//
// hear must not tick or halt the tree, nor subscribe or cancel; a panic in hear stops
// the tick as an error, as a node's does. fn and the cancel function are as
// SubscribeBatch's; canceling a subscription that does not hear hands over nothing. A
// nil hear makes it SubscribeBatch; subscribing a nil fn does nothing.
func (t *Tree) SubscribeBatchWhen(fn func(Batch), hear func() bool) (cancel func()) {
	if fn == nil || hear == nil {
		return t.SubscribeBatch(fn)
	}
	w := &watcher{s: &subscriber{batch: fn}, hear: hear}
	unsub := t.subscribe(w.s)
	r := t.rareParts()
	r.watchers = append(slices.Clip(r.watchers), w)
	t.attention.Or(attnWatch)
	return func() {
		if w.gone {
			return
		}
		w.gone = true
		if !w.deaf {
			unsub()
		}
		r.watchers = slices.DeleteFunc(slices.Clone(r.watchers), func(x *watcher) bool { return x == w })
		if len(r.watchers) == 0 {
			t.attention.And(^uint32(attnWatch))
			r.spare = nil
		}
	}
}

// watcher is a subscriber of SubscribeBatchWhen.
type watcher struct {
	s    *subscriber
	hear func() bool
	deaf bool // hear said no: s is not among the tree's subscribers
	gone bool // canceled
}

// watchTick asks the subscribers of SubscribeBatchWhen whether they hear the tick under
// way, which is about to tick the root (attnWatch), and adds or removes those whose
// answer changed.
func (t *Tree) watchTick() {
	for _, w := range t.rare.watchers { // (a canceled one is gone from the next slice, not this one)
		if w.hear() == !w.deaf || w.gone {
			continue
		}
		if w.deaf = !w.deaf; w.deaf {
			o := t.obs
			t.unsubscribe(w.s)
			if t.obs == nil { // nobody hears: kept for when one does
				t.rare.spare = o
			}
			continue
		}
		if t.obs == nil {
			t.listen()
		}
		t.subscribe(w.s)
	}
}

// listen makes a tree that nobody heard record its changes again, during a tick, for
// a subscriber of SubscribeBatchWhen that hears it.
func (t *Tree) listen() {
	o := t.rare.spare
	t.rare.spare = nil
	if o == nil {
		o = &observation{buf: make([]Change, minBatch)}
	}
	o.n, o.each, o.batch = 0, nil, nil
	o.sorted()
	t.obs = o
	t.markObserved(true)
	t.beginBatch(true)
}
