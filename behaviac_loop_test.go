package bt_test

import (
	"strings"
	"testing"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

func TestLoop(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "counts ticks; a completed child starts again", Tree: func(r *bttest.Recorder) *Spec { return Loop(3, r.Leaf("A", "S")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:S", "R I"), bttest.Tick(Running, "A:S", "R I"), bttest.Tick(Success, "A:S", "I I"),
				bttest.Tick(Running, "A:S", "R I")}},
		{Name: "ignores the child's status", Tree: func(r *bttest.Recorder) *Spec { return Loop(3, r.Leaf("A", "F K S")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:F", "R I"), bttest.Tick(Running, "A:K", "R I"), bttest.Tick(Success, "A:S", "I I")}},
		{Name: "count 0: failure without ticking", Tree: func(r *bttest.Recorder) *Spec { return Loop(0, r.Leaf("A", "S")) },
			Steps: []bttest.Step{bttest.Tick(Failure, "", "I I")}},
		{Name: "count -1: forever", Tree: func(r *bttest.Recorder) *Spec { return Loop(-1, r.Leaf("A", "S F")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:S", "R I"), bttest.Tick(Running, "A:F", "R I"), bttest.Tick(Running, "A:F", "R I")}},
		{Name: "a running child runs on; success halts it", Tree: func(r *bttest.Recorder) *Spec { return Loop(2, r.Leaf("A", "R")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Success, "A:R A:halt", "I I")}},
		{Name: "decorate_when_child_ends: only completions count", Tree: func(r *bttest.Recorder) *Spec {
			return whenEndsOn(Loop(2, r.Leaf("A", "R S R R S")))
		}, Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Running, "A:S", "R I"), bttest.Tick(Running, "A:R", "R R"),
			bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Success, "A:S", "I I")}},
		{Name: "halt: the next tick enters afresh", Tree: func(r *bttest.Recorder) *Spec { return Loop(2, r.Leaf("A", "R")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Halt("A:halt", "I I"), bttest.Tick(Running, "A:R", "R R"),
				bttest.Tick(Success, "A:R A:halt", "I I")}},
		{Name: "in_one_tick: count iterations in one tick", Tree: func(r *bttest.Recorder) *Spec {
			return Loop(3, r.Leaf("A", "S K S")).With("in_one_tick", "true")
		}, Steps: []bttest.Step{bttest.Tick(Success, "A:S A:K A:S", "I I")}},
		{Name: "in_one_tick: failure", Tree: func(r *bttest.Recorder) *Spec {
			return Loop(3, r.Leaf("A", "S F")).With("in_one_tick", "true")
		}, Steps: []bttest.Step{bttest.Tick(Failure, "A:S A:F", "I I")}},
		{Name: "in_one_tick: running resumes the same iteration", Tree: func(r *bttest.Recorder) *Spec {
			return Loop(3, r.Leaf("A", "S R S")).With("in_one_tick", "true")
		}, Steps: []bttest.Step{bttest.Tick(Running, "A:S A:R", "R R"), bttest.Tick(Success, "A:S A:S", "I I")}},
		{Name: "in_one_tick: count 0", Tree: func(r *bttest.Recorder) *Spec {
			return Loop(0, r.Leaf("A", "S")).With("in_one_tick", "true")
		}, Steps: []bttest.Step{bttest.Tick(Failure, "", "I I")}},
	})
	if _, err := NewTree(Loop(-1, AlwaysSuccess()).With("in_one_tick", "true")); err == nil ||
		!strings.Contains(err.Error(), "cannot be done in one tick") {
		t.Errorf("count -1 in one tick: %v", err)
	}
	tickError(t, Loop(-2, AlwaysSuccess()), `port "count" must be -1 or more, not -2`)
	tickError(t, builtin("Loop").Spec(AlwaysSuccess()), `Loop needs the port "count": set it with With("count", …)`)
}
