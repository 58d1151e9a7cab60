package bt

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gobt/bt/blackboard"
)

func TestTimeout(t *testing.T) {
	yes, no := true, false
	ms := time.Millisecond
	runDecCases(t, []decCase{
		{name: "child completes in time: its status; the timer stops", tree: func(r *recorder) *Spec {
			return Timeout(100*ms, r.leaf("A", "R S R"))
		}, steps: []tstep{
			tick(Running, "A:R", "R R"),
			tick(Success, "A:S", "I I").after(50 * ms).wokenFirst(no),
			tick(Running, "A:R", "R R").after(time.Second).wokenFirst(no), // the old timer is gone
		}},
		{name: "child failure", tree: func(r *recorder) *Spec { return Timeout(100*ms, r.leaf("A", "F")) },
			steps: []tstep{tick(Failure, "A:F", "I I")}},
		{name: "time up: the next tick halts the child and fails", tree: func(r *recorder) *Spec {
			return Timeout(100*ms, r.leaf("A", "R"))
		}, steps: []tstep{
			tick(Running, "A:R", "R R"),
			tick(Running, "A:R", "R R").after(99 * ms).wokenFirst(no),
			tick(Failure, "A:halt", "I I").after(ms).wokenFirst(yes),
			tick(Running, "A:R", "R R"), // a new activation, a new timer
			tick(Failure, "A:halt", "I I").after(100 * ms).wokenFirst(yes),
		}},
		{name: "time up wakes TickOnce's caller", mode: onlyOnce, tree: func(r *recorder) *Spec {
			return Timeout(100*ms, r.leaf("A", "R"))
		}, steps: []tstep{tick(Running, "A:R", "R R"), tick(Failure, "A:halt", "I I").after(100 * ms)}},
		{name: "msec 0: no limit", tree: func(r *recorder) *Spec { return Timeout(0, r.leaf("A", "R")) },
			steps: []tstep{tick(Running, "A:R", "R R"), tick(Running, "A:R", "R R").after(time.Hour).wokenFirst(no)}},
		{name: "child skipped: skipped, the timer stops", tree: func(r *recorder) *Spec { return Timeout(100*ms, r.leaf("A", "K R")) },
			steps: []tstep{tick(Skipped, "A:K", "I I"), tick(Running, "A:R", "R R").after(time.Second).wokenFirst(no)}},
		{name: "halt stops the timer", tree: func(r *recorder) *Spec { return Timeout(100*ms, r.leaf("A", "R")) },
			steps: []tstep{
				tick(Running, "A:R", "R R"), halt("A:halt", "I I"),
				tick(Running, "A:R", "R R").after(time.Second).wokenFirst(no),
			}},
	})
	tickError(t, timeoutModel.Spec(AlwaysSuccess()), `Timeout needs the port "msec": set it with With("msec", …)`)
}

func TestDelay(t *testing.T) {
	yes, no := true, false
	ms := time.Millisecond
	runDecCases(t, []decCase{
		{name: "waits, then ticks the child", tree: func(r *recorder) *Spec { return Delay(100*ms, r.leaf("A", "R S")) },
			steps: []tstep{
				tick(Running, "", "R I"),
				tick(Running, "", "R I").after(50 * ms).wokenFirst(no),
				tick(Running, "A:R", "R R").after(50 * ms).wokenFirst(yes),
				tick(Success, "A:S", "I I"),
				tick(Running, "", "R I"), // the next activation waits again
			}},
		{name: "child failure", tree: func(r *recorder) *Spec { return Delay(10*ms, r.leaf("A", "F")) },
			steps: []tstep{tick(Running, "", "R I"), tick(Failure, "A:F", "I I").after(10 * ms).wokenFirst(yes)}},
		{name: "child skipped: the next activation waits again", tree: func(r *recorder) *Spec { return Delay(10*ms, r.leaf("A", "K")) },
			steps: []tstep{tick(Running, "", "R I"), tick(Skipped, "A:K", "I I").after(10 * ms).wokenFirst(yes), tick(Running, "", "R I")}},
		{name: "delay 0, exactly once: the child on the next tick", mode: onlyExactly, tree: func(r *recorder) *Spec {
			return Delay(0, r.leaf("A", "S"))
		}, steps: []tstep{tick(Running, "", "R I"), tick(Success, "A:S", "I I")}},
		{name: "delay 0, TickOnce: the child in the same call", mode: onlyOnce, tree: func(r *recorder) *Spec {
			return Delay(0, r.leaf("A", "S"))
		}, steps: []tstep{tick(Success, "A:S", "I I")}},
		{name: "halt stops the timer", tree: func(r *recorder) *Spec { return Delay(100*ms, r.leaf("A", "R")) },
			steps: []tstep{
				tick(Running, "", "R I"), halt("", "I I"),
				tick(Running, "", "R I").after(60 * ms).wokenFirst(no),
				tick(Running, "", "R I").after(60 * ms).wokenFirst(no), // the first timer would have rung
				tick(Running, "A:R", "R R").after(40 * ms).wokenFirst(yes),
				halt("A:halt", "I I"),
			}},
	})
}

func TestSleepNode(t *testing.T) {
	yes, no := true, false
	ms := time.Millisecond
	runDecCases(t, []decCase{
		{name: "runs until the time is up", tree: func(*recorder) *Spec { return Sleep(100 * ms) },
			steps: []tstep{
				tick(Running, "", "R"),
				tick(Running, "", "R").after(99 * ms).wokenFirst(no),
				tick(Success, "", "I").after(ms).wokenFirst(yes),
				tick(Running, "", "R"),
			}},
		{name: "msec 0: success at once", tree: func(*recorder) *Spec { return Sleep(0) },
			steps: []tstep{tick(Success, "", "I")}},
		{name: "halt stops the timer", tree: func(*recorder) *Spec { return Sleep(100 * ms) },
			steps: []tstep{tick(Running, "", "R"), halt("", "I"), tick(Running, "", "R").after(70 * ms).wokenFirst(no),
				tick(Running, "", "R").after(70 * ms).wokenFirst(no), tick(Success, "", "I").after(30 * ms).wokenFirst(yes)}},
		{name: "in a sequence", tree: func(r *recorder) *Spec { return Sequence(Sleep(10*ms), r.leaf("A", "S")) },
			steps: []tstep{tick(Running, "", "R R I"), tick(Success, "A:S", "I I I").after(10 * ms)}},
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
		if tree.woken() {
			t.Error("a halted node's timer woke the tree")
		}
	})
}

func TestTimerTicksDoNotAllocate(t *testing.T) {
	clock := &fakeClock{now: epoch}
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
