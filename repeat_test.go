package bt_test

import (
	"testing"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

func TestRepeat(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "all cycles in one TickOnce", Only: bttest.TickOnce, Tree: func(r *bttest.Recorder) *Spec { return Repeat(3, r.Leaf("A", "S")) },
			Steps: []bttest.Step{bttest.Tick(Success, "A:S A:S A:S", "I I"), bttest.Tick(Success, "A:S A:S A:S", "I I")}},
		{Name: "yields after a synchronous success", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *Spec { return Repeat(3, r.Leaf("A", "S")) },
			Steps: []bttest.Step{
				bttest.Tick(Running, "A:S", "R I").Then(func(t *testing.T, tree *Tree) {
					if !TakeWakeUp(tree) {
						t.Error("no wake-up after a yield")
					}
				}),
				bttest.Tick(Running, "A:S", "R I"), bttest.Tick(Success, "A:S", "I I")}},
		{Name: "no yield after an asynchronous success", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *Spec {
			return Repeat(2, r.Leaf("A", "R S R S"))
		}, Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Running, "A:S A:R", "R R"), bttest.Tick(Success, "A:S", "I I")}},
		{Name: "failure resets the count", Only: bttest.TickOnce, Tree: func(r *bttest.Recorder) *Spec { return Repeat(3, r.Leaf("A", "S F S")) },
			Steps: []bttest.Step{bttest.Tick(Failure, "A:S A:F", "I I"), bttest.Tick(Success, "A:S A:S A:S", "I I")}},
		{Name: "failure, exactly once", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *Spec { return Repeat(3, r.Leaf("A", "S F")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:S", "R I"), bttest.Tick(Failure, "A:F", "I I")}},
		{Name: "skipped child: skipped, the count is kept", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *Spec {
			return Repeat(3, r.Leaf("A", "S K S S"))
		}, Steps: []bttest.Step{bttest.Tick(Running, "A:S", "R I"), bttest.Tick(Skipped, "A:K", "I I"), bttest.Tick(Running, "A:S", "R I"), bttest.Tick(Success, "A:S", "I I")}},
		{Name: "skipped child ends TickOnce", Only: bttest.TickOnce, Tree: func(r *bttest.Recorder) *Spec {
			return Repeat(3, r.Leaf("A", "S K S S"))
		}, Steps: []bttest.Step{bttest.Tick(Skipped, "A:S A:K", "I I"), bttest.Tick(Success, "A:S A:S", "I I")}},
		{Name: "num_cycles 0: success without ticking", Tree: func(r *bttest.Recorder) *Spec { return Repeat(0, r.Leaf("A", "S")) },
			Steps: []bttest.Step{bttest.Tick(Success, "", "I I")}},
		{Name: "num_cycles -1: forever", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *Spec { return Repeat(-1, r.Leaf("A", "S")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:S", "R I"), bttest.Tick(Running, "A:S", "R I"), bttest.Tick(Running, "A:S", "R I")}},
		{Name: "halt resets the count", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *Spec { return Repeat(2, r.Leaf("A", "S R S S")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:S", "R I"), bttest.Tick(Running, "A:R", "R R"), bttest.Halt("A:halt", "I I"),
				bttest.Tick(Running, "A:S", "R I"), bttest.Tick(Success, "A:S", "I I")}},
		{Name: "num_cycles from the blackboard", Only: bttest.TickOnce, Tree: func(r *bttest.Recorder) *Spec {
			return Sequence(Script("n := 2"), builtin("Repeat").Spec(r.Leaf("A", "S")).With("num_cycles", "{n}"))
		}, Steps: []bttest.Step{bttest.Tick(Success, "A:S A:S", "")}},
	})
	tickError(t, builtin("Repeat").Spec(AlwaysSuccess()), `Repeat needs the port "num_cycles": set it with With("num_cycles", …)`)
}
