package bt_test

import (
	"fmt"

	"github.com/gobt/bt"
)

// Sheep is what a tree acts for: its owner.
type Sheep struct {
	Name  string
	Grass int
}

// Many trees from one definition, each with its own owner, which the leaves read with
// Owner; TickAll ticks them all on every core.
func ExampleWithOwner() {
	// The leaf types are made once: every node of every tree runs these functions.
	hungry := bt.NewCondition("IsHungry", func(n *bt.Node) bool { return bt.Owner[*Sheep](n).Grass < 2 })
	graze := bt.NewAction("Graze", func(n *bt.Node) bt.Status {
		bt.Owner[*Sheep](n).Grass++
		return bt.Success
	})
	flock := []*Sheep{{"Dolly", 0}, {"Shaun", 5}}
	def := bt.Sequence(hungry.Spec(), graze.Spec())
	var trees []*bt.Tree
	for _, s := range flock {
		tree, err := bt.NewTree(def, bt.WithOwner(s))
		if err != nil {
			panic(err)
		}
		trees = append(trees, tree)
	}
	statuses := make([]bt.Status, len(trees))
	for range 2 {
		if err := bt.TickAll(trees, 0, statuses); err != nil {
			panic(err)
		}
		fmt.Println(statuses)
	}
	for _, s := range flock {
		fmt.Println(s.Name, s.Grass)
	}
	// Output:
	// [SUCCESS FAILURE]
	// [SUCCESS FAILURE]
	// Dolly 2
	// Shaun 5
}
