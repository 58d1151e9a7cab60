package bt_test

import (
	"testing"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

func TestRunOnce(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "then_skip: skipped after the first completion", Tree: func(r *bttest.Recorder) *Spec { return RunOnce(true, r.Leaf("A", "S F")) },
			Steps: []bttest.Step{bttest.Tick(Success, "A:S", "I I"), bttest.Tick(Skipped, "", "I I"), bttest.Tick(Skipped, "", "I I")}},
		{Name: "then_skip false: the remembered status", Tree: func(r *bttest.Recorder) *Spec { return RunOnce(false, r.Leaf("A", "F S")) },
			Steps: []bttest.Step{bttest.Tick(Failure, "A:F", "I I"), bttest.Tick(Failure, "", "I I")}},
		{Name: "running child", Tree: func(r *bttest.Recorder) *Spec { return RunOnce(true, r.Leaf("A", "R S")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Success, "A:S", "I I"), bttest.Tick(Skipped, "", "I I")}},
		{Name: "skipped child: nothing is remembered", Tree: func(r *bttest.Recorder) *Spec { return RunOnce(true, r.Leaf("A", "K S")) },
			Steps: []bttest.Step{bttest.Tick(Skipped, "A:K", "I I"), bttest.Tick(Success, "A:S", "I I"), bttest.Tick(Skipped, "", "I I")}},
		{Name: "halt while running: the child runs again", Tree: func(r *bttest.Recorder) *Spec { return RunOnce(true, r.Leaf("A", "R S")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Halt("A:halt", "I I"), bttest.Tick(Success, "A:S", "I I"), bttest.Tick(Skipped, "", "I I")}},
		{Name: "halting never resets the memory", Tree: func(r *bttest.Recorder) *Spec {
			return Sequence(RunOnce(true, r.Leaf("A", "R S")), r.Leaf("B", "R"))
		}, Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R R I"), bttest.Tick(Running, "A:S B:R", "R S I R"), bttest.Halt("B:halt", "I I I I"),
			bttest.Tick(Running, "B:R", "R I I R")}},
	})
}
