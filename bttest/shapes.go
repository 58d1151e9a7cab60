package bttest

import "github.com/gobt/bt"

// The trees of bt's tick benchmarks (bench_test.go at the repository's root), for the
// benchmarks of code that watches ticks: a logger, a publisher.

// Flat returns a Sequence of n AlwaysSuccess leaves, which succeeds.
func Flat(n int) *bt.Spec {
	kids := make([]*bt.Spec, n)
	for i := range kids {
		kids[i] = bt.AlwaysSuccess()
	}
	return bt.Sequence(kids...)
}

// Deep returns a balanced binary tree of the given depth, alternating Sequence (at the
// root) and Fallback, whose leaves are chosen so that every node is visited on every
// tick; it succeeds.
func Deep(depth int) *bt.Spec { return deep(depth, true, bt.Success) }

// deep returns a subtree whose result is want: a Sequence goes on past a child only
// if it succeeds, a Fallback only if it fails, and a binary node returns its right
// child's result.
func deep(depth int, sequence bool, want bt.Status) *bt.Spec {
	if depth == 0 {
		if want == bt.Success {
			return bt.AlwaysSuccess()
		}
		return bt.AlwaysFailure()
	}
	pass, mk := bt.Failure, bt.Fallback
	if sequence {
		pass, mk = bt.Success, bt.Sequence
	}
	return mk(deep(depth-1, !sequence, pass), deep(depth-1, !sequence, want))
}
