package bt_test

import (
	"testing"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

func TestParallel(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "default thresholds: all must succeed", Tree: func(r *bttest.Recorder) *Spec {
			return builtin("Parallel").Spec(r.Leaf("A", "S"), r.Leaf("B", "R S"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:S B:R", States: "R S R"},
			{Want: Success, Log: "B:S", States: "I I I"},
		}},
		{Name: "default failure_count 1: first failure halts the running ones", Tree: func(r *bttest.Recorder) *Spec {
			return builtin("Parallel").Spec(r.Leaf("A", "R"), r.Leaf("B", "R F"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:R B:R"},
			{Want: Failure, Log: "A:R B:F A:halt", States: "I I I"},
		}},
		{Name: "decides before ticking later children", Tree: func(r *bttest.Recorder) *Spec {
			return Parallel(1, 1, r.Leaf("A", "S"), r.Leaf("B", "R"))
		}, Steps: []bttest.Step{{Want: Success, Log: "A:S"}}},
		{Name: "completed children are not ticked again", Tree: func(r *bttest.Recorder) *Spec {
			return Parallel(2, 2, r.Leaf("A", "S"), r.Leaf("B", "F"), r.Leaf("C", "R R S"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:S B:F C:R", States: "R S F R"},
			{Want: Running, Log: "C:R"},
			{Want: Success, Log: "C:S", States: "I I I I"},
		}},
		{Name: "cannot succeed any more", Tree: func(r *bttest.Recorder) *Spec {
			return Parallel(2, 3, r.Leaf("A", "F"), r.Leaf("B", "F"), r.Leaf("C", "R"))
		}, Steps: []bttest.Step{{Want: Failure, Log: "A:F B:F"}}},
		{Name: "negative success_count counts skipped children", Tree: func(r *bttest.Recorder) *Spec {
			return Parallel(-1, 1, r.Leaf("A", "K"), r.Leaf("B", "S"))
		}, Steps: []bttest.Step{{Want: Success, Log: "A:K B:S"}}},
		{Name: "positive success_count ignores skipped children", Tree: func(r *bttest.Recorder) *Spec {
			return Parallel(2, 1, r.Leaf("A", "K"), r.Leaf("B", "S"), r.Leaf("C", "R S"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:K B:S C:R"},
			{Want: Success, Log: "A:K C:S"},
		}},
		{Name: "-2 means all but one", Tree: func(r *bttest.Recorder) *Spec {
			return Parallel(-2, -1, r.Leaf("A", "S"), r.Leaf("B", "S"), r.Leaf("C", "R"))
		}, Steps: []bttest.Step{{Want: Success, Log: "A:S B:S"}}},
		{Name: "all skipped", Tree: func(r *bttest.Recorder) *Spec {
			return Parallel(1, 1, r.Leaf("A", "K"), r.Leaf("B", "K"))
		}, Steps: []bttest.Step{{Want: Skipped, Log: "A:K B:K", States: "I I I"}}},
		{Name: "halt forgets results", Tree: func(r *bttest.Recorder) *Spec {
			return builtin("Parallel").Spec(r.Leaf("A", "S"), r.Leaf("B", "R"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:S B:R"},
			{Halt: true, Log: "B:halt", States: "I I I"},
			{Want: Running, Log: "A:S B:R"},
		}},
	})
}

func TestParallelThresholdErrors(t *testing.T) {
	r := &bttest.Recorder{}
	for _, c := range []struct {
		spec *Spec
		want string
	}{
		{Parallel(3, 1, r.Leaf("A", "S"), r.Leaf("B", "S")), "node Parallel::1 (Parallel): success_count 3 needs more than the 2 children: it can never succeed"},
		{Parallel(1, 3, r.Leaf("A", "S"), r.Leaf("B", "S")), "node Parallel::1 (Parallel): failure_count 3 needs more than the 2 children: it can never fail"},
		{ParallelAll(3, r.Leaf("A", "S"), r.Leaf("B", "S")), "node ParallelAll::1 (ParallelAll): max_failures 3 needs more than the 2 children: it can never fail"},
	} {
		tree, err := NewTree(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tree.TickOnce(); err == nil || err.Error() != c.want {
			t.Errorf("got %v, want %s", err, c.want)
		}
	}
}
