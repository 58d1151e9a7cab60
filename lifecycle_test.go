package bt

import (
	"errors"
	"strings"
	"testing"
)

// passThrough is a test decorator: it returns its child's status.
var passThrough = &Model{ID: "Pass", Kind: KindDecorator, New: func(*Init) (Behavior, error) {
	return action1(func(n *Node) Status { return n.Child(0).Tick() }), nil
}}

func TestPreConditions(t *testing.T) {
	type pre struct {
		h  Hook
		ok bool
	}
	for _, c := range []struct {
		name  string
		pres  []pre
		steps []step
	}{
		{"failureIf true fails without ticking", []pre{{FailureIf, true}}, []step{{want: Failure, log: "post"}}},
		{"successIf true succeeds without ticking", []pre{{SuccessIf, true}}, []step{{want: Success, log: "post"}}},
		{"skipIf true skips without ticking", []pre{{SkipIf, true}}, []step{{want: Skipped, log: "", states: "I"}}},
		{"while false skips", []pre{{While, false}}, []step{{want: Skipped, log: ""}}},
		{"false conditions let the node tick", []pre{{FailureIf, false}, {SuccessIf, false}, {SkipIf, false}, {While, true}},
			[]step{{want: Running, log: "A:R"}, {want: Success, log: "A:S post"}}},
		{"failureIf is checked before successIf", []pre{{SuccessIf, true}, {FailureIf, true}}, []step{{want: Failure, log: "post"}}},
		{"successIf is checked before skipIf", []pre{{SkipIf, true}, {SuccessIf, true}}, []step{{want: Success, log: "post"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := &recorder{}
			s := r.leaf("A", "R S")
			for _, p := range c.pres {
				ok := p.ok
				s.Pre(p.h, func(*Node) bool { return ok })
			}
			s.Post(Post, func(n *Node) { r.log = append(r.log, "post") })
			tree, err := NewTree(s)
			if err != nil {
				t.Fatal(err)
			}
			runSteps(t, tree, r, false, c.steps)
		})
	}
}

func TestPreConditionsOnlyWhenIdle(t *testing.T) {
	r := &recorder{}
	skip := false
	tree, err := NewTree(Sequence(r.leaf("A", "R R S").Pre(SkipIf, func(*Node) bool { return skip })))
	if err != nil {
		t.Fatal(err)
	}
	runSteps(t, tree, r, false, []step{{want: Running, log: "A:R"}})
	skip = true // ignored while A is Running
	runSteps(t, tree, r, false, []step{{want: Running, log: "A:R"}, {want: Success, log: "A:S"}, {want: Skipped, log: ""}})
}

func TestWhileHaltsARunningNode(t *testing.T) {
	r := &recorder{}
	ok := true
	leaf := r.leaf("A", "R").
		Pre(While, func(*Node) bool { return ok }).
		Post(OnHalted, func(*Node) { r.log = append(r.log, "onHalted") })
	tree, err := NewTree(Sequence(leaf, r.leaf("B", "S")))
	if err != nil {
		t.Fatal(err)
	}
	runSteps(t, tree, r, false, []step{{want: Running, log: "A:R"}})
	ok = false
	runSteps(t, tree, r, false, []step{{want: Success, log: "A:halt onHalted B:S", states: "I I I"}})
}

func TestPostConditions(t *testing.T) {
	r := &recorder{}
	note := func(what string) func(*Node) { return func(*Node) { r.log = append(r.log, what) } }
	leaf := func(name, script string) *Spec {
		return r.leaf(name, script).Post(OnSuccess, note(name+".onSuccess")).Post(OnFailure, note(name+".onFailure")).
			Post(Post, note(name+".post")).Post(OnHalted, note(name+".onHalted"))
	}
	tree, err := NewTree(ReactiveSequence(leaf("A", "S S F"), leaf("B", "R K")))
	if err != nil {
		t.Fatal(err)
	}
	runSteps(t, tree, r, false, []step{
		{want: Running, log: "A:S A.onSuccess A.post B:R"},
		{want: Success, log: "A:S A.onSuccess A.post B:K"}, // nothing after Skipped
		{want: Failure, log: "A:F A.onFailure A.post"},
	})
	tree, err = NewTree(Sequence(leaf("A", "R")))
	if err != nil {
		t.Fatal(err)
	}
	runSteps(t, tree, r, false, []step{{want: Running, log: "A:R"}, {halt: true, log: "A:halt A.onHalted"}})
}

func TestHookRejectsWrongKind(t *testing.T) {
	r := &recorder{}
	_, err := NewTree(r.leaf("A", "S").Pre(Post, func(*Node) bool { return true }).Post(SkipIf, func(*Node) {}))
	want := "node A::1 (A): _post is not a pre-condition\nnode A::1 (A): _skipIf is not a post-condition"
	if err == nil || err.Error() != want {
		t.Errorf("got %v", err)
	}
}

func TestDecoratorResetsCompletedChild(t *testing.T) {
	r := &recorder{}
	tree, err := NewTree(Sequence(passThrough.Spec(r.leaf("A", "S")), r.leaf("B", "R")))
	if err != nil {
		t.Fatal(err)
	}
	// A is reset by its decorator at once, although the Sequence is still running.
	runSteps(t, tree, r, false, []step{{want: Running, log: "A:S B:R", states: "R S I R"}})
}

func TestSkippedIsNeverStored(t *testing.T) {
	r := &recorder{}
	tree, err := NewTree(Sequence(r.leaf("A", "R K"), r.leaf("B", "R")))
	if err != nil {
		t.Fatal(err)
	}
	runSteps(t, tree, r, false, []step{
		{want: Running, log: "A:R", states: "R R I"},
		{want: Running, log: "A:K B:R", states: "R I R"}, // A was Running, returned Skipped: now Idle
	})
}

func TestReturningIdleIsAnError(t *testing.T) {
	r := &recorder{}
	tree, err := NewTree(Sequence(r.leaf("A", "S"), r.leaf("B", "I").Named("bad")))
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
	r := &recorder{}
	tree, err := NewTree(Sequence(r.leaf("A", "S"), Fallback(r.leaf("B", "S").Named("bee"), r.leaf("C", "S")).Named("fb")))
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
type haltLogger struct{ r *recorder }

func (h haltLogger) Tick(n *Node) Status { return n.Child(0).Tick() }
func (h haltLogger) Halt(*Node)          { h.r.log = append(h.r.log, "C:halt") }

func TestHaltOrder(t *testing.T) {
	r := &recorder{}
	note := func(what string) func(*Node) { return func(*Node) { r.log = append(r.log, what) } }
	control := &Model{ID: "C", Kind: KindControl, New: func(*Init) (Behavior, error) { return haltLogger{r}, nil }}
	tree, err := NewTree(control.Spec(r.leaf("A", "R").Post(OnHalted, note("A.onHalted"))).Post(OnHalted, note("C.onHalted")))
	if err != nil {
		t.Fatal(err)
	}
	// A node's Halt runs before its children are halted, its _onHalted after theirs.
	runSteps(t, tree, r, false, []step{{want: Running, log: "A:R"}, {halt: true, log: "C:halt A:halt A.onHalted C.onHalted"}})
}
