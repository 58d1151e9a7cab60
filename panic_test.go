package bt_test

import (
	"errors"
	"strings"
	"testing"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

// Every kind of function leaf reports its panic as a *NodeError naming it, with the
// panic's value and a stack that shows where it was raised.
func TestFunctionLeafPanicsNameTheLeaf(t *testing.T) {
	boom := func() { panic("kaput") }
	for _, c := range []struct {
		name string
		leaf *Spec
	}{
		{"func() Status", Action("L", func() Status { boom(); return Success })},
		{"func(*Node) Status", Action("L", func(*Node) Status { boom(); return Success })},
		{"func(*Node) (Status, error)", Action("L", func(*Node) (Status, error) { boom(); return Success, nil })},
		{"func() bool", Condition("L", func() bool { boom(); return true })},
		{"func(*Node) bool", Condition("L", func(*Node) bool { boom(); return true })},
		{"func(*Node) (bool, error)", Condition("L", func(*Node) (bool, error) { boom(); return true, nil })},
		{"a nil dereference", Action("L", func() Status { var p *Tree; return p.Status() + Success })},
	} {
		t.Run(c.name, func(t *testing.T) {
			tree := mustTree(t, Sequence(AlwaysSuccess(), Inverter(c.leaf.Named("the bomb"))))
			_, err := tree.TickOnce()
			var ne *NodeError
			var pe *PanicError
			if !errors.As(err, &ne) || ne.Path != "the bomb" || !errors.As(err, &pe) {
				t.Fatalf("got %v, want a *NodeError naming the bomb", err)
			}
			if !strings.Contains(string(pe.Stack), "panic_test.go") {
				t.Errorf("the stack does not show where the panic happened:\n%s", pe.Stack)
			}
		})
	}
}

// A function leaf notes itself in the tree before its function runs, and nothing when
// it returns. A panic raised after it returned — by the code of a user's decorator over
// it, or by an observer — is not the leaf's.
func TestAPanicAfterAFunctionLeafReturnedIsNotTheLeafs(t *testing.T) {
	leaf := Action("Leaf", func() Status { return Success })
	t.Run("a user decorator", func(t *testing.T) {
		dec := (&Model{ID: "Dec", Kind: KindDecorator, New: func(*NodeConfig) (Behavior, error) {
			return tickThenPanic{}, nil
		}}).Spec(leaf)
		tree := mustTree(t, Sequence(dec))
		_, err := tree.TickOnce()
		var ne *NodeError
		if !errors.As(err, &ne) || ne.ID != "Dec" || err.Error() != "node Dec::2 (Dec): panic: after the child" {
			t.Fatalf("got %v, want the decorator's panic", err)
		}
		if s := tree.Root().Status(); s != Running {
			t.Errorf("the Sequence the panic interrupted is %v, want Running", s)
		}
		if err := tree.Halt(); err != nil || tree.Root().Status() != Idle {
			t.Errorf("Halt: %v, root %v", err, tree.Root().Status())
		}
	})
	t.Run("an observer", func(t *testing.T) {
		tree := mustTree(t, Sequence(leaf, AlwaysSuccess()))
		tree.Subscribe(func(c StatusChange) {
			if c.Node.ID() == "Leaf" && c.Status == Success {
				panic("observer down")
			}
		})
		_, err := tree.TickOnce()
		var ne *NodeError
		var pe *PanicError
		if errors.As(err, &ne) || !errors.As(err, &pe) || pe.Value != "observer down" {
			t.Fatalf("got %v, want the observer's panic, naming no node", err)
		}
	})
}

// An observer that panics when the root is put back to Idle, the last thing a tick
// does, stops the tick with an error too.
func TestObserverPanicAtTheEndOfATick(t *testing.T) {
	tree := mustTree(t, Sequence(AlwaysSuccess()))
	tree.Subscribe(func(c StatusChange) {
		if c.Node == tree.Root() && c.Status == Idle {
			panic("observer down")
		}
	})
	var pe *PanicError
	if _, err := tree.TickOnce(); !errors.As(err, &pe) || pe.Value != "observer down" {
		t.Fatalf("got %v, want the observer's panic", err)
	}
}

type tickThenPanic struct{}

func (tickThenPanic) Tick(n *Node) Status {
	n.Child(0).Tick()
	panic("after the child")
}

// A function leaf that returns a status a tick may not return stops the tick with an
// error naming it — also under WithRepanic, which lets only panics through.
func TestFunctionLeafReturningAnInvalidStatus(t *testing.T) {
	for _, c := range []struct {
		s    Status
		want string
	}{
		{Idle, "node bad (Bad): returned IDLE (a node must return RUNNING, SUCCESS, FAILURE or SKIPPED)"},
		{Status(9), "node bad (Bad): returned Status(9)"},
	} {
		for _, opts := range [][]Option{nil, {WithRepanic()}} {
			tree := mustTree(t, Sequence(AlwaysSuccess(), Action("Bad", func() Status { return c.s }).Named("bad")), opts...)
			if _, err := tree.TickOnce(); err == nil || err.Error() != c.want {
				t.Errorf("%v, %d options: got %v, want %s", c.s, len(opts), err, c.want)
			}
		}
	}
}

// Under WithRepanic a function leaf's panic goes on out of the tick, after the tree
// marked the nodes it interrupted: halting the tree then runs their _onHalted.
func TestRepanicOfAFunctionLeaf(t *testing.T) {
	r := &bttest.Recorder{}
	tree := mustTree(t, Sequence(AlwaysSuccess(), Action("Boom", func() Status { panic("kaput") })).
		Post(OnHalted, func(*Node) { r.Log("halted") }), WithRepanic())
	func() {
		defer func() {
			if v := recover(); v != "kaput" {
				t.Errorf("recovered %v, want kaput", v)
			}
		}()
		tree.TickOnce()
		t.Error("no panic")
	}()
	if err := tree.Halt(); err != nil {
		t.Fatal(err)
	}
	if log := r.Take(); log != "halted" {
		t.Errorf("log %q, want the Sequence halted", log)
	}
}

// A panicking pre-condition written in Go, under WithRepanic: the node had not started,
// so it is not marked as interrupted (its _onHalted does not run), its parent is.
func TestRepanicOfAPreCondition(t *testing.T) {
	r := &bttest.Recorder{}
	note := func(s string) func(*Node) { return func(*Node) { r.Log(s) } }
	tree := mustTree(t, Sequence(
		Sequence(AlwaysSuccess()).Pre(SkipIf, func(*Node) bool { panic("no") }).Post(OnHalted, note("inner")),
	).Post(OnHalted, note("outer")), WithRepanic())
	func() {
		defer func() {
			if v := recover(); v != "no" {
				t.Errorf("recovered %v, want no", v)
			}
		}()
		tree.TickOnce()
	}()
	if err := tree.Halt(); err != nil {
		t.Fatal(err)
	}
	if log := r.Take(); log != "outer" {
		t.Errorf("log %q, want only the outer Sequence halted", log)
	}
}

// TestPanicSiteFrames: the frames that tell whose code panicked name functions that
// exist (a renamed one would go unseen, and its panics be blamed elsewhere).
func TestPanicSiteFrames(t *testing.T) {
	names, functions := PanicSiteFrames()
	if strings.Join(names, " ") != strings.Join(functions, " ") {
		t.Errorf("frames looked for:\n%v\nthe functions:\n%v", names, functions)
	}
}

// tickChild is a user decorator: its code ticks its child.
type tickChild struct{}

func (tickChild) Tick(n *Node) Status { return n.Child(0).Tick() }

// TestObserverPanicUnderUserCode: an observer that panics at a change made while a
// node of yours ticks its child is the observer's panic, naming no node.
func TestObserverPanicUnderUserCode(t *testing.T) {
	dec := (&Model{ID: "Dec", Kind: KindDecorator, New: func(*NodeConfig) (Behavior, error) {
		return tickChild{}, nil
	}}).Spec(Action("Leaf", func() Status { return Success }))
	tree := mustTree(t, Sequence(dec))
	tree.Subscribe(func(c StatusChange) {
		if c.Node.ID() == "Leaf" && c.Status == Success {
			panic("observer down")
		}
	})
	_, err := tree.TickOnce()
	var ne *NodeError
	if err == nil || errors.As(err, &ne) || !strings.Contains(err.Error(), "observer down") {
		t.Fatalf("got %v, want the observer's panic, naming no node", err)
	}
}
