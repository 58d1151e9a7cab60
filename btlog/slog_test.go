package btlog

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"testing"
	"testing/synctest"

	"github.com/gobt/bt"
)

// utc makes a text handler write times in UTC, so that the golden file does not depend
// on the machine's time zone.
func utc(_ []string, a slog.Attr) slog.Attr {
	if a.Key == slog.TimeKey {
		a.Value = slog.TimeValue(a.Value.Time().UTC())
	}
	return a
}

func TestSlogGolden(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tree := mission(t)
		var out bytes.Buffer
		l, err := NewSlog(tree, slog.New(slog.NewTextHandler(&out, &slog.HandlerOptions{ReplaceAttr: utc})), nil)
		if err != nil {
			t.Fatal(err)
		}
		run(t, tree)
		closeAll(t, l)
		golden(t, "mission.slog", out.Bytes())
	})
}

// TestSlogLevelAndFilter: the records have the level asked for, and a handler that
// does not take it gets none; the filter chooses by node and status.
func TestSlogLevelAndFilter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tree := mission(t)
		var warn, debug bytes.Buffer
		failures, err := NewSlog(tree, slog.New(slog.NewTextHandler(&warn, &slog.HandlerOptions{ReplaceAttr: utc})), &SlogOptions{
			Level:  slog.LevelWarn,
			Filter: func(n *NodeInfo, _, s bt.Status) bool { return s == bt.Failure || n.Name == "move" && s == bt.Success },
		})
		if err != nil {
			t.Fatal(err)
		}
		quiet, err := NewSlog(tree, slog.New(slog.NewTextHandler(&debug, nil)), &SlogOptions{Level: slog.LevelDebug})
		if err != nil {
			t.Fatal(err)
		}
		run(t, tree)
		closeAll(t, failures, quiet)
		want := `time=2000-01-01T00:00:00.030Z level=WARN msg="status change" node=move uid=4 prev=RUNNING status=SUCCESS
time=2000-01-01T00:00:00.040Z level=WARN msg="status change" node=Inverter::13 uid=13 prev=RUNNING status=FAILURE
time=2000-01-01T00:00:00.040Z level=WARN msg="status change" node=ScriptCondition::16 uid=16 prev=IDLE status=FAILURE
`
		if warn.String() != want {
			t.Errorf("got\n%s\nwant\n%s", warn.String(), want)
		}
		if debug.Len() != 0 {
			t.Errorf("a handler at INFO got debug records:\n%s", debug.String())
		}
	})
}

// failingHandler takes every record and fails it.
type failingHandler struct{ slog.Handler }

func (failingHandler) Enabled(context.Context, slog.Level) bool { return true }

func (failingHandler) Handle(context.Context, slog.Record) error { return errors.New("disk full") }

func TestSlogErrors(t *testing.T) {
	tree, err := bt.NewTree(bt.AlwaysSuccess())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewSlog(tree, nil, nil); err == nil || err.Error() != "btlog: nil *slog.Logger" {
		t.Errorf("nil logger: %v", err)
	}
	if _, err := NewSlog(nil, slog.Default(), nil); err == nil || err.Error() != "btlog: nil tree" {
		t.Errorf("nil tree: %v", err)
	}
	l, err := NewSlog(tree, slog.New(failingHandler{slog.DiscardHandler}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tree.TickOnce(); err != nil {
		t.Fatal(err)
	}
	if err := l.Flush(); err == nil || err.Error() != "disk full" {
		t.Errorf("Flush: %v, want the handler's error", err)
	}
	if err := l.Close(); err == nil || err.Error() != "disk full" {
		t.Errorf("Close: %v, want the handler's error", err)
	}
}
