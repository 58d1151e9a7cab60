package bt

import (
	"errors"
	"strings"
	"sync"
	"testing"
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

// preTick returns a PreTick that logs "pre(NAME)" and returns s.
func (r *recorder) preTick(s Status) PreTick {
	return func(n *Node) Status {
		r.log = append(r.log, "pre("+n.Name()+")")
		return s
	}
}

// postTick returns a PostTick that logs "post(NAME:X)", X the status it was given,
// and returns s.
func (r *recorder) postTick(s Status) PostTick {
	return func(n *Node, got Status) Status {
		r.log = append(r.log, "post("+n.Name()+":"+statusLetter(got)+")")
		return s
	}
}

// runBothWays runs steps on the tree of spec after setup, once without observers and
// once with a shadow that checks what observers hear.
func runBothWays(t *testing.T, spec func(*recorder) *Spec, setup func(*recorder, *Tree), steps []step) {
	t.Helper()
	for _, observed := range []bool{false, true} {
		r := &recorder{}
		tree := mustTree(t, spec(r))
		var sh []*shadow
		if observed {
			sh = append(sh, watch(tree))
		}
		setup(r, tree)
		runSteps(t, tree, r, false, steps, sh...)
	}
}

func TestPreTick(t *testing.T) {
	for _, c := range []struct {
		name  string
		ret   Status
		steps []step
	}{
		{"Failure replaces the tick", Failure, []step{{want: Failure, log: "pre(A)", states: "I I I"}}},
		{"Success replaces the tick", Success, []step{{want: Running, log: "pre(A) B:R", states: "R S R"}}},
		{"Idle lets the node tick", Idle, []step{{want: Running, log: "pre(A) A:S B:R"}}},
		{"Running lets the node tick", Running, []step{{want: Running, log: "pre(A) A:S B:R"}}},
		{"Skipped lets the node tick", Skipped, []step{{want: Running, log: "pre(A) A:S B:R"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			runBothWays(t, func(r *recorder) *Spec { return Sequence(r.leaf("A", "S"), r.leaf("B", "R")) },
				func(r *recorder, tree *Tree) { node(t, tree, "A").SetPreTick(r.preTick(c.ret)) }, c.steps)
		})
	}
}

func TestPreTickRemoved(t *testing.T) {
	r := &recorder{}
	tree := mustTree(t, Sequence(r.leaf("A", "S")))
	a := node(t, tree, "A")
	orig := a.t
	a.SetPreTick(r.preTick(Failure))
	a.SetPostTick(r.postTick(Idle))
	runSteps(t, tree, r, false, []step{{want: Failure, log: "pre(A) post(A:F)"}})
	a.SetPreTick(nil)
	runSteps(t, tree, r, false, []step{{want: Success, log: "A:S post(A:S)"}})
	a.SetPostTick(nil)
	runSteps(t, tree, r, false, []step{{want: Success, log: "A:S"}})
	if a.t != orig {
		t.Errorf("the node's dispatch is %T, want the one it had, %T", a.t, orig)
	}
	a.SetPostTick(nil) // removing what is not there changes nothing
	if a.t != orig {
		t.Errorf("the node's dispatch is %T, want the one it had, %T", a.t, orig)
	}
}

// A PreTick that replaces the tick of a Running node halts it first, so that nothing
// is left running (BehaviorTree.CPP leaves it running).
func TestPreTickHaltsARunningNode(t *testing.T) {
	r := &recorder{}
	leaf := r.leaf("A", "R").Post(OnHalted, func(*Node) { r.log = append(r.log, "onHalted") })
	tree := mustTree(t, Sequence(leaf, r.leaf("B", "S")))
	sh := watch(tree)
	runSteps(t, tree, r, false, []step{{want: Running, log: "A:R", states: "R R I"}}, sh)
	node(t, tree, "A").SetPreTick(r.preTick(Success))
	runSteps(t, tree, r, false, []step{{want: Success, log: "pre(A) A:halt onHalted B:S", states: "I I I"}}, sh)
}

// The order of BehaviorTree.CPP's executeTick: pre-conditions, PreTick, tick,
// post-conditions, PostTick.
func TestTickFunctionsAndConditions(t *testing.T) {
	r := &recorder{}
	note := func(what string) func(*Node) { return func(*Node) { r.log = append(r.log, what) } }
	skip := false
	leaf := r.leaf("A", "S").
		Pre(SkipIf, func(*Node) bool { return skip }).
		Post(OnSuccess, note("onSuccess")).Post(OnFailure, note("onFailure"))
	tree := mustTree(t, Sequence(leaf))
	a := node(t, tree, "A")
	a.SetPreTick(r.preTick(Idle))
	a.SetPostTick(r.postTick(Failure))
	runSteps(t, tree, r, false, []step{{want: Failure, log: "pre(A) A:S onSuccess post(A:S)"}})
	a.SetPreTick(r.preTick(Failure)) // a replaced status gets the post-conditions
	a.SetPostTick(r.postTick(Idle))
	runSteps(t, tree, r, false, []step{{want: Failure, log: "pre(A) onFailure post(A:F)"}})
	skip = true // a pre-condition that decides leaves out the PreTick, not the PostTick
	runSteps(t, tree, r, false, []step{{want: Skipped, log: "post(A:K)"}})
	a.SetPostTick(r.postTick(Success))
	runSteps(t, tree, r, false, []step{{want: Success, log: "post(A:K)"}})
	a.SetPreTick(nil)
	a.SetPostTick(nil)
	if _, ok := a.t.(*hookedNode); !ok {
		t.Errorf("the node's dispatch is %T, want its conditions back", a.t)
	}
	skip = false
	runSteps(t, tree, r, false, []step{{want: Success, log: "A:S onSuccess"}})
}

func TestPostTick(t *testing.T) {
	for _, c := range []struct {
		name   string
		script string
		ret    Status
		steps  []step
	}{
		{"Failure replaces Success", "S", Failure, []step{{want: Failure, log: "A:S post(A:S)", states: "I I I"}}},
		{"Success replaces Failure", "F", Success, []step{{want: Running, log: "A:F post(A:F) B:R", states: "R S R"}}},
		{"Idle keeps the status", "F", Idle, []step{{want: Failure, log: "A:F post(A:F)"}}},
		{"Running keeps the status", "S", Running, []step{{want: Running, log: "A:S post(A:S) B:R"}}},
		{"Skipped is given", "K", Idle, []step{{want: Running, log: "A:K post(A:K) B:R", states: "R I R"}}},
		{"replacing Running halts the node", "R", Success,
			[]step{{want: Running, log: "A:R post(A:R) A:halt B:R", states: "R S R"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			runBothWays(t, func(r *recorder) *Spec { return Sequence(r.leaf("A", c.script), r.leaf("B", "R")) },
				func(r *recorder, tree *Tree) { node(t, tree, "A").SetPostTick(r.postTick(c.ret)) }, c.steps)
		})
	}
}

// Sequence and Fallback do not store the statuses of children that passed until they
// must, and count on decorators to store theirs (see sequence.kidsStore): statuses that
// tick functions replace must leave every status byte as a plain tick would.
func TestTickFunctionsKeepTheStatusContract(t *testing.T) {
	for _, c := range []struct {
		name  string
		setup func(r *recorder, tree *Tree)
		steps []step
	}{
		{"a leaf's Running replaced in the middle", func(r *recorder, tree *Tree) {
			node(t, tree, "B").SetPostTick(r.postTick(Success))
		}, []step{
			{want: Running, log: "A:S B:R post(B:R) B:halt C:R", states: "R S S R"},
			{want: Success, log: "C:S", states: "I I I I"},
		}},
		{"a decorator's tick replaced", func(r *recorder, tree *Tree) {
			tree.Node(3).SetPreTick(r.preTick(Success)) // the Inverter
		}, []step{
			{want: Running, log: "A:S pre(Inverter) C:R", states: "R S S I R"},
			{want: Success, log: "C:S", states: "I I I I I"},
		}},
		{"a decorator's status replaced", func(r *recorder, tree *Tree) {
			tree.Node(3).SetPostTick(r.postTick(Success)) // the Inverter
		}, []step{
			{want: Running, log: "A:S B:R post(Inverter:R) B:halt C:R", states: "R S S I R"},
			{want: Success, log: "C:S", states: "I I I I I"},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			runBothWays(t, func(r *recorder) *Spec {
				if strings.HasPrefix(c.name, "a decorator") {
					return Sequence(r.leaf("A", "S"), Inverter(r.leaf("B", "R")), r.leaf("C", "R S"))
				}
				return Sequence(r.leaf("A", "S"), r.leaf("B", "R"), r.leaf("C", "R S"))
			}, c.setup, c.steps)
		})
	}
}

// twice is a control that ticks its child twice per tick, without resetting it.
var twice = &Model{ID: "Twice", Kind: KindControl, New: func(*Init) (Behavior, error) {
	return action1(func(n *Node) Status {
		n.Child(0).Tick()
		return n.Child(0).Tick()
	}), nil
}}

// BehaviorTree.CPP calls the pre-tick function of a node only while it is Idle or
// Running: a node ticked again after it completed, before its parent reset it, is
// ticked without it.
func TestPreTickSkipsACompletedNode(t *testing.T) {
	r := &recorder{}
	tree := mustTree(t, twice.Spec(r.leaf("A", "S")))
	node(t, tree, "A").SetPreTick(r.preTick(Idle))
	runSteps(t, tree, r, false, []step{{want: Success, log: "pre(A) A:S A:S"}})
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
	r := &recorder{}
	halted := 0
	spec := model.Spec().With("out", "{count}").Post(OnHalted, func(*Node) { halted++ })
	tree := mustTree(t, Sequence(spec, r.leaf("B", "S")))
	n := node(t, tree, "Count")
	n.SetPostTick(r.postTick(Idle))
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
	r := &recorder{}
	tree := mustTree(t, Sequence(r.leaf("A", "S")))
	tree.Do(func() { r.log = append(r.log, "do1") })
	tree.Do(nil)
	tree.Do(func() { r.log = append(r.log, "do2") })
	if log := r.take(); log != "" {
		t.Fatalf("Do ran before the tick: %s", log)
	}
	runSteps(t, tree, r, false, []step{{want: Success, log: "do1 do2 A:S"}, {want: Success, log: "A:S"}})

	// A function given during a tick runs at the start of the next one, which may be a
	// re-tick of TickOnce after a wake-up.
	yield := mustTree(t, AsyncSequence(r.leaf("A", "S"), r.leaf("B", "S")))
	node(t, yield, "A").SetPostTick(func(n *Node, s Status) Status {
		n.Tree().Do(func() { r.log = append(r.log, "do") })
		return s
	})
	runSteps(t, yield, r, false, []step{{want: Success, log: "A:S do B:S"}, {want: Success, log: "A:S do B:S"}})
}

func TestDoPanics(t *testing.T) {
	r := &recorder{}
	tree := mustTree(t, Sequence(r.leaf("A", "S")))
	tree.Do(func() { panic("boom") })
	tree.Do(func() { r.log = append(r.log, "after") })
	if _, err := tree.TickOnce(); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("got %v, want the panic as an error", err)
	}
	runSteps(t, tree, r, false, []step{{want: Success, log: "after A:S"}})
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
