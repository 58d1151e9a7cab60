package btotel_test

import (
	"context"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/gobt/bt"
	"github.com/gobt/bt/btotel"
	"github.com/gobt/bt/bttest"
)

// fetchTree returns a tree whose async leaf, Fetch, GETs url with an instrumented
// client, and whose Sequence then checks the answer.
func fetchTree(url string, tp trace.TracerProvider) (*bt.Tree, error) {
	client := &http.Client{Transport: otelhttp.NewTransport(http.DefaultTransport,
		otelhttp.WithTracerProvider(tp), otelhttp.WithPropagators(propagation.TraceContext{}))}
	var body string
	fetch := bt.Async("Fetch", func(ctx context.Context, n *bt.Node) (bt.Status, error) {
		// ctx holds the span of the node Fetch: the client's span nests under it.
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return bt.Failure, err
		}
		resp, err := client.Do(req)
		if err != nil {
			return bt.Failure, nil
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		body = string(b)
		return bt.Success, err
	})
	check := bt.Condition("Answered", func() bool { return body == "pong" })
	return bt.NewTree(bt.Sequence(fetch, check))
}

// pong is an instrumented server that answers "pong".
func pong(tp trace.TracerProvider) *httptest.Server {
	return httptest.NewServer(otelhttp.NewHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "pong")
	}), "pong", otelhttp.WithTracerProvider(tp), otelhttp.WithPropagators(propagation.TraceContext{})))
}

// run ticks tree until it completes: the end of Fetch's work wakes the loop.
func run(tree *bt.Tree) (bt.Status, error) {
	return tree.TickWhileRunning(context.Background(), time.Hour)
}

// Items 5 and 8 of issue 29: an async action's work receives the context of its node's
// span, so the spans of an instrumented HTTP client it calls nest under the node (and
// the server's under the client's, in the same trace).
func ExampleAttach() {
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	server := pong(tp)

	tree, err := fetchTree(server.URL, tp)
	if err != nil {
		panic(err)
	}
	o, err := btotel.Attach(tree, btotel.WithTracerProvider(tp))
	if err != nil {
		panic(err)
	}
	s, err := run(tree)
	fmt.Println(s, err)
	o.Close()
	server.Close() // waits for the handler, whose span ends when it returns

	// Each span with its parent's name, from the root down.
	ended := spans.GetSpans()
	names := map[trace.SpanID]string{}
	for _, s := range ended {
		names[s.SpanContext.SpanID()] = s.Name
	}
	for _, name := range []string{"Sequence", "Fetch", "HTTP GET", "GET"} {
		for _, s := range ended {
			if s.Name == name {
				fmt.Printf("%s (%v) under %q\n", s.Name, s.SpanKind, names[s.Parent.SpanID()])
			}
		}
	}
	// Output:
	// SUCCESS <nil>
	// Sequence (internal) under ""
	// Fetch (internal) under "Sequence"
	// HTTP GET (client) under "Fetch"
	// GET (server) under "HTTP GET"
}

// fetchRun runs fetchTree against pong, both traced through a pipeline sampling with
// sampler, with its metrics or none (metered), until the tree completes and the
// server's spans ended. The test closes the Observer.
func fetchRun(t *testing.T, sampler sdktrace.Sampler, metered bool) (*pipeline, *btotel.Observer) {
	t.Helper()
	p := newPipeline(sampler)
	server := pong(p.tp)
	defer server.Close()
	tree, err := fetchTree(server.URL, p.tp)
	if err != nil {
		t.Fatal(err)
	}
	o := p.attachMetered(t, tree, metered)
	if s, err := run(tree); s != bt.Success || err != nil {
		t.Fatal(s, err)
	}
	server.Close() // waits for the handler, whose span ends when it returns
	return p, o
}

