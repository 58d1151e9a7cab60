// Crowd ticks a village of 10,000 villagers, each driven by its own tree, on all cores.
//
//	ReactiveFallback
//	├── ReactiveSequence "eat":   IsHungry, Eat
//	├── ReactiveSequence "rest":  IsTired, Rest
//	└── Work
//
// The leaf types are made once and registered in one Factory, which loads the tree
// once: every villager's tree is built from that definition, with the villager as the
// tree's owner (bt.WithOwner). A leaf reaches its villager with bt.Owner, a type
// assertion, and shares its function with every node of every tree — so a tree costs
// its nodes' state and nothing per leaf. bt.TickAll ticks all the trees on as many
// goroutines as there are cores.
//
// Run it with: go run ./examples/crowd
package main

import (
	_ "embed"
	"fmt"
	"io"
	"os"

	"github.com/gobt/bt"
)

//go:embed crowd.xml
var crowdXML string

func main() {
	if err := run(os.Stdout, 10000, 6); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// villager is what a tree acts for. Its leaves read and change it; nothing else does
// while the trees are ticked, so the trees can be ticked in parallel.
type villager struct {
	food, energy int // 0 to 10
	doing        string
}

// leaves are the villagers' node types. They are made once: every node of every tree
// runs these functions.
func leaves() []*bt.Model {
	return []*bt.Model{
		bt.NewCondition("IsHungry", func(n *bt.Node) bool { return bt.Owner[*villager](n).food < 3 }),
		bt.NewCondition("IsTired", func(n *bt.Node) bool { return bt.Owner[*villager](n).energy < 2 }),
		bt.NewAction("Eat", func(n *bt.Node) bt.Status {
			v := bt.Owner[*villager](n)
			v.doing, v.food = "eating", v.food+4
			return bt.Running // until IsHungry says otherwise
		}),
		bt.NewAction("Rest", func(n *bt.Node) bt.Status {
			v := bt.Owner[*villager](n)
			v.doing, v.energy = "resting", v.energy+3
			return bt.Running
		}),
		bt.NewAction("Work", func(n *bt.Node) bt.Status {
			v := bt.Owner[*villager](n)
			v.doing, v.food, v.energy = "working", v.food-1, v.energy-1
			return bt.Running
		}),
	}
}

// run builds a tree for each of n villagers and ticks them all, rounds times,
// reporting what the village does after each round.
func run(out io.Writer, n, rounds int) error {
	f := bt.NewFactory()
	if err := f.Register(leaves()...); err != nil {
		return err
	}
	if err := f.LoadString("crowd.xml", crowdXML); err != nil {
		return err
	}
	villagers := make([]villager, n)
	trees := make([]*bt.Tree, n)
	for i := range villagers {
		villagers[i] = villager{food: i % 7, energy: 2 + i%5}
		t, err := f.NewTree("Villager", bt.WithOwner(&villagers[i]))
		if err != nil {
			return err
		}
		trees[i] = t
	}
	for r := 1; r <= rounds; r++ {
		if err := bt.TickAll(trees, 0, nil); err != nil {
			return err
		}
		doing := map[string]int{}
		for i := range villagers {
			doing[villagers[i].doing]++
		}
		fmt.Fprintf(out, "round %d: %d working, %d eating, %d resting\n",
			r, doing["working"], doing["eating"], doing["resting"])
	}
	return nil
}
