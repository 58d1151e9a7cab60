package btotel

import (
	"context"
	"errors"
	"sync"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/gobt/bt"
)

// ScopeName is the instrumentation scope of the tracer and the meter an Observer uses.
const ScopeName = "github.com/gobt/bt/btotel"

// The attributes of spans, events and measurements.
const (
	AttrTreeID   = attribute.Key("bt.tree.id")   // Tree.ID: the definition's ID ("MainTree"); absent for NewTree's trees
	AttrNodeName = attribute.Key("bt.node.name") // Node.Name
	AttrNodeID   = attribute.Key("bt.node.id")   // Node.ID: the node's type ("Sequence", an action's ID)
	AttrNodePath = attribute.Key("bt.node.path") // Node.Path: "nav/Sequence::7"
	AttrNodeUID  = attribute.Key("bt.node.uid")  // Node.UID, as Groot2 numbers the nodes (spans and events only)
	// AttrNodeStatus is how an activation ended: "success", "failure", or "halted"
	// (halted while Running, or a control that went Running and was then skipped,
	// which the tree's observers see go back to Idle as BehaviorTree.CPP's do).
	AttrNodeStatus = attribute.Key("bt.node.status")
)

// The values of AttrNodeStatus, indexed by outcome.
var outcomes = [...]string{success: "success", failure: "failure", halted: "halted"}

const (
	success = iota
	failure
	halted
	nOutcomes
)

// An Option configures an Observer.
type Option func(*config)

type config struct {
	tp trace.TracerProvider
	mp metric.MeterProvider
}

// WithTracerProvider makes the Observer make its spans with tp's tracer instead of the
// global provider's (otel.GetTracerProvider).
func WithTracerProvider(tp trace.TracerProvider) Option { return func(c *config) { c.tp = tp } }

// WithMeterProvider makes the Observer record its metrics with mp's meter instead of
// the global provider's (otel.GetMeterProvider).
func WithMeterProvider(mp metric.MeterProvider) Option { return func(c *config) { c.mp = mp } }

// Observer turns a tree's status changes into OpenTelemetry spans and metrics (see the
// package doc). Attach makes one; Close detaches it.
type Observer struct {
	tree   *bt.Tree
	tracer trace.Tracer
	base   context.Context // the parent of the root's spans
	nodes  []node          // by UID-1

	cancel      func() // the batch subscription
	cancelAsync func() // the OnAsyncStart registration
	closed      bool

	mu sync.Mutex // guards the nodes' counts, which the metrics' callback reads
	metrics
}

// node is what the Observer keeps of a node of the tree.
type node struct {
	parent uint16 // the parent's UID; 0 for the root
	name   string
	attrs  []attribute.KeyValue // name, ID, path, UID (and the tree's ID for the root)

	// The activation under way: its span, and when it began. span is nil when the node
	// has none. Under a span that is not recording, a node makes none of its own and
	// shares its parent's (own is false): see the package doc on sampling.
	span  trace.Span
	own   bool
	start time.Time

	// What the metrics record, by outcome: see metrics.go.
	counts [nOutcomes]uint64
	opts   [nOutcomes]metric.MeasurementOption
}

var errNilTree = errors.New("btotel: nil tree")

// Attach starts observing tree: its nodes' activations become spans, and its
// completions, running times and ticks metrics. The root's spans are children of the
// span in tree.Context() (bt.WithContext), if any. Like bt.Tree.SubscribeBatch, Attach
// must be called on the goroutine that ticks the tree, between ticks (or from a
// function given to bt.Tree.Do).
func Attach(tree *bt.Tree, opts ...Option) (*Observer, error) {
	if tree == nil {
		return nil, errNilTree
	}
	c := config{tp: otel.GetTracerProvider(), mp: otel.GetMeterProvider()}
	for _, opt := range opts {
		opt(&c)
	}
	if c.tp == nil || c.mp == nil {
		return nil, errors.New("btotel: nil provider")
	}
	o := &Observer{
		tree:   tree,
		tracer: c.tp.Tracer(ScopeName),
		base:   trace.ContextWithSpan(context.Background(), trace.SpanFromContext(tree.Context())),
		nodes:  make([]node, tree.Len()),
	}
	o.ticks = tree.Ticks()
	o.describe()
	if err := o.initMetrics(c.mp); err != nil {
		return nil, err
	}
	o.cancel = tree.SubscribeBatch(o.batch)
	o.cancelAsync = tree.OnAsyncStart(o.asyncStart)
	return o, nil
}

