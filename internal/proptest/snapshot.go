package proptest

import (
	"bytes"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"testing"
	"testing/synctest"

	"github.com/gobt/bt"
)

// CheckSnapshot checks save and restore on the tree of seed. In each mode (without
// and with an observer) it drives the tree twice, in a synctest bubble each: straight
// through, and saved and restored between every two steps — each snapshot encoded
// as JSON or in binary, read back, and restored into a tree built anew from the same
// definition, in a new world of leaves, which takes the next step. Both runs must go
// the same way, step by step: the results, every node's status, the calls of the
// leaves, the blackboard and, observed, every status change with its time. So each
// step taken after a restore is one more run of "N steps, snapshot, restore, M
// more steps" against the uninterrupted run of N+M steps. The scripted leaves save
// their positions in their scripts through bt.StateSaver, so that a state the
// snapshot left out shows as a difference.
//
// It also checks that a snapshot of the restored tree encodes exactly as the one it
// was restored from, and that the nodes it says restart are the async actions whose
// work was running.
func CheckSnapshot(t *testing.T, seed uint64) {
	t.Helper()
	for _, observed := range []bool{false, true} {
		var runs [2][]string
		for i, split := range []bool{false, true} {
			synctest.Test(t, func(t *testing.T) {
				t.Helper()
				runs[i] = driveSplit(t, seed, observed, split)
			})
			if t.Failed() {
				return
			}
		}
		if i := firstDifference(runs[0], runs[1]); i >= 0 {
			line := func(run []string) string {
				if i < len(run) {
					return run[i]
				}
				return "(none)"
			}
			t.Fatalf("seed %d (observed: %v): the run restored from a snapshot before each step differs at step %d:\nstraight: %s\nrestored: %s\n%s",
				seed, observed, i, line(runs[0]), line(runs[1]), Describe(seed))
		}
	}
}

func firstDifference(a, b []string) int {
	for i := range max(len(a), len(b)) {
		if i >= len(a) || i >= len(b) || a[i] != b[i] {
			return i
		}
	}
	return -1
}

// driveSplit is drive, recording the status changes, with the tree saved and
// restored into a new one before each step and after the last when split is true.
func driveSplit(t *testing.T, seed uint64, observed, split bool) []string {
	r := rand.New(rand.NewPCG(seed, seed^pcgStream))
	d := newDriver(t, seed, r)
	if d == nil {
		return nil
	}
	d.record = observed
	if observed {
		d.watch()
	}
	for i := range 15 + r.IntN(30) {
		switch {
		case split:
			d.restore(seed, observed, i)
		case observed:
			// A restored tree's observer starts afresh (a snapshot holds no observers,
			// nor what they were shown: a node that returned Skipped and that they still
			// see Running), so the straight run's does too, for the runs to compare.
			d.rewatch()
		}
		d.step(i, r)
	}
	switch {
	case split:
		d.restore(seed, observed, -1)
	case observed:
		d.rewatch()
	}
	d.finish(observed)
	return d.trace
}

// restore saves the tree, halts it, and goes on with a tree of the same definition
// restored from the snapshot, in a world of its own.
func (d *driver) restore(seed uint64, observed bool, step int) {
	d.t.Helper()
	if d.failed {
		return
	}
	old := d.tree
	snap, err := old.Snapshot()
	if err != nil {
		d.fail("Snapshot before step %d: %v", step, err)
		return
	}
	data, again := encode(snap, (seed+uint64(step))%2 == 1)
	saved, err := bt.ReadSnapshot(data)
	if err != nil {
		d.fail("ReadSnapshot before step %d: %v\n%s", step, err, again)
		return
	}
	var wantRestarts []string // the async actions whose work runs
	for n := range old.Nodes() {
		if l, ok := d.w.asyncs[n.Name()]; ok && l.running() > 0 {
			wantRestarts = append(wantRestarts, n.Path())
		}
	}
	if got := saved.Restarts(); !slices.Equal(got, wantRestarts) {
		d.fail("before step %d: the snapshot says %v restart, want %v", step, got, wantRestarts)
	}

	// The old tree is done with: its observer hears no more, its work stops.
	if d.unwatch != nil {
		d.unwatch()
		d.unwatch = nil
	}
	old.Halt()
	synctest.Wait()

	w := newWorld()
	spec := newGen(rand.New(rand.NewPCG(seed, seed^pcgStream)), w, seed).tree()
	tree, err := bt.NewTree(spec, bt.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		d.fail("the tree does not build again: %v", err)
		return
	}
	if err := tree.Restore(saved); err != nil {
		d.fail("Restore before step %d: %v\n%s", step, err, again)
		return
	}
	synctest.Wait() // the restarted work reaches where the snapshot's was
	d.tree, d.w, d.restored = tree, w, true
	d.findNodes()
	if observed {
		d.watch()
	}

	resaved, err := tree.Snapshot()
	if err != nil {
		d.fail("Snapshot of the restored tree: %v", err)
		return
	}
	if data2, _ := encode(resaved, false); !bytes.Equal(data2, again) {
		d.fail("before step %d: a snapshot of the restored tree differs from the one it was restored from:\n%s\n%s", step, again, data2)
	}
}

// encode encodes a snapshot, in binary or as JSON; it returns the JSON too, to compare.
func encode(s *bt.Snapshot, binary bool) (data, js []byte) {
	js, err := s.MarshalJSON()
	if err != nil {
		panic(fmt.Sprintf("MarshalJSON: %v", err))
	}
	if !binary {
		return js, js
	}
	data, err = s.MarshalBinary()
	if err != nil {
		panic(fmt.Sprintf("MarshalBinary: %v", err))
	}
	return data, js
}
