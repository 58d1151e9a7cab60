// Package bttest helps you test your behavior trees: a manual Clock, so that trees with
// timers (Timeout, Delay, Sleep, TestNode delays, your own) run in tests that never
// sleep and always take the same path.
//
// Give the clock to the tree with bt.WithClock, tick, move the clock with Advance, and
// tick again:
//
//	clock := bttest.NewClock(time.Unix(0, 0))
//	tree, _ := bt.NewTree(bt.Timeout(time.Second, work), bt.WithClock(clock))
//	tree.TickOnce()               // Running: the timer is set
//	clock.Advance(time.Second)    // the timer fires: it wakes the tree up
//	tree.TickOnce()               // Failure: time is up
//
// Tree.TickWhileRunning and Tree.Sleep wait on the tree's clock, so with a Clock they
// wait until a test advances it, from another goroutine. Tests that run a whole loop
// are often simpler under testing/synctest, with the system clock.
//
// For fault injection — a node that fails, or succeeds, whatever it would do — set a
// tick function on it (bt.Node.SetPreTick). Flat and Deep build the trees of bt's tick
// benchmarks, for the benchmarks of code that watches ticks.
//
// Package bttest imports package bt; bt never imports it.
package bttest
