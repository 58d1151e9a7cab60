package bt_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

func TestObserverSeesEveryChange(t *testing.T) {
	r := &bttest.Recorder{}
	tree, err := NewTree(Sequence(r.Leaf("A", "S"), r.Leaf("B", "R S")))
	if err != nil {
		t.Fatal(err)
	}
	var events []string
	cancel := tree.Subscribe(func(ev StatusChange) {
		events = append(events, fmt.Sprintf("%s:%s>%s", ev.Node.Name(), bttest.Letter(ev.Previous), bttest.Letter(ev.Status)))
	})
	for range 2 {
		if _, err := tree.TickOnce(); err != nil {
			t.Fatal(err)
		}
	}
	want := "Sequence:I>R A:I>S B:I>R | B:R>S A:S>I B:S>I Sequence:R>S Sequence:S>I"
	got := strings.Join(events[:3], " ") + " | " + strings.Join(events[3:], " ")
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	cancel()
	events = nil
	tree.TickOnce()
	if len(events) != 0 {
		t.Errorf("events after cancel: %v", events)
	}
}

func TestObserverTimestampsComeFromTheClock(t *testing.T) {
	clock := bttest.NewClock(epoch)
	tree, err := NewTree(AlwaysSuccessForTest(), WithClock(clock))
	if err != nil {
		t.Fatal(err)
	}
	var got []time.Time
	tree.Subscribe(func(ev StatusChange) { got = append(got, ev.Time) })
	tree.TickOnce()
	if len(got) != 2 || !got[0].Equal(clock.Now()) {
		t.Errorf("got %v", got)
	}
}

func AlwaysSuccessForTest() *Spec { return Action("S", func() Status { return Success }) }

func TestPanicBecomesANodeError(t *testing.T) {
	tree, err := NewTree(Sequence(Action("ok", func() Status { return Success }),
		Action("boom", func() Status { panic("kaput") }).Named("the bomb")))
	if err != nil {
		t.Fatal(err)
	}
	_, err = tree.TickOnce()
	var ne *NodeError
	var pe *PanicError
	if !errors.As(err, &ne) || ne.Path != "the bomb" || ne.ID != "boom" || !errors.As(err, &pe) || pe.Value != "kaput" {
		t.Fatalf("got %#v", err)
	}
	if !strings.Contains(string(pe.Stack), "tree_test.go") {
		t.Errorf("the stack does not show where the panic happened:\n%s", pe.Stack)
	}
	if got := err.Error(); got != "node the bomb (boom): panic: kaput" {
		t.Errorf("message %q", got)
	}
}

func TestPanicInnermostNodeIsReported(t *testing.T) {
	inner := Action("inner", func() Status { panic(errors.New("deep")) })
	outer := (&Model{ID: "outer", Kind: KindDecorator, New: func(*NodeConfig) (Behavior, error) {
		return passBehavior{}, nil
	}}).Spec(inner)
	tree, _ := NewTree(outer)
	_, err := tree.TickOnce()
	var ne *NodeError
	if !errors.As(err, &ne) || ne.ID != "inner" {
		t.Fatalf("got %v", err)
	}
}

func TestRepanic(t *testing.T) {
	tree, _ := NewTree(Action("boom", func() Status { panic("kaput") }), WithRepanic())
	defer func() {
		if r := recover(); r != "kaput" {
			t.Errorf("recovered %v", r)
		}
	}()
	tree.TickOnce()
	t.Error("no panic")
}

func TestActionErrorAbortsTheTick(t *testing.T) {
	ticked := false
	tree, _ := NewTree(Sequence(
		NewAction("fails", func(n *Node) (Status, error) { return Failure, errors.New("sensor offline") }).Spec(),
		Action("after", func() Status { ticked = true; return Success })))
	_, err := tree.TickOnce()
	if err == nil || err.Error() != "node fails::2 (fails): sensor offline" || ticked {
		t.Fatalf("got %v (ticked after: %v)", err, ticked)
	}
}

