package btotel_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
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
	o, err := btotel.Attach(tree, btotel.WithTracerProvider(p.tp), btotel.WithMeterProvider(p.mp))
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
