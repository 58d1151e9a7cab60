package bt_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"testing/synctest"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

// node returns the node of tree whose name is name.
func node(t *testing.T, tree *Tree, name string) *Node {
	t.Helper()
	for n := range tree.Nodes() {
		if n.Name() == name {
			return n
		}
	}
	t.Fatalf("no node %q", name)
	return nil
}

// preTick returns a PreTick that logs "pre(NAME)" to r and returns s.
func preTick(r *bttest.Recorder, s Status) PreTick {
	return func(n *Node) Status {
		r.Log("pre(" + n.Name() + ")")
		return s
	}
}

// postTick returns a PostTick that logs "post(NAME:X)" to r, X the status it was
// given, and returns s.
func postTick(r *bttest.Recorder, s Status) PostTick {
	return func(n *Node, got Status) Status {
		r.Log("post(" + n.Name() + ":" + bttest.Letter(got) + ")")
		return s
	}
}

// runBothWays runs steps on the tree of spec after setup, once without observers and
// once with a shadow that checks what observers hear.
func runBothWays(t *testing.T, spec func(*bttest.Recorder) *Spec, setup func(*bttest.Recorder, *Tree), steps []bttest.Step) {
	t.Helper()
	for _, observed := range []bool{false, true} {
		r := &bttest.Recorder{}
		tree := mustTree(t, spec(r))
		var obs []*bttest.Observer
		if observed {
			obs = append(obs, bttest.Observe(t, tree))
		}
		setup(r, tree)
		play(t, tree, r, steps, obs...)
	}
}

// play performs steps with TickOnce.
func play(t *testing.T, tree *Tree, r *bttest.Recorder, steps []bttest.Step, obs ...*bttest.Observer) {
	t.Helper()
	bttest.Play(t, tree, r, bttest.TickOnce, steps, obs...)
}

func TestPreTick(t *testing.T) {
	for _, c := range []struct {
		name  string
		ret   Status
		steps []bttest.Step
	}{
		{"Failure replaces the tick", Failure, []bttest.Step{bttest.Tick(Failure, "pre(A)", "I I I")}},
		{"Success replaces the tick", Success, []bttest.Step{bttest.Tick(Running, "pre(A) B:R", "R S R")}},
		{"Idle lets the node tick", Idle, []bttest.Step{bttest.Tick(Running, "pre(A) A:S B:R", "")}},
		{"Running lets the node tick", Running, []bttest.Step{bttest.Tick(Running, "pre(A) A:S B:R", "")}},
		{"Skipped lets the node tick", Skipped, []bttest.Step{bttest.Tick(Running, "pre(A) A:S B:R", "")}},
	} {
		t.Run(c.name, func(t *testing.T) {
			runBothWays(t, func(r *bttest.Recorder) *Spec { return Sequence(r.Leaf("A", "S"), r.Leaf("B", "R")) },
				func(r *bttest.Recorder, tree *Tree) { node(t, tree, "A").SetPreTick(preTick(r, c.ret)) }, c.steps)
		})
	}
}

func TestPreTickRemoved(t *testing.T) {
	r := &bttest.Recorder{}
	tree := mustTree(t, Sequence(r.Leaf("A", "S")))
	a := node(t, tree, "A")
	orig := Dispatch(a)
	a.SetPreTick(preTick(r, Failure))
	a.SetPostTick(postTick(r, Idle))
	play(t, tree, r, []bttest.Step{bttest.Tick(Failure, "pre(A) post(A:F)", "")})
	a.SetPreTick(nil)
	play(t, tree, r, []bttest.Step{bttest.Tick(Success, "A:S post(A:S)", "")})
	a.SetPostTick(nil)
	play(t, tree, r, []bttest.Step{bttest.Tick(Success, "A:S", "")})
	if Dispatch(a) != orig {
		t.Errorf("the node's dispatch is %T, want the one it had, %T", Dispatch(a), orig)
	}
	a.SetPostTick(nil) // removing what is not there changes nothing
	if Dispatch(a) != orig {
		t.Errorf("the node's dispatch is %T, want the one it had, %T", Dispatch(a), orig)
	}
}

// A PreTick that replaces the tick of a Running node halts it first, so that nothing
// is left running (BehaviorTree.CPP leaves it running).
func TestPreTickHaltsARunningNode(t *testing.T) {
	r := &bttest.Recorder{}
	leaf := r.Leaf("A", "R").Post(OnHalted, func(*Node) { r.Log("onHalted") })
	tree := mustTree(t, Sequence(leaf, r.Leaf("B", "S")))
	sh := bttest.Observe(t, tree)
	play(t, tree, r, []bttest.Step{bttest.Tick(Running, "A:R", "R R I")}, sh)
	node(t, tree, "A").SetPreTick(preTick(r, Success))
	play(t, tree, r, []bttest.Step{bttest.Tick(Success, "pre(A) A:halt onHalted B:S", "I I I")}, sh)
}