func TestConditions(t *testing.T) {
	yes := Condition("yes", func() bool { return true })
	no := Condition("no", func(*Node) bool { return false })
	bad := Condition("bad", func(*Node) (bool, error) { return false, errors.New("no data") })
	for _, c := range []struct {
		spec *Spec
		want Status
		err  string
	}{{yes, Success, ""}, {no, Failure, ""}, {bad, Idle, "node bad::1 (bad): no data"}} {
		tree, _ := NewTree(c.spec)
		s, err := tree.TickOnce()
		if s != c.want || (err == nil) != (c.err == "") || (err != nil && err.Error() != c.err) {
			t.Errorf("%s: got %v, %v", c.spec.Model().ID, s, err)
		}
		if tree.Root().Kind() != KindCondition {
			t.Error("kind")
		}
	}
}

type door struct{ log *[]string }

func (d *door) OnStart(*Node) Status { *d.log = append(*d.log, "start"); return Running }

func (d *door) OnRunning(*Node) Status { *d.log = append(*d.log, "running"); return Success }

func (d *door) OnHalted(*Node) { *d.log = append(*d.log, "halted") }

func TestStatefulAction(t *testing.T) {
	var log []string
	tree, _ := NewTree(Stateful("Door", func() StatefulAction { return &door{&log} }))
	for _, want := range []Status{Running, Success, Running} {
		if s, _ := tree.TickOnce(); s != want {
			t.Fatalf("got %v, want %v", s, want)
		}
	}
	if err := tree.Halt(); err != nil {
		t.Fatal(err)
	}
	tree.Halt() // not running: OnHalted is not called again
	tree.TickOnce()
	if got := strings.Join(log, " "); got != "start running start halted start" {
		t.Errorf("got %s", got)
	}
}

func TestTickOnceRerunsOnlyAfterAWakeUp(t *testing.T) {
	r := &bttest.Recorder{}
	tree, _ := NewTree(r.Leaf("A", "R R S"))
	if s, _ := tree.TickOnce(); s != Running || r.Take() != "A:R" {
		t.Fatal("first tick")
	}
	tree.WakeUp() // e.g. an async action finished between ticks
	if s, _ := tree.TickOnce(); s != Success || r.Take() != "A:R A:S" {
		t.Fatal("a pending wake-up re-ticks a Running root")
	}
	if tree.Status() != Idle {
		t.Error("the root is reset after it completed")
	}
}

func TestEmptyTree(t *testing.T) {
	var tree Tree
	if _, err := tree.TickOnce(); err != ErrEmptyTree {
		t.Error(err)
	}
	if _, err := NewTree(nil); err == nil {
		t.Error("nil spec")
	}
}

func TestAsyncActionWakesTheTree(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		tree, _ := NewTree(Sequence(Async("Work", func(ctx context.Context, n *Node) (Status, error) {
			<-release
			return Success, nil
		}), Action("After", func() Status { return Success })))
		if s, err := tree.TickOnce(); s != Running || err != nil {
			t.Fatal(s, err)
		}
		if s, _ := tree.TickOnce(); s != Running {
			t.Fatal("still running")
		}
		close(release)
		synctest.Wait()
		start := time.Now()
		s, err := tree.TickWhileRunning(context.Background(), time.Hour)
		if s != Success || err != nil || time.Since(start) != 0 {
			t.Fatal(s, err, time.Since(start))
		}
	})
}

func TestAsyncHaltCancelsAndWaits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var returned atomic.Bool
		tree, _ := NewTree(Async("Work", func(ctx context.Context, n *Node) (Status, error) {
			<-ctx.Done()
			time.Sleep(time.Second) // cleanup takes a while: Halt must wait for it
			returned.Store(true)
			return Failure, ctx.Err()
		}))
		tree.TickOnce()
		if err := tree.Halt(); err != nil {
			t.Fatal(err)
		}
		if !returned.Load() {
			t.Fatal("Halt returned before the goroutine did")
		}
		// A new activation starts new work.
		if s, _ := tree.TickOnce(); s != Running {
			t.Fatal(s)
		}
		tree.Halt()
	}) // synctest fails the test if a goroutine of the bubble is left behind
}

