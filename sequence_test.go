package bt_test

import (
	"testing"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

func TestSequence(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "children succeed in one tick", Tree: func(r *bttest.Recorder) *Spec {
			return Sequence(r.Leaf("A", "S"), r.Leaf("B", "S"))
		}, Steps: []bttest.Step{
			{Want: Success, Log: "A:S B:S", States: "I I I"},
			{Want: Success, Log: "A:S B:S"},
		}},
		{Name: "skipped child is passed over", Tree: func(r *bttest.Recorder) *Spec {
			return Sequence(r.Leaf("A", "K"), r.Leaf("B", "S"))
		}, Steps: []bttest.Step{{Want: Success, Log: "A:K B:S", States: "I I I"}}},
		{Name: "all skipped", Tree: func(r *bttest.Recorder) *Spec {
			return Sequence(r.Leaf("A", "K"), r.Leaf("B", "K"))
		}, Steps: []bttest.Step{{Want: Skipped, Log: "A:K B:K", States: "I I I"}}},
		{Name: "running child resumes without re-ticking earlier ones", Tree: func(r *bttest.Recorder) *Spec {
			return Sequence(r.Leaf("A", "S"), r.Leaf("B", "R R S"), r.Leaf("C", "S"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:S B:R", States: "R S R I"},
			{Want: Running, Log: "B:R"},
			{Want: Success, Log: "B:S C:S", States: "I I I I"},
		}},
		{Name: "failure resets and restarts from the first child", Tree: func(r *bttest.Recorder) *Spec {
			return Sequence(r.Leaf("A", "S"), r.Leaf("B", "R F S"), r.Leaf("C", "S"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:S B:R"},
			{Want: Failure, Log: "B:F", States: "I I I I"},
			{Want: Success, Log: "A:S B:S C:S"},
		}},
		{Name: "skipped counter restarts with each activation", Tree: func(r *bttest.Recorder) *Spec {
			return Sequence(r.Leaf("A", "K"), r.Leaf("B", "R K"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:K B:R"},
			{Want: Skipped, Log: "B:K", States: "I I I"},
			{Want: Skipped, Log: "A:K B:K"},
		}},
		{Name: "halt stops the running child and forgets the position", Tree: func(r *bttest.Recorder) *Spec {
			return Sequence(r.Leaf("A", "S"), r.Leaf("B", "R"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:S B:R"},
			{Halt: true, Log: "B:halt", States: "I I I"},
			{Want: Running, Log: "A:S B:R"},
		}},
		{Name: "never yields, even exactly once", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *Spec {
			return Sequence(r.Leaf("A", "S"), r.Leaf("B", "S"))
		}, Steps: []bttest.Step{{Want: Success, Log: "A:S B:S"}}},
		// Without observers a Sequence stores its children's statuses only when it must
		// (see sequence.tick): these check what is stored between ticks.
		{Name: "successes before a skip and a running child are stored", Tree: func(r *bttest.Recorder) *Spec {
			return Sequence(r.Leaf("A", "S"), r.Leaf("B", "K"), r.Leaf("C", "S"), r.Leaf("D", "R"))
		}, Steps: []bttest.Step{{Want: Running, Log: "A:S B:K C:S D:R", States: "R S I S R"}}},
		{Name: "a resumed child that succeeds is stored as such", Tree: func(r *bttest.Recorder) *Spec {
			return Sequence(r.Leaf("A", "R S"), r.Leaf("B", "S"), r.Leaf("C", "R"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:R", States: "R R I I"},
			{Want: Running, Log: "A:S B:S C:R", States: "R S S R"},
		}},
		{Name: "a resumed child that is skipped goes back to idle", Tree: func(r *bttest.Recorder) *Spec {
			return Sequence(r.Leaf("A", "R K"), r.Leaf("B", "R"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:R", States: "R R I"},
			{Want: Running, Log: "A:K B:R", States: "R I R"},
		}},
		{Name: "a failure after resuming resets every child ticked", Tree: func(r *bttest.Recorder) *Spec {
			return Sequence(r.Leaf("A", "S"), r.Leaf("B", "R S"), r.Leaf("C", "F"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:S B:R", States: "R S R I"},
			{Want: Failure, Log: "B:S C:F", States: "I I I I"},
		}},
		{Name: "a resumed first child that fails is reset", Tree: func(r *bttest.Recorder) *Spec {
			return Sequence(r.Leaf("A", "R F"), r.Leaf("B", "S"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:R", States: "R R I"},
			{Want: Failure, Log: "A:F", States: "I I I"},
		}},
		{Name: "children that store their own status are reset too", Tree: func(r *bttest.Recorder) *Spec {
			// A decorator stores its status during its tick, before resetting its child.
			return Sequence(r.Leaf("A", "S"), Inverter(r.Leaf("B", "F")), ForceFailure(r.Leaf("C", "S S F")))
		}, Steps: []bttest.Step{
			{Want: Failure, Log: "A:S B:F C:S", States: "I I I I I I"},
		}},
		{Name: "a resumed first child that succeeds with the rest is reset", Tree: func(r *bttest.Recorder) *Spec {
			return Sequence(r.Leaf("A", "R S"), r.Leaf("B", "S"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:R", States: "R R I"},
			{Want: Success, Log: "A:S B:S", States: "I I I"},
		}},
	})
}

func TestAsyncSequence(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "yields after each synchronous success", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *Spec {
			return AsyncSequence(r.Leaf("A", "S"), r.Leaf("B", "S"), r.Leaf("C", "S"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:S", States: "R S I I"},
			{Want: Running, Log: "B:S", Before: woken(true)}, // the yield's wake-up is pending
			{Want: Success, Log: "C:S", States: "I I I I", Before: woken(true)},
		}},
		{Name: "halting takes back the wake-up of a yield", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *Spec {
			return AsyncSequence(r.Leaf("A", "S"), r.Leaf("B", "S"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:S", States: "R S I"},
			bttest.Halt("", "I I I"),
			{Want: Running, Log: "A:S", Before: woken(false)},
		}},
		{Name: "TickOnce re-ticks after a yield", Only: bttest.TickOnce, Tree: func(r *bttest.Recorder) *Spec {
			return AsyncSequence(r.Leaf("A", "S"), r.Leaf("B", "S"), r.Leaf("C", "S"))
		}, Steps: []bttest.Step{{Want: Success, Log: "A:S B:S C:S"}}},
		{Name: "no yield after a child that was running", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *Spec {
			return AsyncSequence(r.Leaf("A", "R S"), r.Leaf("B", "S"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:R"},
			{Want: Success, Log: "A:S B:S"},
		}},
		{Name: "no yield after a skipped child", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *Spec {
			return AsyncSequence(r.Leaf("A", "K"), r.Leaf("B", "S"), r.Leaf("C", "S"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:K B:S"},
			{Want: Success, Log: "C:S"},
		}},
		{Name: "failure resets", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *Spec {
			return AsyncSequence(r.Leaf("A", "S"), r.Leaf("B", "F"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:S"},
			{Want: Failure, Log: "B:F", States: "I I I"},
			{Want: Running, Log: "A:S"},
		}},
	})
}

func TestSequenceWithMemory(t *testing.T) {
	for _, mk := range []struct {
		name string
		f    func(...*Spec) *Spec
	}{{"SequenceWithMemory", SequenceWithMemory}, {"SequenceStar", builtin("SequenceStar").Spec}} {
		t.Run(mk.name, func(t *testing.T) {
			bttest.Run(t, []bttest.Case{
				{Name: "failure keeps the position", Only: bttest.TickOnce, Tree: func(r *bttest.Recorder) *Spec {
					return mk.f(r.Leaf("A", "S"), r.Leaf("B", "F S"), r.Leaf("C", "S"))
				}, Steps: []bttest.Step{
					{Want: Failure, Log: "A:S B:F", States: "I S I I"},
					{Want: Success, Log: "B:S C:S", States: "I I I I"},
					{Want: Success, Log: "A:S B:S C:S"},
				}},
				{Name: "yields after each synchronous success", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *Spec {
					return mk.f(r.Leaf("A", "S"), r.Leaf("B", "F S"), r.Leaf("C", "S"))
				}, Steps: []bttest.Step{
					{Want: Running, Log: "A:S"},
					{Want: Failure, Log: "B:F"},
					{Want: Running, Log: "B:S"},
					{Want: Success, Log: "C:S"},
				}},
				{Name: "halt keeps the position", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *Spec {
					return mk.f(r.Leaf("A", "S"), r.Leaf("B", "R"))
				}, Steps: []bttest.Step{
					{Want: Running, Log: "A:S"},
					{Want: Running, Log: "B:R"},
					{Halt: true, Log: "B:halt", States: "I I I"},
					{Want: Running, Log: "B:R"},
				}},
				{Name: "all skipped", Tree: func(r *bttest.Recorder) *Spec {
					return mk.f(r.Leaf("A", "K"), r.Leaf("B", "K"))
				}, Steps: []bttest.Step{{Want: Skipped, Log: "A:K B:K", States: "I I I"}}},
			})
		})
	}
}

func TestFallback(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "first success wins", Tree: func(r *bttest.Recorder) *Spec {
			return Fallback(r.Leaf("A", "F"), r.Leaf("B", "S"), r.Leaf("C", "S"))
		}, Steps: []bttest.Step{{Want: Success, Log: "A:F B:S", States: "I I I I"}}},
		{Name: "all fail", Tree: func(r *bttest.Recorder) *Spec {
			return Fallback(r.Leaf("A", "F"), r.Leaf("B", "F"))
		}, Steps: []bttest.Step{{Want: Failure, Log: "A:F B:F", States: "I I I"}}},
		{Name: "skipped children are passed over", Tree: func(r *bttest.Recorder) *Spec {
			return Fallback(r.Leaf("A", "K"), r.Leaf("B", "F"))
		}, Steps: []bttest.Step{{Want: Failure, Log: "A:K B:F"}}},
		{Name: "all skipped", Tree: func(r *bttest.Recorder) *Spec {
			return Fallback(r.Leaf("A", "K"), r.Leaf("B", "K"))
		}, Steps: []bttest.Step{{Want: Skipped, Log: "A:K B:K"}}},
		{Name: "running child resumes", Tree: func(r *bttest.Recorder) *Spec {
			return Fallback(r.Leaf("A", "F"), r.Leaf("B", "R F"), r.Leaf("C", "S"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:F B:R", States: "R F R I"},
			{Want: Success, Log: "B:F C:S", States: "I I I I"},
		}},
		{Name: "failures before a skip and a running child are stored", Tree: func(r *bttest.Recorder) *Spec {
			return Fallback(r.Leaf("A", "F"), r.Leaf("B", "K"), r.Leaf("C", "F"), r.Leaf("D", "R"))
		}, Steps: []bttest.Step{{Want: Running, Log: "A:F B:K C:F D:R", States: "R F I F R"}}},
		{Name: "children that store their own status are reset too", Tree: func(r *bttest.Recorder) *Spec {
			return Fallback(r.Leaf("A", "F"), Inverter(r.Leaf("B", "S")), r.Leaf("C", "F"))
		}, Steps: []bttest.Step{{Want: Failure, Log: "A:F B:S C:F", States: "I I I I I"}}},
		{Name: "halt forgets the position", Tree: func(r *bttest.Recorder) *Spec {
			return Fallback(r.Leaf("A", "F"), r.Leaf("B", "R"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:F B:R"},
			{Halt: true, Log: "B:halt", States: "I I I"},
			{Want: Running, Log: "A:F B:R"},
		}},
	})
}

func TestAsyncFallback(t *testing.T) {
	bttest.Run(t, []bttest.Case{
		{Name: "yields after each synchronous failure", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *Spec {
			return AsyncFallback(r.Leaf("A", "F"), r.Leaf("B", "F"), r.Leaf("C", "S"), r.Leaf("D", "S"))
		}, Steps: []bttest.Step{
			{Want: Running, Log: "A:F"},
			{Want: Running, Log: "B:F"},
			{Want: Success, Log: "C:S", States: "I I I I I"},
		}},
		{Name: "TickOnce completes in one call", Only: bttest.TickOnce, Tree: func(r *bttest.Recorder) *Spec {
			return AsyncFallback(r.Leaf("A", "F"), r.Leaf("B", "F"))
		}, Steps: []bttest.Step{{Want: Failure, Log: "A:F B:F"}}},
		{Name: "no yield after the last child", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *Spec {
			return AsyncFallback(r.Leaf("A", "F"))
		}, Steps: []bttest.Step{{Want: Failure, Log: "A:F"}}},
	})
}

// TestSequenceObservedEnds ticks Sequences and Fallbacks whose last child is skipped,
// with and without a batch subscriber: the observed loop ends as the other one does.
func TestSequenceObservedEnds(t *testing.T) {
	skip := func() *Spec { return AlwaysFailure().With("_skipIf", "true") }
	for _, c := range []struct {
		name string
		spec *Spec
		want Status
	}{
		{"sequence", Sequence(AlwaysSuccess(), skip()), Success},
		{"fallback", Fallback(AlwaysFailure(), skip()), Failure},
		{"all skipped", Sequence(skip(), skip()), Skipped},
		{"stopped", Fallback(skip(), AlwaysSuccess(), skip()), Success},
	} {
		for _, observed := range []bool{false, true} {
			tree := mustTree(t, c.spec)
			if observed {
				tree.SubscribeBatch(func(Batch) {})
			}
			if s, err := tree.TickOnce(); s != c.want || err != nil {
				t.Errorf("%s (observed %v): %v, %v; want %v", c.name, observed, s, err, c.want)
			}
		}
	}
}
