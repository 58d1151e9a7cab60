package btlog

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gobt/bt"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with the file testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		i := 0
		for i < min(len(got), len(want)) && got[i] == want[i] {
			i++
		}
		t.Errorf("%s differs from what the test made from byte %d on (go test -update rewrites it):\n--- got\n%q\n--- want\n%q",
			path, i, got[i:min(len(got), i+200)], want[i:min(len(want), i+200)])
	}
}

// moveTo is the async action of testdata/mission.xml: it takes 30 ms.
var moveTo = bt.NewAsync("MoveTo", func(ctx context.Context, n *bt.Node) (bt.Status, error) {
	select {
	case <-time.After(30 * time.Millisecond):
		return bt.Success, nil
	case <-ctx.Done():
		return bt.Failure, ctx.Err()
	}
}, bt.InputPort[string]("goal", "where to go"))

// mission builds the tree of testdata/mission.xml. Under testing/synctest its clock,
// the system's, starts at 2000-01-01 00:00:00 UTC and its timers are exact.
func mission(t testing.TB) *bt.Tree {
	t.Helper()
	f := bt.NewFactory()
	if err := f.Register(moveTo); err != nil {
		t.Fatal(err)
	}
	if err := f.LoadFile("testdata/mission.xml"); err != nil {
		t.Fatal(err)
	}
	tree, err := f.NewTree("")
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// period is the time between ticks in the golden runs: 7 ms, so that no tick falls on
// the instant a node's timer (a multiple of 10 ms after a tick) fires, where the order
// of the two would be up to the scheduler.
const period = 7 * time.Millisecond

// run ticks tree until it completes, every period.
func run(t testing.TB, tree *bt.Tree) {
	t.Helper()
	s, err := tree.TickWhileRunning(context.Background(), period)
	if err != nil || s != bt.Success {
		t.Fatalf("the tree ended with %s, %v", s, err)
	}
}

// closeAll closes loggers, failing the test on an error.
func closeAll(t testing.TB, loggers ...Logger) {
	t.Helper()
	for _, l := range loggers {
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
