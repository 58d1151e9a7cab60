package bt_test

import (
	"strings"
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

// TestReactiveSequenceRefusesTwoAsyncChildren: as BehaviorTree.CPP's
// TwoAsyncNodesInReactiveSequence, a ReactiveSequence with two AsyncSequence children
// is refused when it is loaded (or, built in Go, by NewTree); one is fine, and so is a
// ReactiveFallback with two (the reference checks ReactiveSequence only).
func TestReactiveSequenceRefusesTwoAsyncChildren(t *testing.T) {
	const two = `<root BTCPP_format="4"><BehaviorTree ID="T">
  <ReactiveSequence>
    <AsyncSequence name="first"><AlwaysSuccess/><AlwaysSuccess/></AsyncSequence>
    <AlwaysSuccess/>
    <Control ID="AsyncSequence" name="second"><AlwaysSuccess/></Control>
  </ReactiveSequence></BehaviorTree></root>`
	err := NewFactory().LoadString("t.xml", two)
	want := "t.xml:2:3: a ReactiveSequence cannot have more than one async child; it has 2 AsyncSequence children (3:5, 5:5)"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	for _, ok := range []string{
		strings.Replace(two, `<Control ID="AsyncSequence" name="second">`, `<Control ID="Sequence" name="second">`, 1),
		strings.ReplaceAll(two, "ReactiveSequence>", "ReactiveFallback>"),
	} {
		if err := NewFactory().LoadString("t.xml", ok); err != nil {
			t.Errorf("%v", err)
		}
	}
	_, err = NewTree(ReactiveSequence(AsyncSequence(AlwaysSuccess()), AsyncSequence(AlwaysSuccess())))
	if err == nil || !strings.Contains(err.Error(), "it has 2 AsyncSequence children (child 1, child 2)") {
		t.Errorf("built in Go: %v", err)
	}
}