// The order of BehaviorTree.CPP's executeTick: pre-conditions, PreTick, tick,
// post-conditions, PostTick.
func TestTickFunctionsAndConditions(t *testing.T) {
	r := &bttest.Recorder{}
	note := func(what string) func(*Node) { return func(*Node) { r.Log(what) } }
	skip := false
	leaf := r.Leaf("A", "S").
		Pre(SkipIf, func(*Node) bool { return skip }).
		Post(OnSuccess, note("onSuccess")).Post(OnFailure, note("onFailure"))
	tree := mustTree(t, Sequence(leaf))
	a := node(t, tree, "A")
	a.SetPreTick(preTick(r, Idle))
	a.SetPostTick(postTick(r, Failure))
	play(t, tree, r, []bttest.Step{bttest.Tick(Failure, "pre(A) A:S onSuccess post(A:S)", "")})
	a.SetPreTick(preTick(r, Failure)) // a replaced status gets the post-conditions
	a.SetPostTick(postTick(r, Idle))
	play(t, tree, r, []bttest.Step{bttest.Tick(Failure, "pre(A) onFailure post(A:F)", "")})
	skip = true // a pre-condition that decides leaves out the PreTick, not the PostTick
	play(t, tree, r, []bttest.Step{bttest.Tick(Skipped, "post(A:K)", "")})
	a.SetPostTick(postTick(r, Success))
	play(t, tree, r, []bttest.Step{bttest.Tick(Success, "post(A:K)", "")})
	a.SetPreTick(nil)
	a.SetPostTick(nil)
	if !HasConditions(a) {
		t.Errorf("the node's dispatch is %T, want its conditions back", Dispatch(a))
	}
	skip = false
	play(t, tree, r, []bttest.Step{bttest.Tick(Success, "A:S onSuccess", "")})
}

func TestPostTick(t *testing.T) {
	for _, c := range []struct {
		name   string
		script string
		ret    Status
		steps  []bttest.Step
	}{
		{"Failure replaces Success", "S", Failure, []bttest.Step{bttest.Tick(Failure, "A:S post(A:S)", "I I I")}},
		{"Success replaces Failure", "F", Success, []bttest.Step{bttest.Tick(Running, "A:F post(A:F) B:R", "R S R")}},
		{"Idle keeps the status", "F", Idle, []bttest.Step{bttest.Tick(Failure, "A:F post(A:F)", "")}},
		{"Running keeps the status", "S", Running, []bttest.Step{bttest.Tick(Running, "A:S post(A:S) B:R", "")}},
		{"Skipped is given", "K", Idle, []bttest.Step{bttest.Tick(Running, "A:K post(A:K) B:R", "R I R")}},
		{"replacing Running halts the node", "R", Success,
			[]bttest.Step{bttest.Tick(Running, "A:R post(A:R) A:halt B:R", "R S R")}},
	} {
		t.Run(c.name, func(t *testing.T) {
			runBothWays(t, func(r *bttest.Recorder) *Spec { return Sequence(r.Leaf("A", c.script), r.Leaf("B", "R")) },
				func(r *bttest.Recorder, tree *Tree) { node(t, tree, "A").SetPostTick(postTick(r, c.ret)) }, c.steps)
		})
	}
}

// Sequence and Fallback do not store the statuses of children that passed until they
// must, and count on decorators to store theirs (see sequence.kidsStore): statuses that
// tick functions replace must leave every status byte as a plain tick would.
func TestTickFunctionsKeepTheStatusContract(t *testing.T) {
	for _, c := range []struct {
		name  string
		setup func(r *bttest.Recorder, tree *Tree)
		steps []bttest.Step
	}{
		{"a leaf's Running replaced in the middle", func(r *bttest.Recorder, tree *Tree) {
			node(t, tree, "B").SetPostTick(postTick(r, Success))
		}, []bttest.Step{
			bttest.Tick(Running, "A:S B:R post(B:R) B:halt C:R", "R S S R"),
			bttest.Tick(Success, "C:S", "I I I I"),
		}},
		{"a decorator's tick replaced", func(r *bttest.Recorder, tree *Tree) {
			tree.Node(3).SetPreTick(preTick(r, Success)) // the Inverter
		}, []bttest.Step{
			bttest.Tick(Running, "A:S pre(Inverter) C:R", "R S S I R"),
			bttest.Tick(Success, "C:S", "I I I I I"),
		}},
		{"a decorator's status replaced", func(r *bttest.Recorder, tree *Tree) {
			tree.Node(3).SetPostTick(postTick(r, Success)) // the Inverter
		}, []bttest.Step{
			bttest.Tick(Running, "A:S B:R post(Inverter:R) B:halt C:R", "R S S I R"),
			bttest.Tick(Success, "C:S", "I I I I I"),
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			runBothWays(t, func(r *bttest.Recorder) *Spec {
				if strings.HasPrefix(c.name, "a decorator") {
					return Sequence(r.Leaf("A", "S"), Inverter(r.Leaf("B", "R")), r.Leaf("C", "R S"))
				}
				return Sequence(r.Leaf("A", "S"), r.Leaf("B", "R"), r.Leaf("C", "R S"))
			}, c.setup, c.steps)
		})
	}
}

