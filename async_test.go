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

// stubborn returns an async action that ignores its context until release is closed.
func stubborn(release chan struct{}) *Spec {
	return Async("Stubborn", func(ctx context.Context, n *Node) (Status, error) {
		<-release
		return Success, nil
	})
}

// Item 4 of issue 13: with a halt timeout, halting an async action that ignores its
// context gives up after the timeout, with an error naming the node; the tree goes on.
func TestHaltTimeoutAbandonsAStubbornGoroutine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		tree := mustTree(t, Sequence(stubborn(release)), WithHaltTimeout(time.Second))
		tree.TickOnce()
		start := time.Now()
		err := tree.Halt()
		if !errors.Is(err, ErrAbandoned) || err.Error() != "node Stubborn::2 (Stubborn): did not return within 1s of being halted: goroutine abandoned" {
			t.Errorf("Halt: %v", err)
		}
		if d := time.Since(start); d != time.Second {
			t.Errorf("Halt took %v", d)
		}
		if got := bttest.States(tree); got != "I I" {
			t.Errorf("states %q", got)
		}
		// A new run starts new work; the abandoned goroutine's end wakes nothing up.
		if s, _ := tree.TickOnce(); s != Running {
			t.Fatal(s)
		}
		close(release)
		synctest.Wait()
		if pending := PendingWakeUps(tree); pending != 1 {
			t.Errorf("%d wake-ups pending, want the new run's", pending)
		}
		if s, err := tree.TickOnce(); s != Success || err != nil {
			t.Errorf("the new run: %v %v", s, err)
		}
	})
}

// Timeout and TickWhileRunning's context halt their async child: with a halt timeout,
// neither hangs on a child that ignores its context.
func TestHaltTimeoutBoundsTimeoutAndTickWhileRunning(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		defer close(release)
		tree := mustTree(t, Timeout(100*time.Millisecond, stubborn(release)), WithHaltTimeout(time.Second))
		start := time.Now()
		s, err := tree.TickWhileRunning(context.Background(), time.Hour)
		if s != Idle || !errors.Is(err, ErrAbandoned) || time.Since(start) != 1100*time.Millisecond {
			t.Errorf("Timeout: %v %v after %v", s, err, time.Since(start))
		}

		tree = mustTree(t, stubborn(release), WithHaltTimeout(time.Second))
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		start = time.Now()
		s, err = tree.TickWhileRunning(ctx, time.Hour)
		if s != Running || !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, ErrAbandoned) ||
			time.Since(start) != 1100*time.Millisecond {
			t.Errorf("TickWhileRunning: %v %v after %v", s, err, time.Since(start))
		}
	})
}

// Without a halt timeout, Halt waits as long as it takes.
func TestHaltWaitsByDefault(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		tree := mustTree(t, stubborn(release))
		tree.TickOnce()
		go func() {
			time.Sleep(time.Hour)
			close(release)
		}()
		start := time.Now()
		if err := tree.Halt(); err != nil || time.Since(start) != time.Hour {
			t.Errorf("Halt: %v after %v", err, time.Since(start))
		}
	})
}

// Item 7: under WithRepanic, a panic in an async action's goroutine is raised again by
// the tick that collects it, in the ticking goroutine, as the same value.
func TestRepanicFromAnAsyncAction(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tree := mustTree(t, Sequence(Async("Boom", func(context.Context, *Node) (Status, error) { panic("kaput") })),
			WithRepanic())
		tree.TickExactlyOnce()
		synctest.Wait()
		func() {
			defer func() {
				if r := recover(); r != "kaput" {
					t.Errorf("recovered %v, want kaput", r)
				}
			}()
			tree.TickOnce()
			t.Error("no panic")
		}()
		// The tree starts again from a clean state.
		if got := bttest.States(tree); got != "R R" {
			t.Errorf("states after the panic %q", got)
		}
		if err := tree.Halt(); err != nil || bttest.States(tree) != "I I" {
			t.Errorf("Halt: %v, states %q", err, bttest.States(tree))
		}
	})
}

// A panic of an async action that is being halted is reported by the halt.
func TestAsyncPanicWhileHalted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tree := mustTree(t, Async("Boom", func(ctx context.Context, _ *Node) (Status, error) {
			<-ctx.Done()
			panic("on the way out")
		}))
		tree.TickOnce()
		err := tree.Halt()
		var pe *PanicError
		if !errors.As(err, &pe) || err.Error() != "node Boom::1 (Boom): panic: on the way out" {
			t.Errorf("Halt: %v", err)
		}
	})
}

type ctxKey string

// Item 5 of issue 29: OnAsyncStart's functions decorate the context an async action's
// goroutine receives, in the order they were registered, on the ticking goroutine and
// knowing the node; halting still cancels the decorated context; canceling a
// registration stops it.
func TestOnAsyncStartDecoratesTheWorksContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		got := make(chan string, 1)
		work := Async("Work", func(ctx context.Context, n *Node) (Status, error) {
			a, _ := ctx.Value(ctxKey("a")).(string)
			b, _ := ctx.Value(ctxKey("b")).(string)
			got <- a + "," + b
			<-ctx.Done()
			return Failure, nil
		})
		tree := mustTree(t, Sequence(work))
		var saw []string
		tree.OnAsyncStart(func(ctx context.Context, n *Node) context.Context {
			saw = append(saw, n.Path()+" "+n.Status().String())
			return context.WithValue(ctx, ctxKey("a"), "A")
		})
		cancelB := tree.OnAsyncStart(func(ctx context.Context, n *Node) context.Context {
			return context.WithValue(ctx, ctxKey("b"), "B:"+ctx.Value(ctxKey("a")).(string))
		})
		tree.OnAsyncStart(nil)
		if s, err := tree.TickOnce(); s != Running || err != nil {
			t.Fatal(s, err)
		}
		if v := <-got; v != "A,B:A" {
			t.Errorf("the work's context holds %q, want both decorations, in order", v)
		}
		if len(saw) != 1 || saw[0] != "Work::2 IDLE" {
			t.Errorf("called with %q, want the node, still IDLE", saw)
		}
		if err := tree.Halt(); err != nil { // waits for the work: the context was canceled
			t.Fatal(err)
		}
		cancelB()
		cancelB()
		tree.TickOnce()
		if v := <-got; v != "A," {
			t.Errorf("after a cancel, the work's context holds %q", v)
		}
		tree.Halt()
	})
}

// The wake-up of work that ends at once is never lost: the tick that consumes it
// collects the result, and TickWhileRunning does not sleep out its period. (The work
// posted its wake-up before it marked itself done, and a tick that came in between
// consumed the wake-up, found the work not done and left the loop asleep; seen under
// the race detector.)
func TestAsyncWorkDoneAtOnceWakesTheLoop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for i := range 2000 {
			tree := mustTree(t, Sequence(Async("A", func(context.Context, *Node) (Status, error) { return Success, nil })))
			start := time.Now()
			if s, err := tree.TickWhileRunning(context.Background(), time.Hour); s != Success || err != nil {
				t.Fatal(s, err)
			}
			if d := time.Since(start); d != 0 {
				t.Fatalf("run %d slept %v: the wake-up was lost", i, d)
			}
		}
	})
}
