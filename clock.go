package bt

import "time"

// Clock is the source of time of a tree: time-based nodes (Timeout, Delay, Sleep, …),
// TickWhileRunning's period and observer timestamps all read it. The default is the
// system clock; tests inject their own (or run under testing/synctest).
type Clock interface {
	// Now returns the time. A timer's function (AfterFunc) calls it too, from its own
	// goroutine.
	Now() time.Time
	// AfterFunc calls f in its own goroutine once d has elapsed, like time.AfterFunc.
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a pending AfterFunc call. *time.Timer implements it.
type Timer interface {
	Stop() bool
	Reset(d time.Duration) bool
}

// SystemClock returns the clock of package time.
func SystemClock() Clock { return systemClock{} }

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

func (systemClock) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }
