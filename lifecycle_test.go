package bt_test

import (
	"errors"
	"strings"
	"testing"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

// passThrough is a test decorator: it returns its child's status.
var passThrough = &Model{ID: "Pass", Kind: KindDecorator, New: func(*Init) (Behavior, error) {
	return passBehavior{}, nil
}}

func TestPreConditions(t *testing.T) {
	type pre struct {
		h  Hook
		ok bool
	}
	for _, c := range []struct {
		name  string
		pres  []pre
		steps []bttest.Step
	}{
		{"failureIf true fails without ticking", []pre{{FailureIf, true}}, []bttest.Step{{Want: Failure, Log: "post"}}},
		{"successIf true succeeds without ticking", []pre{{SuccessIf, true}}, []bttest.Step{{Want: Success, Log: "post"}}},
		{"skipIf true skips without ticking", []pre{{SkipIf, true}}, []bttest.Step{{Want: Skipped, Log: "", States: "I"}}},
		{"while false skips", []pre{{While, false}}, []bttest.Step{{Want: Skipped, Log: ""}}},
		{"false conditions let the node tick", []pre{{FailureIf, false}, {SuccessIf, false}, {SkipIf, false}, {While, true}},
			[]bttest.Step{{Want: Running, Log: "A:R"}, {Want: Success, Log: "A:S post"}}},
		{"failureIf is checked before successIf", []pre{{SuccessIf, true}, {FailureIf, true}}, []bttest.Step{{Want: Failure, Log: "post"}}},
		{"successIf is checked before skipIf", []pre{{SkipIf, true}, {SuccessIf, true}}, []bttest.Step{{Want: Success, Log: "post"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := &bttest.Recorder{}
			s := r.Leaf("A", "R S")
			for _, p := range c.pres {
				ok := p.ok
				s.Pre(p.h, func(*Node) bool { return ok })
			}
			s.Post(Post, func(n *Node) { r.Log("post") })
			tree, err := NewTree(s)
			if err != nil {
				t.Fatal(err)
			}
			bttest.Play(t, tree, r, bttest.TickOnce, c.steps)
		})
	}
}

func TestPreConditionsOnlyWhenIdle(t *testing.T) {
	r := &bttest.Recorder{}
	skip := false
	tree, err := NewTree(Sequence(r.Leaf("A", "R R S").Pre(SkipIf, func(*Node) bool { return skip })))
	if err != nil {
		t.Fatal(err)
	}
	bttest.Play(t, tree, r, bttest.TickOnce, []bttest.Step{{Want: Running, Log: "A:R"}})
	skip = true // ignored while A is Running
	bttest.Play(t, tree, r, bttest.TickOnce, []bttest.Step{{Want: Running, Log: "A:R"}, {Want: Success, Log: "A:S"}, {Want: Skipped, Log: ""}})
}

func TestWhileHaltsARunningNode(t *testing.T) {
	r := &bttest.Recorder{}
	ok := true
	leaf := r.Leaf("A", "R").
		Pre(While, func(*Node) bool { return ok }).
		Post(OnHalted, func(*Node) { r.Log("onHalted") })
	tree, err := NewTree(Sequence(leaf, r.Leaf("B", "S")))
	if err != nil {
		t.Fatal(err)
	}
	bttest.Play(t, tree, r, bttest.TickOnce, []bttest.Step{{Want: Running, Log: "A:R"}})
	ok = false
	bttest.Play(t, tree, r, bttest.TickOnce, []bttest.Step{{Want: Success, Log: "A:halt onHalted B:S", States: "I I I"}})
}

func TestPostConditions(t *testing.T) {
	r := &bttest.Recorder{}
	note := func(what string) func(*Node) { return func(*Node) { r.Log(what) } }
	leaf := func(name, script string) *Spec {
		return r.Leaf(name, script).Post(OnSuccess, note(name+".onSuccess")).Post(OnFailure, note(name+".onFailure")).
			Post(Post, note(name+".post")).Post(OnHalted, note(name+".onHalted"))
	}
	tree, err := NewTree(ReactiveSequence(leaf("A", "S S F"), leaf("B", "R K")))
	if err != nil {
		t.Fatal(err)
	}
	bttest.Play(t, tree, r, bttest.TickOnce, []bttest.Step{
		{Want: Running, Log: "A:S A.onSuccess A.post B:R"},
		{Want: Success, Log: "A:S A.onSuccess A.post B:K"}, // nothing after Skipped
		{Want: Failure, Log: "A:F A.onFailure A.post"},
	})
	tree, err = NewTree(Sequence(leaf("A", "R")))
	if err != nil {
		t.Fatal(err)
	}
	bttest.Play(t, tree, r, bttest.TickOnce, []bttest.Step{{Want: Running, Log: "A:R"}, {Halt: true, Log: "A:halt A.onHalted"}})
}

func TestHookRejectsWrongKind(t *testing.T) {
	r := &bttest.Recorder{}
	_, err := NewTree(r.Leaf("A", "S").Pre(Post, func(*Node) bool { return true }).Post(SkipIf, func(*Node) {}))
	want := "node A::1 (A): _post is not a pre-condition\nnode A::1 (A): _skipIf is not a post-condition"
	if err == nil || err.Error() != want {
		t.Errorf("got %v", err)
	}
}

func TestDecoratorResetsCompletedChild(t *testing.T) {
	r := &bttest.Recorder{}
	tree, err := NewTree(Sequence(passThrough.Spec(r.Leaf("A", "S")), r.Leaf("B", "R")))
	if err != nil {
		t.Fatal(err)
	}
	// A is reset by its decorator at once, although the Sequence is still running.
	bttest.Play(t, tree, r, bttest.TickOnce, []bttest.Step{{Want: Running, Log: "A:S B:R", States: "R S I R"}})
}

func TestSkippedIsNeverStored(t *testing.T) {
	r := &bttest.Recorder{}
	tree, err := NewTree(Sequence(r.Leaf("A", "R K"), r.Leaf("B", "R")))
	if err != nil {
		t.Fatal(err)
	}
	bttest.Play(t, tree, r, bttest.TickOnce, []bttest.Step{
		{Want: Running, Log: "A:R", States: "R R I"},
		{Want: Running, Log: "A:K B:R", States: "R I R"}, // A was Running, returned Skipped: now Idle
	})
}

func TestReturningIdleIsAnError(t *testing.T) {
	r := &bttest.Recorder{}
	tree, err := NewTree(Sequence(r.Leaf("A", "S"), r.Leaf("B", "I").Named("bad")))
	if err != nil {
		t.Fatal(err)
	}
	_, err = tree.TickOnce()
	var ne *NodeError
	if !errors.As(err, &ne) || ne.Path != "bad" || !strings.Contains(err.Error(), "returned IDLE") {
		t.Fatalf("got %v", err)
	}
}

func TestUIDsAndPaths(t *testing.T) {
	r := &bttest.Recorder{}
	tree, err := NewTree(Sequence(r.Leaf("A", "S"), Fallback(r.Leaf("B", "S").Named("bee"), r.Leaf("C", "S")).Named("fb")))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	tree.Walk(func(n *Node, depth int) bool {
		got = append(got, strings.Repeat(" ", depth)+n.Path()+"#"+string(rune('0'+n.UID())))
		return true
	})
	want := "Sequence::1#1| A::2#2| fb#3|  bee#4|  C::5#5"
	if s := strings.Join(got, "|"); s != want {
		t.Errorf("got %s\nwant %s", s, want)
	}
	if tree.Node(4).Name() != "bee" || tree.Node(0) != nil || tree.Node(6) != nil || tree.Len() != 5 {
		t.Error("Node by UID")
	}
	var skipped []string
	tree.Walk(func(n *Node, _ int) bool {
		skipped = append(skipped, n.Name())
		return n.Name() != "fb"
	})
	if s := strings.Join(skipped, " "); s != "Sequence A fb" {
		t.Errorf("Walk pruning: %s", s)
	}
}

// haltLogger is a user control that ticks its only child and logs its own Halt.
type haltLogger struct{ r *bttest.Recorder }

func (h haltLogger) Tick(n *Node) Status { return n.Child(0).Tick() }
func (h haltLogger) Halt(*Node)          { h.r.Log("C:halt") }

func TestHaltOrder(t *testing.T) {
	r := &bttest.Recorder{}
	note := func(what string) func(*Node) { return func(*Node) { r.Log(what) } }
	control := &Model{ID: "C", Kind: KindControl, New: func(*Init) (Behavior, error) { return haltLogger{r}, nil }}
	tree, err := NewTree(control.Spec(r.Leaf("A", "R").Post(OnHalted, note("A.onHalted"))).Post(OnHalted, note("C.onHalted")))
	if err != nil {
		t.Fatal(err)
	}
	// A node's Halt runs before its children are halted, its _onHalted after theirs.
	bttest.Play(t, tree, r, bttest.TickOnce, []bttest.Step{{Want: Running, Log: "A:R"}, {Halt: true, Log: "C:halt A:halt A.onHalted C.onHalted"}})
}
