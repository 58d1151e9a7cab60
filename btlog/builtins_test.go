package btlog

import (
	"bytes"
	"fmt"
	"log/slog"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gobt/bt"
)

// TestEveryBuiltinStream is the golden stream of status changes of the tree that runs
// every builtin node (the engine's testdata/catalogue.xml, which TestCatalogueTree
// keeps complete), as the Console prints it, with a line per tick: the order of the
// changes, which every logger reports, is the engine's. The golden file records
// today's engine; a change to the order of status changes (such as when decorators
// store their status) must regenerate it (go test -update) and review the difference.
func TestEveryBuiltinStream(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := bt.NewFactory()
		if err := f.LoadFile("../testdata/catalogue.xml"); err != nil {
			t.Fatal(err)
		}
		tree, err := f.NewTree("", bt.WithLogger(slog.New(slog.DiscardHandler)))
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		console, err := NewConsole(tree, &out, &ConsoleOptions{Paths: true})
		if err != nil {
			t.Fatal(err)
		}
		s := bt.Running
		for i := 1; s == bt.Running && i <= 1000; i++ {
			if s, err = tree.TickOnce(); err != nil {
				t.Fatal(err)
			}
			if err := console.Flush(); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&out, "tick %d %s\n", i, s)
			time.Sleep(period) // the bubble's time
		}
		closeAll(t, console)
		if s != bt.Success {
			t.Errorf("the tree ended with %s", s)
		}
		golden(t, "builtins.golden", out.Bytes())
		if !bytes.Contains(out.Bytes(), []byte("\ntick 1 RUNNING\n")) {
			t.Errorf("the first tick did not return RUNNING")
		}
	})
}