// describe fills in the nodes' parents and attributes.
func (o *Observer) describe() {
	o.tree.Walk(func(n *bt.Node, _ int) bool {
		nd := &o.nodes[n.UID()-1] // its parent is set: parents come first
		nd.name = n.Name()
		nd.attrs = []attribute.KeyValue{
			AttrNodeName.String(n.Name()),
			AttrNodeID.String(n.ID()),
			AttrNodePath.String(n.Path()),
			AttrNodeUID.Int(int(n.UID())),
		}
		if nd.parent == 0 && o.tree.ID() != "" {
			nd.attrs = append(nd.attrs, AttrTreeID.String(o.tree.ID()))
		}
		for i := range n.NumChildren() {
			o.nodes[n.Child(i).UID()-1].parent = n.UID()
		}
		return true
	})
}

// Close detaches the Observer from its tree: it ends the spans of the activations under
// way (without a status: the tree goes on without the Observer) and stops reporting
// metrics. Like Attach, it must be called between ticks. Closing again does nothing.
func (o *Observer) Close() error {
	if o.closed {
		return nil
	}
	o.closed = true
	o.cancel() // hands over the changes not heard yet
	o.cancelAsync()
	now := o.tree.Clock().Now()
	for i := range o.nodes {
		nd := &o.nodes[i]
		if nd.span != nil && nd.own {
			nd.span.End(trace.WithTimestamp(now))
		}
		nd.span = nil
	}
	return o.closeMetrics()
}

// batch hears of a batch of changes, on the ticking goroutine.
func (o *Observer) batch(b bt.Batch) {
	o.mu.Lock()
	for _, c := range b.Changes {
		o.change(c, b.Time)
	}
	o.mu.Unlock()
	o.tick(b)
}

// change turns one status change into what it starts or ends.
func (o *Observer) change(c bt.Change, at time.Time) {
	uid, prev, s := c.UID(), c.Previous(), c.Status()
	switch {
	case s == bt.Running:
		o.open(uid, at)
	case s == bt.Idle && prev == bt.Running:
		o.end(uid, halted, at)
	case s == bt.Success || s == bt.Failure:
		k := success
		if s == bt.Failure {
			k = failure
		}
		if o.nodes[uid-1].span != nil || prev == bt.Running {
			o.end(uid, k, at)
		} else {
			o.instant(uid, k, at)
		}
	}
}

// open begins the span of uid's activation, and those of its ancestors that have none
// yet (a decorator of the user's that does not mark itself Running before its child
// does), unless it has one already: an async action's, begun when its work started.
func (o *Observer) open(uid uint16, at time.Time) {
	nd := &o.nodes[uid-1]
	if nd.span != nil {
		return
	}
	ctx := o.base
	if nd.parent != 0 {
		o.open(nd.parent, at)
		parent := o.nodes[nd.parent-1].span
		if !parent.IsRecording() { // no span of the subtree would be sampled
			nd.span, nd.own, nd.start = parent, false, at
			return
		}
		ctx = trace.ContextWithSpan(ctx, parent)
	}
	_, nd.span = o.tracer.Start(ctx, nd.name, trace.WithTimestamp(at), trace.WithAttributes(nd.attrs...))
	nd.own, nd.start = true, at
}

// end ends uid's activation: its span, with its outcome k.
func (o *Observer) end(uid uint16, k int, at time.Time) {
	nd := &o.nodes[uid-1]
	nd.counts[k]++
	if nd.span == nil { // a change heard before Attach's time
		return
	}
	o.ran(nd, k, at.Sub(nd.start))
	if nd.own {
		if nd.span.IsRecording() {
			nd.span.SetAttributes(AttrNodeStatus.String(outcomes[k]))
		}
		nd.span.End(trace.WithTimestamp(at))
	}
	nd.span = nil
}

// instant records an activation that began and ended in one change (a leaf that
// completed in the tick that ticked it): an event on the span of its nearest ancestor
// that has one, or a span of its own when none has.
func (o *Observer) instant(uid uint16, k int, at time.Time) {
	nd := &o.nodes[uid-1]
	a := nd.parent
	for a != 0 && o.nodes[a-1].span == nil {
		a = o.nodes[a-1].parent
	}
	if a == 0 {
		o.open(uid, at)
		o.end(uid, k, at)
		return
	}
	nd.counts[k]++
	if sp := o.nodes[a-1].span; sp.IsRecording() {
		attrs := append(nd.attrs[:len(nd.attrs):len(nd.attrs)], AttrNodeStatus.String(outcomes[k]))
		sp.AddEvent(nd.name, trace.WithTimestamp(at), trace.WithAttributes(attrs...))
	}
}

// asyncStart gives an async action's work the context of the node's span, which it
// begins at once: so the work's own spans nest under it.
func (o *Observer) asyncStart(ctx context.Context, n *bt.Node) context.Context {
	o.tree.Flush() // so that the node's ancestors have their spans
	o.mu.Lock()
	o.open(n.UID(), o.tree.Clock().Now())
	sp := o.nodes[n.UID()-1].span
	o.mu.Unlock()
	return trace.ContextWithSpan(ctx, sp)
}
