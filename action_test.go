package bt_test

import (
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
