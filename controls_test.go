package bt

import (
	"testing"

	"github.com/gobt/bt/blackboard"
)

// controlCase is a tick table for one line (or a few) of a node's status contract.
// It runs under TickOnce and TickExactlyOnce (see tickMode in decorators_test.go),
// unless the node yields and the table shows one mode only.
type controlCase struct {
	name  string
	tree  func(r *recorder) *Spec
	mode  tickMode
	steps []step
}

func runControlCases(t *testing.T, cases []controlCase) {
	t.Helper()
	for _, c := range cases {
		for _, exactly := range []bool{false, true} {
			if c.mode == onlyOnce && exactly || c.mode == onlyExactly && !exactly {
				continue
			}
			name := c.name + map[bool]string{false: " (TickOnce)", true: " (TickExactlyOnce)"}[exactly]
			for _, observed := range []bool{false, true} {
				name := name
				if observed {
					name += " observed"
				}
				t.Run(name, func(t *testing.T) {
					r := &recorder{}
					tree, err := NewTree(c.tree(r))
					if err != nil {
						t.Fatal(err)
					}
					var shadows []*shadow
					if observed {
						shadows = append(shadows, watch(tree))
					}
					runSteps(t, tree, r, exactly, c.steps, shadows...)
				})
			}
		}
	}
}

func TestSequence(t *testing.T) {
	runControlCases(t, []controlCase{
		{name: "children succeed in one tick", tree: func(r *recorder) *Spec {
			return Sequence(r.leaf("A", "S"), r.leaf("B", "S"))
		}, steps: []step{
			{want: Success, log: "A:S B:S", states: "I I I"},
			{want: Success, log: "A:S B:S"},
		}},
		{name: "skipped child is passed over", tree: func(r *recorder) *Spec {
			return Sequence(r.leaf("A", "K"), r.leaf("B", "S"))
		}, steps: []step{{want: Success, log: "A:K B:S", states: "I I I"}}},
		{name: "all skipped", tree: func(r *recorder) *Spec {
			return Sequence(r.leaf("A", "K"), r.leaf("B", "K"))
		}, steps: []step{{want: Skipped, log: "A:K B:K", states: "I I I"}}},
		{name: "running child resumes without re-ticking earlier ones", tree: func(r *recorder) *Spec {
			return Sequence(r.leaf("A", "S"), r.leaf("B", "R R S"), r.leaf("C", "S"))
		}, steps: []step{
			{want: Running, log: "A:S B:R", states: "R S R I"},
			{want: Running, log: "B:R"},
			{want: Success, log: "B:S C:S", states: "I I I I"},
		}},
		{name: "failure resets and restarts from the first child", tree: func(r *recorder) *Spec {
			return Sequence(r.leaf("A", "S"), r.leaf("B", "R F S"), r.leaf("C", "S"))
		}, steps: []step{
			{want: Running, log: "A:S B:R"},
			{want: Failure, log: "B:F", states: "I I I I"},
			{want: Success, log: "A:S B:S C:S"},
		}},
		{name: "skipped counter restarts with each activation", tree: func(r *recorder) *Spec {
			return Sequence(r.leaf("A", "K"), r.leaf("B", "R K"))
		}, steps: []step{
			{want: Running, log: "A:K B:R"},
			{want: Skipped, log: "B:K", states: "I I I"},
			{want: Skipped, log: "A:K B:K"},
		}},
		{name: "halt stops the running child and forgets the position", tree: func(r *recorder) *Spec {
			return Sequence(r.leaf("A", "S"), r.leaf("B", "R"))
		}, steps: []step{
			{want: Running, log: "A:S B:R"},
			{halt: true, log: "B:halt", states: "I I I"},
			{want: Running, log: "A:S B:R"},
		}},
		{name: "never yields, even exactly once", mode: onlyExactly, tree: func(r *recorder) *Spec {
			return Sequence(r.leaf("A", "S"), r.leaf("B", "S"))
		}, steps: []step{{want: Success, log: "A:S B:S"}}},
		// Without observers a Sequence stores its children's statuses only when it must
		// (see sequence.tick): these check what is stored between ticks.
		{name: "successes before a skip and a running child are stored", tree: func(r *recorder) *Spec {
			return Sequence(r.leaf("A", "S"), r.leaf("B", "K"), r.leaf("C", "S"), r.leaf("D", "R"))
		}, steps: []step{{want: Running, log: "A:S B:K C:S D:R", states: "R S I S R"}}},
		{name: "a resumed child that succeeds is stored as such", tree: func(r *recorder) *Spec {
			return Sequence(r.leaf("A", "R S"), r.leaf("B", "S"), r.leaf("C", "R"))
		}, steps: []step{
			{want: Running, log: "A:R", states: "R R I I"},
			{want: Running, log: "A:S B:S C:R", states: "R S S R"},
		}},
		{name: "a resumed child that is skipped goes back to idle", tree: func(r *recorder) *Spec {
			return Sequence(r.leaf("A", "R K"), r.leaf("B", "R"))
		}, steps: []step{
			{want: Running, log: "A:R", states: "R R I"},
			{want: Running, log: "A:K B:R", states: "R I R"},
		}},
		{name: "a failure after resuming resets every child ticked", tree: func(r *recorder) *Spec {
			return Sequence(r.leaf("A", "S"), r.leaf("B", "R S"), r.leaf("C", "F"))
		}, steps: []step{
			{want: Running, log: "A:S B:R", states: "R S R I"},
			{want: Failure, log: "B:S C:F", states: "I I I I"},
		}},
		{name: "a resumed first child that fails is reset", tree: func(r *recorder) *Spec {
			return Sequence(r.leaf("A", "R F"), r.leaf("B", "S"))
		}, steps: []step{
			{want: Running, log: "A:R", states: "R R I"},
			{want: Failure, log: "A:F", states: "I I I"},
		}},
		{name: "children that store their own status are reset too", tree: func(r *recorder) *Spec {
			// A decorator stores its status during its tick, before resetting its child.
			return Sequence(r.leaf("A", "S"), Inverter(r.leaf("B", "F")), ForceFailure(r.leaf("C", "S S F")))
		}, steps: []step{
			{want: Failure, log: "A:S B:F C:S", states: "I I I I I I"},
		}},
		{name: "a resumed first child that succeeds with the rest is reset", tree: func(r *recorder) *Spec {
			return Sequence(r.leaf("A", "R S"), r.leaf("B", "S"))
		}, steps: []step{
			{want: Running, log: "A:R", states: "R R I"},
			{want: Success, log: "A:S B:S", states: "I I I"},
		}},
	})
}

