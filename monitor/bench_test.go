package monitor

import (
	"testing"

	"github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
)

// benchTree is a small agent: a ReactiveSequence that checks a condition and runs a
// Sequence of ten actions, one of which is RUNNING three ticks out of four, then a
// script that writes an entry: a tick makes about a dozen changes.
func benchTree(b testing.TB) *bt.Tree {
	var kids []*bt.Spec
	n := 0
	for i := range 10 {
		if i == 5 {
			kids = append(kids, bt.Action("Work", func() bt.Status {
				if n++; n%4 == 0 {
					return bt.Success
				}
				return bt.Running
			}))
			continue
		}
		kids = append(kids, bt.AlwaysSuccess())
	}
	kids = append(kids, bt.Script("count += 1"))
	tree, err := bt.NewTree(bt.ReactiveSequence(bt.Condition("Ok", func() bool { return true }), bt.Sequence(kids...)))
	if err != nil {
		b.Fatal(err)
	}
	if err := tree.Blackboard().Entry("count").Set(blackboard.Int(0)); err != nil {
		b.Fatal(err)
	}
	return tree
}

// BenchmarkTick is the cost of a tick on the ticking goroutine: of the tree alone, of
// the tree observed by a batch subscriber that does nothing, and of the tree with a
// monitor attached, without and with a browser connected (a client that takes every
// message, as the handler does; its work and the monitor's run on other goroutines).
func BenchmarkTick(b *testing.B) {
	b.Run("unobserved", func(b *testing.B) {
		tree := benchTree(b)
		b.ReportAllocs()
		for b.Loop() {
			tree.TickOnce()
		}
	})
	b.Run("subscribed", func(b *testing.B) {
		tree := benchTree(b)
		defer tree.SubscribeBatch(func(bt.Batch) {})()
		b.ReportAllocs()
		for b.Loop() {
			tree.TickOnce()
		}
	})
	b.Run("monitor-no-client", func(b *testing.B) {
		tree := benchTree(b)
		New().Add("t", tree)
		b.ReportAllocs()
		for b.Loop() {
			tree.TickOnce()
		}
	})
	b.Run("monitor-client", func(b *testing.B) {
		tree := benchTree(b)
		feed, _ := New().Add("t", tree)
		c, _ := feed.hub.join()
		done := make(chan struct{})
		go func() { // a browser that keeps up
			for {
				select {
				case <-c.kick:
					feed.hub.take(c)
				case <-done:
					return
				}
			}
		}()
		defer close(done)
		tree.TickOnce() // the feed starts observing the tree
		b.ReportAllocs()
		for b.Loop() {
			tree.TickOnce()
		}
	})
}

// BenchmarkTickObserved is the cost of a tick on the ticking goroutine alone while a
// browser is connected: the feed's copy of the changes and of the blackboard entries
// that changed, and the hand-off to the monitor, whose goroutine does the rest; here it
// runs between rounds of ticks, off the clock, so that it does not compete with the
// ticks for the processors.
func BenchmarkTickObserved(b *testing.B) {
	tree, h := observed(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if i%rounds == rounds-1 {
			b.StopTimer()
			h.drain()
			hold(h)
			b.StartTimer()
		}
		tree.TickOnce()
	}
}

// rounds is how many ticks observed queues before it drains (fewer than Buffer).
const rounds = 128

// observed returns benchTree with a monitor and a browser connected, the feed
// observing it, and the hub's goroutine held (see hold): ticks queue their frames until
// the caller drains them. The batches the frames use have been made and grown.
func observed(tb testing.TB) (*bt.Tree, *hub) {
	tree := benchTree(tb)
	feed, _ := New().Add("t", tree)
	h := feed.hub
	if _, ok := h.join(); !ok {
		tb.Fatal("join")
	}
	hold(h)
	for range rounds + 8 {
		tree.TickOnce() // the feed observes from the first
	}
	h.drain()
	if len(feed.hub.frames) < rounds {
		tb.Fatalf("%d frames", len(feed.hub.frames))
	}
	hold(h)
	return tree, h
}

// hold keeps the hub from draining its queue by itself: it acts as if it were draining.
func hold(h *hub) {
	h.qmu.Lock()
	h.draining = true
	h.qmu.Unlock()
}
