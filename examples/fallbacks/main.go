// Fallbacks shows, tick by tick, how the three Fallback modes differ: Fallback,
// AsyncFallback and ReactiveFallback, each the root of a tree of fallbacks.xml with
// the same three children, tried in order:
//
//	IsDoorOpen  a condition: the door gives way after two blows
//	UseKey      fails at once: the robot has no key
//	RamDoor     four blows, one per tick, whatever happens (RUNNING until then)
//
// A plain Fallback stays with the running child: it never notices that the door gave
// way. AsyncFallback yields (RUNNING with a wake-up) after each child that failed at
// once; ticked exactly once per tick, each yield takes a tick of its own, while
// BehaviorTree.CPP's tickOnce re-ticks at once, so that it then behaves as Fallback.
// ReactiveFallback re-checks its higher-priority children on every tick and halts the
// running one when one of them succeeds.
//
//	go run ./examples/fallbacks
//
// The same trees run with the bt command, one mode at a time:
//
//	go run ./cmd/bt run --exactly-once --main Plain examples/fallbacks/fallbacks.xml
//	go run ./cmd/bt run --exactly-once --main Async examples/fallbacks/fallbacks.xml
//	go run ./cmd/bt run --exactly-once --log --main Reactive examples/fallbacks/fallbacks.xml
package main

import (
	_ "embed"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
)

//go:embed fallbacks.xml
var fallbacksXML string

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(out io.Writer) error {
	f := bt.NewFactory()
	if err := f.LoadString("fallbacks.xml", fallbacksXML); err != nil {
		return err
	}
	for _, mode := range []struct {
		tree, title string
		exactlyOnce bool
	}{
		{"Plain", "Fallback", true},
		{"Async", "AsyncFallback", true},
		{"Async", "AsyncFallback, with tickOnce", false},
		{"Reactive", "ReactiveFallback", true},
	} {
		fmt.Fprintln(out, mode.title)
		if err := play(out, f, mode.tree, mode.exactlyOnce); err != nil {
			return err
		}
	}
	return nil
}

// play runs one tree to completion and prints, for each tick, what its children did
// and the root's status.
func play(out io.Writer, f *bt.Factory, id string, exactlyOnce bool) error {
	tree, err := f.NewTree(id)
	if err != nil {
		return err
	}
	blows := tree.Blackboard().Entry("blows")
	var events []string
	tree.Subscribe(func(ev bt.StatusChange) {
		switch name := ev.Node.Name(); {
		case (name == "IsDoorOpen" || name == "UseKey") && ev.Status.Completed():
			events = append(events, name+" "+ev.Status.String())
		case name == "Blow" && ev.Status.Completed():
			n, _ := blackboard.Get[int](blows)
			events = append(events, fmt.Sprintf("blow %d", n))
		case name == "RamDoor" && ev.Previous == bt.Running && ev.Status == bt.Idle:
			events = append(events, "RamDoor halted")
		}
	})
	tick := tree.TickOnce
	if exactlyOnce {
		tick = tree.TickExactlyOnce
	}
	for i := 1; i <= 10; i++ {
		events = events[:0]
		s, err := tick()
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "  tick %d: %s => %s\n", i, strings.Join(events, ", "), s)
		if s != bt.Running {
			return nil
		}
	}
	return fmt.Errorf("%s did not complete", id)
}