func TestAsyncSequence(t *testing.T) {
	runControlCases(t, []controlCase{
		{name: "yields after each synchronous success", mode: onlyExactly, tree: func(r *recorder) *Spec {
			return AsyncSequence(r.leaf("A", "S"), r.leaf("B", "S"), r.leaf("C", "S"))
		}, steps: []step{
			{want: Running, log: "A:S", states: "R S I I"},
			{want: Running, log: "B:S"},
			{want: Success, log: "C:S", states: "I I I I"},
		}},
		{name: "TickOnce re-ticks after a yield", mode: onlyOnce, tree: func(r *recorder) *Spec {
			return AsyncSequence(r.leaf("A", "S"), r.leaf("B", "S"), r.leaf("C", "S"))
		}, steps: []step{{want: Success, log: "A:S B:S C:S"}}},
		{name: "no yield after a child that was running", mode: onlyExactly, tree: func(r *recorder) *Spec {
			return AsyncSequence(r.leaf("A", "R S"), r.leaf("B", "S"))
		}, steps: []step{
			{want: Running, log: "A:R"},
			{want: Success, log: "A:S B:S"},
		}},
		{name: "no yield after a skipped child", mode: onlyExactly, tree: func(r *recorder) *Spec {
			return AsyncSequence(r.leaf("A", "K"), r.leaf("B", "S"), r.leaf("C", "S"))
		}, steps: []step{
			{want: Running, log: "A:K B:S"},
			{want: Success, log: "C:S"},
		}},
		{name: "failure resets", mode: onlyExactly, tree: func(r *recorder) *Spec {
			return AsyncSequence(r.leaf("A", "S"), r.leaf("B", "F"))
		}, steps: []step{
			{want: Running, log: "A:S"},
			{want: Failure, log: "B:F", states: "I I I"},
			{want: Running, log: "A:S"},
		}},
	})
}