// The test of the example's nesting: the client's span is a child of the node's, the
// server's of the client's, all in the trace of the tree's run.
func TestHTTPClientSpanNestsUnderTheNode(t *testing.T) {
	p, o := fetchRun(t, sdktrace.AlwaysSample(), true)
	defer o.Close()
	byName := map[string]sdktrace.ReadOnlySpan{}
	for _, s := range p.spans.GetSpans().Snapshots() {
		byName[s.Name()] = s
	}
	for child, parent := range map[string]string{"Fetch": "Sequence", "HTTP GET": "Fetch", "GET": "HTTP GET"} {
		c, p := byName[child], byName[parent]
		if c == nil || p == nil {
			t.Fatalf("no span %q or %q among %v", child, parent, slices.Collect(maps.Keys(byName)))
		}
		if c.Parent().SpanID() != p.SpanContext().SpanID() || c.SpanContext().TraceID() != p.SpanContext().TraceID() {
			t.Errorf("the parent of %q is %v, want %q's span %v", child, c.Parent().SpanID(), parent, p.SpanContext().SpanID())
		}
	}
	if root := byName["Sequence"]; root.Parent().IsValid() {
		t.Errorf("the root's span has a parent: %v", root.Parent())
	}
	if f := byName["Fetch"]; f.StartTime().After(byName["HTTP GET"].StartTime()) || f.EndTime().Before(byName["HTTP GET"].EndTime()) {
		t.Errorf("Fetch's span [%v, %v] does not enclose the client's [%v, %v]", f.StartTime(), f.EndTime(), byName["HTTP GET"].StartTime(), byName["HTTP GET"].EndTime())
	}
}

// A halted async action's span ends halted; its work's context, which holds the span, is
// canceled.
func TestHaltedAsyncAction(t *testing.T) {
	p := newPipeline(sdktrace.AlwaysSample())
	started := make(chan trace.SpanContext, 1)
	tree, err := bt.NewTree(bt.Sequence(bt.Async("Wait", func(ctx context.Context, n *bt.Node) (bt.Status, error) {
		started <- trace.SpanContextFromContext(ctx)
		<-ctx.Done()
		return bt.Failure, nil
	})), bt.WithClock(bttest.NewClock(epoch)))
	if err != nil {
		t.Fatal(err)
	}
	o := p.attach(t, tree)
	defer o.Close()
	tree.TickOnce()
	sc := <-started
	if err := tree.Halt(); err != nil {
		t.Fatal(err)
	}
	if got, want := p.describe(), "Wait<Sequence 0-0 halted\nSequence<- 0-0 halted\n"; got != want {
		t.Errorf("spans:\n%s\nwant:\n%s", got, want)
	}
	if got := p.spans.GetSpans()[0].SpanContext; !got.Equal(sc) {
		t.Errorf("the work's context holds span %v, want the node's, %v", sc, got)
	}
}

// With a sampler that drops everything, no span is exported, the work's context holds
// an unsampled span context (so that the services it calls drop theirs too), and the
// metrics are recorded all the same.
func TestSamplerThatDropsEverything(t *testing.T) {
	p, o := fetchRun(t, sdktrace.ParentBased(sdktrace.NeverSample()), true)
	defer o.Close()
	if got := p.spans.GetSpans(); len(got) != 0 {
		t.Errorf("%d spans exported: %v", len(got), got)
	}
	if got, want := sums(collect(t, p.reader), btotel.MetricNodeCompletions), "Answered success 1, Fetch success 1, Sequence success 1"; got != want {
		t.Errorf("completions: %s\nwant %s", got, want)
	}
}

// Without metrics, a run whose trace is dropped is not heard; its async action's work
// still gets the run's unsampled span context: the client's span, a child of it, is
// dropped, where it would be a root span, sampled, without it.
func TestDroppedRunUnheardGivesTheWorkItsSpanContext(t *testing.T) {
	sampler := &runSampler{sample: []bool{false, true}}
	p, o := fetchRun(t, sampler, false)
	defer o.Close()
	if got := p.spans.GetSpans(); len(got) != 0 || sampler.roots != 1 {
		t.Errorf("%d root spans; %d spans exported: %s", sampler.roots, len(got), p.describe())
	}
}

// The root's spans are children of the span of the tree's context (bt.WithContext).
func TestRootUnderTheContextsSpan(t *testing.T) {
	p := newPipeline(sdktrace.AlwaysSample())
	ctx, outer := p.tp.Tracer("test").Start(context.Background(), "outer")
	tree, err := bt.NewTree(bt.Sequence(script("Step", bt.Running, bt.Success)), bt.WithContext(ctx), bt.WithClock(bttest.NewClock(epoch)))
	if err != nil {
		t.Fatal(err)
	}
	o := p.attach(t, tree)
	tree.TickOnce()
	tree.TickOnce()
	o.Close()
	outer.End()
	spans := p.spans.GetSpans()
	if len(spans) != 3 || spans[1].Name != "Sequence" || spans[1].Parent.SpanID() != outer.SpanContext().SpanID() {
		t.Errorf("spans: %s", p.describe())
	}
}
