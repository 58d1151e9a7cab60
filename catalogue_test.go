package bt_test

import (
	"io"
	"log/slog"
	"slices"
	"testing"
	"time"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

// TestCatalogueTree runs testdata/catalogue.xml, a tree that uses every builtin node,
// and checks the trace each node leaves in the blackboard.
func TestCatalogueTree(t *testing.T) {
	f := NewFactory()
	if err := f.LoadFile("testdata/catalogue.xml"); err != nil {
		t.Fatal(err)
	}
	clock := bttest.NewClock(epoch)
	tree, err := f.NewTree("", WithClock(clock), WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	if err != nil {
		t.Fatal(err)
	}

	used := map[string]bool{}
	for n := range tree.Nodes() {
		used[n.ID()] = true
	}
	for _, m := range f.Models() {
		if !used[m.ID] {
			t.Errorf("testdata/catalogue.xml does not use %s", m.ID)
		}
	}

	var s Status
	ticks := 0
	for ticks < 100 {
		ticks++
		if s, err = tree.TickOnce(); err != nil || s != Running {
			break
		}
		clock.Advance(50 * time.Millisecond)
	}
	if err != nil || s != Success {
		t.Fatalf("tick %d: %v, %v", ticks, s, err)
	}
	bb := tree.Blackboard()
	for key, want := range map[string]string{
		"trace": "async;then;else;delay;", "n": "7", "isum": "3", "dsum": "0.5", "cat": "xy",
		"once": "1", "pre": "1", "skip_ran": "1", "wait_ran": "1", "loops": "4", "timed": "1",
		"par": "1", "mocked": "1",
	} {
		bttest.EntryIs(key, want)(t, tree)
	}
	keys := bb.Keys()
	if !slices.Contains(keys, "i") || !slices.Contains(keys, "b") {
		t.Errorf("the Loop nodes' values are missing: %v", keys)
	}
}
