package bt_test

import (
	"testing"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

func TestFrames(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "counts ticks, ignoring the child", Tree: func(r *bttest.Recorder) *Spec { return Frames(3, r.Leaf("A", "F S")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:F", "R I"), bttest.Tick(Running, "A:S", "R I"), bttest.Tick(Success, "A:S", "I I")}},
		{Name: "frames 1 succeeds on the first tick", Tree: func(r *bttest.Recorder) *Spec { return Frames(1, r.Leaf("A", "F")) },
			Steps: []bttest.Step{bttest.Tick(Success, "A:F", "I I")}},
		{Name: "frames 0: failure without ticking", Tree: func(r *bttest.Recorder) *Spec { return Frames(0, r.Leaf("A", "S")) },
			Steps: []bttest.Step{bttest.Tick(Failure, "", "I I")}},
		{Name: "success halts a running child", Tree: func(r *bttest.Recorder) *Spec { return Frames(2, r.Leaf("A", "R")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Success, "A:R A:halt", "I I")}},
		{Name: "decorate_when_child_ends: running ticks do not count", Tree: func(r *bttest.Recorder) *Spec {
			return whenEndsOn(Frames(2, r.Leaf("A", "R S R S")))
		}, Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Running, "A:S", "R I"), bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Success, "A:S", "I I")}},
		{Name: "halt: the next tick enters afresh", Tree: func(r *bttest.Recorder) *Spec { return Frames(2, r.Leaf("A", "R")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Halt("A:halt", "I I"), bttest.Tick(Running, "A:R", "R R")}},
	})
}
