package proptest

import (
	"os"
	"strconv"
	"testing"
)

// TestRandomTrees checks the invariants on BT_PROPTEST_TREES random trees (default
// 300), of the seeds from BT_PROPTEST_SEED on (default 1).
func TestRandomTrees(t *testing.T) {
	trees, seed := envInt(t, "BT_PROPTEST_TREES", 300), envInt(t, "BT_PROPTEST_SEED", 1)
	used := map[string]bool{}
	for i := range trees {
		s := uint64(seed + i)
		Check(t, s)
		if t.Failed() {
			t.Fatalf("seed %d failed; reproduce with BT_PROPTEST_SEED=%d BT_PROPTEST_TREES=1", s, s)
		}
		for id := range usedBy(s) {
			used[id] = true
		}
	}
	if trees >= 100 {
		for _, id := range builtinIDs() {
			if !used[id] {
				t.Errorf("no tree used %s", id)
			}
		}
	}
}

// TestSnapshot checks save and restore (CheckSnapshot) on BT_PROPTEST_TREES random
// trees (default 300), of the seeds from BT_PROPTEST_SEED on (default 1).
func TestSnapshot(t *testing.T) { checkSeeds(t, CheckSnapshot, "TestSnapshot") }

// checkSeeds runs check on BT_PROPTEST_TREES seeds from BT_PROPTEST_SEED on, and says
// how to reproduce the first that fails with the test called name.
func checkSeeds(t *testing.T, check func(*testing.T, uint64), name string) {
	trees, seed := envInt(t, "BT_PROPTEST_TREES", 300), envInt(t, "BT_PROPTEST_SEED", 1)
	for i := range trees {
		s := uint64(seed + i)
		check(t, s)
		if t.Failed() {
			t.Fatalf("seed %d failed; reproduce with BT_PROPTEST_SEED=%d BT_PROPTEST_TREES=1 go test -run %s", s, s, name)
		}
	}
}

// FuzzSnapshot searches for seeds whose tree does not go on as it should after a
// snapshot and a restore.
func FuzzSnapshot(f *testing.F) {
	for s := range uint64(8) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, seed uint64) { CheckSnapshot(t, seed) })
}

// FuzzRandomTrees searches for seeds whose tree breaks an invariant.
func FuzzRandomTrees(f *testing.F) {
	for s := range uint64(8) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, seed uint64) { Check(t, seed) })
}

func envInt(t *testing.T, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		t.Fatalf("%s=%q: want a number", name, v)
	}
	return n
}

// TestReload checks Tree.Reload (CheckReload) on BT_PROPTEST_TREES random trees
// (default 300), of the seeds from BT_PROPTEST_SEED on (default 1).
func TestReload(t *testing.T) { checkSeeds(t, CheckReload, "TestReload") }

// FuzzReload searches for seeds whose tree does not reload as the rule says.
func FuzzReload(f *testing.F) {
	for s := range uint64(8) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, seed uint64) { CheckReload(t, seed) })
}

// TestReloadFound replays the seeds that found defects of Reload. 3465: the goroutine
// of an async action kept with its work under way asked for its wake-up by the UID of
// its old node, beyond the claims made for the smaller new tree.
func TestReloadFound(t *testing.T) {
	for _, seed := range []uint64{3465} {
		CheckReload(t, seed)
	}
}
