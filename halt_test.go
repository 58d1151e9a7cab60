package bt_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

// failing returns an action whose ticks fail with an error (a tick error, not Failure).
func failing(name string) *Spec {
	return NewAction(name, func(*Node) (Status, error) { return Idle, errors.New("broken") }).Spec()
}

// Item 1 of issue 13: a Sequence stores the status of a child that passed only when it
// must. When a later child stops the tick with an error, a child that was Running when
// the tick began must not look Running to the halt that follows, observed or not.
func TestErrorAfterAChildThatWasRunningPassed(t *testing.T) {
	for _, c := range []struct {
		name string
		tree func(r *bttest.Recorder) *Spec
	}{
		{"Sequence", func(r *bttest.Recorder) *Spec { return Sequence(r.Stateful("A", "R S"), failing("B")) }},
		{"Fallback", func(r *bttest.Recorder) *Spec { return Fallback(r.Stateful("A", "R F"), failing("B")) }},
		{"nested", func(r *bttest.Recorder) *Spec {
			return Sequence(Fallback(r.Stateful("A", "R F"), r.Leaf("C", "S")), failing("B"))
		}},
		{"SequenceWithMemory, skipped", func(r *bttest.Recorder) *Spec {
			return SequenceWithMemory(r.Stateful("A", "R K"), failing("B"))
		}},
	} {
		var after [2]string // the statuses the error left
		for i, observed := range []bool{false, true} {
			r := &bttest.Recorder{}
			tree := mustTree(t, c.tree(r))
			if observed {
				tree.Subscribe(func(StatusChange) {})
			}
			name := c.name + map[bool]string{false: "", true: " observed"}[observed]
			if s, err := tree.TickOnce(); s != Running || err != nil {
				t.Fatalf("%s: first tick %v %v", name, s, err)
			}
			if _, err := tree.TickOnce(); err == nil {
				t.Fatalf("%s: no error", name)
			}
			after[i] = bttest.States(tree)
			r.Take()
			if err := tree.Halt(); err != nil {
				t.Fatalf("%s: halt: %v", name, err)
			}
			if log := r.Take(); log != "" {
				t.Errorf("%s: halting after the error called %q; A had completed", name, log)
			}
		}
		if after[0] != after[1] {
			t.Errorf("%s: the error left %q, observed %q", c.name, after[0], after[1])
		}
	}
}

// The nodes a stopped tick was in the middle of are halted afterwards, with their
// _onHalted scripts, whether or not the tree is observed (a control marks itself
// Running at its start only when observers must see it).
func TestAnErrorInterruptsTheNodesAboveIt(t *testing.T) {
	for _, c := range []struct {
		name string
		tree func(r *bttest.Recorder, note func(string) func(*Node)) *Spec
		want string // the log of the Halt after the error
	}{
		{"sequence", func(r *bttest.Recorder, note func(string) func(*Node)) *Spec {
			return Sequence(r.Leaf("A", "S"), failing("B")).Post(OnHalted, note("Seq.onHalted"))
		}, "Seq.onHalted"},
		{"the failing node's pre-condition", func(r *bttest.Recorder, note func(string) func(*Node)) *Spec {
			return Sequence(Sequence(r.Leaf("A", "S")).Post(OnHalted, note("Inner.onHalted")).
				Script(SkipIf, "nope == 1")).Post(OnHalted, note("Seq.onHalted"))
		}, "Seq.onHalted"},
		{"a Go pre-condition that panics", func(r *bttest.Recorder, note func(string) func(*Node)) *Spec {
			return Sequence(Sequence(r.Leaf("A", "S")).Post(OnHalted, note("Inner.onHalted")).
				Pre(SkipIf, func(*Node) bool { panic("no") })).Post(OnHalted, note("Seq.onHalted"))
		}, "Seq.onHalted"},
		{"decorators", func(r *bttest.Recorder, note func(string) func(*Node)) *Spec {
			return Inverter(Precondition("true", Failure, failing("B")).Post(OnHalted, note("Pre.onHalted"))).
				Post(OnHalted, note("Inv.onHalted"))
		}, "Pre.onHalted Inv.onHalted"},
		{"a stateful action that failed to start", func(r *bttest.Recorder, note func(string) func(*Node)) *Spec {
			return Sequence(Stateful("A", func() StatefulAction { return panicky{r} })).Post(OnHalted, note("Seq.onHalted"))
		}, "Seq.onHalted"},
	} {
		var logs [2]string
		for i, observed := range []bool{false, true} {
			r := &bttest.Recorder{}
			note := func(what string) func(*Node) { return func(*Node) { r.Log(what) } }
			tree := mustTree(t, c.tree(r, note))
			if observed {
				tree.Subscribe(func(StatusChange) {})
			}
			if _, err := tree.TickOnce(); err == nil {
				t.Fatalf("%s: no error", c.name)
			}
			r.Take()
			if err := tree.Halt(); err != nil {
				t.Fatalf("%s: halt: %v", c.name, err)
			}
			logs[i] = r.Take()
			if got := bttest.States(tree); strings.Trim(got, "I ") != "" {
				t.Errorf("%s: states after Halt %q", c.name, got)
			}
		}
		if logs[0] != c.want || logs[1] != c.want {
			t.Errorf("%s: halt logs %q (unobserved), %q (observed), want %q", c.name, logs[0], logs[1], c.want)
		}
	}
}

