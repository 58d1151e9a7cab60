package bt_test

import (
	"context"
	"sync"
	"sync/atomic"
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

// A timer that rings in its own goroutine reads the clock the alarm took when it was
// set, not the tree, which a reload changes meanwhile: under -race, a ring after a
// reload was a data race on the tree's configuration.
func TestAlarmRingsAfterReload(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		spec := func() *Spec { return Sequence(Sleep(100*time.Millisecond), Script("done := 1")) }
		tree := mustTree(t, spec())
		if s, err := tree.TickOnce(); s != Running || err != nil {
			t.Fatalf("tick: %v, %v", s, err)
		}
		if _, err := tree.ReloadSpec(spec()); err != nil {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond) // the timer rings, in its goroutine
		synctest.Wait()
		if s, err := tree.TickOnce(); s != Success || err != nil {
			t.Fatalf("tick after the ring: %v, %v", s, err)
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

// lateClock is a clock whose timers ring only when the test says: as time.AfterFunc's
// may, a timer's function can run after Stop or Reset, when its goroutine started late.
type lateClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*lateTimer
}

type lateTimer struct {
	c  *lateClock
	at time.Time
	f  func()
	on bool
}

func (c *lateClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *lateClock) AfterFunc(d time.Duration, f func()) Timer {
	tm := &lateTimer{c: c, f: f}
	c.mu.Lock()
	c.timers = append(c.timers, tm)
	c.mu.Unlock()
	tm.Reset(d)
	return tm
}

func (tm *lateTimer) Stop() bool {
	tm.c.mu.Lock()
	defer tm.c.mu.Unlock()
	was := tm.on
	tm.on = false
	return was
}

func (tm *lateTimer) Reset(d time.Duration) bool {
	tm.c.mu.Lock()
	defer tm.c.mu.Unlock()
	was := tm.on
	tm.at, tm.on = tm.c.now.Add(d), true
	return was
}

// advance moves the clock and returns the functions of the timers that came due,
// without calling them.
func (c *lateClock) advance(d time.Duration) (due []func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	for _, tm := range c.timers {
		if tm.on && !tm.at.After(c.now) {
			tm.on = false
			due = append(due, tm.f)
		}
	}
	return due
}

// TestAlarmLateRing: the ring of an earlier activation that runs after the timer was
// reset for the next one does not take the next one's ring: at the new deadline the
// tree is woken.
func TestAlarmLateRing(t *testing.T) {
	clock := &lateClock{now: time.Unix(0, 0)}
	tree := mustTree(t, Delay(100*time.Millisecond, AlwaysSuccess()), WithClock(clock))
	tree.TickOnce()                               // the deadline is at 100 ms
	late := clock.advance(100 * time.Millisecond) // its ring starts, slowly
	tree.Halt()
	tree.TickOnce() // the next activation: the timer reset for 200 ms
	for _, f := range late {
		f() // the first activation's ring runs at last
	}
	tree.TickOnce()
	if n := PendingWakeUps(tree); n != 0 {
		t.Fatalf("%d wake-ups pending before the new deadline", n)
	}
	for _, f := range clock.advance(100 * time.Millisecond) {
		f() // the ring at the new deadline
	}
	if n := PendingWakeUps(tree); n == 0 {
		t.Error("the ring at the Delay's deadline did not wake the tree")
	}
}

// TestSleepLateRing: TickWhileRunning reuses its sleep's timer; the ring of the sleep
// that a wake-up cut short, when it runs after the timer was reset for the next sleep,
// does not end that one early (no tick before the period).
func TestSleepLateRing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clock := &lateClock{now: time.Unix(0, 0)}
		var ticks atomic.Int32
		tree := mustTree(t, Action("A", func() Status { ticks.Add(1); return Running }), WithClock(clock))
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			tree.TickWhileRunning(ctx, 100*time.Millisecond)
		}()
		synctest.Wait()                               // tick 1, then a sleep until 100 ms
		late := clock.advance(100 * time.Millisecond) // its timer's ring starts, slowly
		tree.WakeUp()
		synctest.Wait() // tick 2, then a sleep until 200 ms
		for _, f := range late {
			f() // the first sleep's ring runs at last
		}
		synctest.Wait()
		if n := ticks.Load(); n != 2 {
			t.Errorf("%d ticks at 100 ms, want 2: the late ring ended the second sleep", n)
		}
		for _, f := range clock.advance(100 * time.Millisecond) {
			f()
		}
		synctest.Wait()
		if n := ticks.Load(); n != 3 {
			t.Errorf("%d ticks at 200 ms, want 3", n)
		}
		cancel()
		<-done
	})
}
