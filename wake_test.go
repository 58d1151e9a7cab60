package bt_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

// Item 3 of issue 13: a node that asks for a wake-up and is halted before the tree
// acted on it leaves no wake-up behind. Under KeepRunningUntilFailure, a SuccessUntil
// that succeeds at once and halts its running child made each stale wake-up re-tick the
// root, which started the child again: one TickOnce never returned.
func TestStaleWakeUpsAreDropped(t *testing.T) {
	ignoresCtx := func(starts *atomic.Int32) *Spec {
		return Async("Work", func(ctx context.Context, n *Node) (Status, error) {
			starts.Add(1)
			return Success, nil
		})
	}
	waitsForCtx := func(starts *atomic.Int32) *Spec {
		return Async("Work", func(ctx context.Context, n *Node) (Status, error) {
			starts.Add(1)
			<-ctx.Done()
			return Failure, nil
		})
	}
	for _, c := range []struct {
		name  string
		child func(starts *atomic.Int32) *Spec
	}{
		{"async action that waits for its context", waitsForCtx},
		{"async action that returns at once", ignoresCtx},
		{"AsyncSequence", func(*atomic.Int32) *Spec { return AsyncSequence(AlwaysSuccess(), AlwaysRunning()) }},
		{"SequenceWithMemory", func(*atomic.Int32) *Spec { return SequenceWithMemory(AlwaysSuccess(), AlwaysRunning()) }},
		{"Repeat", func(*atomic.Int32) *Spec { return Repeat(3, AlwaysSuccess()) }},
		{"RetryUntilSuccessful", func(*atomic.Int32) *Spec { return RetryUntilSuccessful(3, AlwaysFailure()) }},
		{"Delay 0", func(*atomic.Int32) *Spec { return Delay(0, AlwaysRunning()) }},
		{"a function leaf", func(*atomic.Int32) *Spec {
			return Action("Yield", func(n *Node) Status { n.WakeUp(); return Running })
		}},
		{"a function leaf with a port", func(*atomic.Int32) *Spec {
			return NewAction("Yield", func(n *Node) Status { n.WakeUp(); return Running }, InputPort[int]("p", "")).Spec()
		}},
		{"a user node", func(*atomic.Int32) *Spec {
			return (&Model{ID: "Yield", Kind: KindAction, New: func(*NodeConfig) (Behavior, error) {
				return yielder{}, nil
			}}).Spec()
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var starts atomic.Int32
				ticks := 0
				tree := mustTree(t, KeepRunningUntilFailure(Sequence(
					NewAction("Count", func(*Node) (Status, error) {
						if ticks++; ticks > 100 {
							return Idle, errors.New("the root was re-ticked 100 times")
						}
						return Success, nil
					}).Spec(),
					SuccessUntil(-1, c.child(&starts)))))
				s, err := tree.TickOnce()
				if s != Running || err != nil || ticks != 1 {
					t.Errorf("TickOnce: %v %v after %d ticks of the root, want Running after 1", s, err, ticks)
				}
				if n := starts.Load(); n > 1 {
					t.Errorf("the async work started %d times", n)
				}
				tree.Halt()
			})
		})
	}
}

type yielder struct{}

func (yielder) Tick(n *Node) Status { n.WakeUp(); return Running }

// The result of an async action collected by a tick consumes its wake-up: the tree is
// not ticked again for it.
func TestCollectingAnAsyncResultSpendsItsWakeUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := &bttest.Recorder{}
		tree := mustTree(t, Sequence(Async("Work", func(context.Context, *Node) (Status, error) { return Success, nil }),
			r.Leaf("A", "R")))
		if s, _ := tree.TickExactlyOnce(); s != Running {
			t.Fatal(s)
		}
		synctest.Wait() // the work is done, the tree woken
		if s, err := tree.TickOnce(); s != Running || err != nil {
			t.Fatal(s, err)
		}
		if log := r.Take(); log != "A:R" {
			t.Errorf("ticks of A: %q, want one", log)
		}
	})
}

// A wake-up that is still wanted is kept: an async action that finishes wakes a sleeping
// TickWhileRunning, also when another node's wake-up was taken back meanwhile.
func TestWakeUpsStillWantedAreKept(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		tree := mustTree(t, Parallel(-1, 1,
			Async("Work", func(context.Context, *Node) (Status, error) { <-release; return Success, nil }),
			SuccessUntil(-1, AsyncSequence(AlwaysSuccess(), AlwaysRunning()))))
		go func() {
			time.Sleep(time.Second)
			close(release)
		}()
		start := time.Now()
		s, err := tree.TickWhileRunning(context.Background(), time.Hour)
		if s != Success || err != nil || time.Since(start) != time.Second {
			t.Errorf("got %v %v after %v, want Success after 1s", s, err, time.Since(start))
		}
	})
}

// Item 11 of issue 24: Node.WakeUp, which an async action's goroutine calls when its
// work is done, is safe while the ticking goroutine sets and removes the node's tick
// functions between ticks (as the Groot2 publisher's breakpoints do): it must not read
// the node's dispatch, which they rewrite. Under -race (which .ci/run runs over every
// package) this failed at once.
func TestWakeUpWhileTickFunctionsChange(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		tree := mustTree(t, Async("Work", func(ctx context.Context, n *Node) (Status, error) {
			<-release
			return Success, nil // the goroutine calls n.WakeUp as it returns
		}))
		if s, err := tree.TickOnce(); s != Running || err != nil {
			t.Fatalf("first tick: %v %v", s, err)
		}
		work := tree.Root()
		close(release)
		// Nothing orders these with the goroutine's WakeUp: -race reports any word
		// that both touch, whichever comes first.
		work.SetPreTick(func(*Node) Status { return Idle })
		work.SetPostTick(func(_ *Node, s Status) Status { return s })
		work.SetPreTick(nil)
		work.SetPostTick(nil)
		synctest.Wait() // the work is done
		if s, err := tree.TickOnce(); s != Success || err != nil {
			t.Errorf("second tick: %v %v", s, err)
		}
	})
}
