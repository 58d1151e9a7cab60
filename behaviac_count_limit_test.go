package bt_test

import (
	"strings"
	"testing"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
	"github.com/gobt/bt/bttest"
)

func TestCountLimit(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "count entries, then fail without ticking", Tree: func(r *bttest.Recorder) *Spec { return CountLimit(2, "", r.Leaf("A", "S F")) },
			Steps: []bttest.Step{bttest.Tick(Success, "A:S", "I I"), bttest.Tick(Failure, "A:F", "I I"), bttest.Tick(Failure, "", "I I"), bttest.Tick(Failure, "", "I I")}},
		{Name: "entries, not ticks", Tree: func(r *bttest.Recorder) *Spec { return CountLimit(1, "", r.Leaf("A", "R R S")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Success, "A:S", "I I"), bttest.Tick(Failure, "", "I I")}},
		{Name: "reset_if re-arms at an entry", Tree: func(r *bttest.Recorder) *Spec { return CountLimit(1, "again", r.Leaf("A", "S")) },
			Steps: []bttest.Step{
				bttest.Tick(Success, "A:S", "").First(bttest.Assign("again", blackboard.Bool(false))),
				bttest.Tick(Failure, "", ""),
				bttest.Tick(Success, "A:S", "").First(bttest.Assign("again", blackboard.Bool(true))),
				bttest.Tick(Failure, "", "").First(bttest.Assign("again", blackboard.Bool(false))),
			}},
		{Name: "count -1: unlimited", Tree: func(r *bttest.Recorder) *Spec { return CountLimit(-1, "", r.Leaf("A", "S")) },
			Steps: []bttest.Step{bttest.Tick(Success, "A:S", ""), bttest.Tick(Success, "A:S", ""), bttest.Tick(Success, "A:S", "")}},
		{Name: "a skipped child uses an entry", Tree: func(r *bttest.Recorder) *Spec { return CountLimit(1, "", r.Leaf("A", "K")) },
			Steps: []bttest.Step{bttest.Tick(Skipped, "A:K", "I I"), bttest.Tick(Failure, "", "I I")}},
		{Name: "halting keeps the count", Tree: func(r *bttest.Recorder) *Spec { return CountLimit(2, "", r.Leaf("A", "R")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Halt("A:halt", "I I"), bttest.Tick(Running, "A:R", "R R"), bttest.Halt("A:halt", "I I"),
				bttest.Tick(Failure, "", "I I")}},
		{Name: "decorate_when_child_ends changes nothing", Tree: func(r *bttest.Recorder) *Spec {
			return whenEndsOn(CountLimit(1, "", r.Leaf("A", "R F")))
		}, Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Failure, "A:F", "I I"), bttest.Tick(Failure, "", "I I")}},
	})
	if _, err := NewTree(CountLimit(1, "a ==", AlwaysSuccess())); err == nil || !strings.Contains(err.Error(), "reset_if") {
		t.Errorf("bad reset_if: %v", err)
	}
}
