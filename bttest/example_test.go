package bttest_test

import (
	"fmt"
	"time"

	"github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

// A Delay tested without sleeping: the clock moves only when the test says so.
func ExampleClock() {
	clock := bttest.NewClock(time.Unix(0, 0))
	beeps := 0
	tree, err := bt.NewTree(
		bt.Delay(500*time.Millisecond, bt.Action("Beep", func() bt.Status { beeps++; return bt.Success })),
		bt.WithClock(clock),
	)
	if err != nil {
		panic(err)
	}
	s, _ := tree.TickOnce()
	next, _ := clock.Next()
	fmt.Println(s, beeps, "timer due in", next.Sub(clock.Now()))
	clock.Advance(next.Sub(clock.Now()))
	s, _ = tree.TickOnce()
	fmt.Println(s, beeps)
	// Output:
	// RUNNING 0 timer due in 500ms
	// SUCCESS 1
}

// Scripted leaves log what happens to them, and States shows what every node holds.
func ExampleRecorder() {
	r := &bttest.Recorder{}
	tree, err := bt.NewTree(bt.ReactiveSequence(r.Leaf("Visible", "S S F"), r.Leaf("Approach", "R")))
	if err != nil {
		panic(err)
	}
	for range 3 {
		s, _ := tree.TickOnce()
		fmt.Printf("%v [%s] %s\n", s, r.Take(), bttest.States(tree))
	}
	// Output:
	// RUNNING [Visible:S Approach:R] R I R
	// RUNNING [Visible:S Approach:R] R I R
	// FAILURE [Visible:F Approach:halt] I I I
}
