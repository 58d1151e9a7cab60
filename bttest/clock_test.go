package bttest

import (
	"strings"
	"sync"
	"testing"
	"time"
)

func TestClockFiresInDeadlineOrder(t *testing.T) {
	c := NewClock(epoch)
	var log []string
	at := func(name string) func() {
		return func() { log = append(log, name+"@"+c.Now().Sub(epoch).String()) }
	}
	c.AfterFunc(30*time.Millisecond, at("c"))
	c.AfterFunc(10*time.Millisecond, at("a"))
	c.AfterFunc(10*time.Millisecond, at("b")) // same deadline: in the order set
	stopped := c.AfterFunc(20*time.Millisecond, at("stopped"))
	if !stopped.Stop() || stopped.Stop() {
		t.Error("Stop: want true, then false")
	}
	c.Advance(25 * time.Millisecond)
	if got := strings.Join(log, " "); got != "a@10ms b@10ms" {
		t.Errorf("after 25ms: %s", got)
	}
	if now := c.Now().Sub(epoch); now != 25*time.Millisecond {
		t.Errorf("now %v", now)
	}
	if next, ok := c.Next(); !ok || next.Sub(epoch) != 30*time.Millisecond || c.Pending() != 1 {
		t.Errorf("next %v %v, pending %d", next, ok, c.Pending())
	}
	c.Advance(5 * time.Millisecond)
	if got := strings.Join(log, " "); got != "a@10ms b@10ms c@30ms" {
		t.Errorf("after 30ms: %s", got)
	}
	if _, ok := c.Next(); ok || c.Pending() != 0 {
		t.Error("a timer is still pending")
	}
}

func TestClockReset(t *testing.T) {
	c := NewClock(epoch)
	fired := 0
	tm := c.AfterFunc(time.Second, func() { fired++ })
	c.Advance(500 * time.Millisecond)
	if !tm.Reset(time.Second) { // now due at 1.5s
		t.Error("Reset of a pending timer: want true")
	}
	c.Advance(999 * time.Millisecond)
	if fired != 0 {
		t.Fatal("fired before its new deadline")
	}
	c.Advance(time.Millisecond)
	if fired != 1 || tm.Reset(0) {
		t.Fatalf("fired %d times; Reset of a fired timer must report false", fired)
	}
	c.Advance(0) // a deadline of now is due
	if fired != 2 {
		t.Errorf("fired %d times, want 2", fired)
	}
}

// TestClockChainsTimers: a timer set by a firing timer fires in the same Advance when
// it is due.
func TestClockChainsTimers(t *testing.T) {
	c := NewClock(epoch)
	var at []time.Duration
	var tick func()
	tick = func() {
		at = append(at, c.Now().Sub(epoch))
		if len(at) < 3 {
			c.AfterFunc(10*time.Millisecond, tick)
		}
	}
	c.AfterFunc(10*time.Millisecond, tick)
	c.Advance(time.Second)
	if len(at) != 3 || at[2] != 30*time.Millisecond {
		t.Errorf("fired at %v", at)
	}
}

func TestClockIsSafeForConcurrentUse(t *testing.T) {
	c := NewClock(epoch)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				c.AfterFunc(time.Millisecond, func() {}).Reset(2 * time.Millisecond)
				c.Now()
			}
		}()
	}
	for range 100 {
		c.Advance(time.Millisecond)
	}
	wg.Wait()
	c.Advance(time.Second)
	if c.Pending() != 0 {
		t.Errorf("%d timers left", c.Pending())
	}
}