// twice is a control that ticks its child twice per tick, without resetting it.
var twice = &Model{ID: "Twice", Kind: KindControl, New: func(*NodeConfig) (Behavior, error) {
	return twiceBehavior{}, nil
}}

type twiceBehavior struct{}

func (twiceBehavior) Tick(n *Node) Status {
	n.Child(0).Tick()
	return n.Child(0).Tick()
}

// BehaviorTree.CPP calls the pre-tick function of a node only while it is Idle or
// Running: a node ticked again after it completed, before its parent reset it, is
// ticked without it.
func TestPreTickSkipsACompletedNode(t *testing.T) {
	r := &bttest.Recorder{}
	tree := mustTree(t, twice.Spec(r.Leaf("A", "S")))
	node(t, tree, "A").SetPreTick(preTick(r, Idle))
	play(t, tree, r, []bttest.Step{bttest.Tick(Success, "pre(A) A:S A:S", "")})
}

func TestTickFunctionPanicsAndAborts(t *testing.T) {
	tree := mustTree(t, Sequence(AlwaysSuccess()))
	leaf := tree.Node(2)
	leaf.SetPreTick(func(*Node) Status { panic("boom") })
	_, err := tree.TickOnce()
	var ne *NodeError
	var pe *PanicError
	if !errors.As(err, &ne) || ne.UID != 2 || !errors.As(err, &pe) || pe.Value != "boom" {
		t.Fatalf("got %v, want a panic error naming node 2", err)
	}
	leaf.SetPreTick(nil)
	leaf.SetPostTick(func(n *Node, s Status) Status {
		n.Abort(errors.New("injected"))
		return s
	})
	_, err = tree.TickOnce()
	if !errors.As(err, &ne) || ne.UID != 2 || ne.Err.Error() != "injected" {
		t.Fatalf("got %v, want the abort of node 2", err)
	}
	leaf.SetPostTick(nil)
	if s, err := tree.TickOnce(); s != Success || err != nil {
		t.Fatalf("got %v, %v after removing the functions", s, err)
	}

	repanic := mustTree(t, AlwaysSuccess(), WithRepanic())
	repanic.Root().SetPreTick(func(*Node) Status { panic("boom") })
	defer func() {
		if r := recover(); r != "boom" {
			t.Errorf("recovered %v, want the panic itself with WithRepanic", r)
		}
	}()
	repanic.TickOnce()
}

// A node with tick functions keeps its behavior, its ports and its halting.
func TestInterceptedNodeKeepsItsBehavior(t *testing.T) {
	type counter struct{ n int }
	c := &counter{}
	model := NewAction("Count", func(n *Node) (Status, error) {
		c.n++
		return Running, Set(n, "out", c.n)
	}, OutputPort[int]("out", ""))
	r := &bttest.Recorder{}
	halted := 0
	spec := model.Spec().With("out", "{count}").Post(OnHalted, func(*Node) { halted++ })
	tree := mustTree(t, Sequence(spec, r.Leaf("B", "S")))
	n := node(t, tree, "Count")
	n.SetPostTick(postTick(r, Idle))
	if n.Behavior() == nil {
		t.Error("Behavior() is nil on a node with a tick function")
	}
	if s, err := tree.TickOnce(); s != Running || err != nil {
		t.Fatalf("got %v, %v", s, err)
	}
	if v, err := Get[int](n, "out"); err != nil || v != 1 {
		t.Errorf("port out: %v, %v; want 1", v, err)
	}
	if err := tree.Halt(); err != nil || halted != 1 {
		t.Errorf("halt: %v, _onHalted ran %d times; want once", err, halted)
	}
}

