package bt_test

import (
	"testing"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

func TestUnsetBlackboard(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "present or absent: success", Tree: func(*bttest.Recorder) *Spec {
			return Sequence(Script("a := 1"), UnsetBlackboard("a"), UnsetBlackboard("never"))
		}, Steps: []bttest.Step{bttest.Tick(Success, "", "I I I I").Then(bttest.EntryIs("a", ""))}},
		{Name: "only the node's own scope", Tree: func(*bttest.Recorder) *Spec {
			return Sequence(Script("a := 1"), SubTree("sub", UnsetBlackboard("a")).AutoRemap(true))
		}, Steps: []bttest.Step{bttest.Tick(Success, "", "").Then(bttest.EntryIs("a", "1"))}},
	})
}
