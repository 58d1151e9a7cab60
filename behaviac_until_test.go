package bt_test

import (
	"testing"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

func TestSuccessUntil(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "count-1 successes then one failure, whatever the child", Tree: func(r *bttest.Recorder) *Spec {
			return SuccessUntil(3, r.Leaf("A", "F S F S F S"))
		}, Steps: []bttest.Step{bttest.Tick(Success, "A:F", "I I"), bttest.Tick(Success, "A:S", "I I"), bttest.Tick(Failure, "A:F", "I I"),
			bttest.Tick(Success, "A:S", ""), bttest.Tick(Success, "A:F", ""), bttest.Tick(Failure, "A:S", "")}},
		{Name: "count -1: always success", Tree: func(r *bttest.Recorder) *Spec { return SuccessUntil(-1, r.Leaf("A", "F")) },
			Steps: []bttest.Step{bttest.Tick(Success, "A:F", ""), bttest.Tick(Success, "A:F", "")}},
		{Name: "count 0: always failure", Tree: func(r *bttest.Recorder) *Spec { return SuccessUntil(0, r.Leaf("A", "S")) },
			Steps: []bttest.Step{bttest.Tick(Failure, "A:S", ""), bttest.Tick(Failure, "A:S", "")}},
		{Name: "completing halts a running child", Tree: func(r *bttest.Recorder) *Spec { return SuccessUntil(2, r.Leaf("A", "R")) },
			Steps: []bttest.Step{bttest.Tick(Success, "A:R A:halt", "I I")}},
		{Name: "decorate_when_child_ends; the counter survives a halt", Tree: func(r *bttest.Recorder) *Spec {
			return whenEndsOn(SuccessUntil(3, r.Leaf("A", "S R S S")))
		}, Steps: []bttest.Step{bttest.Tick(Success, "A:S", "I I"), bttest.Tick(Running, "A:R", "R R"), bttest.Halt("A:halt", "I I"),
			bttest.Tick(Success, "A:S", "I I"), bttest.Tick(Failure, "A:S", "I I")}},
	})
}

func TestFailureUntil(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "count-1 failures then one success, whatever the child", Tree: func(r *bttest.Recorder) *Spec {
			return FailureUntil(3, r.Leaf("A", "S"))
		}, Steps: []bttest.Step{bttest.Tick(Failure, "A:S", "I I"), bttest.Tick(Failure, "A:S", ""), bttest.Tick(Success, "A:S", ""), bttest.Tick(Failure, "A:S", "")}},
		{Name: "count -1: always failure", Tree: func(r *bttest.Recorder) *Spec { return FailureUntil(-1, r.Leaf("A", "S")) },
			Steps: []bttest.Step{bttest.Tick(Failure, "A:S", ""), bttest.Tick(Failure, "A:S", "")}},
		{Name: "count 0: always success", Tree: func(r *bttest.Recorder) *Spec { return FailureUntil(0, r.Leaf("A", "F")) },
			Steps: []bttest.Step{bttest.Tick(Success, "A:F", "")}},
		{Name: "decorate_when_child_ends", Tree: func(r *bttest.Recorder) *Spec { return whenEndsOn(FailureUntil(2, r.Leaf("A", "R S R S"))) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Failure, "A:S", "I I"), bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Success, "A:S", "I I")}},
	})
}
