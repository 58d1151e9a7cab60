package bttest

import (
	"slices"
	"sync"
	"time"

	"github.com/gobt/bt"
)

// Clock is a manual clock for tests: time stands still until Advance moves it, and the
// timers that come due then fire, in the order of their deadlines. It implements
// bt.Clock. The zero value starts at the zero time; a Clock is safe for concurrent use.
type Clock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*timer // pending, in no order
	seq    uint64   // orders timers with the same deadline by when they were set
}

// NewClock returns a clock that reads start.
func NewClock(start time.Time) *Clock { return &Clock{now: start} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc arranges for f to be called once the clock has been advanced by d: Advance
// calls it, in Advance's goroutine (time.AfterFunc would use a goroutine of its own).
// A d of zero or less fires on the next Advance, even Advance(0).
func (c *Clock) AfterFunc(d time.Duration, f func()) bt.Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &timer{c: c, f: f}
	c.schedule(t, d)
	return t
}

// Advance moves the clock d forward and fires the timers whose deadlines it passes, in
// deadline order; while a timer's function runs, Now reads its deadline. A timer set or
// reset by such a function fires in the same Advance if its deadline is due too.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	end := c.now.Add(d)
	for {
		t := c.next()
		if t == nil || t.at.After(end) {
			break
		}
		c.remove(t)
		c.now = t.at
		c.mu.Unlock()
		t.f()
		c.mu.Lock()
	}
	c.now = end
	c.mu.Unlock()
}

// Next returns the deadline of the timer that fires first, if any is pending: a test can
// Advance to it, as in clock.Advance(next.Sub(clock.Now())).
func (c *Clock) Next() (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t := c.next(); t != nil {
		return t.at, true
	}
	return time.Time{}, false
}

// Pending returns the number of timers that have not fired and were not stopped.
func (c *Clock) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.timers)
}

// schedule makes t pending, due d from now. c.mu is held.
func (c *Clock) schedule(t *timer, d time.Duration) {
	c.seq++
	t.at, t.seq = c.now.Add(max(d, 0)), c.seq
	if !slices.Contains(c.timers, t) {
		c.timers = append(c.timers, t)
	}
}

// next returns the pending timer due first, or nil. c.mu is held.
func (c *Clock) next() *timer {
	var first *timer
	for _, t := range c.timers {
		if first == nil || t.at.Before(first.at) || t.at.Equal(first.at) && t.seq < first.seq {
			first = t
		}
	}
	return first
}

// remove makes t no longer pending and reports whether it was. c.mu is held.
func (c *Clock) remove(t *timer) bool {
	i := slices.Index(c.timers, t)
	if i < 0 {
		return false
	}
	c.timers = slices.Delete(c.timers, i, i+1)
	return true
}

// timer is a pending AfterFunc of a Clock.
type timer struct {
	c   *Clock
	f   func()
	at  time.Time
	seq uint64
}

// Stop prevents the timer from firing; it reports whether the timer was pending.
func (t *timer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	return t.c.remove(t)
}

// Reset makes the timer fire d from the clock's now, whether or not it fired or was
// stopped; it reports whether the timer was pending.
func (t *timer) Reset(d time.Duration) bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := slices.Contains(t.c.timers, t)
	t.c.schedule(t, d)
	return was
}
