package btlog

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gobt/bt"
)

// TestFlushKeepsOrder: a program that prints its own lines, between ticks and from
// inside a node, keeps them in order with the log's by flushing first (inside a node,
// the tree's changes so far first).
func TestFlushKeepsOrder(t *testing.T) {
	var out bytes.Buffer
	var console *Console
	say := bt.Action("Say", func(n *bt.Node) bt.Status {
		n.Tree().Flush()
		if err := console.Flush(); err != nil {
			t.Error(err)
		}
		out.WriteString("say: hello\n")
		return bt.Success
	})
	tree, err := bt.NewTree(bt.Sequence(bt.AlwaysSuccess(), say))
	if err != nil {
		t.Fatal(err)
	}
	if console, err = NewConsole(tree, &out, nil); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 2; i++ {
		s, err := tree.TickOnce()
		if err != nil {
			t.Fatal(err)
		}
		if err := console.Flush(); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&out, "tick %d %s\n", i, s)
	}
	closeAll(t, console)
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if _, change, ok := strings.Cut(line, "]: "); ok {
			line = strings.Join(strings.Fields(change), " ")
		}
		got = append(got, line)
	}
	var want []string
	for i := 1; i <= 2; i++ {
		want = append(want, "Sequence IDLE -> RUNNING", "AlwaysSuccess IDLE -> SUCCESS", "say: hello", "Say IDLE -> SUCCESS",
			"AlwaysSuccess SUCCESS -> IDLE", "Say SUCCESS -> IDLE", "Sequence RUNNING -> SUCCESS", "Sequence SUCCESS -> IDLE",
			fmt.Sprintf("tick %d SUCCESS", i))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// failingWriter fails every write after the first n bytes.
type failingWriter struct {
	n      int
	writes int
}

func (w *failingWriter) Write(p []byte) (int, error) {
	w.writes++
	if len(p) <= w.n {
		w.n -= len(p)
		return len(p), nil
	}
	return 0, errors.New("disk full")
}

// TestWriteError: the first failed write stops the logger; Flush and Close report it.
func TestWriteError(t *testing.T) {
	tree, err := bt.NewTree(bt.Sequence(bt.AlwaysSuccess()))
	if err != nil {
		t.Fatal(err)
	}
	w := &failingWriter{}
	l, err := NewConsole(tree, w, nil)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := tree.TickOnce(); err != nil {
			t.Fatal(err)
		}
		if err := l.Flush(); err == nil || err.Error() != "disk full" {
			t.Fatalf("Flush: %v, want the writer's error", err)
		}
	}
	if err := l.Close(); err == nil || err.Error() != "disk full" {
		t.Errorf("Close: %v", err)
	}
	if w.writes != 1 {
		t.Errorf("%d writes, want 1: nothing after the first error", w.writes)
	}
	if _, err := NewFile(tree, &failingWriter{n: 10}); err == nil || err.Error() != "btlog: writing the header: disk full" {
		t.Errorf("a header that cannot be written: %v", err)
	}
}

// TestClose: Close detaches (later ticks are not logged), is idempotent, and Flush
// after it says so.
func TestClose(t *testing.T) {
	tree, err := bt.NewTree(bt.AlwaysSuccess())
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	l, err := NewJSONL(tree, &out, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tree.TickOnce(); err != nil {
		t.Fatal(err)
	}
	closeAll(t, l)
	n := out.Len()
	if _, err := tree.TickOnce(); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Errorf("Close again: %v", err)
	}
	if err := l.Flush(); err != ErrClosed {
		t.Errorf("Flush after Close: %v", err)
	}
	if out.Len() != n || strings.Count(out.String(), "\n") != 2 {
		t.Errorf("logged after Close:\n%s", out.String())
	}
}

