package btotel_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/gobt/bt"
	"github.com/gobt/bt/btotel"
	"github.com/gobt/bt/bttest"
)

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// pipeline is a real SDK pipeline: spans go to an in-memory exporter as they end,
// metrics to a manual reader.
type pipeline struct {
	spans  *tracetest.InMemoryExporter
	tp     *sdktrace.TracerProvider
	reader *sdkmetric.ManualReader
	mp     *sdkmetric.MeterProvider
}

func newPipeline(sampler sdktrace.Sampler) *pipeline {
	p := &pipeline{spans: tracetest.NewInMemoryExporter(), reader: sdkmetric.NewManualReader()}
	p.tp = sdktrace.NewTracerProvider(sdktrace.WithSyncer(p.spans), sdktrace.WithSampler(sampler))
	p.mp = sdkmetric.NewMeterProvider(sdkmetric.WithReader(p.reader))
	return p
}

func (p *pipeline) attach(t testing.TB, tree *bt.Tree) *btotel.Observer {
	t.Helper()
	return p.attachMetered(t, tree, true)
}

// attachMetered attaches an Observer to tree on p's tracer provider, with p's metrics
// or none: without, the runs whose trace is dropped are not heard at all.
func (p *pipeline) attachMetered(t testing.TB, tree *bt.Tree, metered bool) *btotel.Observer {
	t.Helper()
	mp := metric.MeterProvider(metricnoop.NewMeterProvider())
	if metered {
		mp = p.mp
	}
	o, err := btotel.Attach(tree, btotel.WithTracerProvider(p.tp), btotel.WithMeterProvider(mp))
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// describe writes the spans ended so far, one a line, in the order they ended: name,
// parent's name, start and end as seconds after epoch, the status and halted
// attributes, and the events, each with its time and status.
func (p *pipeline) describe() string {
	spans := p.spans.GetSpans()
	names := map[trace.SpanID]string{}
	for _, s := range spans {
		names[s.SpanContext.SpanID()] = s.Name
	}
	var b strings.Builder
	for _, s := range spans {
		parent := "-"
		if s.Parent.IsValid() {
			parent = names[s.Parent.SpanID()]
			if parent == "" {
				parent = "outer"
			}
		}
		fmt.Fprintf(&b, "%s<%s %v-%v %s", s.Name, parent, s.StartTime.Sub(epoch).Seconds(), s.EndTime.Sub(epoch).Seconds(), value(s.Attributes, btotel.AttrNodeStatus))
		for _, e := range s.Events {
			fmt.Fprintf(&b, " [%s %v %s]", e.Name, e.Time.Sub(epoch).Seconds(), value(e.Attributes, btotel.AttrNodeStatus))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func value(attrs []attribute.KeyValue, k attribute.Key) string {
	for _, kv := range attrs {
		if kv.Key == k {
			return kv.Value.Emit()
		}
	}
	return "?"
}

// script returns an action that returns the statuses given, one a tick, in a loop.
func script(id string, statuses ...bt.Status) *bt.Spec {
	i := 0
	return bt.Action(id, func() bt.Status {
		s := statuses[i%len(statuses)]
		i++
		return s
	})
}

// Items 5 and 6 of issue 29: an activation is a span from the tick that starts the node
// to the tick that sees it complete or halted, nested as the tree is, with its status;
// a leaf done in one tick is an event on its parent's span; the metrics count the
// completions by node and status and time the activations that outlived their tick.
func TestSpansNestAsTheTreeDoes(t *testing.T) {
	p := newPipeline(sdktrace.AlwaysSample())
	clock := bttest.NewClock(epoch)
	tree, err := bt.NewTree(bt.Sequence(bt.Condition("Ready", func() bool { return true }),
		bt.Inverter(script("Move", bt.Running, bt.Running, bt.Failure))), bt.WithClock(clock))
	if err != nil {
		t.Fatal(err)
	}
	o := p.attach(t, tree)
	for _, want := range []bt.Status{bt.Running, bt.Running, bt.Success} {
		if s, err := tree.TickOnce(); s != want || err != nil {
			t.Fatal(s, err)
		}
		clock.Advance(time.Second)
	}
	// A second run, halted in its second tick.
	tree.TickOnce()
	clock.Advance(time.Second)
	if err := tree.Halt(); err != nil {
		t.Fatal(err)
	}
	want := `Move<Inverter 0-2 failure
Inverter<Sequence 0-2 success
Sequence<- 0-2 success [Ready 0 success]
Move<Inverter 3-4 halted
Inverter<Sequence 3-4 halted
Sequence<- 3-4 halted [Ready 3 success]
`
	if got := p.describe(); got != want {
		t.Errorf("spans:\n%s\nwant:\n%s", got, want)
	}
	spans := p.spans.GetSpans()
	if got := spans[0].Attributes; !slices.Contains(got, btotel.AttrNodePath.String("Move::4")) ||
		!slices.Contains(got, btotel.AttrNodeID.String("Move")) || !slices.Contains(got, btotel.AttrNodeUID.Int(4)) ||
		!slices.Contains(got, btotel.AttrNodeName.String("Move")) {
		t.Errorf("Move's attributes: %v", got)
	}
	if spans[0].SpanContext.TraceID() != spans[2].SpanContext.TraceID() || spans[2].SpanContext.TraceID() == spans[5].SpanContext.TraceID() {
		t.Error("want a trace per run of the tree")
	}

	rm := collect(t, p.reader)
	if got, want := sums(rm, btotel.MetricNodeCompletions), "Inverter halted 1, Inverter success 1, Move failure 1, Move halted 1, Ready success 2, Sequence halted 1, Sequence success 1"; got != want {
		t.Errorf("completions: %s\nwant %s", got, want)
	}
	if got, want := sums(rm, btotel.MetricNodeDuration), "Inverter halted 1, Inverter success 2, Move failure 2, Move halted 1, Sequence halted 1, Sequence success 2"; got != want {
		t.Errorf("durations: %s\nwant %s", got, want)
	}
	if got, want := sums(rm, btotel.MetricTickDuration), "- 0 (4 ticks)"; got != want {
		t.Errorf("tick durations: %s\nwant %s", got, want)
	}
	if err := o.Close(); err != nil {
		t.Fatal(err)
	}
}

func collect(t testing.TB, r *sdkmetric.ManualReader) metricdata.ResourceMetrics {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := r.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	return rm
}

// sums describes the metric named name: "node status value" for each point (the sum of
// a histogram), sorted.
func sums(rm metricdata.ResourceMetrics, name string) string {
	var out []string
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != name {
				continue
			}
			switch d := m.Data.(type) {
			case metricdata.Sum[int64]:
				for _, dp := range d.DataPoints {
					out = append(out, fmt.Sprintf("%s %v", key(dp.Attributes), dp.Value))
				}
			case metricdata.Histogram[float64]:
				for _, dp := range d.DataPoints {
					s := fmt.Sprintf("%s %v", key(dp.Attributes), dp.Sum)
					if name == btotel.MetricTickDuration {
						s += fmt.Sprintf(" (%d ticks)", dp.Count)
					}
					out = append(out, s)
				}
			}
		}
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}

func key(s attribute.Set) string {
	name, ok := s.Value(btotel.AttrNodeName)
	if !ok {
		return "-"
	}
	status, _ := s.Value(btotel.AttrNodeStatus)
	return name.Emit() + " " + status.Emit()
}

// A tree that is a single leaf done at once has no parent's span for its event: it gets
// a span of its own, of no length.
func TestLeafAloneGetsASpan(t *testing.T) {
	p := newPipeline(sdktrace.AlwaysSample())
	tree, err := bt.NewTree(script("Once", bt.Success, bt.Failure), bt.WithClock(bttest.NewClock(epoch)))
	if err != nil {
		t.Fatal(err)
	}
	o := p.attach(t, tree)
	defer o.Close()
	tree.TickOnce()
	tree.TickOnce()
	if got, want := p.describe(), "Once<- 0-0 success\nOnce<- 0-0 failure\n"; got != want {
		t.Errorf("spans:\n%s\nwant:\n%s", got, want)
	}
}

// A reload (bt.Tree.Reload) moves the activations of the nodes it keeps to their new
// UIDs: a running action's span goes on, one span across the reload; a reload that
// changes the tree ends the spans of what it halts, and the new nodes have spans of
// their own.
func TestReload(t *testing.T) {
	p := newPipeline(sdktrace.AlwaysSample())
	clock := bttest.NewClock(epoch)
	run := script("Run", bt.Running, bt.Running, bt.Success)
	spec := bt.Sequence(run)
	tree, err := bt.NewTree(spec, bt.WithClock(clock))
	if err != nil {
		t.Fatal(err)
	}
	o := p.attach(t, tree)
	defer o.Close()
	tick := func() {
		t.Helper()
		if _, err := tree.TickOnce(); err != nil {
			t.Fatal(err)
		}
		clock.Advance(time.Second)
	}
	tick() // Run starts
	if r, err := tree.ReloadSpec(spec); err != nil || r.Kept != 2 {
		t.Fatal(r, err)
	}
	tick()
	tick() // Run succeeds
	tick() // Run starts again
	if _, err := tree.ReloadSpec(bt.Sequence(bt.Condition("Ready", func() bool { return true }), bt.Inverter(run))); err != nil {
		t.Fatal(err)
	}
	tick()
	tick() // Run succeeds, the Inverter fails
	want := `Run<Sequence 0-2 success
Sequence<- 0-2 success
Run<Sequence 3-4 halted
Sequence<- 3-4 halted
Run<Inverter 4-5 success
Inverter<Sequence 4-5 failure
Sequence<- 4-5 failure [Ready 4 success]
`
	if got := p.describe(); got != want {
		t.Errorf("spans:\n%s\nwant:\n%s", got, want)
	}
}

// runSampler samples the traces of a tree's runs as told: the i-th span without a
// parent (a run's root span) is sampled if sample[i%len(sample)]; a span with a parent
// is sampled as its parent is. It counts the spans without a parent it was asked about.
type runSampler struct {
	sample []bool
	roots  int
}

func (s *runSampler) ShouldSample(p sdktrace.SamplingParameters) sdktrace.SamplingResult {
	psc := trace.SpanContextFromContext(p.ParentContext)
	sample := psc.IsSampled()
	if !psc.IsValid() {
		sample = s.sample[s.roots%len(s.sample)]
		s.roots++
	}
	if sample {
		return sdktrace.SamplingResult{Decision: sdktrace.RecordAndSample, Tracestate: psc.TraceState()}
	}
	return sdktrace.SamplingResult{Decision: sdktrace.Drop, Tracestate: psc.TraceState()}
}

func (s *runSampler) Description() string { return "runSampler" }

// Item 7 of issue 29: the sampler decides at the first tick of each run, once for the
// run's trace. The ticks of a dropped run, without metrics, are not heard (the tree
// records nothing of them); a run after it is traced as if the Observer had heard
// everything: a node Running across ticks of a dropped run has no span, and its next
// activation, in a sampled run, has its own from its start. The same with metrics,
// which hear every run and count its completions.
func TestSamplingDecidesPerRun(t *testing.T) {
	for _, metered := range []bool{false, true} {
		t.Run(fmt.Sprint("metrics ", metered), func(t *testing.T) {
			sampler := &runSampler{sample: []bool{false, true, false, true}}
			p := newPipeline(sampler)
			clock := bttest.NewClock(epoch)
			tree, err := bt.NewTree(bt.Sequence(bt.Condition("Ready", func() bool { return true }),
				bt.Inverter(script("Move", bt.Running, bt.Running, bt.Failure))), bt.WithClock(clock))
			if err != nil {
				t.Fatal(err)
			}
			o := p.attachMetered(t, tree, metered)
			defer o.Close()
			tick := func(want bt.Status) {
				t.Helper()
				if s, err := tree.TickOnce(); s != want || err != nil {
					t.Fatal(s, err)
				}
				clock.Advance(time.Second)
			}
			for range 2 { // a dropped run, then a sampled one
				tick(bt.Running)
				tick(bt.Running)
				tick(bt.Success)
			}
			tick(bt.Running) // dropped, Move Running…
			if err := tree.Halt(); err != nil {
				t.Fatal(err)
			}
			clock.Advance(time.Second)
			tick(bt.Running) // …and sampled: Move starts afresh
			tick(bt.Success)
			want := `Move<Inverter 3-5 failure
Inverter<Sequence 3-5 success
Sequence<- 3-5 success [Ready 3 success]
Move<Inverter 8-9 failure
Inverter<Sequence 8-9 success
Sequence<- 8-9 success [Ready 8 success]
`
			if got := p.describe(); got != want {
				t.Errorf("spans:\n%s\nwant:\n%s", got, want)
			}
			if sampler.roots != 4 {
				t.Errorf("the sampler decided for %d root spans, want one a run: 4", sampler.roots)
			}
			if !metered {
				return
			}
			if got, want := sums(collect(t, p.reader), btotel.MetricNodeCompletions), "Inverter halted 1, Inverter success 3, Move failure 3, Move halted 1, Ready success 4, Sequence halted 1, Sequence success 3"; got != want {
				t.Errorf("completions: %s\nwant %s", got, want)
			}
		})
	}
}

// steppingClock is a manual clock whose every reading is a second after the last: it
// tells the readings apart.
type steppingClock struct{ *bttest.Clock }

func (c steppingClock) Now() time.Time {
	c.Advance(time.Second)
	return c.Clock.Now()
}

// The root's span of a run begins when the Observer asks the sampler, just before the
// root is ticked, after the tick's batch began (when something else observes the tree,
// the tree read the clock for it first): the root's children begin their spans no
// sooner than it.
func TestSpanBeginsNoSoonerThanItsParent(t *testing.T) {
	p := newPipeline(sdktrace.AlwaysSample())
	tree, err := bt.NewTree(bt.Sequence(script("Step", bt.Running, bt.Success)), bt.WithClock(steppingClock{bttest.NewClock(epoch)}))
	if err != nil {
		t.Fatal(err)
	}
	defer tree.SubscribeBatch(func(bt.Batch) {})()
	o := p.attachMetered(t, tree, false)
	tree.TickOnce() // the batch's time is 2, the root's span begins at 3
	tree.TickOnce()
	o.Close()
	if got, want := p.describe(), "Step<Sequence 3-5 success\nSequence<- 3-5 success\n"; got != want {
		t.Errorf("spans:\n%s\nwant:\n%s", got, want)
	}
}

// A run begun before Attach is heard, whatever the sampler (it was not asked for it):
// a node Running at Attach has a span from when a child of its starts, and the nodes
// that just end have none.
func TestRunBegunBeforeAttach(t *testing.T) {
	sampler := &runSampler{sample: []bool{true}}
	p := newPipeline(sampler)
	clock := bttest.NewClock(epoch)
	tree, err := bt.NewTree(bt.Sequence(script("A", bt.Running, bt.Success), script("B", bt.Running, bt.Success)), bt.WithClock(clock))
	if err != nil {
		t.Fatal(err)
	}
	tick := func(want bt.Status) {
		t.Helper()
		if s, err := tree.TickOnce(); s != want || err != nil {
			t.Fatal(s, err)
		}
		clock.Advance(time.Second)
	}
	tick(bt.Running) // A starts
	o := p.attachMetered(t, tree, false)
	defer o.Close()
	tick(bt.Running) // A ends, B starts
	tick(bt.Success)
	if got, want := p.describe(), "B<Sequence 1-2 success\nSequence<- 1-2 success\n"; got != want {
		t.Errorf("spans:\n%s\nwant:\n%s", got, want)
	}
	if sampler.roots != 1 {
		t.Errorf("the sampler decided for %d root spans, want 1", sampler.roots)
	}
}

// A root that a pre-condition skips, and a root that returns Skipped after it went
// Running (all its children were skipped), tick after tick. The first tick of a run
// that does not start the root began the root's span all the same: the run's next
// tick goes on with it, so the root's span begins at the tick that skipped it. A root
// Skipped while Running is Idle, but its observers go on seeing it Running: its run
// goes on, in the same trace. Either way the sampler is asked once.
func TestRootSkipped(t *testing.T) {
	for _, c := range []struct {
		name  string
		spec  func(skip *bool) *bt.Spec
		ticks []bt.Status
		want  string
	}{{
		"skipped at its first tick",
		func(skip *bool) *bt.Spec {
			return bt.Sequence(script("Step", bt.Running, bt.Success)).Pre(bt.SkipIf, func(*bt.Node) bool { return *skip })
		},
		[]bt.Status{bt.Skipped, bt.Running, bt.Success},
		"Step<Sequence 1-2 success\nSequence<- 0-2 success\n",
	}, {
		"skipped while running",
		func(skip *bool) *bt.Spec {
			return bt.Sequence(bt.AlwaysSuccess().Pre(bt.SkipIf, func(*bt.Node) bool { return *skip }))
		},
		[]bt.Status{bt.Skipped, bt.Success},
		"Sequence<- 0-1 success [AlwaysSuccess 1 success]\n",
	}} {
		t.Run(c.name, func(t *testing.T) {
			sampler := &runSampler{sample: []bool{true}}
			p := newPipeline(sampler)
			clock := bttest.NewClock(epoch)
			skip := true
			tree, err := bt.NewTree(c.spec(&skip), bt.WithClock(clock))
			if err != nil {
				t.Fatal(err)
			}
			o := p.attachMetered(t, tree, false)
			defer o.Close()
			for _, want := range c.ticks {
				if s, err := tree.TickOnce(); s != want || err != nil {
					t.Fatal(s, err)
				}
				skip = false
				clock.Advance(time.Second)
			}
			if got := p.describe(); got != c.want {
				t.Errorf("spans:\n%s\nwant:\n%s", got, c.want)
			}
			if sampler.roots != 1 {
				t.Errorf("the sampler decided for %d root spans, want 1", sampler.roots)
			}
		})
	}
}
