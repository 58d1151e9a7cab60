package bt_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
	"github.com/gobt/bt/bttest"
)

// TestTimersOnTheSystemClock runs the time-based nodes with the real clock inside a
// synctest bubble: TickWhileRunning sleeps until a timer wakes the tree, and the
// bubble checks that no timer goroutine is left behind.
func TestTimersOnTheSystemClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tree, err := NewTree(Sequence(
			Sleep(300*time.Millisecond),
			Delay(200*time.Millisecond, Script("delayed := 1")),
			Inverter(Timeout(100*time.Millisecond, Sleep(time.Hour))),
			Time(50*time.Millisecond, Script("n := n + 1")),
		))
		if err != nil {
			t.Fatal(err)
		}
		if err := tree.Blackboard().Entry("n").Assign(blackboard.Int(0)); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		s, err := tree.TickWhileRunning(context.Background(), time.Hour)
		if err != nil || s != Success {
			t.Fatalf("got %v, %v", s, err)
		}
		// Woken by each timer, so the tree never waits for the hour-long period.
		if took := time.Since(start); took != 650*time.Millisecond {
			t.Errorf("took %v, want 650ms", took)
		}
		if n := tree.Blackboard().Entry("n").Load().Int(); n != 2 {
			t.Errorf("Time ticked its child %d times, want 2 (at 600ms and 650ms)", n)
		}
	})
}

func TestHaltCancelsTimersOnTheSystemClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tree, err := NewTree(Parallel(-1, 1, Sleep(time.Second), Delay(time.Second, AlwaysSuccess()),
			Timeout(time.Second, AlwaysRunning()), Time(time.Second, AlwaysRunning()),
			TestNode(TestNodeConfig{AsyncDelay: time.Second})))
		if err != nil {
			t.Fatal(err)
		}
		if s, err := tree.TickOnce(); s != Running || err != nil {
			t.Fatal(s, err)
		}
		if err := tree.Halt(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Second)
		synctest.Wait()
		if TakeWakeUp(tree) {
			t.Error("a halted node's timer woke the tree")
		}
	})
}

func TestTimerTicksDoNotAllocate(t *testing.T) {
	clock := bttest.NewClock(epoch)
	tree, err := NewTree(Parallel(-1, 1, Sleep(time.Hour), Timeout(time.Hour, AlwaysRunning()),
		Delay(time.Hour, AlwaysSuccess()), Time(time.Hour, AlwaysRunning()),
		TestNode(TestNodeConfig{AsyncDelay: time.Hour})), WithClock(clock))
	if err != nil {
		t.Fatal(err)
	}
	tree.TickOnce()
	if n := testing.AllocsPerRun(100, func() { tree.TickOnce() }); n != 0 {
		t.Errorf("%v allocations per tick", n)
	}
}
