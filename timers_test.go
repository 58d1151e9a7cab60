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

func TestTimeout(t *testing.T) {
	yes, no := true, false
	ms := time.Millisecond
	bttest.Run(t, []bttest.Case{
		{Name: "child completes in time: its status; the timer stops", Tree: func(r *bttest.Recorder) *Spec {
			return Timeout(100*ms, r.Leaf("A", "R S R"))
		}, Steps: []bttest.Step{
			bttest.Tick(Running, "A:R", "R R"),
			bttest.Tick(Success, "A:S", "I I").After(50 * ms).First(woken(no)),
			bttest.Tick(Running, "A:R", "R R").After(time.Second).First(woken(no)), // the old timer is gone
		}},
		{Name: "child failure", Tree: func(r *bttest.Recorder) *Spec { return Timeout(100*ms, r.Leaf("A", "F")) },
			Steps: []bttest.Step{bttest.Tick(Failure, "A:F", "I I")}},
		{Name: "time up: the next tick halts the child and fails", Tree: func(r *bttest.Recorder) *Spec {
			return Timeout(100*ms, r.Leaf("A", "R"))
		}, Steps: []bttest.Step{
			bttest.Tick(Running, "A:R", "R R"),
			bttest.Tick(Running, "A:R", "R R").After(99 * ms).First(woken(no)),
			bttest.Tick(Failure, "A:halt", "I I").After(ms).First(woken(yes)),
			bttest.Tick(Running, "A:R", "R R"), // a new activation, a new timer
			bttest.Tick(Failure, "A:halt", "I I").After(100 * ms).First(woken(yes)),
		}},
		{Name: "time up wakes TickOnce's caller", Only: bttest.TickOnce, Tree: func(r *bttest.Recorder) *Spec {
			return Timeout(100*ms, r.Leaf("A", "R"))
		}, Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Failure, "A:halt", "I I").After(100 * ms)}},
		{Name: "msec 0: no limit", Tree: func(r *bttest.Recorder) *Spec { return Timeout(0, r.Leaf("A", "R")) },
			Steps: []bttest.Step{bttest.Tick(Running, "A:R", "R R"), bttest.Tick(Running, "A:R", "R R").After(time.Hour).First(woken(no))}},
		{Name: "child skipped: skipped, the timer stops", Tree: func(r *bttest.Recorder) *Spec { return Timeout(100*ms, r.Leaf("A", "K R")) },
			Steps: []bttest.Step{bttest.Tick(Skipped, "A:K", "I I"), bttest.Tick(Running, "A:R", "R R").After(time.Second).First(woken(no))}},
		{Name: "halt stops the timer", Tree: func(r *bttest.Recorder) *Spec { return Timeout(100*ms, r.Leaf("A", "R")) },
			Steps: []bttest.Step{
				bttest.Tick(Running, "A:R", "R R"), bttest.Halt("A:halt", "I I"),
				bttest.Tick(Running, "A:R", "R R").After(time.Second).First(woken(no)),
			}},
	})
	tickError(t, builtin("Timeout").Spec(AlwaysSuccess()), `Timeout needs the port "msec": set it with With("msec", …)`)
}

func TestDelay(t *testing.T) {
	yes, no := true, false
	ms := time.Millisecond
	bttest.Run(t, []bttest.Case{
		{Name: "waits, then ticks the child", Tree: func(r *bttest.Recorder) *Spec { return Delay(100*ms, r.Leaf("A", "R S")) },
			Steps: []bttest.Step{
				bttest.Tick(Running, "", "R I"),
				bttest.Tick(Running, "", "R I").After(50 * ms).First(woken(no)),
				bttest.Tick(Running, "A:R", "R R").After(50 * ms).First(woken(yes)),
				bttest.Tick(Success, "A:S", "I I"),
				bttest.Tick(Running, "", "R I"), // the next activation waits again
			}},
		{Name: "child failure", Tree: func(r *bttest.Recorder) *Spec { return Delay(10*ms, r.Leaf("A", "F")) },
			Steps: []bttest.Step{bttest.Tick(Running, "", "R I"), bttest.Tick(Failure, "A:F", "I I").After(10 * ms).First(woken(yes))}},
		{Name: "child skipped: the next activation waits again", Tree: func(r *bttest.Recorder) *Spec { return Delay(10*ms, r.Leaf("A", "K")) },
			Steps: []bttest.Step{bttest.Tick(Running, "", "R I"), bttest.Tick(Skipped, "A:K", "I I").After(10 * ms).First(woken(yes)), bttest.Tick(Running, "", "R I")}},
		{Name: "delay 0, exactly once: the child on the next tick", Only: bttest.TickExactlyOnce, Tree: func(r *bttest.Recorder) *Spec {
			return Delay(0, r.Leaf("A", "S"))
		}, Steps: []bttest.Step{bttest.Tick(Running, "", "R I"), bttest.Tick(Success, "A:S", "I I")}},
		{Name: "delay 0, TickOnce: the child in the same call", Only: bttest.TickOnce, Tree: func(r *bttest.Recorder) *Spec {
			return Delay(0, r.Leaf("A", "S"))
		}, Steps: []bttest.Step{bttest.Tick(Success, "A:S", "I I")}},
		{Name: "halt stops the timer", Tree: func(r *bttest.Recorder) *Spec { return Delay(100*ms, r.Leaf("A", "R")) },
			Steps: []bttest.Step{
				bttest.Tick(Running, "", "R I"), bttest.Halt("", "I I"),
				bttest.Tick(Running, "", "R I").After(60 * ms).First(woken(no)),
				bttest.Tick(Running, "", "R I").After(60 * ms).First(woken(no)), // the first timer would have rung
				bttest.Tick(Running, "A:R", "R R").After(40 * ms).First(woken(yes)),
				bttest.Halt("A:halt", "I I"),
			}},
	})
}

func TestSleepNode(t *testing.T) {
	yes, no := true, false
	ms := time.Millisecond
	bttest.Run(t, []bttest.Case{
		{Name: "runs until the time is up", Tree: func(*bttest.Recorder) *Spec { return Sleep(100 * ms) },
			Steps: []bttest.Step{
				bttest.Tick(Running, "", "R"),
				bttest.Tick(Running, "", "R").After(99 * ms).First(woken(no)),
				bttest.Tick(Success, "", "I").After(ms).First(woken(yes)),
				bttest.Tick(Running, "", "R"),
			}},
		{Name: "msec 0: success at once", Tree: func(*bttest.Recorder) *Spec { return Sleep(0) },
			Steps: []bttest.Step{bttest.Tick(Success, "", "I")}},
		{Name: "halt stops the timer", Tree: func(*bttest.Recorder) *Spec { return Sleep(100 * ms) },
			Steps: []bttest.Step{bttest.Tick(Running, "", "R"), bttest.Halt("", "I"), bttest.Tick(Running, "", "R").After(70 * ms).First(woken(no)),
				bttest.Tick(Running, "", "R").After(70 * ms).First(woken(no)), bttest.Tick(Success, "", "I").After(30 * ms).First(woken(yes))}},
		{Name: "in a sequence", Tree: func(r *bttest.Recorder) *Spec { return Sequence(Sleep(10*ms), r.Leaf("A", "S")) },
			Steps: []bttest.Step{bttest.Tick(Running, "", "R R I"), bttest.Tick(Success, "A:S", "I I I").After(10 * ms)}},
	})
}

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
