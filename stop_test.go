package bt_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

// Item 8 of issue 13: another goroutine stops a tree that TickWhileRunning ticks: the
// async work is canceled at once, the tree halted by its ticking goroutine.
func TestStopFromAnotherGoroutine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		canceled := make(chan time.Time, 1)
		r := &bttest.Recorder{}
		tree := mustTree(t, Parallel(-1, 1, r.Leaf("A", "R"),
			Async("Work", func(ctx context.Context, n *Node) (Status, error) {
				<-ctx.Done()
				canceled <- time.Now()
				return Failure, nil
			})))
		type result struct {
			s   Status
			err error
		}
		done := make(chan result)
		start := time.Now()
		go func() {
			s, err := tree.TickWhileRunning(context.Background(), time.Hour)
			done <- result{s, err}
		}()
		go func() {
			time.Sleep(time.Minute)
			tree.Stop() // say, an HTTP handler
		}()
		res := <-done
		if res.s != Running || !errors.Is(res.err, ErrStopped) || time.Since(start) != time.Minute {
			t.Errorf("TickWhileRunning: %v %v after %v", res.s, res.err, time.Since(start))
		}
		if at := <-canceled; at.Sub(start) != time.Minute {
			t.Errorf("the work was canceled after %v", at.Sub(start))
		}
		if log := r.Take(); log != "A:R A:halt" || bttest.States(tree) != "I I I" {
			t.Errorf("log %q, states %q", log, bttest.States(tree))
		}
		// The next run starts afresh, with a context of its own.
		if s, err := tree.TickOnce(); s != Running || err != nil {
			t.Errorf("next run: %v %v", s, err)
		}
		tree.Halt()
	})
}

// A Stop that comes between ticks stops the next one, which halts instead of ticking.
func TestStopBeforeATick(t *testing.T) {
	r := &bttest.Recorder{}
	tree := mustTree(t, Sequence(r.Leaf("A", "R")))
	tree.TickOnce()
	tree.Stop()
	if s, err := tree.TickOnce(); s != Running || err != ErrStopped {
		t.Errorf("the tick after Stop: %v %v", s, err)
	}
	if log := r.Take(); log != "A:R A:halt" {
		t.Errorf("log %q", log)
	}
	if s, err := tree.TickExactlyOnce(); s != Running || err != nil || r.Take() != "A:R" {
		t.Errorf("then: %v %v", s, err)
	}
}

// A Stop that comes while TickOnce re-ticks stops it before the next re-tick.
func TestStopWhileReticking(t *testing.T) {
	r := &bttest.Recorder{}
	var tree *Tree
	tree = mustTree(t, AsyncSequence(
		Action("Stop", func() Status { tree.Stop(); return Success }),
		r.Leaf("B", "S")))
	if s, err := tree.TickOnce(); s != Running || err != ErrStopped {
		t.Errorf("TickOnce: %v %v", s, err)
	}
	if log := r.Take(); log != "" {
		t.Errorf("B was ticked: %q", log)
	}
}

// A Halt answers a Stop: the next tick starts a run, with a context that is not
// canceled.
func TestHaltAnswersStop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var canceled bool
		release := make(chan struct{})
		tree := mustTree(t, Async("Work", func(ctx context.Context, n *Node) (Status, error) {
			select {
			case <-ctx.Done():
				canceled = true
			case <-release:
			}
			return Success, nil
		}))
		tree.TickOnce()
		tree.Stop()
		if err := tree.Halt(); err != nil {
			t.Fatal(err)
		}
		canceled = false
		if s, err := tree.TickOnce(); s != Running || err != nil {
			t.Fatalf("the tick after Stop and Halt: %v %v", s, err)
		}
		close(release)
		synctest.Wait()
		if s, err := tree.TickOnce(); s != Success || err != nil || canceled {
			t.Errorf("the new run: %v %v, canceled %v", s, err, canceled)
		}
	})
}
