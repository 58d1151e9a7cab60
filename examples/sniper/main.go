// Sniper is the ReactiveSequence example of BehaviorTree.CPP's documentation, in a small
// deterministic world: while the enemy is visible the sniper approaches it (an
// asynchronous action running in its own goroutine) and then shoots. The condition is
// re-checked on every tick, so when the enemy hides, the approach is halted.
//
//	ReactiveSequence
//	├── IsEnemyVisible
//	├── ApproachEnemy   (async)
//	└── Shoot
//
// Run it with: go run ./examples/sniper
//
// sniper.xml is the same tree in XML, its world simulated by scripts on the blackboard:
// go run ./cmd/bt run examples/sniper/sniper.xml
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/gobt/bt"
)

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// world is the game: the distance to the enemy and, tick by tick, whether it can be seen.
type world struct {
	out      io.Writer
	distance int
	visible  []bool // by tick; true after the end of the slice
	tick     int
	step     chan struct{} // lets the approach goroutine take one step per tick
}

func (w *world) isEnemyVisible() bool {
	v := w.tick > len(w.visible) || w.visible[w.tick-1]
	fmt.Fprintf(w.out, "  IsEnemyVisible: %v\n", v)
	return v
}

// approach is the asynchronous action: one step towards the enemy each time the world
// lets it, until it is in range. Halting cancels ctx.
func (w *world) approach(ctx context.Context, n *bt.Node) (bt.Status, error) {
	for w.distance > 1 {
		select {
		case <-ctx.Done():
			return bt.Failure, nil
		case <-w.step:
		}
		w.distance--
		fmt.Fprintf(w.out, "  ApproachEnemy: moved, %d m to go\n", w.distance-1)
		if w.distance > 1 {
			n.WakeUp() // a step is done: the world may tick again
		}
	}
	return bt.Success, nil
}

func (w *world) shoot() bt.Status {
	fmt.Fprintln(w.out, "  Shoot: bang!")
	return bt.Success
}

func sniper(w *world) *bt.Spec {
	return bt.ReactiveSequence(
		bt.Condition("IsEnemyVisible", w.isEnemyVisible),
		bt.Async("ApproachEnemy", w.approach),
		bt.Action("Shoot", w.shoot),
	)
}

func run(out io.Writer) error {
	for _, sc := range []struct {
		title   string
		visible []bool
	}{
		{"the enemy stays in sight", nil},
		{"the enemy hides at tick 3", []bool{true, true, false}},
	} {
		fmt.Fprintf(out, "Scenario: %s\n", sc.title)
		w := &world{out: out, distance: 4, visible: sc.visible, step: make(chan struct{})}
		if err := play(w); err != nil {
			return err
		}
	}
	return nil
}

// play ticks the tree until it completes. Between ticks the world advances: the
// approach takes a step, and the loop waits for the tree to be woken up by it.
func play(w *world) error {
	tree, err := bt.NewTree(sniper(w))
	if err != nil {
		return err
	}
	tree.Subscribe(func(ev bt.StatusChange) {
		if ev.Previous == bt.Running && ev.Status == bt.Idle && ev.Node != tree.Root() {
			fmt.Fprintf(w.out, "  %s: halted\n", ev.Node.Name())
		}
	})
	ctx := context.Background()
	for w.tick = 1; ; w.tick++ {
		fmt.Fprintf(w.out, "tick %d\n", w.tick)
		s, err := tree.TickOnce()
		if err != nil {
			return err
		}
		fmt.Fprintf(w.out, "  => %s\n", s)
		if s != bt.Running {
			return nil
		}
		// The world moves on: the approach takes one step and wakes the tree up (a
		// real game would also tick on a timer; here the wake-up is all we wait for).
		w.step <- struct{}{}
		if _, err := tree.Sleep(ctx, time.Hour); err != nil {
			return err
		}
	}
}
