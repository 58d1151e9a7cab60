package bt_test

import (
	"fmt"
	"strings"
	"testing"

	. "github.com/gobt/bt"
)

type robot struct {
	name    string
	battery int
}

// Trees built from one definition each read their own owner.
func TestOwnerOfEachTree(t *testing.T) {
	charged := NewCondition("Charged", func(n *Node) bool { return Owner[*robot](n).battery > 20 })
	def := Fallback(charged.Spec(), Action("Charge", func(n *Node) Status {
		Owner[*robot](n).battery += 50
		return Running
	}))
	robots := []*robot{{"a", 10}, {"b", 90}}
	var trees []*Tree
	for _, r := range robots {
		trees = append(trees, mustTree(t, def, WithOwner(r)))
	}
	for i, want := range []Status{Running, Success} {
		if s, err := trees[i].TickOnce(); s != want || err != nil {
			t.Errorf("tree %d: %v %v, want %v", i, s, err, want)
		}
	}
	if robots[0].battery != 60 || robots[1].battery != 90 {
		t.Errorf("batteries %d and %d, want 60 and 90", robots[0].battery, robots[1].battery)
	}
	if trees[1].Owner() != robots[1] {
		t.Errorf("Tree.Owner() = %v", trees[1].Owner())
	}
}

// A tree without an owner, or with one of another type, stops the tick with an error
// naming the node and the types: Owner panics, as a type assertion does.
func TestOwnerOfTheWrongType(t *testing.T) {
	leaf := Condition("Charged", func(n *Node) bool { return Owner[*robot](n).battery > 20 })
	for _, c := range []struct {
		opts []Option
		want string
	}{
		{nil, "node Charged::1 (Charged): panic: interface conversion: interface {} is nil, not *bt_test.robot"},
		{[]Option{WithOwner(robot{})}, "node Charged::1 (Charged): panic: interface conversion: interface {} is bt_test.robot, not *bt_test.robot"},
		{[]Option{WithOwner(nil)}, "node Charged::1 (Charged): panic: interface conversion: interface {} is nil, not *bt_test.robot"},
	} {
		tree := mustTree(t, leaf, c.opts...)
		if _, err := tree.TickOnce(); err == nil || err.Error() != c.want {
			t.Errorf("got %v\nwant %s", err, c.want)
		}
	}
	stringer := Condition("Named", func(n *Node) bool { return Owner[fmt.Stringer](n) != nil })
	_, err := mustTree(t, stringer, WithOwner(3)).TickOnce()
	if err == nil || !strings.HasSuffix(err.Error(), "panic: interface conversion: int is not fmt.Stringer: missing method String") {
		t.Errorf("got %v", err)
	}
}

// Reading the owner allocates nothing.
func TestOwnerDoesNotAllocate(t *testing.T) {
	r := &robot{battery: 50}
	tree := mustTree(t, Condition("Charged", func(n *Node) bool { return Owner[*robot](n).battery > 20 }), WithOwner(r))
	if n := testing.AllocsPerRun(100, func() { tree.TickOnce() }); n != 0 {
		t.Errorf("%v allocations per tick", n)
	}
}