// TestBadArguments: nil trees and writers are errors, not panics.
func TestBadArguments(t *testing.T) {
	tree, err := bt.NewTree(bt.AlwaysSuccess())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		make func() (Logger, error)
		want string
	}{
		{"console, nil tree", func() (Logger, error) { return NewConsole(nil, io.Discard, nil) }, "btlog: nil tree"},
		{"console, nil writer", func() (Logger, error) { return NewConsole(tree, nil, nil) }, "btlog: nil writer"},
		{"jsonl, nil tree", func() (Logger, error) { return NewJSONL(nil, io.Discard, nil) }, "btlog: nil tree"},
		{"jsonl, nil writer", func() (Logger, error) { return NewJSONL(tree, nil, nil) }, "btlog: nil writer"},
		{"file, nil tree", func() (Logger, error) { return NewFile(nil, io.Discard) }, "btlog: nil tree"},
		{"file, nil writer", func() (Logger, error) { return NewFile(tree, nil) }, "btlog: nil writer"},
		{"created file, nil tree", func() (Logger, error) { return CreateFile(nil, filepath.Join(dir, "x.btlog")) }, "btlog: nil tree"},
		{"trace, nil tree", func() (Logger, error) { return NewTrace(nil, io.Discard, nil) }, "btlog: nil tree"},
		{"trace, nil writer", func() (Logger, error) { return NewTrace(tree, nil, nil) }, "btlog: nil writer"},
		{"created trace, nil tree", func() (Logger, error) { return CreateTrace(nil, filepath.Join(dir, "x.json"), nil) }, "btlog: nil tree"},
		{"created trace, bad name", func() (Logger, error) { return CreateTrace(tree, filepath.Join(dir, "no", "x.json"), nil) }, "btlog: open "},
	} {
		l, err := c.make()
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: %v, want %s", c.name, err, c.want)
		}
		if l != nil && !isNil(l) {
			t.Errorf("%s: a logger came with the error", c.name)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.btlog")); err == nil {
		t.Errorf("CreateFile made a file for a nil tree")
	}
}

func isNil(l Logger) bool {
	switch l := l.(type) {
	case *Console:
		return l == nil
	case *JSONL:
		return l == nil
	case *File:
		return l == nil
	case *Trace:
		return l == nil
	}
	return false
}

// TestCreateTrace writes a real file, complete once closed.
func TestCreateTrace(t *testing.T) {
	tree, err := bt.NewTree(bt.Sequence(bt.AlwaysSuccess()))
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(t.TempDir(), "run.json")
	l, err := CreateTrace(tree, name, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tree.TickOnce(); err != nil {
		t.Fatal(err)
	}
	closeAll(t, l)
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	events := readTrace(t, data)
	checkNesting(t, events)
	if len(events) != 4 || events[0].PID != os.Getpid() || events[1].TID != 1 {
		t.Errorf("events: %+v", events)
	}
}

// TestLoggersWhileTicking ticks a tree whose async actions finish in their own
// goroutines, with every logger attached, while other goroutines read the statistics
// and flush the loggers: run with -race.
func TestLoggersWhileTicking(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tree := mission(t)
		stats, err := NewStats(tree)
		if err != nil {
			t.Fatal(err)
		}
		var outs [4]bytes.Buffer
		console, err := NewConsole(tree, &outs[0], &ConsoleOptions{Color: true})
		if err != nil {
			t.Fatal(err)
		}
		file, err := NewFile(tree, &outs[1])
		if err != nil {
			t.Fatal(err)
		}
		trace, err := NewTrace(tree, &outs[2], nil)
		if err != nil {
			t.Fatal(err)
		}
		jsonl, err := NewJSONL(tree, &outs[3], nil)
		if err != nil {
			t.Fatal(err)
		}
		sl, err := NewSlog(tree, slog.New(slog.NewJSONHandler(io.Discard, nil)), nil)
		if err != nil {
			t.Fatal(err)
		}
		loggers := []Logger{console, file, trace, jsonl, sl, stats}
		changes := record(tree)
		done := make(chan struct{})
		var wg sync.WaitGroup
		wg.Go(func() {
			for {
				select {
				case <-done:
					return
				case <-time.After(3 * time.Millisecond): // in the bubble's time: lets it advance
				}
				stats.ByPath("move")
				for _, l := range loggers {
					if err := l.Flush(); err != nil {
						t.Error(err)
					}
				}
			}
		})
		for range 20 {
			run(t, tree)
		}
		close(done)
		wg.Wait()
		closeAll(t, loggers...)
		if st, _ := stats.ByPath("move"); st.Successes != 20 {
			t.Errorf("move succeeded %d times, want 20", st.Successes)
		}
		log, err := Read(&outs[1])
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(log.Transitions, *changes) {
			t.Errorf("the file has %d changes, the tree made %d", len(log.Transitions), len(*changes))
		}
	})
}
