package bt_test

import (
	"testing"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

func TestLoopUntil(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "until true: child success ends it", Tree: func(r *bttest.Recorder) *Spec { return LoopUntil(5, true, r.Leaf("A", "F R S")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:F", "R I"), bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Success, "A:S", "I I")}},
		{Name: "until false: child failure ends it", Tree: func(r *bttest.Recorder) *Spec { return LoopUntil(5, false, r.Leaf("A", "S F")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:S", "R I"), bttest.Tick(Failure, "A:F", "I I")}},
		{Name: "count done: success even without the condition", Tree: func(r *bttest.Recorder) *Spec {
			return LoopUntil(2, true, r.Leaf("A", "F"))
		}, Steps: []bttest.Step{bttest.Tick(Running, "A:F", "R I"), bttest.Tick(Success, "A:F", "I I")}},
		{Name: "count done wins over until=false", Tree: func(r *bttest.Recorder) *Spec { return LoopUntil(1, false, r.Leaf("A", "F")) },
			Steps: []bttest.Step{bttest.Tick(Success, "A:F", "I I")}},
		{Name: "count -1: until the condition only", Tree: func(r *bttest.Recorder) *Spec { return LoopUntil(-1, true, r.Leaf("A", "F F F S")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:F", ""), bttest.Tick(Running, "A:F", ""), bttest.Tick(Running, "A:F", ""), bttest.Tick(Success, "A:S", "I I")}},
		{Name: "count 0: failure without ticking", Tree: func(r *bttest.Recorder) *Spec { return LoopUntil(0, true, r.Leaf("A", "S")) },
			Steps: []bttest.Step{bttest.Tick(Failure, "", "I I")}},
		{Name: "completing halts a running child", Tree: func(r *bttest.Recorder) *Spec { return LoopUntil(1, true, r.Leaf("A", "R")) },
			Steps: []bttest.Step{bttest.Tick(Success, "A:R A:halt", "I I")}},
		{Name: "decorate_when_child_ends", Tree: func(r *bttest.Recorder) *Spec {
			return whenEndsOn(LoopUntil(2, true, r.Leaf("A", "R F R")))
		}, Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Running, "A:F", "R I"), bttest.Tick(Running, "A:R", "R R"),
			bttest.Tick(Running, "A:R", "R R")}},
		{Name: "halt", Tree: func(r *bttest.Recorder) *Spec { return LoopUntil(2, true, r.Leaf("A", "R")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Halt("A:halt", "I I"), bttest.Tick(Running, "A:R", "R R")}},
	})
}
