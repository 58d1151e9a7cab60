package bt_test

import (
	"testing"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

func TestWhileDoElse(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "condition re-checked; switching branch halts the other", Tree: func(r *bttest.Recorder) *Spec {
			return WhileDoElse(r.Leaf("C", "S F S"), r.Leaf("D", "R"), r.Leaf("E", "R"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "C:S D:R", States: "R S R I"},
			{Want: Running, Log: "C:F D:halt E:R", States: "R F I R"},
			{Want: Running, Log: "C:S E:halt D:R"},
		}},
		{Name: "branch completes", Tree: func(r *bttest.Recorder) *Spec {
			return WhileDoElse(r.Leaf("C", "F"), r.Leaf("D", "S"), r.Leaf("E", "S"))
		}, Steps: []bttest.Step{{Want: Success, Log: "C:F E:S", States: "I I I I"}}},
		{Name: "two children, condition fails", Tree: func(r *bttest.Recorder) *Spec {
			return WhileDoElse(r.Leaf("C", "S F"), r.Leaf("D", "R"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "C:S D:R"},
			{Want: Failure, Log: "C:F D:halt", States: "I I I"},
		}},
		{Name: "condition running", Tree: func(r *bttest.Recorder) *Spec {
			return WhileDoElse(r.Leaf("C", "R"), r.Leaf("D", "S"))
		}, Steps: []bttest.Step{{Want: Running, Log: "C:R"}}},
	})
}
