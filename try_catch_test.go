package bt_test

import (
	"testing"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

func TestTryCatch(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "try block succeeds", Tree: func(r *bttest.Recorder) *Spec {
			return TryCatch(false, r.Leaf("A", "S"), r.Leaf("B", "S"), r.Leaf("C", "S"))
		}, Steps: []bttest.Step{{Want: Success, Log: "A:S B:S", States: "I I I I"}}},
		{Name: "failure runs the catch in the same tick and fails", Tree: func(r *bttest.Recorder) *Spec {
			return TryCatch(false, r.Leaf("A", "S"), r.Leaf("B", "F"), r.Leaf("C", "S"))
		}, Steps: []bttest.Step{{Want: Failure, Log: "A:S B:F C:S", States: "I I I I"}}},
		{Name: "running catch resumes", Tree: func(r *bttest.Recorder) *Spec {
			return TryCatch(false, r.Leaf("A", "R F"), r.Leaf("C", "R R F S"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:R"},
			{Want: Running, Log: "A:F C:R", States: "R I R"},
			{Want: Running, Log: "C:R"},
			{Want: Failure, Log: "C:F", States: "I I I"},
		}},
		{Name: "skipped catch still fails", Tree: func(r *bttest.Recorder) *Spec {
			return TryCatch(false, r.Leaf("A", "F"), r.Leaf("C", "K"))
		}, Steps: []bttest.Step{{Want: Failure, Log: "A:F C:K"}}},
		{Name: "all try children skipped", Tree: func(r *bttest.Recorder) *Spec {
			return TryCatch(false, r.Leaf("A", "K"), r.Leaf("B", "K"), r.Leaf("C", "S"))
		}, Steps: []bttest.Step{{Want: Skipped, Log: "A:K B:K"}}},
		{Name: "try children skipped over two ticks", Tree: func(r *bttest.Recorder) *Spec {
			return TryCatch(false, r.Leaf("A", "K"), r.Leaf("B", "R K"), r.Leaf("C", "S"))
		}, Steps: []bttest.Step{{Want: Running, Log: "A:K B:R"}, {Want: Skipped, Log: "B:K"}}},
		{Name: "halt without catch_on_halt", Tree: func(r *bttest.Recorder) *Spec {
			return TryCatch(false, r.Leaf("A", "R"), r.Leaf("C", "S"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:R"},
			{Halt: true, Log: "A:halt", States: "I I I"},
		}},
		{Name: "halt with catch_on_halt ticks the catch once", Tree: func(r *bttest.Recorder) *Spec {
			return TryCatch(true, r.Leaf("A", "R"), r.Leaf("C", "R"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:R"},
			{Halt: true, Log: "A:halt C:R C:halt", States: "I I I"},
		}},
		{Name: "halt while in catch does not tick the catch again", Tree: func(r *bttest.Recorder) *Spec {
			return TryCatch(true, r.Leaf("A", "F"), r.Leaf("C", "R"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:F C:R"},
			{Halt: true, Log: "C:halt", States: "I I I"},
		}},
	})
}
