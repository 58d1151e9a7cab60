package bt_test

import (
	"testing"

	. "github.com/gobt/bt"
)

// The cost of a subscriber of SubscribeBatchWhen on the flat tree: one that never
// hears (the tick of an unobserved tree, through tickFull, and the call of hear), and
// one whose answer changes at every tick, so that each tick switches the tree between
// recording and not (Tree.markObserved's walk of the status bytes; bench/instructions
// can count it alone).

func BenchmarkFlatWatchedDeaf(b *testing.B) {
	tree := mustTree(b, flatSpec())
	b.Cleanup(tree.SubscribeBatchWhen(func(Batch) {}, func() bool { return false }))
	benchTree(b, tree)
}

func BenchmarkFlatWatchedSwitching(b *testing.B) {
	tree := mustTree(b, flatSpec())
	hear := false
	b.Cleanup(tree.SubscribeBatchWhen(func(Batch) {}, func() bool { hear = !hear; return hear }))
	benchTree(b, tree)
}
