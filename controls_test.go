package bt_test

import (
	"testing"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
	"github.com/gobt/bt/bttest"
)

func TestSequence(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "children succeed in one tick", Tree: func(r *bttest.Recorder) *Spec {
			return Sequence(r.Leaf("A", "S"), r.Leaf("B", "S"))
		}, Steps: []bttest.Step{
			{Want: Success, Log: "A:S B:S", States: "I I I"},
			{Want: Success, Log: "A:S B:S"},
		}},
		{Name: "skipped child is passed over", Tree: func(r *bttest.Recorder) *Spec {
			return Sequence(r.Leaf("A", "K"), r.Leaf("B", "S"))
		}, Steps: []bttest.Step{{Want: Success, Log: "A:K B:S", States: "I I I"}}},
		{Name: "all skipped", Tree: func(r *bttest.Recorder) *Spec {
			return Sequence(r.Leaf("A", "K"), r.Leaf("B", "K"))
		}, Steps: []bttest.Step{{Want: Skipped, Log: "A:K B:K", States: "I I I"}}},
		{Name: "running child resumes without re-ticking earlier ones", Tree: func(r *bttest.Recorder) *Spec {
			return Sequence(r.Leaf("A", "S"), r.Leaf("B", "R R S"), r.Leaf("C", "S"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:S B:R", States: "R S R I"},
			{Want: Running, Log: "B:R"},
			{Want: Success, Log: "B:S C:S", States: "I I I I"},
		}},
		{Name: "failure resets and restarts from the first child", Tree: func(r *bttest.Recorder) *Spec {
			return Sequence(r.Leaf("A", "S"), r.Leaf("B", "R F S"), r.Leaf("C", "S"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:S B:R"},
			{Want: Failure, Log: "B:F", States: "I I I I"},
			{Want: Success, Log: "A:S B:S C:S"},
		}},
		{Name: "skipped counter restarts with each activation", Tree: func(r *bttest.Recorder) *Spec {
			return Sequence(r.Leaf("A", "K"), r.Leaf("B", "R K"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:K B:R"},
			{Want: Skipped, Log: "B:K", States: "I I I"},
			{Want: Skipped, Log: "A:K B:K"},
		}},
		{Name: "halt stops the running child and forgets the position", Tree: func(r *bttest.Recorder) *Spec {
			return Sequence(r.Leaf("A", "S"), r.Leaf("B", "R"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:S B:R"},
			{Halt: true, Log: "B:halt", States: "I I I"},
			{Want: Running, Log: "A:S B:R"},
		}},
		{Name: "never yields, even exactly once", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *Spec {
			return Sequence(r.Leaf("A", "S"), r.Leaf("B", "S"))
		}, Steps: []bttest.Step{{Want: Success, Log: "A:S B:S"}}},
		// Without observers a Sequence stores its children's statuses only when it must
		// (see sequence.tick): these check what is stored between ticks.
		{Name: "successes before a skip and a running child are stored", Tree: func(r *bttest.Recorder) *Spec {
			return Sequence(r.Leaf("A", "S"), r.Leaf("B", "K"), r.Leaf("C", "S"), r.Leaf("D", "R"))
		}, Steps: []bttest.Step{{Want: Running, Log: "A:S B:K C:S D:R", States: "R S I S R"}}},
		{Name: "a resumed child that succeeds is stored as such", Tree: func(r *bttest.Recorder) *Spec {
			return Sequence(r.Leaf("A", "R S"), r.Leaf("B", "S"), r.Leaf("C", "R"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:R", States: "R R I I"},
			{Want: Running, Log: "A:S B:S C:R", States: "R S S R"},
		}},
		{Name: "a resumed child that is skipped goes back to idle", Tree: func(r *bttest.Recorder) *Spec {
			return Sequence(r.Leaf("A", "R K"), r.Leaf("B", "R"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:R", States: "R R I"},
			{Want: Running, Log: "A:K B:R", States: "R I R"},
		}},
		{Name: "a failure after resuming resets every child ticked", Tree: func(r *bttest.Recorder) *Spec {
			return Sequence(r.Leaf("A", "S"), r.Leaf("B", "R S"), r.Leaf("C", "F"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:S B:R", States: "R S R I"},
			{Want: Failure, Log: "B:S C:F", States: "I I I I"},
		}},
		{Name: "a resumed first child that fails is reset", Tree: func(r *bttest.Recorder) *Spec {
			return Sequence(r.Leaf("A", "R F"), r.Leaf("B", "S"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:R", States: "R R I"},
			{Want: Failure, Log: "A:F", States: "I I I"},
		}},
		{Name: "children that store their own status are reset too", Tree: func(r *bttest.Recorder) *Spec {
			// A decorator stores its status during its tick, before resetting its child.
			return Sequence(r.Leaf("A", "S"), Inverter(r.Leaf("B", "F")), ForceFailure(r.Leaf("C", "S S F")))
		}, Steps: []bttest.Step{
			{Want: Failure, Log: "A:S B:F C:S", States: "I I I I I I"},
		}},
		{Name: "a resumed first child that succeeds with the rest is reset", Tree: func(r *bttest.Recorder) *Spec {
			return Sequence(r.Leaf("A", "R S"), r.Leaf("B", "S"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:R", States: "R R I"},
			{Want: Success, Log: "A:S B:S", States: "I I I"},
		}},
	})
}

func TestAsyncSequence(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "yields after each synchronous success", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *Spec {
			return AsyncSequence(r.Leaf("A", "S"), r.Leaf("B", "S"), r.Leaf("C", "S"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:S", States: "R S I I"},
			{Want: Running, Log: "B:S"},
			{Want: Success, Log: "C:S", States: "I I I I"},
		}},
		{Name: "TickOnce re-ticks after a yield", Only: bttest.TickOnce, Tree: func(r *bttest.Recorder) *Spec {
			return AsyncSequence(r.Leaf("A", "S"), r.Leaf("B", "S"), r.Leaf("C", "S"))
		}, Steps: []bttest.Step{{Want: Success, Log: "A:S B:S C:S"}}},
		{Name: "no yield after a child that was running", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *Spec {
			return AsyncSequence(r.Leaf("A", "R S"), r.Leaf("B", "S"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:R"},
			{Want: Success, Log: "A:S B:S"},
		}},
		{Name: "no yield after a skipped child", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *Spec {
			return AsyncSequence(r.Leaf("A", "K"), r.Leaf("B", "S"), r.Leaf("C", "S"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:K B:S"},
			{Want: Success, Log: "C:S"},
		}},
		{Name: "failure resets", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *Spec {
			return AsyncSequence(r.Leaf("A", "S"), r.Leaf("B", "F"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:S"},
			{Want: Failure, Log: "B:F", States: "I I I"},
			{Want: Running, Log: "A:S"},
		}},
	})
}

func TestSequenceWithMemory(t *testing.T) {
	for _, mk := range []struct {
		name string
		f    func(...*Spec) *Spec
	}{{"SequenceWithMemory", SequenceWithMemory}, {"SequenceStar", builtin("SequenceStar").Spec}} {
		t.Run(mk.name, func(t *testing.T) {
			bttest.Run(t, []bttest.Case{
				{Name: "failure keeps the position", Only: bttest.TickOnce, Tree: func(r *bttest.Recorder) *Spec {
					return mk.f(r.Leaf("A", "S"), r.Leaf("B", "F S"), r.Leaf("C", "S"))
				}, Steps: []bttest.Step{
					{Want: Failure, Log: "A:S B:F", States: "I S I I"},
					{Want: Success, Log: "B:S C:S", States: "I I I I"},
					{Want: Success, Log: "A:S B:S C:S"},
				}},
				{Name: "yields after each synchronous success", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *Spec {
					return mk.f(r.Leaf("A", "S"), r.Leaf("B", "F S"), r.Leaf("C", "S"))
				}, Steps: []bttest.Step{
					{Want: Running, Log: "A:S"},
					{Want: Failure, Log: "B:F"},
					{Want: Running, Log: "B:S"},
					{Want: Success, Log: "C:S"},
				}},
				{Name: "halt keeps the position", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *Spec {
					return mk.f(r.Leaf("A", "S"), r.Leaf("B", "R"))
				}, Steps: []bttest.Step{
					{Want: Running, Log: "A:S"},
					{Want: Running, Log: "B:R"},
					{Halt: true, Log: "B:halt", States: "I I I"},
					{Want: Running, Log: "B:R"},
				}},
				{Name: "all skipped", Tree: func(r *bttest.Recorder) *Spec {
					return mk.f(r.Leaf("A", "K"), r.Leaf("B", "K"))
				}, Steps: []bttest.Step{{Want: Skipped, Log: "A:K B:K", States: "I I I"}}},
			})
		})
	}
}

func TestFallback(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "first success wins", Tree: func(r *bttest.Recorder) *Spec {
			return Fallback(r.Leaf("A", "F"), r.Leaf("B", "S"), r.Leaf("C", "S"))
		}, Steps: []bttest.Step{{Want: Success, Log: "A:F B:S", States: "I I I I"}}},
		{Name: "all fail", Tree: func(r *bttest.Recorder) *Spec {
			return Fallback(r.Leaf("A", "F"), r.Leaf("B", "F"))
		}, Steps: []bttest.Step{{Want: Failure, Log: "A:F B:F", States: "I I I"}}},
		{Name: "skipped children are passed over", Tree: func(r *bttest.Recorder) *Spec {
			return Fallback(r.Leaf("A", "K"), r.Leaf("B", "F"))
		}, Steps: []bttest.Step{{Want: Failure, Log: "A:K B:F"}}},
		{Name: "all skipped", Tree: func(r *bttest.Recorder) *Spec {
			return Fallback(r.Leaf("A", "K"), r.Leaf("B", "K"))
		}, Steps: []bttest.Step{{Want: Skipped, Log: "A:K B:K"}}},
		{Name: "running child resumes", Tree: func(r *bttest.Recorder) *Spec {
			return Fallback(r.Leaf("A", "F"), r.Leaf("B", "R F"), r.Leaf("C", "S"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:F B:R", States: "R F R I"},
			{Want: Success, Log: "B:F C:S", States: "I I I I"},
		}},
		{Name: "failures before a skip and a running child are stored", Tree: func(r *bttest.Recorder) *Spec {
			return Fallback(r.Leaf("A", "F"), r.Leaf("B", "K"), r.Leaf("C", "F"), r.Leaf("D", "R"))
		}, Steps: []bttest.Step{{Want: Running, Log: "A:F B:K C:F D:R", States: "R F I F R"}}},
		{Name: "children that store their own status are reset too", Tree: func(r *bttest.Recorder) *Spec {
			return Fallback(r.Leaf("A", "F"), Inverter(r.Leaf("B", "S")), r.Leaf("C", "F"))
		}, Steps: []bttest.Step{{Want: Failure, Log: "A:F B:S C:F", States: "I I I I I"}}},
		{Name: "halt forgets the position", Tree: func(r *bttest.Recorder) *Spec {
			return Fallback(r.Leaf("A", "F"), r.Leaf("B", "R"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:F B:R"},
			{Halt: true, Log: "B:halt", States: "I I I"},
			{Want: Running, Log: "A:F B:R"},
		}},
	})
}

func TestAsyncFallback(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "yields after each synchronous failure", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *Spec {
			return AsyncFallback(r.Leaf("A", "F"), r.Leaf("B", "F"), r.Leaf("C", "S"), r.Leaf("D", "S"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:F"},
			{Want: Running, Log: "B:F"},
			{Want: Success, Log: "C:S", States: "I I I I I"},
		}},
		{Name: "TickOnce completes in one call", Only: bttest.TickOnce, Tree: func(r *bttest.Recorder) *Spec {
			return AsyncFallback(r.Leaf("A", "F"), r.Leaf("B", "F"))
		}, Steps: []bttest.Step{{Want: Failure, Log: "A:F B:F"}}},
		{Name: "no yield after the last child", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *Spec {
			return AsyncFallback(r.Leaf("A", "F"))
		}, Steps: []bttest.Step{{Want: Failure, Log: "A:F"}}},
	})
}

func TestReactiveSequence(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "condition re-checked every tick; failure halts the running child", Tree: func(r *bttest.Recorder) *Spec {
			return ReactiveSequence(r.Leaf("C", "S S F"), r.Leaf("A", "R"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "C:S A:R", States: "R I R"},
			{Want: Running, Log: "C:S A:R"},
			{Want: Failure, Log: "C:F A:halt", States: "I I I"},
		}},
		{Name: "a running child halts a later running one", Tree: func(r *bttest.Recorder) *Spec {
			return ReactiveSequence(r.Leaf("A", "S R"), r.Leaf("B", "R"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:S B:R", States: "R I R"},
			{Want: Running, Log: "A:R B:halt", States: "R R I"},
		}},
		{Name: "all succeed", Tree: func(r *bttest.Recorder) *Spec {
			return ReactiveSequence(r.Leaf("A", "S"), r.Leaf("B", "S"))
		}, Steps: []bttest.Step{{Want: Success, Log: "A:S B:S", States: "I I I"}}},
		{Name: "skipped children", Tree: func(r *bttest.Recorder) *Spec {
			return ReactiveSequence(r.Leaf("A", "K"), r.Leaf("B", "S"))
		}, Steps: []bttest.Step{{Want: Success, Log: "A:K B:S"}}},
		{Name: "all skipped", Tree: func(r *bttest.Recorder) *Spec {
			return ReactiveSequence(r.Leaf("A", "K"), r.Leaf("B", "K"))
		}, Steps: []bttest.Step{{Want: Skipped, Log: "A:K B:K", States: "I I I"}}},
		{Name: "halt", Tree: func(r *bttest.Recorder) *Spec {
			return ReactiveSequence(r.Leaf("A", "S"), r.Leaf("B", "R"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:S B:R"},
			{Halt: true, Log: "B:halt", States: "I I I"},
		}},
	})
}

func TestReactiveFallback(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "higher priority child interrupts", Tree: func(r *bttest.Recorder) *Spec {
			return ReactiveFallback(r.Leaf("C", "F F S"), r.Leaf("A", "R"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "C:F A:R", States: "R I R"},
			{Want: Running, Log: "C:F A:R"},
			{Want: Success, Log: "C:S A:halt", States: "I I I"},
		}},
		{Name: "all fail", Tree: func(r *bttest.Recorder) *Spec {
			return ReactiveFallback(r.Leaf("A", "F"), r.Leaf("B", "F"))
		}, Steps: []bttest.Step{{Want: Failure, Log: "A:F B:F", States: "I I I"}}},
		{Name: "all skipped", Tree: func(r *bttest.Recorder) *Spec {
			return ReactiveFallback(r.Leaf("A", "K"), r.Leaf("B", "K"))
		}, Steps: []bttest.Step{{Want: Skipped, Log: "A:K B:K"}}},
		{Name: "a running child halts a later running one", Tree: func(r *bttest.Recorder) *Spec {
			return ReactiveFallback(r.Leaf("A", "F R"), r.Leaf("B", "R"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:F B:R"},
			{Want: Running, Log: "A:R B:halt"},
		}},
	})
}

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

func TestWhileDoElse(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "condition re-checked; switching branch halts the other", Tree: func(r *bttest.Recorder) *Spec {
			return WhileDoElse(r.Leaf("C", "S F S"), r.Leaf("D", "R"), r.Leaf("E", "R"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "C:S D:R", States: "R S R I"},
			{Want: Running, Log: "C:F D:halt E:R", States: "R F I R"},
			{Want: Running, Log: "C:S E:halt D:R"},
		}},
		{Name: "branch completes", Tree: func(r *bttest.Recorder) *Spec {
			return WhileDoElse(r.Leaf("C", "F"), r.Leaf("D", "S"), r.Leaf("E", "S"))
		}, Steps: []bttest.Step{{Want: Success, Log: "C:F E:S", States: "I I I I"}}},
		{Name: "two children, condition fails", Tree: func(r *bttest.Recorder) *Spec {
			return WhileDoElse(r.Leaf("C", "S F"), r.Leaf("D", "R"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "C:S D:R"},
			{Want: Failure, Log: "C:F D:halt", States: "I I I"},
		}},
		{Name: "condition running", Tree: func(r *bttest.Recorder) *Spec {
			return WhileDoElse(r.Leaf("C", "R"), r.Leaf("D", "S"))
		}, Steps: []bttest.Step{{Want: Running, Log: "C:R"}}},
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

func TestParallel(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "default thresholds: all must succeed", Tree: func(r *bttest.Recorder) *Spec {
			return builtin("Parallel").Spec(r.Leaf("A", "S"), r.Leaf("B", "R S"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:S B:R", States: "R S R"},
			{Want: Success, Log: "B:S", States: "I I I"},
		}},
		{Name: "default failure_count 1: first failure halts the running ones", Tree: func(r *bttest.Recorder) *Spec {
			return builtin("Parallel").Spec(r.Leaf("A", "R"), r.Leaf("B", "R F"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:R B:R"},
			{Want: Failure, Log: "A:R B:F A:halt", States: "I I I"},
		}},
		{Name: "decides before ticking later children", Tree: func(r *bttest.Recorder) *Spec {
			return Parallel(1, 1, r.Leaf("A", "S"), r.Leaf("B", "R"))
		}, Steps: []bttest.Step{{Want: Success, Log: "A:S"}}},
		{Name: "completed children are not ticked again", Tree: func(r *bttest.Recorder) *Spec {
			return Parallel(2, 2, r.Leaf("A", "S"), r.Leaf("B", "F"), r.Leaf("C", "R R S"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:S B:F C:R", States: "R S F R"},
			{Want: Running, Log: "C:R"},
			{Want: Success, Log: "C:S", States: "I I I I"},
		}},
		{Name: "cannot succeed any more", Tree: func(r *bttest.Recorder) *Spec {
			return Parallel(2, 3, r.Leaf("A", "F"), r.Leaf("B", "F"), r.Leaf("C", "R"))
		}, Steps: []bttest.Step{{Want: Failure, Log: "A:F B:F"}}},
		{Name: "negative success_count counts skipped children", Tree: func(r *bttest.Recorder) *Spec {
			return Parallel(-1, 1, r.Leaf("A", "K"), r.Leaf("B", "S"))
		}, Steps: []bttest.Step{{Want: Success, Log: "A:K B:S"}}},
		{Name: "positive success_count ignores skipped children", Tree: func(r *bttest.Recorder) *Spec {
			return Parallel(2, 1, r.Leaf("A", "K"), r.Leaf("B", "S"), r.Leaf("C", "R S"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:K B:S C:R"},
			{Want: Success, Log: "A:K C:S"},
		}},
		{Name: "-2 means all but one", Tree: func(r *bttest.Recorder) *Spec {
			return Parallel(-2, -1, r.Leaf("A", "S"), r.Leaf("B", "S"), r.Leaf("C", "R"))
		}, Steps: []bttest.Step{{Want: Success, Log: "A:S B:S"}}},
		{Name: "all skipped", Tree: func(r *bttest.Recorder) *Spec {
			return Parallel(1, 1, r.Leaf("A", "K"), r.Leaf("B", "K"))
		}, Steps: []bttest.Step{{Want: Skipped, Log: "A:K B:K", States: "I I I"}}},
		{Name: "halt forgets results", Tree: func(r *bttest.Recorder) *Spec {
			return builtin("Parallel").Spec(r.Leaf("A", "S"), r.Leaf("B", "R"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:S B:R"},
			{Halt: true, Log: "B:halt", States: "I I I"},
			{Want: Running, Log: "A:S B:R"},
		}},
	})
}

func TestParallelThresholdErrors(t *testing.T) {
	r := &bttest.Recorder{}
	for _, c := range []struct {
		spec *Spec
		want string
	}{
		{Parallel(3, 1, r.Leaf("A", "S"), r.Leaf("B", "S")), "node Parallel::1 (Parallel): success_count 3 needs more than the 2 children: it can never succeed"},
		{Parallel(1, 3, r.Leaf("A", "S"), r.Leaf("B", "S")), "node Parallel::1 (Parallel): failure_count 3 needs more than the 2 children: it can never fail"},
		{ParallelAll(3, r.Leaf("A", "S"), r.Leaf("B", "S")), "node ParallelAll::1 (ParallelAll): max_failures 3 needs more than the 2 children: it can never fail"},
	} {
		tree, err := NewTree(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tree.TickOnce(); err == nil || err.Error() != c.want {
			t.Errorf("got %v, want %s", err, c.want)
		}
	}
}

func TestParallelAll(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "waits for every child", Tree: func(r *bttest.Recorder) *Spec {
			return ParallelAll(1, r.Leaf("A", "F"), r.Leaf("B", "R S"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:F B:R", States: "R F R"},
			{Want: Failure, Log: "B:S", States: "I I I"},
		}},
		{Name: "failures below max_failures succeed", Tree: func(r *bttest.Recorder) *Spec {
			return ParallelAll(2, r.Leaf("A", "F"), r.Leaf("B", "S"), r.Leaf("C", "R S"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:F B:S C:R"},
			{Want: Success, Log: "C:S"},
		}},
		{Name: "skipped children count as done", Tree: func(r *bttest.Recorder) *Spec {
			return ParallelAll(1, r.Leaf("A", "K"), r.Leaf("B", "S"))
		}, Steps: []bttest.Step{{Want: Success, Log: "A:K B:S"}}},
		{Name: "all skipped", Tree: func(r *bttest.Recorder) *Spec {
			return ParallelAll(1, r.Leaf("A", "K"), r.Leaf("B", "K"))
		}, Steps: []bttest.Step{{Want: Skipped, Log: "A:K B:K"}}},
		{Name: "negative max_failures", Tree: func(r *bttest.Recorder) *Spec {
			return ParallelAll(-1, r.Leaf("A", "F"), r.Leaf("B", "S"))
		}, Steps: []bttest.Step{{Want: Success, Log: "A:F B:S"}}},
		{Name: "halt", Tree: func(r *bttest.Recorder) *Spec {
			return ParallelAll(1, r.Leaf("A", "S"), r.Leaf("B", "R"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:S B:R"},
			{Halt: true, Log: "B:halt", States: "I I I"},
			{Want: Running, Log: "A:S B:R"},
		}},
	})
}

func TestTryCatch(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "try block succeeds", Tree: func(r *bttest.Recorder) *Spec {
			return TryCatch(false, r.Leaf("A", "S"), r.Leaf("B", "S"), r.Leaf("C", "S"))
		}, Steps: []bttest.Step{{Want: Success, Log: "A:S B:S", States: "I I I I"}}},
		{Name: "failure runs the catch in the same tick and fails", Tree: func(r *bttest.Recorder) *Spec {
			return TryCatch(false, r.Leaf("A", "S"), r.Leaf("B", "F"), r.Leaf("C", "S"))
		}, Steps: []bttest.Step{{Want: Failure, Log: "A:S B:F C:S", States: "I I I I"}}},
		{Name: "running catch resumes", Tree: func(r *bttest.Recorder) *Spec {
			return TryCatch(false, r.Leaf("A", "R F"), r.Leaf("C", "R R F S"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:R"},
			{Want: Running, Log: "A:F C:R", States: "R I R"},
			{Want: Running, Log: "C:R"},
			{Want: Failure, Log: "C:F", States: "I I I"},
		}},
		{Name: "skipped catch still fails", Tree: func(r *bttest.Recorder) *Spec {
			return TryCatch(false, r.Leaf("A", "F"), r.Leaf("C", "K"))
		}, Steps: []bttest.Step{{Want: Failure, Log: "A:F C:K"}}},
		{Name: "all try children skipped", Tree: func(r *bttest.Recorder) *Spec {
			return TryCatch(false, r.Leaf("A", "K"), r.Leaf("B", "K"), r.Leaf("C", "S"))
		}, Steps: []bttest.Step{{Want: Skipped, Log: "A:K B:K"}}},
		{Name: "halt without catch_on_halt", Tree: func(r *bttest.Recorder) *Spec {
			return TryCatch(false, r.Leaf("A", "R"), r.Leaf("C", "S"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:R"},
			{Halt: true, Log: "A:halt", States: "I I I"},
		}},
		{Name: "halt with catch_on_halt ticks the catch once", Tree: func(r *bttest.Recorder) *Spec {
			return TryCatch(true, r.Leaf("A", "R"), r.Leaf("C", "R"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:R"},
			{Halt: true, Log: "A:halt C:R C:halt", States: "I I I"},
		}},
		{Name: "halt while in catch does not tick the catch again", Tree: func(r *bttest.Recorder) *Spec {
			return TryCatch(true, r.Leaf("A", "F"), r.Leaf("C", "R"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:F C:R"},
			{Halt: true, Log: "C:halt", States: "I I I"},
		}},
	})
}

func TestSwitch(t *testing.T) {
	sw := func(variable string, r *bttest.Recorder) *Spec {
		return Switch(variable, []string{"walk", "3", "2.5"}, r.Leaf("W", "S"), r.Leaf("T", "S"), r.Leaf("F", "R"), r.Leaf("D", "S"))
	}
	bttest.Run(t, []bttest.Case{
		{Name: "text match", Tree: func(r *bttest.Recorder) *Spec { return sw("walk", r) },
			Steps: []bttest.Step{{Want: Success, Log: "W:S", States: "I I I I I"}}},
		{Name: "integer match", Tree: func(r *bttest.Recorder) *Spec { return sw("03", r) },
			Steps: []bttest.Step{{Want: Success, Log: "T:S"}}},
		{Name: "real match within epsilon", Tree: func(r *bttest.Recorder) *Spec { return sw("2.50000001", r) },
			Steps: []bttest.Step{{Want: Running, Log: "F:R"}}},
		{Name: "no match: default", Tree: func(r *bttest.Recorder) *Spec { return sw("swim", r) },
			Steps: []bttest.Step{{Want: Success, Log: "D:S"}}},
		{Name: "unset variable: default", Tree: func(r *bttest.Recorder) *Spec { return sw("{nothing}", r) },
			Steps: []bttest.Step{{Want: Success, Log: "D:S"}}},
		{Name: "skipped child is not replaced by the default", Tree: func(r *bttest.Recorder) *Spec {
			return Switch("a", []string{"a", "b"}, r.Leaf("A", "K"), r.Leaf("B", "S"), r.Leaf("D", "S"))
		}, Steps: []bttest.Step{{Want: Skipped, Log: "A:K"}}},
	})
}

func TestSwitchFollowsTheBlackboard(t *testing.T) {
	r := &bttest.Recorder{}
	tree, err := NewTree(Switch("{mode}", []string{"1", "2"}, r.Leaf("A", "R"), r.Leaf("B", "R"), r.Leaf("D", "R")))
	if err != nil {
		t.Fatal(err)
	}
	mode := tree.Blackboard().Entry("mode")
	for _, st := range []struct {
		set  func() error
		want string
	}{
		{func() error { return nil }, "D:R"},
		{func() error { return mode.Set(blackboard.String("2")) }, "D:halt B:R"},
		{func() error { return mode.Set(blackboard.String("1.0")) }, "B:halt A:R"},
		{func() error { return mode.Set(blackboard.String("x")) }, "A:halt D:R"},
	} {
		if err := st.set(); err != nil {
			t.Fatal(err)
		}
		if s, err := tree.TickOnce(); err != nil || s != Running {
			t.Fatal(s, err)
		}
		if got := r.Take(); got != st.want {
			t.Errorf("got %q, want %q", got, st.want)
		}
	}
}

func TestSwitchOnNumbers(t *testing.T) {
	for _, c := range []struct {
		v    blackboard.Value
		want string
	}{{blackboard.Int(2), "B:S"}, {blackboard.Float(1), "A:S"}, {blackboard.Float(1.5), "D:S"}, {blackboard.Bool(true), "A:S"}} {
		bb := blackboard.New()
		if err := bb.Entry("mode").Assign(c.v); err != nil { // as a script's "mode := …": a generic entry
			t.Fatal(err)
		}
		r := &bttest.Recorder{}
		tree, err := NewTree(Switch("{mode}", []string{"1", "2.0"}, r.Leaf("A", "S"), r.Leaf("B", "S"), r.Leaf("D", "S")), WithBlackboard(bb))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tree.TickOnce(); err != nil {
			t.Fatal(err)
		}
		if got := r.Take(); got != c.want {
			t.Errorf("%v: got %q, want %q", c.v, got, c.want)
		}
	}
}

// TestSwitchOnTextDoesNotAllocate: a text variable is parsed once per write, and a word
// is not fed to strconv (whose errors allocate).
func TestSwitchOnTextDoesNotAllocate(t *testing.T) {
	tree, err := NewTree(Switch("{mode}", []string{"walk", "2"}, AlwaysSuccess(), AlwaysSuccess(), AlwaysFailure()))
	if err != nil {
		t.Fatal(err)
	}
	mode := tree.Blackboard().Entry("mode")
	for _, v := range []string{"walk", "run", "2"} {
		if err := mode.Set(blackboard.String(v)); err != nil {
			t.Fatal(err)
		}
		if a := testing.AllocsPerRun(50, func() { tree.TickOnce() }); a != 0 {
			t.Errorf("mode %q: %v allocations per tick", v, a)
		}
	}
}