func TestDoRunsAtTheStartOfTheNextTick(t *testing.T) {
	r := &bttest.Recorder{}
	tree := mustTree(t, Sequence(r.Leaf("A", "S")))
	tree.Do(func() { r.Log("do1") })
	tree.Do(nil)
	tree.Do(func() { r.Log("do2") })
	if log := r.Take(); log != "" {
		t.Fatalf("Do ran before the tick: %s", log)
	}
	play(t, tree, r, []bttest.Step{bttest.Tick(Success, "do1 do2 A:S", ""), bttest.Tick(Success, "A:S", "")})

	// A function given during a tick runs at the start of the next one, which may be a
	// re-tick of TickOnce after a wake-up.
	yield := mustTree(t, AsyncSequence(r.Leaf("A", "S"), r.Leaf("B", "S")))
	node(t, yield, "A").SetPostTick(func(n *Node, s Status) Status {
		n.Tree().Do(func() { r.Log("do") })
		return s
	})
	play(t, yield, r, []bttest.Step{bttest.Tick(Success, "A:S do B:S", ""), bttest.Tick(Success, "A:S do B:S", "")})
}

func TestDoPanics(t *testing.T) {
	r := &bttest.Recorder{}
	tree := mustTree(t, Sequence(r.Leaf("A", "S")))
	tree.Do(func() { panic("boom") })
	tree.Do(func() { r.Log("after") })
	if _, err := tree.TickOnce(); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("got %v, want the panic as an error", err)
	}
	play(t, tree, r, []bttest.Step{bttest.Tick(Success, "after A:S", "")})
}

// Another goroutine changes a tree that ticks through Do, race-free (go test -race).
func TestDoFromAnotherGoroutine(t *testing.T) {
	tree := mustTree(t, Sequence(AlwaysSuccess(), AlwaysSuccess()))
	leaf := tree.Node(3)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range 200 {
			var f PreTick
			if i%2 == 0 {
				f = func(*Node) Status { return Failure }
			}
			tree.Do(func() { leaf.SetPreTick(f) })
		}
	}()
	for range 1000 {
		if _, err := tree.TickOnce(); err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
	if _, err := tree.TickOnce(); err != nil {
		t.Fatal(err)
	}
	if s, _ := tree.TickOnce(); s != Success {
		t.Errorf("got %v after the last request removed the function, want SUCCESS", s)
	}
}

// A node with tick functions ticks without allocating, and removing them restores the
// node's own dispatch, whose cost is checked by the tick benchmarks.
func TestTickFunctionsDoNotAllocate(t *testing.T) {
	tree := mustTree(t, Sequence(AlwaysSuccess(), AlwaysSuccess()))
	tree.Node(2).SetPreTick(func(*Node) Status { return Idle })
	tree.Node(3).SetPostTick(func(_ *Node, s Status) Status { return s })
	if a := testing.AllocsPerRun(100, func() { tree.TickOnce() }); a != 0 {
		t.Errorf("%v allocations per tick, want 0", a)
	}
}

// TestInterceptedAsync: an async action with a tick function (a Groot2 hook, say) runs
// its work and collects its result as one without.
func TestInterceptedAsync(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tree := mustTree(t, Async("Work", func(context.Context, *Node) (Status, error) { return Success, nil }))
		tree.Root().SetPreTick(func(*Node) Status { return Idle })
		if s, err := tree.TickExactlyOnce(); s != Running || err != nil {
			t.Fatalf("first tick: %v %v", s, err)
		}
		synctest.Wait()
		if s, err := tree.TickOnce(); s != Success || err != nil {
			t.Errorf("collecting the result: %v %v", s, err)
		}
	})
}

// TestTickFunctionSetDuringTheTick: a PostTick set by the node's own PreTick applies
// from the node's next tick, as BehaviorTree.CPP copies a node's callbacks when its
// tick begins.
func TestTickFunctionSetDuringTheTick(t *testing.T) {
	tree := mustTree(t, Sequence(Action("A", func() Status { return Success })))
	ran := 0
	tree.Root().Child(0).SetPreTick(func(n *Node) Status {
		n.SetPostTick(func(*Node, Status) Status { ran++; return Failure })
		return Idle
	})
	if s, err := tree.TickOnce(); s != Success || err != nil || ran != 0 {
		t.Errorf("first tick: %v %v, the PostTick set during it ran %d times", s, err, ran)
	}
	if s, err := tree.TickOnce(); s != Failure || err != nil || ran != 1 {
		t.Errorf("second tick: %v %v, the PostTick ran %d times", s, err, ran)
	}
}
