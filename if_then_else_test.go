package bt_test

import (
	"testing"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

func TestIfThenElse(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "then branch", Tree: func(r *bttest.Recorder) *Spec {
			return IfThenElse(r.Leaf("C", "S"), r.Leaf("T", "S"), r.Leaf("E", "S"))
		}, Steps: []bttest.Step{{Want: Success, Log: "C:S T:S", States: "I I I I"}}},
		{Name: "else branch", Tree: func(r *bttest.Recorder) *Spec {
			return IfThenElse(r.Leaf("C", "F"), r.Leaf("T", "S"), r.Leaf("E", "F"))
		}, Steps: []bttest.Step{{Want: Failure, Log: "C:F E:F"}}},
		{Name: "no else branch", Tree: func(r *bttest.Recorder) *Spec {
			return IfThenElse(r.Leaf("C", "F"), r.Leaf("T", "S"))
		}, Steps: []bttest.Step{{Want: Failure, Log: "C:F"}}},
		{Name: "condition running", Tree: func(r *bttest.Recorder) *Spec {
			return IfThenElse(r.Leaf("C", "R S"), r.Leaf("T", "S"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "C:R"},
			{Want: Success, Log: "C:S T:S"},
		}},
		{Name: "branch running: condition not re-checked", Tree: func(r *bttest.Recorder) *Spec {
			return IfThenElse(r.Leaf("C", "S F"), r.Leaf("T", "R R S"), r.Leaf("E", "S"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "C:S T:R", States: "R S R I"},
			{Want: Running, Log: "T:R"},
			{Want: Success, Log: "T:S", States: "I I I I"},
		}},
		{Name: "skipped branch", Tree: func(r *bttest.Recorder) *Spec {
			return IfThenElse(r.Leaf("C", "S"), r.Leaf("T", "K"))
		}, Steps: []bttest.Step{{Want: Skipped, Log: "C:S T:K", States: "I I I"}}},
		{Name: "halt forgets the branch", Tree: func(r *bttest.Recorder) *Spec {
			return IfThenElse(r.Leaf("C", "S F"), r.Leaf("T", "R"), r.Leaf("E", "S"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "C:S T:R"},
			{Halt: true, Log: "T:halt", States: "I I I I"},
			{Want: Success, Log: "C:F E:S"},
		}},
	})
}

func TestConditionSkippedIsAnError(t *testing.T) {
	for _, mk := range []func(...*Spec) *Spec{IfThenElse, WhileDoElse} {
		r := &bttest.Recorder{}
		tree, err := NewTree(mk(r.Leaf("C", "K"), r.Leaf("T", "S")))
		if err != nil {
			t.Fatal(err)
		}
		_, err = tree.TickOnce()
		if err == nil || err.Error() != "node "+tree.Root().Path()+" ("+tree.Root().ID()+"): the condition (first child) was skipped" {
			t.Errorf("%s: got %v", tree.Root().ID(), err)
		}
	}
}

func TestChildCountErrors(t *testing.T) {
	r := &bttest.Recorder{}
	for _, c := range []struct {
		spec *Spec
		want string
	}{
		{IfThenElse(r.Leaf("C", "S")), "node IfThenElse::1 (IfThenElse): IfThenElse needs 2 or 3 children, found 1"},
		{WhileDoElse(r.Leaf("A", "S"), r.Leaf("B", "S"), r.Leaf("C", "S"), r.Leaf("D", "S")), "node WhileDoElse::1 (WhileDoElse): WhileDoElse needs 2 or 3 children, found 4"},
	} {
		_, err := NewTree(c.spec)
		if err == nil || err.Error() != c.want {
			t.Errorf("got %v, want %s", err, c.want)
		}
	}
}
