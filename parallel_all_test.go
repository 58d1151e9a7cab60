package bt_test

import (
	"testing"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

func TestParallelAll(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "waits for every child", Tree: func(r *bttest.Recorder) *Spec {
			return ParallelAll(1, r.Leaf("A", "F"), r.Leaf("B", "R S"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:F B:R", States: "R F R"},
			{Want: Failure, Log: "B:S", States: "I I I"},
		}},
		{Name: "failures below max_failures succeed", Tree: func(r *bttest.Recorder) *Spec {
			return ParallelAll(2, r.Leaf("A", "F"), r.Leaf("B", "S"), r.Leaf("C", "R S"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:F B:S C:R"},
			{Want: Success, Log: "C:S"},
		}},
		{Name: "skipped children count as done", Tree: func(r *bttest.Recorder) *Spec {
			return ParallelAll(1, r.Leaf("A", "K"), r.Leaf("B", "S"))
		}, Steps: []bttest.Step{{Want: Success, Log: "A:K B:S"}}},
		{Name: "all skipped", Tree: func(r *bttest.Recorder) *Spec {
			return ParallelAll(1, r.Leaf("A", "K"), r.Leaf("B", "K"))
		}, Steps: []bttest.Step{{Want: Skipped, Log: "A:K B:K"}}},
		{Name: "negative max_failures", Tree: func(r *bttest.Recorder) *Spec {
			return ParallelAll(-1, r.Leaf("A", "F"), r.Leaf("B", "S"))
		}, Steps: []bttest.Step{{Want: Success, Log: "A:F B:S"}}},
		{Name: "halt", Tree: func(r *bttest.Recorder) *Spec {
			return ParallelAll(1, r.Leaf("A", "S"), r.Leaf("B", "R"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:S B:R"},
			{Halt: true, Log: "B:halt", States: "I I I"},
			{Want: Running, Log: "A:S B:R"},
		}},
	})
}