type panicky struct{ r *bttest.Recorder }

func (p panicky) OnStart(*Node) Status   { panic("cannot start") }
func (p panicky) OnRunning(*Node) Status { return Running }
func (p panicky) OnHalted(*Node)         { p.r.Log("A:halted") }

// Item 2: Halt halts the whole tree whatever fails on the way, and reports every
// failure, naming its node; a later Halt has nothing left to do.
func TestHaltGoesOnWhateverFails(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var live atomic.Int32
		work := Async("Work", func(ctx context.Context, n *Node) (Status, error) {
			live.Add(1)
			defer live.Add(-1)
			<-ctx.Done()
			return Failure, nil
		})
		r := &bttest.Recorder{}
		tree := mustTree(t, Parallel(-1, 1,
			TryCatch(true, r.Leaf("Try", "R"), failing("Catch")),
			Sequence(r.Leaf("A", "R")).Script(OnHalted, "nope = 1").Named("seq"),
			work,
			r.Stateful("Last", "R"),
		))
		if s, err := tree.TickOnce(); s != Running || err != nil {
			t.Fatal(s, err)
		}
		synctest.Wait()
		if live.Load() != 1 {
			t.Fatal("the async action did not start")
		}
		r.Take()
		err := tree.Halt()
		want := "node Catch::4 (Catch): broken\nnode seq (Sequence): _onHalted: "
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Fatalf("Halt: %v\nwant the errors of Catch and seq", err)
		}
		var ne *NodeError
		if !errors.As(err, &ne) || ne.Path != "Catch::4" {
			t.Errorf("errors.As finds %v", ne)
		}
		if log := r.Take(); log != "Try:halt A:halt Last:halted" {
			t.Errorf("halted %q", log)
		}
		synctest.Wait()
		if live.Load() != 0 {
			t.Error("the async action's goroutine was not canceled")
		}
		if got := bttest.States(tree); strings.Trim(got, "I ") != "" {
			t.Errorf("states after Halt %q", got)
		}
		if err := tree.Halt(); err != nil {
			t.Errorf("a second Halt: %v", err)
		}
	})
}

// A panicking observer does not stop Halt either.
func TestHaltGoesOnWhenAnObserverPanics(t *testing.T) {
	r := &bttest.Recorder{}
	tree := mustTree(t, Parallel(-1, 1, r.Leaf("A", "R"), r.Leaf("B", "R")))
	tree.TickOnce()
	r.Take()
	tree.Subscribe(func(ev StatusChange) {
		if ev.Node.Name() == "A" {
			panic("observer down")
		}
	})
	err := tree.Halt()
	if err == nil || err.Error() != "node A::2 (A): panic: observer down" {
		t.Errorf("Halt: %v", err)
	}
	if log := r.Take(); log != "A:halt B:halt" {
		t.Errorf("halted %q", log)
	}
	if got := bttest.States(tree); got != "I I I" {
		t.Errorf("states %q", got)
	}
}

