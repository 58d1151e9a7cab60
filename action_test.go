package bt_test

import (
	"slices"
	"testing"

	. "github.com/gobt/bt"
)

// The nodes of a function leaf share the function: however many trees and nodes use
// the model, building one allocates nothing per node beyond the tree's own arrays.
func TestFunctionLeavesShareTheirModel(t *testing.T) {
	calls := 0
	for _, m := range []*Model{
		NewAction("A", func() Status { calls++; return Success }),
		NewAction("A", func(*Node) Status { calls++; return Success }),
		NewCondition("C", func(*Node) (bool, error) { calls++; return true, nil }),
	} {
		allocs := func(leaves int) float64 {
			kids := make([]*Spec, leaves)
			for i := range kids {
				kids[i] = m.Spec()
			}
			root := Sequence(kids...)
			mustTree(t, root) // the definition is made once, by the first tree
			return testing.AllocsPerRun(20, func() { mustTree(t, root) })
		}
		if few, many := allocs(2), allocs(200); few != many {
			t.Errorf("%s: building a tree of 2 leaves allocates %v times, of 200 leaves %v times", m.ID, few, many)
		}
		tree := mustTree(t, Sequence(m.Spec(), m.Spec()))
		calls = 0
		if s, err := tree.TickOnce(); s != Success || err != nil || calls != 2 {
			t.Errorf("%s: %v %v after %d calls, want Success after 2", m.ID, s, err, calls)
		}
		if b := tree.Root().Child(1).Behavior(); b == nil || b.Tick(tree.Root().Child(1)) != Success || calls != 3 {
			t.Errorf("%s: Behavior() %v does not tick the function", m.ID, b)
		}
	}
}

// TestConditionReturningRunning: a condition written as a function that returns a
// Status (BehaviorTree.CPP's SimpleConditionNode) may answer Running, with or without
// ports, and its node stays a condition.
func TestConditionReturningRunning(t *testing.T) {
	warm := 0
	ready := func(*Node) Status {
		if warm++; warm < 3 {
			return Running
		}
		return Success
	}
	for _, m := range []*Model{
		NewCondition("SensorReady", ready),
		NewCondition("SensorReady", func(n *Node) (Status, error) {
			if _, err := Get[int](n, "sensor"); err != nil {
				return Failure, err
			}
			return ready(n), nil
		}, InputPort[int]("sensor", "").WithDefault("1")),
	} {
		warm = 0
		tree := mustTree(t, Sequence(m.Spec(), AlwaysSuccess()))
		if k := tree.Root().Child(0).Kind(); k != KindCondition {
			t.Errorf("kind %v, want Condition", k)
		}
		var got []Status
		for range 3 {
			s, err := tree.TickOnce()
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, s)
		}
		if want := []Status{Running, Running, Success}; !slices.Equal(got, want) {
			t.Errorf("ports %d: statuses %v, want %v", len(m.Ports), got, want)
		}
	}
	if s, _ := mustTree(t, Condition("Wait", func() Status { return Running })).TickOnce(); s != Running {
		t.Errorf("Condition of func() Status: %v, want Running", s)
	}
}
