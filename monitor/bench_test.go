package monitor

import (
	"testing"

	"github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
)

// benchTree is a small agent: a ReactiveSequence that checks a condition and runs a
// Sequence of ten actions, one of which is RUNNING three ticks out of four, then a
// script that writes an entry: a tick makes about a dozen changes.
func benchTree(b *testing.B) *bt.Tree {
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
