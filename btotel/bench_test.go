package btotel_test

import (
	"strings"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/gobt/bt"
	"github.com/gobt/bt/btotel"
	"github.com/gobt/bt/bttest"
)

// The cost of attaching an Observer, on the trees of bt's tick benchmarks and on a
// tree that runs for long (its root stays Running): each tree is ticked bare, with a
// batch subscriber that does nothing (what the engine's observing costs any logger),
// and with an Observer on a real SDK pipeline (tracetest's in-memory exporter): its
// sampler dropping every trace, with and without the SDK's metrics, and sampling every
// trace. The figures are in the package doc.

// running returns a ReactiveSequence of ten conditions that hold and an action that
// stays Running: each tick re-checks the conditions under the root's activation.
func running() *bt.Spec {
	kids := make([]*bt.Spec, 0, 11)
	for range 10 {
		kids = append(kids, bt.Condition("Holds", func() bool { return true }))
	}
	return bt.ReactiveSequence(append(kids, bt.Action("Work", func() bt.Status { return bt.Running }))...)
}

func BenchmarkFlat(b *testing.B) { benchShape(b, bttest.Flat(1000)) }

func BenchmarkDeep(b *testing.B) { benchShape(b, bttest.Deep(10)) }

func BenchmarkRunning(b *testing.B) { benchShape(b, running()) }

func benchShape(b *testing.B, spec *bt.Spec) {
	b.Run("Bare", func(b *testing.B) { benchTick(b, spec, nil) })
	b.Run("Subscribed", func(b *testing.B) {
		benchTick(b, spec, func(b *testing.B, tree *bt.Tree) func() {
			b.Cleanup(tree.SubscribeBatch(func(bt.Batch) {}))
			return nil
		})
	})
	b.Run("Dropped", func(b *testing.B) { benchTick(b, spec, observe(sdktrace.NeverSample(), false)) })
	b.Run("DroppedMetrics", func(b *testing.B) { benchTick(b, spec, observe(sdktrace.NeverSample(), true)) })
	b.Run("Sampled", func(b *testing.B) { benchTick(b, spec, observe(sdktrace.AlwaysSample(), false)) })
}

// observe attaches an Observer on a pipeline sampling with sampler, with the SDK's
// metrics or none; it returns what empties the exporter.
func observe(sampler sdktrace.Sampler, metrics bool) func(*testing.B, *bt.Tree) func() {
	return func(b *testing.B, tree *bt.Tree) func() {
		p := newPipeline(sampler)
		o := p.attachMetered(b, tree, metrics)
		b.Cleanup(func() {
			if metrics {
				collect(b, p.reader)
			}
			o.Close()
		})
		return p.spans.Reset
	}
}

// benchTick ticks a tree of spec, with what attach attaches; the exporter is emptied
// every 1,000 ticks, outside the timer.
func benchTick(b *testing.B, spec *bt.Spec, attach func(*testing.B, *bt.Tree) func()) {
	tree, err := bt.NewTree(spec)
	if err != nil {
		b.Fatal(err)
	}
	reset := func() {}
	if attach != nil {
		if r := attach(b, tree); r != nil {
			reset = r
		}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := tree.TickOnce(); err != nil {
			b.Fatal(err)
		}
		if i++; i%1000 == 0 {
			b.StopTimer()
			reset()
			b.StartTimer()
		}
	}
}

// Item 7 of issue 29: with a sampler that drops every trace, a tick of a tree that
// runs for long allocates nothing, with metrics (the Observer hears the run, and
// counts) and without (the tree records nothing: the Observer does not hear the run).
func TestDroppedTracesDoNotAllocate(t *testing.T) {
	if testing.Short() {
		t.Skip("counts allocations")
	}
	for _, metered := range []bool{true, false} {
		p := newPipeline(sdktrace.ParentBased(sdktrace.NeverSample()))
		tree, err := bt.NewTree(running())
		if err != nil {
			t.Fatal(err)
		}
		o := p.attachMetered(t, tree, metered)
		tick := func() {
			if s, err := tree.TickOnce(); s != bt.Running || err != nil {
				t.Fatal(s, err)
			}
		}
		for range 10 {
			tick()
		}
		if n := testing.AllocsPerRun(100, tick); n != 0 {
			t.Errorf("metrics %v: %v allocations per tick", metered, n)
		}
		if metered {
			// 111 ticks (10, 100, and AllocsPerRun's warm-up) of each of the ten conditions.
			want := strings.TrimSuffix(strings.Repeat("Holds success 111, ", 10), ", ")
			if got := sums(collect(t, p.reader), btotel.MetricNodeCompletions); got != want {
				t.Errorf("completions: %s\nwant %s", got, want)
			}
		}
		o.Close()
	}
}