func TestAsyncErrorsAndPanics(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for _, c := range []struct {
			fn   AsyncFunc
			want string
		}{
			{func(context.Context, *Node) (Status, error) { return Failure, errors.New("io") }, "node W::1 (W): io"},
			{func(context.Context, *Node) (Status, error) { panic("oops") }, "node W::1 (W): panic: oops"},
			{func(context.Context, *Node) (Status, error) { return Running, nil }, "node W::1 (W): async action returned RUNNING"},
		} {
			tree, _ := NewTree(Async("W", c.fn))
			tree.TickExactlyOnce() // TickOnce could collect the result at once, woken up by it
			synctest.Wait()
			if _, err := tree.TickOnce(); err == nil || err.Error() != c.want {
				t.Errorf("got %v, want %s", err, c.want)
			}
		}
	})
}

func TestTickWhileRunningSleepsThePeriod(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := &bttest.Recorder{}
		tree, _ := NewTree(r.Leaf("A", "R R R S"))
		start := time.Now()
		s, err := tree.TickWhileRunning(context.Background(), 50*time.Millisecond)
		if s != Success || err != nil {
			t.Fatal(s, err)
		}
		if d := time.Since(start); d != 150*time.Millisecond {
			t.Errorf("took %v, want 3 periods", d)
		}
	})
}

func TestTickWhileRunningWakeUpCutsTheSleep(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := &bttest.Recorder{}
		tree, _ := NewTree(r.Leaf("A", "R S"))
		go func() {
			time.Sleep(10 * time.Millisecond)
			tree.WakeUp()
		}()
		start := time.Now()
		s, _ := tree.TickWhileRunning(context.Background(), time.Hour)
		if s != Success || time.Since(start) != 10*time.Millisecond {
			t.Errorf("got %v after %v", s, time.Since(start))
		}
	})
}

func TestTickWhileRunningStopsWithTheContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := &bttest.Recorder{}
		tree, _ := NewTree(Sequence(r.Leaf("A", "R")))
		ctx, cancel := context.WithTimeout(context.Background(), 25*time.Millisecond)
		defer cancel()
		s, err := tree.TickWhileRunning(ctx, 10*time.Millisecond)
		if s != Running || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatal(s, err)
		}
		if got := r.Take(); got != "A:R A:R A:R A:halt" || tree.Status() != Idle {
			t.Errorf("got %s, root %v", got, tree.Status())
		}
	})
}

func TestSleep(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tree, _ := NewTree(AlwaysSuccess())
		start := time.Now()
		if woken, err := tree.Sleep(context.Background(), time.Second); woken || err != nil || time.Since(start) != time.Second {
			t.Errorf("plain sleep: %v %v %v", woken, err, time.Since(start))
		}
		tree.WakeUp()
		if woken, err := tree.Sleep(context.Background(), time.Second); !woken || err != nil || time.Since(start) != time.Second {
			t.Errorf("pending wake-up: %v %v %v", woken, err, time.Since(start))
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := tree.Sleep(ctx, time.Second); err != context.Canceled {
			t.Errorf("canceled: %v", err)
		}
	})
}

// TestAsyncTickedAgainBeforeReset: a parent may tick a completed child again before
// resetting it (WhileDoElse, with its condition): the work is not started again.
func TestAsyncTickedAgainBeforeReset(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var starts atomic.Int32
		cond := Async("Check", func(ctx context.Context, n *Node) (Status, error) {
			starts.Add(1)
			return Success, nil
		})
		r := &bttest.Recorder{}
		tree, _ := NewTree(WhileDoElse(cond, r.Leaf("D", "R R S")))
		for range 4 {
			tree.TickExactlyOnce()
			synctest.Wait()
		}
		if n := starts.Load(); n != 1 {
			t.Errorf("the work started %d times, want 1", n)
		}
		if got := r.Take(); got != "D:R D:R D:S" {
			t.Errorf("branch ticks %q", got)
		}
	})
}

// A tick stopped by an error leaves the nodes as they were, to look at — the nodes it
// interrupted Running — and the next tick starts from a clean tree: Running nodes
// halted, every status reset.
func TestTickAfterAnErrorStartsAfresh(t *testing.T) {
	r := &bttest.Recorder{}
	boom := true
	tree := mustTree(t, Sequence(r.Leaf("A", "S"), r.Leaf("B", "S"), r.Leaf("C", "K S"),
		Action("D", func() Status {
			if boom {
				boom = false
				panic("kaput")
			}
			return Success
		})))
	if _, err := tree.TickOnce(); err == nil {
		t.Fatal("no error")
	}
	if got := bttest.States(tree); got != "R S S I I" {
		t.Errorf("after the error: states %q", got)
	}
	if s, err := tree.TickOnce(); s != Success || err != nil {
		t.Fatalf("second tick: %v %v", s, err)
	}
	if got := bttest.States(tree); got != "I I I I I" {
		t.Errorf("after the second tick: states %q", got)
	}
}

