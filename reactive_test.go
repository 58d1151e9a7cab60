package bt_test

import (
	"testing"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

func TestReactiveSequence(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "condition re-checked every tick; failure halts the running child", Tree: func(r *bttest.Recorder) *Spec {
			return ReactiveSequence(r.Leaf("C", "S S F"), r.Leaf("A", "R"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "C:S A:R", States: "R I R"},
			{Want: Running, Log: "C:S A:R"},
			{Want: Failure, Log: "C:F A:halt", States: "I I I"},
		}},
		{Name: "a running child halts a later running one", Tree: func(r *bttest.Recorder) *Spec {
			return ReactiveSequence(r.Leaf("A", "S R"), r.Leaf("B", "R"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:S B:R", States: "R I R"},
			{Want: Running, Log: "A:R B:halt", States: "R R I"},
		}},
		{Name: "an error after the running child completed leaves it completed", Tree: func(r *bttest.Recorder) *Spec {
			return ReactiveSequence(r.Leaf("A", "R S"), r.Leaf("B", "I"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:R", States: "R R I"},
			bttest.Tick(Idle, "A:S B:I", "R S I").Fails("returned IDLE"),
			bttest.Halt("", "I I I"), // A is not halted: it succeeded
		}},
		{Name: "a decorator child that passed is reset", Tree: func(r *bttest.Recorder) *Spec {
			return ReactiveSequence(Inverter(r.Leaf("A", "F")), r.Leaf("B", "R S"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:F B:R", States: "R I I R"},
			{Want: Success, Log: "A:F B:S", States: "I I I I"},
		}},
		{Name: "after a skipped child, a running child halts a later running one", Tree: func(r *bttest.Recorder) *Spec {
			return ReactiveSequence(r.Leaf("A", "K"), r.Leaf("B", "S R"), r.Leaf("C", "R"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:K B:S C:R", States: "R I I R"},
			{Want: Running, Log: "A:K B:R C:halt", States: "R I R I"},
		}},
		{Name: "all succeed", Tree: func(r *bttest.Recorder) *Spec {
			return ReactiveSequence(r.Leaf("A", "S"), r.Leaf("B", "S"))
		}, Steps: []bttest.Step{{Want: Success, Log: "A:S B:S", States: "I I I"}}},
		{Name: "skipped children", Tree: func(r *bttest.Recorder) *Spec {
			return ReactiveSequence(r.Leaf("A", "K"), r.Leaf("B", "S"))
		}, Steps: []bttest.Step{{Want: Success, Log: "A:K B:S"}}},
		{Name: "all skipped", Tree: func(r *bttest.Recorder) *Spec {
			return ReactiveSequence(r.Leaf("A", "K"), r.Leaf("B", "K"))
		}, Steps: []bttest.Step{{Want: Skipped, Log: "A:K B:K", States: "I I I"}}},
		{Name: "halt", Tree: func(r *bttest.Recorder) *Spec {
			return ReactiveSequence(r.Leaf("A", "S"), r.Leaf("B", "R"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:S B:R"},
			{Halt: true, Log: "B:halt", States: "I I I"},
		}},
	})
}

func TestReactiveFallback(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "higher priority child interrupts", Tree: func(r *bttest.Recorder) *Spec {
			return ReactiveFallback(r.Leaf("C", "F F S"), r.Leaf("A", "R"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "C:F A:R", States: "R I R"},
			{Want: Running, Log: "C:F A:R"},
			{Want: Success, Log: "C:S A:halt", States: "I I I"},
		}},
		{Name: "all fail", Tree: func(r *bttest.Recorder) *Spec {
			return ReactiveFallback(r.Leaf("A", "F"), r.Leaf("B", "F"))
		}, Steps: []bttest.Step{{Want: Failure, Log: "A:F B:F", States: "I I I"}}},
		{Name: "all skipped", Tree: func(r *bttest.Recorder) *Spec {
			return ReactiveFallback(r.Leaf("A", "K"), r.Leaf("B", "K"))
		}, Steps: []bttest.Step{{Want: Skipped, Log: "A:K B:K"}}},
		{Name: "a running child halts a later running one", Tree: func(r *bttest.Recorder) *Spec {
			return ReactiveFallback(r.Leaf("A", "F R"), r.Leaf("B", "R"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:F B:R"},
			{Want: Running, Log: "A:R B:halt"},
		}},
	})
}