// A halt during a tick goes on too: every node under the halted one is halted, then
// the failure stops the tick — whether a control halts the node or its own _while
// does (a _while used to drop what failed).
func TestHaltInATickGoesOnWhateverFails(t *testing.T) {
	work := func(r *bttest.Recorder) *Spec {
		return Parallel(-1, 1, r.Leaf("A", "R").Script(OnHalted, "nope = 1").Named("a"), r.Leaf("B", "R"))
	}
	for _, c := range []struct {
		name   string
		tree   func(r *bttest.Recorder, keep *bool) *Spec
		states string
	}{
		{"by a control", func(r *bttest.Recorder, keep *bool) *Spec {
			return ReactiveSequence(Condition("C", func() bool { return *keep }), work(r))
		}, "I I I I I"},
		{"by _while", func(r *bttest.Recorder, keep *bool) *Spec {
			return Sequence(work(r).Pre(While, func(*Node) bool { return *keep }))
		}, "I I I I"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := &bttest.Recorder{}
			keep := true
			tree := mustTree(t, c.tree(r, &keep))
			if s, err := tree.TickOnce(); s != Running || err != nil {
				t.Fatal(s, err)
			}
			r.Take()
			keep = false
			_, err := tree.TickOnce()
			if err == nil || !strings.HasPrefix(err.Error(), "node a (A): _onHalted: ") {
				t.Fatalf("tick: %v", err)
			}
			if log := r.Take(); log != "A:halt B:halt" {
				t.Errorf("halted %q", log)
			}
			if err := tree.Halt(); err != nil {
				t.Fatal(err)
			}
			if got := bttest.States(tree); got != c.states {
				t.Errorf("states %q", got)
			}
		})
	}
}

// Item 5: Tree.Halt leaves every node Idle, as BehaviorTree.CPP's haltTree does, also
// the children a completed parent left with their statuses: the next run starts them
// afresh (OnStart, pre-conditions).
func TestHaltLeavesEveryNodeIdle(t *testing.T) {
	for _, c := range []struct {
		name   string
		tree   func(r *bttest.Recorder, pre func(*Node) bool) *Spec
		want   Status
		states string // after the first tick
		again  string // the log of the tick after Halt
		checks int    // the pre-condition's checks by then
	}{
		{"IfThenElse whose condition failed", func(r *bttest.Recorder, pre func(*Node) bool) *Spec {
			return IfThenElse(r.Stateful("Cond", "F").Pre(SkipIf, pre), r.Leaf("Then", "S"))
		}, Failure, "I F I", "Cond:start>F", 2},
		{"SequenceWithMemory", func(r *bttest.Recorder, pre func(*Node) bool) *Spec {
			return Sequence(SequenceWithMemory(r.Stateful("A", "S").Pre(SkipIf, pre), r.Leaf("B", "F")))
		}, Failure, "I I S I", "B:F", 1}, // (it resumes at B, as BehaviorTree.CPP's does)
	} {
		r := &bttest.Recorder{}
		checked := 0
		tree := mustTree(t, c.tree(r, func(*Node) bool { checked++; return false }))
		if s, err := tree.TickOnce(); s != c.want || err != nil {
			t.Fatalf("%s: %v %v", c.name, s, err)
		}
		if got := bttest.States(tree); got != c.states {
			t.Fatalf("%s: states after the tick %q, want %q", c.name, got, c.states)
		}
		if err := tree.Halt(); err != nil {
			t.Fatal(err)
		}
		if got := bttest.States(tree); strings.Trim(got, "I ") != "" {
			t.Errorf("%s: states after Halt %q", c.name, got)
		}
		r.Take()
		tree.TickOnce()
		if got := r.Take(); got != c.again || checked != c.checks {
			t.Errorf("%s: the tick after Halt logged %q, want %q; pre-condition checked %d times, want %d", c.name, got, c.again, checked, c.checks)
		}
	}
}

// TryCatch with catch_on_halt runs its catch child also when halting the try block
// failed.
func TestTryCatchCatchesWhenHaltingTheTryBlockFails(t *testing.T) {
	r := &bttest.Recorder{}
	tree := mustTree(t, TryCatch(true,
		Sequence(r.Leaf("A", "R")).Script(OnHalted, "nope = 1").Named("try"),
		r.Leaf("Catch", "S")))
	tree.TickOnce()
	r.Take()
	err := tree.Halt()
	if err == nil || !strings.HasPrefix(err.Error(), "node try (Sequence): _onHalted: ") {
		t.Errorf("Halt: %v", err)
	}
	if log := r.Take(); log != "A:halt Catch:S" {
		t.Errorf("halt log %q", log)
	}
}