func TestSequenceWithMemory(t *testing.T) {
	for _, mk := range []struct {
		name string
		f    func(...*Spec) *Spec
	}{{"SequenceWithMemory", SequenceWithMemory}, {"SequenceStar", sequenceStarModel.Spec}} {
		t.Run(mk.name, func(t *testing.T) {
			runControlCases(t, []controlCase{
				{name: "failure keeps the position", mode: onlyOnce, tree: func(r *recorder) *Spec {
					return mk.f(r.leaf("A", "S"), r.leaf("B", "F S"), r.leaf("C", "S"))
				}, steps: []step{
					{want: Failure, log: "A:S B:F", states: "I S I I"},
					{want: Success, log: "B:S C:S", states: "I I I I"},
					{want: Success, log: "A:S B:S C:S"},
				}},
				{name: "yields after each synchronous success", mode: onlyExactly, tree: func(r *recorder) *Spec {
					return mk.f(r.leaf("A", "S"), r.leaf("B", "F S"), r.leaf("C", "S"))
				}, steps: []step{
					{want: Running, log: "A:S"},
					{want: Failure, log: "B:F"},
					{want: Running, log: "B:S"},
					{want: Success, log: "C:S"},
				}},
				{name: "halt keeps the position", mode: onlyExactly, tree: func(r *recorder) *Spec {
					return mk.f(r.leaf("A", "S"), r.leaf("B", "R"))
				}, steps: []step{
					{want: Running, log: "A:S"},
					{want: Running, log: "B:R"},
					{halt: true, log: "B:halt", states: "I I I"},
					{want: Running, log: "B:R"},
				}},
				{name: "all skipped", tree: func(r *recorder) *Spec {
					return mk.f(r.leaf("A", "K"), r.leaf("B", "K"))
				}, steps: []step{{want: Skipped, log: "A:K B:K", states: "I I I"}}},
			})
		})
	}
}

func TestFallback(t *testing.T) {
	runControlCases(t, []controlCase{
		{name: "first success wins", tree: func(r *recorder) *Spec {
			return Fallback(r.leaf("A", "F"), r.leaf("B", "S"), r.leaf("C", "S"))
		}, steps: []step{{want: Success, log: "A:F B:S", states: "I I I I"}}},
		{name: "all fail", tree: func(r *recorder) *Spec {
			return Fallback(r.leaf("A", "F"), r.leaf("B", "F"))
		}, steps: []step{{want: Failure, log: "A:F B:F", states: "I I I"}}},
		{name: "skipped children are passed over", tree: func(r *recorder) *Spec {
			return Fallback(r.leaf("A", "K"), r.leaf("B", "F"))
		}, steps: []step{{want: Failure, log: "A:K B:F"}}},
		{name: "all skipped", tree: func(r *recorder) *Spec {
			return Fallback(r.leaf("A", "K"), r.leaf("B", "K"))
		}, steps: []step{{want: Skipped, log: "A:K B:K"}}},
		{name: "running child resumes", tree: func(r *recorder) *Spec {
			return Fallback(r.leaf("A", "F"), r.leaf("B", "R F"), r.leaf("C", "S"))
		}, steps: []step{
			{want: Running, log: "A:F B:R", states: "R F R I"},
			{want: Success, log: "B:F C:S", states: "I I I I"},
		}},
		{name: "failures before a skip and a running child are stored", tree: func(r *recorder) *Spec {
			return Fallback(r.leaf("A", "F"), r.leaf("B", "K"), r.leaf("C", "F"), r.leaf("D", "R"))
		}, steps: []step{{want: Running, log: "A:F B:K C:F D:R", states: "R F I F R"}}},
		{name: "children that store their own status are reset too", tree: func(r *recorder) *Spec {
			return Fallback(r.leaf("A", "F"), Inverter(r.leaf("B", "S")), r.leaf("C", "F"))
		}, steps: []step{{want: Failure, log: "A:F B:S C:F", states: "I I I I I"}}},
		{name: "halt forgets the position", tree: func(r *recorder) *Spec {
			return Fallback(r.leaf("A", "F"), r.leaf("B", "R"))
		}, steps: []step{
			{want: Running, log: "A:F B:R"},
			{halt: true, log: "B:halt", states: "I I I"},
			{want: Running, log: "A:F B:R"},
		}},
	})
}

