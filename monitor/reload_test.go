package monitor

import (
	"slices"
	"testing"
	"testing/synctest"

	"github.com/gobt/bt"
)

// A reload of a watched tree sends its browsers the new snapshot: the new structure,
// and the statuses from the reload on; the ticks after it are frames of it.
func TestReload(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tree, m, feed := waiting(t)
		defer feed.Close()
		b, cancel := connect(m, "t")
		defer cancel()
		synctest.Wait()
		tree.TickOnce()
		synctest.Wait()
		if _, err := tree.ReloadSpec(bt.Sequence(bt.Script("x := 2"), stepper("Wait", bt.Running))); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		ev := b.events(t)
		last := ev[len(ev)-1]
		if last.name != "snapshot" {
			t.Fatalf("after the reload: events %v", ev)
		}
		snap := decode[wireSnapshot](t, last.data)
		if got := snap.Info.Nodes[1].Ports; len(got) != 1 || got[0] != [2]string{"code", "x := 2"} {
			t.Errorf("the new structure: the Script's ports %v", got)
		}
		// The Sequence and Wait kept their state, the changed Script starts afresh.
		if !snap.Synced || len(snap.Frames) != 1 || !slices.Equal(snap.Frames[0].Statuses, []int{1, 0, 1}) {
			t.Errorf("the new snapshot: %+v", snap)
		}
		tree.TickOnce()
		synctest.Wait()
		ev = b.events(t)
		if f := decode[wireFrame](t, ev[len(ev)-1].data); ev[len(ev)-1].name != "tick" || !slices.Equal(apply(snap.Frames[0].Statuses, f), statusesOf(tree)) {
			t.Errorf("the tick after the reload: %v, the tree has %v", ev[len(ev)-1], statusesOf(tree))
		}
	})
}

// waiting returns a tree that sets x and waits, added to a new monitor as "t".
func waiting(t *testing.T) (*bt.Tree, *Monitor, *Feed) {
	t.Helper()
	tree, err := bt.NewTree(bt.Sequence(bt.Script("x := 1"), stepper("Wait", bt.Running)))
	if err != nil {
		t.Fatal(err)
	}
	m := New()
	feed, err := m.Add("t", tree)
	if err != nil {
		t.Fatal(err)
	}
	return tree, m, feed
}
