// Patrol is the SequenceStar example of BehaviorTree.CPP's documentation: a robot must
// visit A, B and C once each, and check its battery on every tick.
//
//	ReactiveSequence
//	├── IsBatteryOK
//	└── SequenceStar        (a.k.a. SequenceWithMemory)
//	    ├── GoTo(A)
//	    ├── GoTo(B)
//	    └── GoTo(C)
//
// When the battery runs low the ReactiveSequence fails and halts the patrol; after a
// recharge the patrol resumes at the place it had not reached: places already visited
// are not visited again.
//
// Run it with: go run ./examples/patrol
//
// patrol.xml is the same tree in XML, its world simulated by scripts on the blackboard:
// go run ./cmd/bt run examples/patrol/patrol.xml
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/gobt/bt"
)

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// world is the robot's: its battery and where it is going.
type world struct {
	out     io.Writer
	battery int // percent; each tick of driving costs 10
}

func (w *world) isBatteryOK() bool {
	ok := w.battery >= 30
	fmt.Fprintf(w.out, "  IsBatteryOK: %d%% → %v\n", w.battery, ok)
	return ok
}

// goTo drives to a place; it takes `ticks` ticks. It is a stateful action: it knows when
// it starts, when it runs, and when it is halted.
type goTo struct {
	w     *world
	place string
	ticks int
	left  int
}

func (g *goTo) OnStart(*bt.Node) bt.Status {
	g.left = g.ticks
	fmt.Fprintf(g.w.out, "  GoTo(%s): start, %d ticks of driving\n", g.place, g.ticks)
	return g.drive()
}

func (g *goTo) OnRunning(*bt.Node) bt.Status { return g.drive() }

func (g *goTo) OnHalted(*bt.Node) {
	fmt.Fprintf(g.w.out, "  GoTo(%s): halted before arriving\n", g.place)
}

func (g *goTo) drive() bt.Status {
	g.w.battery -= 10
	g.left--
	if g.left > 0 {
		fmt.Fprintf(g.w.out, "  GoTo(%s): driving\n", g.place)
		return bt.Running
	}
	fmt.Fprintf(g.w.out, "  GoTo(%s): arrived\n", g.place)
	return bt.Success
}

func patrol(w *world) *bt.Spec {
	place := func(name string, ticks int) *bt.Spec {
		return bt.Stateful("GoTo", func() bt.StatefulAction {
			return &goTo{w: w, place: name, ticks: ticks}
		}).Named("GoTo(" + name + ")")
	}
	return bt.ReactiveSequence(
		bt.Condition("IsBatteryOK", w.isBatteryOK),
		bt.SequenceWithMemory(place("A", 2), place("B", 3), place("C", 2)),
	)
}

func run(out io.Writer) error {
	w := &world{out: out, battery: 80}
	tree, err := bt.NewTree(patrol(w))
	if err != nil {
		return err
	}
	for tick := 1; tick <= 20; tick++ {
		fmt.Fprintf(out, "tick %d\n", tick)
		s, err := tree.TickOnce()
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "  => %s\n", s)
		switch s {
		case bt.Success:
			fmt.Fprintln(out, "patrol complete")
			return nil
		case bt.Failure:
			fmt.Fprintln(out, "recharging to 100%")
			w.battery = 100
		}
	}
	return fmt.Errorf("the patrol did not complete")
}