func TestHaltAfterAnErrorHaltsRunningNodes(t *testing.T) {
	r := &bttest.Recorder{}
	tree := mustTree(t, Parallel(2, 1, r.Leaf("A", "R"),
		Action("B", func() Status { panic("kaput") })))
	if _, err := tree.TickOnce(); err == nil {
		t.Fatal("no error")
	}
	r.Take()
	if err := tree.Halt(); err != nil {
		t.Fatal(err)
	}
	if log := r.Take(); log != "A:halt" {
		t.Errorf("halt log %q, want A:halt", log)
	}
	if got := bttest.States(tree); got != "I I I" {
		t.Errorf("states %q", got)
	}
}

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

// Item 12 of issue 24: a Stop that comes during a tick ends that tick's run with
// ErrStopped — also when the async work it canceled returned the context's error
// before the tick reached it, which made the tick fail with "context canceled" — and
// is spent: the next run is not stopped.
func TestStopDuringATick(t *testing.T) {
	for _, c := range []struct {
		name string
		work AsyncFunc
		want Status // of the tick Stop came during
	}{
		{"work that returns the context's error", func(ctx context.Context, n *Node) (Status, error) {
			<-ctx.Done()
			return Failure, ctx.Err()
		}, Running},
		{"work that fails", func(ctx context.Context, n *Node) (Status, error) {
			<-ctx.Done()
			return Failure, nil
		}, Failure}, // the run completed, failing, in the tick
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var tree *Tree
				stop := false
				tree = mustTree(t, ReactiveSequence(
					Action("Handler", func() Status {
						if stop {
							go tree.Stop()  // another goroutine, during the tick
							synctest.Wait() // the work saw its context canceled and returned
						}
						return Success
					}),
					Async("Wait", c.work)))
				if s, err := tree.TickOnce(); s != Running || err != nil {
					t.Fatalf("first tick: %v %v", s, err)
				}
				stop = true
				if s, err := tree.TickOnce(); s != c.want || err != ErrStopped {
					t.Errorf("the tick Stop came during: %v %v, want %v %v", s, err, c.want, ErrStopped)
				}
				if got := bttest.States(tree); got != "I I I" {
					t.Errorf("states %q after the stop", got)
				}
				stop = false
				if s, err := tree.TickOnce(); s != Running || err != nil {
					t.Errorf("the next run: %v %v", s, err)
				}
				tree.Halt()
			})
		})
	}
}

// A Stop that comes during the tick that completes the run ends that run too: the
// tick returns the root's status with ErrStopped, and the next run is not stopped.
func TestStopDuringTheLastTick(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var tree *Tree
		stop := true
		tree = mustTree(t, Sequence(Action("Handler", func() Status {
			if stop {
				go tree.Stop()
				synctest.Wait()
			}
			return Success
		})))
		if s, err := tree.TickOnce(); s != Success || err != ErrStopped {
			t.Errorf("the tick Stop came during: %v %v", s, err)
		}
		stop = false
		if s, err := tree.TickOnce(); s != Success || err != nil {
			t.Errorf("the next run: %v %v", s, err)
		}
	})
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

// TestNestedTick: a node whose code ticks its own tree gets an error, and the tick it
// runs in goes on as if it had not asked.
func TestNestedTick(t *testing.T) {
	var tree *Tree
	var nested error
	tree = mustTree(t, Sequence(Action("A", func() Status {
		_, nested = tree.TickOnce()
		return Success
	}), AlwaysSuccess()))
	if s, err := tree.TickOnce(); s != Success || err != nil {
		t.Fatalf("the tick: %v %v", s, err)
	}
	if nested == nil || !strings.Contains(nested.Error(), "ticks do not nest") {
		t.Errorf("the nested tick: %v", nested)
	}
	if s, err := tree.TickOnce(); s != Success || err != nil {
		t.Errorf("the next tick: %v %v", s, err)
	}
}
