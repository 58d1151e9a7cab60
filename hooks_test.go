package bt_test

import (
	"testing"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

func TestPreConditions(t *testing.T) {
	type pre struct {
		h  Cond
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

func TestCondRejectsWrongKind(t *testing.T) {
	r := &bttest.Recorder{}
	_, err := NewTree(r.Leaf("A", "S").Pre(Post, func(*Node) bool { return true }).Post(SkipIf, func(*Node) {}))
	want := "node A::1 (A): _post is not a pre-condition\nnode A::1 (A): _skipIf is not a post-condition"
	if err == nil || err.Error() != want {
		t.Errorf("got %v", err)
	}
}