func TestAsyncFallback(t *testing.T) {
	runControlCases(t, []controlCase{
		{name: "yields after each synchronous failure", mode: onlyExactly, tree: func(r *recorder) *Spec {
			return AsyncFallback(r.leaf("A", "F"), r.leaf("B", "F"), r.leaf("C", "S"), r.leaf("D", "S"))
		}, steps: []step{
			{want: Running, log: "A:F"},
			{want: Running, log: "B:F"},
			{want: Success, log: "C:S", states: "I I I I I"},
		}},
		{name: "TickOnce completes in one call", mode: onlyOnce, tree: func(r *recorder) *Spec {
			return AsyncFallback(r.leaf("A", "F"), r.leaf("B", "F"))
		}, steps: []step{{want: Failure, log: "A:F B:F"}}},
		{name: "no yield after the last child", mode: onlyExactly, tree: func(r *recorder) *Spec {
			return AsyncFallback(r.leaf("A", "F"))
		}, steps: []step{{want: Failure, log: "A:F"}}},
	})
}

func TestReactiveSequence(t *testing.T) {
	runControlCases(t, []controlCase{
		{name: "condition re-checked every tick; failure halts the running child", tree: func(r *recorder) *Spec {
			return ReactiveSequence(r.leaf("C", "S S F"), r.leaf("A", "R"))
		}, steps: []step{
			{want: Running, log: "C:S A:R", states: "R I R"},
			{want: Running, log: "C:S A:R"},
			{want: Failure, log: "C:F A:halt", states: "I I I"},
		}},
		{name: "a running child halts a later running one", tree: func(r *recorder) *Spec {
			return ReactiveSequence(r.leaf("A", "S R"), r.leaf("B", "R"))
		}, steps: []step{
			{want: Running, log: "A:S B:R", states: "R I R"},
			{want: Running, log: "A:R B:halt", states: "R R I"},
		}},
		{name: "all succeed", tree: func(r *recorder) *Spec {
			return ReactiveSequence(r.leaf("A", "S"), r.leaf("B", "S"))
		}, steps: []step{{want: Success, log: "A:S B:S", states: "I I I"}}},
		{name: "skipped children", tree: func(r *recorder) *Spec {
			return ReactiveSequence(r.leaf("A", "K"), r.leaf("B", "S"))
		}, steps: []step{{want: Success, log: "A:K B:S"}}},
		{name: "all skipped", tree: func(r *recorder) *Spec {
			return ReactiveSequence(r.leaf("A", "K"), r.leaf("B", "K"))
		}, steps: []step{{want: Skipped, log: "A:K B:K", states: "I I I"}}},
		{name: "halt", tree: func(r *recorder) *Spec {
			return ReactiveSequence(r.leaf("A", "S"), r.leaf("B", "R"))
		}, steps: []step{
			{want: Running, log: "A:S B:R"},
			{halt: true, log: "B:halt", states: "I I I"},
		}},
	})
}

