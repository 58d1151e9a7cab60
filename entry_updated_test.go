package bt_test

import (
	"testing"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
	"github.com/gobt/bt/bttest"
)

func TestSkipUnlessUpdated(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "missing entry: skipped", Tree: func(r *bttest.Recorder) *Spec { return SkipUnlessUpdated("x", r.Leaf("A", "S")) },
			Steps: []bttest.Step{bttest.Tick(Skipped, "", "I I")}},
		{Name: "updated: tick the child; not updated since: skipped", Tree: func(r *bttest.Recorder) *Spec {
			return SkipUnlessUpdated("{x}", r.Leaf("A", "S F"))
		}, Steps: []bttest.Step{
			bttest.Tick(Success, "A:S", "I I").First(bttest.Assign("x", blackboard.Int(1))),
			bttest.Tick(Skipped, "", "I I"),
			bttest.Tick(Failure, "A:F", "I I").First(bttest.Assign("x", blackboard.Int(1))), // a write, even of the same value
		}},
		{Name: "running child goes on without looking", Tree: func(r *bttest.Recorder) *Spec {
			return SkipUnlessUpdated("x", r.Leaf("A", "R R S S"))
		}, Steps: []bttest.Step{
			bttest.Tick(Running, "A:R", "R R").First(bttest.Assign("x", blackboard.Int(1))),
			bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Success, "A:S", "I I"), bttest.Tick(Skipped, "", "I I"),
		}},
		{Name: "halt: look again", Tree: func(r *bttest.Recorder) *Spec { return SkipUnlessUpdated("x", r.Leaf("A", "R")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:R", "").First(bttest.Assign("x", blackboard.Int(1))), bttest.Halt("A:halt", "I I"), bttest.Tick(Skipped, "", "I I")}},
		{Name: "unset is not an update", Tree: func(r *bttest.Recorder) *Spec { return SkipUnlessUpdated("x", r.Leaf("A", "S")) },
			Steps: []bttest.Step{
				bttest.Tick(Success, "A:S", "").First(bttest.Assign("x", blackboard.Int(1))),
				bttest.Tick(Skipped, "", "").First(func(_ *testing.T, tree *Tree) { tree.Blackboard().Unset("x") }),
			}},
	})
	tickError(t, builtin("SkipUnlessUpdated").Spec(AlwaysSuccess()), `SkipUnlessUpdated needs the port "entry": set it with With("entry", …)`)
}

func TestWaitValueUpdate(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "waits until the entry is written", Tree: func(r *bttest.Recorder) *Spec { return WaitValueUpdate("x", r.Leaf("A", "S")) },
			Steps: []bttest.Step{
				bttest.Tick(Running, "", "R I"), bttest.Tick(Running, "", "R I"),
				bttest.Tick(Success, "A:S", "I I").First(bttest.Assign("x", blackboard.String("now"))),
				bttest.Tick(Running, "", "R I"),
			}},
		{Name: "running child goes on without looking", Tree: func(r *bttest.Recorder) *Spec {
			return WaitValueUpdate("x", r.Leaf("A", "R S"))
		}, Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R").First(bttest.Assign("x", blackboard.Int(1))), bttest.Tick(Success, "A:S", "I I")}},
		{Name: "halt", Tree: func(r *bttest.Recorder) *Spec { return WaitValueUpdate("x", r.Leaf("A", "R")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:R", "").First(bttest.Assign("x", blackboard.Int(1))), bttest.Halt("A:halt", "I I"), bttest.Tick(Running, "", "R I")}},
	})
}

func TestWasEntryUpdated(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "contract", Tree: func(*bttest.Recorder) *Spec { return WasEntryUpdated("{x}") }, Steps: []bttest.Step{
			bttest.Tick(Failure, "", "I"), // missing
			bttest.Tick(Success, "", "I").First(bttest.Assign("x", blackboard.Int(1))),
			bttest.Tick(Failure, "", "I"), // not written since
			bttest.Tick(Success, "", "I").First(bttest.Assign("x", blackboard.Int(2))),
		}},
	})
}
