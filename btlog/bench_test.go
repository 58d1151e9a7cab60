package btlog

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

// The benchmarks tick the shapes of the engine's benchmarks (bench_test.go at the
// root) with each logger attached, beside the same tree unobserved and observed by a
// batch subscriber that does nothing (bt.Tree.SubscribeBatch):
//
//	flat: a Sequence of 1,000 AlwaysSuccess leaves (1,001 nodes, 2,003 changes a tick)
//	deep: a balanced binary tree of depth 10 alternating Sequence and Fallback whose
//	      2,047 nodes are all visited on every tick (5,117 changes)
//
// ns/node is the time per node visit. The loggers write to io.Discard, except
// …BtlogFile, which writes a .btlog file; a writer slower than the ticks lets the
// queue grow, which the benchmark counts. …BtlogFileFlushed flushes the .btlog
// writer after each tick, outside the timed tick (the timer is stopped): the tick's
// own cost when the writer keeps up, which callgrind can count alone (in the others
// the writer's goroutine may run on the ticking thread in the middle of a tick, where
// callgrind counts it as the tick's).

// attach attaches a logger to a tree, or nothing.
type attach func(tb testing.TB, tree *bt.Tree) Logger

var benchLoggers = []struct {
	name   string
	attach attach
}{
	{"", nil},
	{"Observed", func(_ testing.TB, tree *bt.Tree) Logger {
		cancel := tree.SubscribeBatch(func(bt.Batch) {})
		return closer(cancel)
	}},
	{"Console", func(tb testing.TB, tree *bt.Tree) Logger { return must(NewConsole(tree, io.Discard, nil))(tb) }},
	{"BtlogFile", func(tb testing.TB, tree *bt.Tree) Logger {
		return must(CreateFile(tree, filepath.Join(tb.TempDir(), "bench.btlog")))(tb)
	}},
	{"Trace", func(tb testing.TB, tree *bt.Tree) Logger { return must(NewTrace(tree, io.Discard, nil))(tb) }},
	{"JSONL", func(tb testing.TB, tree *bt.Tree) Logger { return must(NewJSONL(tree, io.Discard, nil))(tb) }},
	{"Slog", func(tb testing.TB, tree *bt.Tree) Logger {
		return must(NewSlog(tree, slog.New(slog.NewTextHandler(io.Discard, nil)), nil))(tb)
	}},
	{"Stats", func(tb testing.TB, tree *bt.Tree) Logger { return must(NewStats(tree))(tb) }},
}

// closer is a Logger that only cancels a subscription.
type closer func()

func (closer) Flush() error    { return nil }
func (c closer) Close() error  { c(); return nil }
func (closer) SetEnabled(bool) {}
func (closer) Enabled() bool   { return true }

func must[L Logger](l L, err error) func(testing.TB) Logger {
	return func(tb testing.TB) Logger {
		tb.Helper()
		if err != nil {
			tb.Fatal(err)
		}
		return l
	}
}

func benchTree(b *testing.B, spec *bt.Spec, a attach, flush bool) {
	tree, err := bt.NewTree(spec)
	if err != nil {
		b.Fatal(err)
	}
	var l Logger
	if a != nil {
		l = a(b, tree)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tree.TickOnce(); err != nil {
			b.Fatal(err)
		}
		if flush {
			b.StopTimer()
			if err := l.Flush(); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(tree.Len()), "ns/node")
	if l != nil {
		if err := l.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFlat(b *testing.B) { benchShape(b, bttest.Flat(1000)) }

func BenchmarkDeep(b *testing.B) { benchShape(b, bttest.Deep(10)) }

func benchShape(b *testing.B, spec *bt.Spec) {
	for _, l := range benchLoggers {
		b.Run(l.name, func(b *testing.B) { benchTree(b, spec, l.attach, false) })
		if l.name == "BtlogFile" {
			b.Run(l.name+"Flushed", func(b *testing.B) { benchTree(b, spec, l.attach, true) })
		}
	}
}

// countingHandler is a slog.Handler that counts records: slog's own handlers take
// their buffers from a sync.Pool, which the race detector empties at random.
type countingHandler struct {
	slog.Handler
	n *int
}

func (h countingHandler) Enabled(context.Context, slog.Level) bool { return true }

func (h countingHandler) Handle(context.Context, slog.Record) error { *h.n++; return nil }

// TestLoggersDoNotAllocate: once warm, a tick with a logger attached, and the
// logger's writing of it, allocate nothing.
func TestLoggersDoNotAllocate(t *testing.T) {
	if testing.Short() {
		t.Skip("counts allocations")
	}
	records := 0
	for _, l := range benchLoggers[1:] {
		if l.name == "Slog" {
			l.attach = func(tb testing.TB, tree *bt.Tree) Logger {
				return must(NewSlog(tree, slog.New(countingHandler{slog.DiscardHandler, &records}), nil))(tb)
			}
		}
		t.Run(l.name, func(t *testing.T) {
			tree, err := bt.NewTree(bt.Sequence(bt.AlwaysSuccess(), bt.Fallback(bt.AlwaysFailure(), bt.AlwaysSuccess())))
			if err != nil {
				t.Fatal(err)
			}
			logger := l.attach(t, tree)
			tick := func() {
				if _, err := tree.TickOnce(); err != nil {
					t.Fatal(err)
				}
				if err := logger.Flush(); err != nil {
					t.Fatal(err)
				}
			}
			for range 10 {
				tick()
			}
			if n := testing.AllocsPerRun(100, tick); n != 0 {
				t.Errorf("%v allocations per tick", n)
			}
			closeAll(t, logger)
		})
	}
	if records != 111*12 { // (10 + 100 + AllocsPerRun's warm-up) ticks, 12 changes each
		t.Errorf("the Slog logged %d records, want %d", records, 111*12)
	}
}