func TestReactiveFallback(t *testing.T) {
	runControlCases(t, []controlCase{
		{name: "higher priority child interrupts", tree: func(r *recorder) *Spec {
			return ReactiveFallback(r.leaf("C", "F F S"), r.leaf("A", "R"))
		}, steps: []step{
			{want: Running, log: "C:F A:R", states: "R I R"},
			{want: Running, log: "C:F A:R"},
			{want: Success, log: "C:S A:halt", states: "I I I"},
		}},
		{name: "all fail", tree: func(r *recorder) *Spec {
			return ReactiveFallback(r.leaf("A", "F"), r.leaf("B", "F"))
		}, steps: []step{{want: Failure, log: "A:F B:F", states: "I I I"}}},
		{name: "all skipped", tree: func(r *recorder) *Spec {
			return ReactiveFallback(r.leaf("A", "K"), r.leaf("B", "K"))
		}, steps: []step{{want: Skipped, log: "A:K B:K"}}},
		{name: "a running child halts a later running one", tree: func(r *recorder) *Spec {
			return ReactiveFallback(r.leaf("A", "F R"), r.leaf("B", "R"))
		}, steps: []step{
			{want: Running, log: "A:F B:R"},
			{want: Running, log: "A:R B:halt"},
		}},
	})
}

func TestIfThenElse(t *testing.T) {
	runControlCases(t, []controlCase{
		{name: "then branch", tree: func(r *recorder) *Spec {
			return IfThenElse(r.leaf("C", "S"), r.leaf("T", "S"), r.leaf("E", "S"))
		}, steps: []step{{want: Success, log: "C:S T:S", states: "I I I I"}}},
		{name: "else branch", tree: func(r *recorder) *Spec {
			return IfThenElse(r.leaf("C", "F"), r.leaf("T", "S"), r.leaf("E", "F"))
		}, steps: []step{{want: Failure, log: "C:F E:F"}}},
		{name: "no else branch", tree: func(r *recorder) *Spec {
			return IfThenElse(r.leaf("C", "F"), r.leaf("T", "S"))
		}, steps: []step{{want: Failure, log: "C:F"}}},
		{name: "condition running", tree: func(r *recorder) *Spec {
			return IfThenElse(r.leaf("C", "R S"), r.leaf("T", "S"))
		}, steps: []step{
			{want: Running, log: "C:R"},
			{want: Success, log: "C:S T:S"},
		}},
		{name: "branch running: condition not re-checked", tree: func(r *recorder) *Spec {
			return IfThenElse(r.leaf("C", "S F"), r.leaf("T", "R R S"), r.leaf("E", "S"))
		}, steps: []step{
			{want: Running, log: "C:S T:R", states: "R S R I"},
			{want: Running, log: "T:R"},
			{want: Success, log: "T:S", states: "I I I I"},
		}},
		{name: "skipped branch", tree: func(r *recorder) *Spec {
			return IfThenElse(r.leaf("C", "S"), r.leaf("T", "K"))
		}, steps: []step{{want: Skipped, log: "C:S T:K", states: "I I I"}}},
		{name: "halt forgets the branch", tree: func(r *recorder) *Spec {
			return IfThenElse(r.leaf("C", "S F"), r.leaf("T", "R"), r.leaf("E", "S"))
		}, steps: []step{
			{want: Running, log: "C:S T:R"},
			{halt: true, log: "T:halt", states: "I I I I"},
			{want: Success, log: "C:F E:S"},
		}},
	})
}

func TestWhileDoElse(t *testing.T) {
	runControlCases(t, []controlCase{
		{name: "condition re-checked; switching branch halts the other", tree: func(r *recorder) *Spec {
			return WhileDoElse(r.leaf("C", "S F S"), r.leaf("D", "R"), r.leaf("E", "R"))
		}, steps: []step{
			{want: Running, log: "C:S D:R", states: "R S R I"},
			{want: Running, log: "C:F D:halt E:R", states: "R F I R"},
			{want: Running, log: "C:S E:halt D:R"},
		}},
		{name: "branch completes", tree: func(r *recorder) *Spec {
			return WhileDoElse(r.leaf("C", "F"), r.leaf("D", "S"), r.leaf("E", "S"))
		}, steps: []step{{want: Success, log: "C:F E:S", states: "I I I I"}}},
		{name: "two children, condition fails", tree: func(r *recorder) *Spec {
			return WhileDoElse(r.leaf("C", "S F"), r.leaf("D", "R"))
		}, steps: []step{
			{want: Running, log: "C:S D:R"},
			{want: Failure, log: "C:F D:halt", states: "I I I"},
		}},
		{name: "condition running", tree: func(r *recorder) *Spec {
			return WhileDoElse(r.leaf("C", "R"), r.leaf("D", "S"))
		}, steps: []step{{want: Running, log: "C:R"}}},
	})
}

