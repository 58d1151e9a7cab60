// Package bttest helps you test behavior trees and the nodes you write for them: tick
// tables over scripted nodes, run in every tick mode with and without observers; a
// manual Clock, so that trees with timers run in tests that never sleep; and golden
// traces of every status change. bt's own tests are written with it.
//
// # Tick tables
//
// A Recorder makes leaves that answer the statuses a test scripts ("R R S": Running
// twice, then Success) and logs what happens to them ("A:R", "A:halt"). A Case is a
// tree built from such leaves and the node under test, and the steps it goes through:
// each tick's status, the log, and the status every node holds afterwards, in UID
// order.
//
//	bttest.Run(t, []bttest.Case{{
//		Name: "a running child is halted when the condition fails",
//		Tree: func(r *bttest.Recorder) *bt.Spec {
//			return bt.ReactiveSequence(r.Leaf("Cond", "S F"), r.Leaf("Work", "R"))
//		},
//		Steps: []bttest.Step{
//			bttest.Tick(bt.Running, "Cond:S Work:R", "R S R"),
//			bttest.Tick(bt.Failure, "Cond:F Work:halt", "I I I"),
//		},
//	}})
//
// Run plays each case with TickOnce and with TickExactlyOnce (Case.Only picks one, for
// nodes that yield), and each of those three times: without observers; with an
// Observer that checks that what the tree tells its observers agrees with what it
// stores, so a node cannot take a path when it is watched that it does not take
// otherwise; and saved and restored before every step (PlayRestored), into a tree
// built anew, so a node cannot keep state that a snapshot of its tree leaves out.
// The Recorder's leaves save their places in their scripts (bt.StateSaver); SaveRestore
// does the same for a test's own trees. Play performs steps on a tree a test built
// itself, from a Factory say.
//
// # Time
//
// Clock is a manual clock: give it to the tree with bt.WithClock, tick, move it with
// Advance (Step.After in a table), and tick again.
//
//	clock := bttest.NewClock(time.Unix(0, 0))
//	tree, _ := bt.NewTree(bt.Timeout(time.Second, work), bt.WithClock(clock))
//	tree.TickOnce()               // Running: the timer is set
//	clock.Advance(time.Second)    // the timer fires: it wakes the tree up
//	tree.TickOnce()               // Failure: time is up
//
// Each run of a Case has a Clock of its own. Tree.TickWhileRunning and Tree.Sleep wait
// on the tree's clock, so with a Clock they wait until a test advances it, from another
// goroutine. Tests that run a whole loop are often simpler under testing/synctest, with
// the system clock.
//
// # Golden traces
//
// RunTrace ticks a tree to completion and returns every status change, a line each:
// the node's path and its change ("Sequence::1: IDLE -> RUNNING", `bt run --log`'s
// line without the time and the padding); Golden compares it with a file and
// rewrites the file when the test runs with your -update flag, so that a review shows
// each change a change of code makes.
//
// For fault injection — a node that fails, or succeeds, whatever it would do — set a
// tick function on it (bt.Node.SetPreTick). Flat and Deep build the trees of bt's tick
// benchmarks, for the benchmarks of code that watches ticks.
//
// Package bttest imports package bt; bt never imports it.
package bttest