func TestConditionSkippedIsAnError(t *testing.T) {
	for _, mk := range []func(...*Spec) *Spec{IfThenElse, WhileDoElse} {
		r := &recorder{}
		tree, err := NewTree(mk(r.leaf("C", "K"), r.leaf("T", "S")))
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
	r := &recorder{}
	for _, c := range []struct {
		spec *Spec
		want string
	}{
		{IfThenElse(r.leaf("C", "S")), "node IfThenElse::1 (IfThenElse): IfThenElse needs 2 or 3 children, found 1"},
		{WhileDoElse(r.leaf("A", "S"), r.leaf("B", "S"), r.leaf("C", "S"), r.leaf("D", "S")), "node WhileDoElse::1 (WhileDoElse): WhileDoElse needs 2 or 3 children, found 4"},
	} {
		_, err := NewTree(c.spec)
		if err == nil || err.Error() != c.want {
			t.Errorf("got %v, want %s", err, c.want)
		}
	}
}

func TestParallel(t *testing.T) {
	runControlCases(t, []controlCase{
		{name: "default thresholds: all must succeed", tree: func(r *recorder) *Spec {
			return parallelModel.Spec(r.leaf("A", "S"), r.leaf("B", "R S"))
		}, steps: []step{
			{want: Running, log: "A:S B:R", states: "R S R"},
			{want: Success, log: "B:S", states: "I I I"},
		}},
		{name: "default failure_count 1: first failure halts the running ones", tree: func(r *recorder) *Spec {
			return parallelModel.Spec(r.leaf("A", "R"), r.leaf("B", "R F"))
		}, steps: []step{
			{want: Running, log: "A:R B:R"},
			{want: Failure, log: "A:R B:F A:halt", states: "I I I"},
		}},
		{name: "decides before ticking later children", tree: func(r *recorder) *Spec {
			return Parallel(1, 1, r.leaf("A", "S"), r.leaf("B", "R"))
		}, steps: []step{{want: Success, log: "A:S"}}},
		{name: "completed children are not ticked again", tree: func(r *recorder) *Spec {
			return Parallel(2, 2, r.leaf("A", "S"), r.leaf("B", "F"), r.leaf("C", "R R S"))
		}, steps: []step{
			{want: Running, log: "A:S B:F C:R", states: "R S F R"},
			{want: Running, log: "C:R"},
			{want: Success, log: "C:S", states: "I I I I"},
		}},
		{name: "cannot succeed any more", tree: func(r *recorder) *Spec {
			return Parallel(2, 3, r.leaf("A", "F"), r.leaf("B", "F"), r.leaf("C", "R"))
		}, steps: []step{{want: Failure, log: "A:F B:F"}}},
		{name: "negative success_count counts skipped children", tree: func(r *recorder) *Spec {
			return Parallel(-1, 1, r.leaf("A", "K"), r.leaf("B", "S"))
		}, steps: []step{{want: Success, log: "A:K B:S"}}},
		{name: "positive success_count ignores skipped children", tree: func(r *recorder) *Spec {
			return Parallel(2, 1, r.leaf("A", "K"), r.leaf("B", "S"), r.leaf("C", "R S"))
		}, steps: []step{
			{want: Running, log: "A:K B:S C:R"},
			{want: Success, log: "A:K C:S"},
		}},
		{name: "-2 means all but one", tree: func(r *recorder) *Spec {
			return Parallel(-2, -1, r.leaf("A", "S"), r.leaf("B", "S"), r.leaf("C", "R"))
		}, steps: []step{{want: Success, log: "A:S B:S"}}},
		{name: "all skipped", tree: func(r *recorder) *Spec {
			return Parallel(1, 1, r.leaf("A", "K"), r.leaf("B", "K"))
		}, steps: []step{{want: Skipped, log: "A:K B:K", states: "I I I"}}},
		{name: "halt forgets results", tree: func(r *recorder) *Spec {
			return parallelModel.Spec(r.leaf("A", "S"), r.leaf("B", "R"))
		}, steps: []step{
			{want: Running, log: "A:S B:R"},
			{halt: true, log: "B:halt", states: "I I I"},
			{want: Running, log: "A:S B:R"},
		}},
	})
}

func TestParallelThresholdErrors(t *testing.T) {
	r := &recorder{}
	for _, c := range []struct {
		spec *Spec
		want string
	}{
		{Parallel(3, 1, r.leaf("A", "S"), r.leaf("B", "S")), "node Parallel::1 (Parallel): success_count 3 needs more than the 2 children: it can never succeed"},
		{Parallel(1, 3, r.leaf("A", "S"), r.leaf("B", "S")), "node Parallel::1 (Parallel): failure_count 3 needs more than the 2 children: it can never fail"},
		{ParallelAll(3, r.leaf("A", "S"), r.leaf("B", "S")), "node ParallelAll::1 (ParallelAll): max_failures 3 needs more than the 2 children: it can never fail"},
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
	runControlCases(t, []controlCase{
		{name: "waits for every child", tree: func(r *recorder) *Spec {
			return ParallelAll(1, r.leaf("A", "F"), r.leaf("B", "R S"))
		}, steps: []step{
			{want: Running, log: "A:F B:R", states: "R F R"},
			{want: Failure, log: "B:S", states: "I I I"},
		}},
		{name: "failures below max_failures succeed", tree: func(r *recorder) *Spec {
			return ParallelAll(2, r.leaf("A", "F"), r.leaf("B", "S"), r.leaf("C", "R S"))
		}, steps: []step{
			{want: Running, log: "A:F B:S C:R"},
			{want: Success, log: "C:S"},
		}},
		{name: "skipped children count as done", tree: func(r *recorder) *Spec {
			return ParallelAll(1, r.leaf("A", "K"), r.leaf("B", "S"))
		}, steps: []step{{want: Success, log: "A:K B:S"}}},
		{name: "all skipped", tree: func(r *recorder) *Spec {
			return ParallelAll(1, r.leaf("A", "K"), r.leaf("B", "K"))
		}, steps: []step{{want: Skipped, log: "A:K B:K"}}},
		{name: "negative max_failures", tree: func(r *recorder) *Spec {
			return ParallelAll(-1, r.leaf("A", "F"), r.leaf("B", "S"))
		}, steps: []step{{want: Success, log: "A:F B:S"}}},
		{name: "halt", tree: func(r *recorder) *Spec {
			return ParallelAll(1, r.leaf("A", "S"), r.leaf("B", "R"))
		}, steps: []step{
			{want: Running, log: "A:S B:R"},
			{halt: true, log: "B:halt", states: "I I I"},
			{want: Running, log: "A:S B:R"},
		}},
	})
}

func TestTryCatch(t *testing.T) {
	runControlCases(t, []controlCase{
		{name: "try block succeeds", tree: func(r *recorder) *Spec {
			return TryCatch(false, r.leaf("A", "S"), r.leaf("B", "S"), r.leaf("C", "S"))
		}, steps: []step{{want: Success, log: "A:S B:S", states: "I I I I"}}},
		{name: "failure runs the catch in the same tick and fails", tree: func(r *recorder) *Spec {
			return TryCatch(false, r.leaf("A", "S"), r.leaf("B", "F"), r.leaf("C", "S"))
		}, steps: []step{{want: Failure, log: "A:S B:F C:S", states: "I I I I"}}},
		{name: "running catch resumes", tree: func(r *recorder) *Spec {
			return TryCatch(false, r.leaf("A", "R F"), r.leaf("C", "R R F S"))
		}, steps: []step{
			{want: Running, log: "A:R"},
			{want: Running, log: "A:F C:R", states: "R I R"},
			{want: Running, log: "C:R"},
			{want: Failure, log: "C:F", states: "I I I"},
		}},
		{name: "skipped catch still fails", tree: func(r *recorder) *Spec {
			return TryCatch(false, r.leaf("A", "F"), r.leaf("C", "K"))
		}, steps: []step{{want: Failure, log: "A:F C:K"}}},
		{name: "all try children skipped", tree: func(r *recorder) *Spec {
			return TryCatch(false, r.leaf("A", "K"), r.leaf("B", "K"), r.leaf("C", "S"))
		}, steps: []step{{want: Skipped, log: "A:K B:K"}}},
		{name: "halt without catch_on_halt", tree: func(r *recorder) *Spec {
			return TryCatch(false, r.leaf("A", "R"), r.leaf("C", "S"))
		}, steps: []step{
			{want: Running, log: "A:R"},
			{halt: true, log: "A:halt", states: "I I I"},
		}},
		{name: "halt with catch_on_halt ticks the catch once", tree: func(r *recorder) *Spec {
			return TryCatch(true, r.leaf("A", "R"), r.leaf("C", "R"))
		}, steps: []step{
			{want: Running, log: "A:R"},
			{halt: true, log: "A:halt C:R C:halt", states: "I I I"},
		}},
		{name: "halt while in catch does not tick the catch again", tree: func(r *recorder) *Spec {
			return TryCatch(true, r.leaf("A", "F"), r.leaf("C", "R"))
		}, steps: []step{
			{want: Running, log: "A:F C:R"},
			{halt: true, log: "C:halt", states: "I I I"},
		}},
	})
}

func TestSwitch(t *testing.T) {
	sw := func(variable string, r *recorder) *Spec {
		return Switch(variable, []string{"walk", "3", "2.5"}, r.leaf("W", "S"), r.leaf("T", "S"), r.leaf("F", "R"), r.leaf("D", "S"))
	}
	runControlCases(t, []controlCase{
		{name: "text match", tree: func(r *recorder) *Spec { return sw("walk", r) },
			steps: []step{{want: Success, log: "W:S", states: "I I I I I"}}},
		{name: "integer match", tree: func(r *recorder) *Spec { return sw("03", r) },
			steps: []step{{want: Success, log: "T:S"}}},
		{name: "real match within epsilon", tree: func(r *recorder) *Spec { return sw("2.50000001", r) },
			steps: []step{{want: Running, log: "F:R"}}},
		{name: "no match: default", tree: func(r *recorder) *Spec { return sw("swim", r) },
			steps: []step{{want: Success, log: "D:S"}}},
		{name: "unset variable: default", tree: func(r *recorder) *Spec { return sw("{nothing}", r) },
			steps: []step{{want: Success, log: "D:S"}}},
		{name: "skipped child is not replaced by the default", tree: func(r *recorder) *Spec {
			return Switch("a", []string{"a", "b"}, r.leaf("A", "K"), r.leaf("B", "S"), r.leaf("D", "S"))
		}, steps: []step{{want: Skipped, log: "A:K"}}},
	})
}

func TestSwitchFollowsTheBlackboard(t *testing.T) {
	r := &recorder{}
	tree, err := NewTree(Switch("{mode}", []string{"1", "2"}, r.leaf("A", "R"), r.leaf("B", "R"), r.leaf("D", "R")))
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
		if got := r.take(); got != st.want {
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
		r := &recorder{}
		tree, err := NewTree(Switch("{mode}", []string{"1", "2.0"}, r.leaf("A", "S"), r.leaf("B", "S"), r.leaf("D", "S")), WithBlackboard(bb))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tree.TickOnce(); err != nil {
			t.Fatal(err)
		}
		if got := r.take(); got != c.want {
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
