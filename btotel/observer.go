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

	// By UID-1: what a change needs (act), then what only some need. They are apart so
	// that a tick's changes walk through little memory.
	act   []activation
	start []time.Time // when the activation under way began
	floor []time.Time // when the last of its children's spans ended: its own ends no sooner
	info  []info

	// The run of the tree under way (see hear): the root's span that a tick beginning a
	// run starts, which the root's activation takes (pending, begun at pendingAt); and
	// in a run the Observer does not hear (deaf), that span, which async actions' work
	// gets.
	pending   trace.Span
	pendingAt time.Time
	deaf      bool
	dropped   trace.Span

	cancel      func() // the batch subscription
	cancelAsync func() // the OnAsyncStart registration
	cancelLoad  func() // the OnReload registration
	closed      bool

	mu  sync.Mutex // guards the activations' counts, which the metrics' callback reads
	seq uint32     // counts the batches
	metrics
}

// activation is the activation of a node under way: its span, nil when there is none.
// Under a span that does not record, a node makes none of its own and shares its
// parent's (own is false): see the package doc on sampling.
type activation struct {
	span   trace.Span
	parent uint16 // the parent's UID; 0 for the root
	own    bool   // span is the node's own
	rec    bool   // span records
	seq    uint32 // the batch that began it (Observer.seq)
	async  bool   // begun when an async action's work started (see asyncStart)
	// The node's activations that ended, by outcome (see metrics.go).
	counts [nOutcomes]uint64
}

// info describes a node for its spans, events and measurements.
type info struct {
	name  string
	attrs []attribute.KeyValue // name, ID, path, UID (and the tree's ID for the root)
	// The metrics' attributes, by outcome, as the variadic arguments of Record and
	// Observe: slices made once, since a call would make one each time.
	rec [nOutcomes][]metric.RecordOption
	obs [nOutcomes][]metric.ObserveOption
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
	}
	o.ticks = tree.Ticks()
	o.describe()
	if err := o.initMetrics(c.mp); err != nil {
		return nil, err
	}
	o.cancel = tree.SubscribeBatchWhen(o.batch, o.hear)
	o.cancelAsync = tree.OnAsyncStart(o.asyncStart)
	o.cancelLoad = tree.OnReload(o.reloaded)
	return o, nil
}

// describe makes the state of the nodes of the tree as it is now: their parents and
// attributes, and no activation.
func (o *Observer) describe() {
	n := o.tree.Len()
	o.act, o.start, o.floor, o.info = make([]activation, n), make([]time.Time, n), make([]time.Time, n), make([]info, n)
	o.tree.Walk(func(n *bt.Node, _ int) bool {
		i := n.UID() - 1 // its parent is set: parents come first
		nd := &o.info[i]
		nd.name = n.Name()
		nd.attrs = []attribute.KeyValue{
			AttrNodeName.String(n.Name()),
			AttrNodeID.String(n.ID()),
			AttrNodePath.String(n.Path()),
			AttrNodeUID.Int(int(n.UID())),
		}
		if o.act[i].parent == 0 && o.tree.ID() != "" {
			nd.attrs = append(nd.attrs, AttrTreeID.String(o.tree.ID()))
		}
		for i := range n.NumChildren() {
			o.act[n.Child(i).UID()-1].parent = n.UID()
		}
		return true
	})
}

// Close detaches the Observer from its tree: it ends the spans of the activations under
// way (without a status: the tree goes on without the Observer), and the root's span of
// a run whose first tick did not start the root (see hear), and stops reporting
// metrics. Like Attach, it must be called between ticks. Closing again does nothing.
func (o *Observer) Close() error {
	if o.closed {
		return nil
	}
	o.closed = true
	o.cancel() // hands over the changes not heard yet
	o.cancelAsync()
	o.cancelLoad()
	now := o.tree.Clock().Now()
	for _, sp := range [...]trace.Span{o.pending, o.dropped} {
		if sp != nil {
			sp.End(trace.WithTimestamp(now))
		}
	}
	o.pending, o.dropped = nil, nil
	for i := range o.act {
		if a := &o.act[i]; a.span != nil {
			if a.own {
				a.span.End(trace.WithTimestamp(now))
			}
			a.span = nil
		}
	}
	return o.closeMetrics()
}

// reloaded follows a reload of the tree (bt.Tree.Reload), on the ticking goroutine,
// between ticks: the nodes the reload halted or removed were heard of, their spans
// ended, in a batch before. A node that a node of the new tree matches
// (ReloadReport.NewUID) carries its activation, its span and its counts over to it;
// the counts of the others, whose attributes the new tree may no longer have, go.
func (o *Observer) reloaded(r *bt.ReloadReport) {
	o.mu.Lock()
	defer o.mu.Unlock()
	act, start, floor := o.act, o.start, o.floor
	o.describe()
	o.describeMetrics()
	for i := range act {
		old := &act[i]
		uid := r.NewUID(uint16(i + 1))
		if uid == 0 {
			if old.span != nil && old.own { // (none: the reload halted it)
				old.span.End()
			}
			continue
		}
		a := &o.act[uid-1]
		parent := a.parent
		*a = *old
		a.parent = parent
		o.start[uid-1], o.floor[uid-1] = start[i], floor[i]
	}
}

// hear tells the tree, at each tick, whether the Observer hears it
// (bt.Tree.SubscribeBatchWhen). A tick that begins a run of the tree starts the root's
// span, with which the sampler decides for the run's trace; the Observer does not hear
// a run whose trace is dropped while the metrics are off, since nothing of it would be
// exported. The other ticks of a run are heard or not as its first was (a run begun
// before Attach is heard).
func (o *Observer) hear() bool {
	// A run is under way while the root is Running, or while its observers see it so
	// (a root that returned Skipped after it went Running is Idle: see bt.Node.Status).
	root := o.tree.Root().UID()
	if o.tree.Status() == bt.Running || o.act[root-1].span != nil {
		return !o.deaf
	}
	if o.dropped != nil { // the last run, not heard
		o.dropped.End()
		o.dropped = nil
	}
	sp := o.pending
	if sp == nil { // (a pending span is a run's whose first tick did not start the root)
		// The tick's batch read the clock already, if the tree records, but its Time is
		// not known before the batch is handed over: the root's children begin their
		// spans no sooner than this (see open).
		nd := &o.info[root-1]
		o.pendingAt = o.tree.Clock().Now()
		_, sp = o.tracer.Start(o.base, nd.name, trace.WithTimestamp(o.pendingAt), trace.WithAttributes(nd.attrs...))
	}
	if o.deaf = !sp.IsRecording() && !o.metered(); o.deaf {
		o.pending, o.dropped = nil, sp
		return false
	}
	o.pending = sp
	return true
}

// batch hears of a batch of changes, on the ticking goroutine. Most changes of a tick
// need little: nodes reset after they completed need nothing, and under a span that
// does not record (when sampling dropped the trace) a node's activation is a count and
// a share of its parent's span. batch sees to those itself, and calls change for the
// others.
func (o *Observer) batch(b bt.Batch) {
	o.mu.Lock()
	o.seq++
	for _, c := range b.Changes {
		prev, s := c.Previous(), c.Status()
		if s == bt.Idle && prev != bt.Running {
			continue
		}
		a := &o.act[c.UID()-1]
		switch p := a.parent; {
		case a.span != nil:
			if !a.own && !a.async && s != bt.Running { // the end of a share
				k := outcome(s)
				a.counts[k]++
				a.span = nil
				if a.seq != o.seq {
					o.ran(c.UID(), k, b.Time.Sub(o.start[c.UID()-1]))
				}
				continue
			}
		case p != 0 && o.act[p-1].span != nil && !o.act[p-1].rec:
			if s == bt.Running { // the start of a share
				a.span, a.own, a.rec, a.seq, a.async = o.act[p-1].span, false, false, o.seq, false
				o.start[c.UID()-1] = b.Time
			} else { // a leaf done at once, or an end begun before Attach
				a.counts[outcome(s)]++
			}
			continue
		}
		o.change(c, b.Time)
	}
	o.mu.Unlock()
	o.tick(b)
}

// outcome returns the outcome of an activation that ended with s: Success, Failure,
// or Idle for a halt.
func outcome(s bt.Status) int {
	switch s {
	case bt.Failure:
		return failure
	case bt.Idle:
		return halted
	}
	return success
}

// change turns one status change into what it starts or ends.
func (o *Observer) change(c bt.Change, at time.Time) {
	uid, prev, s := c.UID(), c.Previous(), c.Status()
	switch {
	case s == bt.Running:
		if o.act[uid-1].span == nil {
			o.open(uid, at)
		}
	case s == bt.Idle: // from Running: batch passes no other
		o.end(uid, halted, at)
	default: // Success or Failure (observers never see Skipped)
		k := outcome(s)
		if o.act[uid-1].span != nil || prev == bt.Running {
			o.end(uid, k, at)
		} else {
			o.instant(uid, k, at)
		}
	}
}

// open begins the activation of uid, and those of its ancestors that have none yet (a
// decorator of the user's that does not mark itself Running before its child does): a
// span, or a share of the parent's that does not record.
func (o *Observer) open(uid uint16, at time.Time) {
	a := &o.act[uid-1]
	a.async = false
	o.start[uid-1], o.floor[uid-1] = at, time.Time{}
	ctx := o.base
	switch p := a.parent; {
	case p == 0 && o.pending != nil: // the root: the span hear began for the run
		a.span, o.pending = o.pending, nil
		a.own, a.rec, a.seq = true, a.span.IsRecording(), o.seq
		o.start[uid-1] = o.pendingAt
		return
	case p != 0:
		if o.act[p-1].span == nil {
			o.open(p, at)
		}
		pa := &o.act[p-1]
		if !pa.rec { // no span of the subtree would be sampled
			a.span, a.own, a.rec, a.seq = pa.span, false, false, o.seq
			return
		}
		ctx = trace.ContextWithSpan(ctx, pa.span)
		if s := o.start[p-1]; at.Before(s) { // a span begins no sooner than its parent's
			at = s
			o.start[uid-1] = at
		}
	}
	nd := &o.info[uid-1]
	_, a.span = o.tracer.Start(ctx, nd.name, trace.WithTimestamp(at), trace.WithAttributes(nd.attrs...))
	a.own, a.rec, a.seq = true, a.span.IsRecording(), o.seq
}

// end ends uid's activation, with outcome k.
func (o *Observer) end(uid uint16, k int, at time.Time) {
	o.act[uid-1].counts[k]++
	a := &o.act[uid-1]
	if a.span == nil { // begun before the Observer was attached
		return
	}
	// A span ends no sooner than it began and than its children's spans ended: an async
	// action's span began when its work started, after the time of the tick's batches
	// (see asyncStart), and ends when its end is heard, after its work's end.
	if a.async {
		at = o.tree.Clock().Now()
	}
	if s := o.start[uid-1]; at.Before(s) {
		at = s
	}
	if f := o.floor[uid-1]; at.Before(f) {
		at = f
	}
	if p := a.parent; p != 0 && o.floor[p-1].Before(at) {
		o.floor[p-1] = at
	}
	if a.seq != o.seq { // it outlived the batch that began it
		o.ran(uid, k, at.Sub(o.start[uid-1]))
	}
	if a.own {
		if a.rec {
			a.span.SetAttributes(AttrNodeStatus.String(outcomes[k]))
		}
		a.span.End(trace.WithTimestamp(at))
	}
	a.span = nil
}

// instant records an activation that began and ended in one change (a leaf that
// completed in the tick that ticked it): an event on the span of its nearest ancestor
// that has one, or a span of its own when none has.
func (o *Observer) instant(uid uint16, k int, at time.Time) {
	p := o.act[uid-1].parent
	for p != 0 && o.act[p-1].span == nil {
		p = o.act[p-1].parent
	}
	if p == 0 {
		o.open(uid, at)
		o.end(uid, k, at)
		return
	}
	o.act[uid-1].counts[k]++
	if pa := &o.act[p-1]; pa.rec {
		nd := &o.info[uid-1]
		attrs := append(nd.attrs[:len(nd.attrs):len(nd.attrs)], AttrNodeStatus.String(outcomes[k]))
		pa.span.AddEvent(nd.name, trace.WithTimestamp(at), trace.WithAttributes(attrs...))
	}
}

// asyncStart gives an async action's work the context of the node's span, which it
// begins at once: so the work's own spans nest under it.
func (o *Observer) asyncStart(ctx context.Context, n *bt.Node) context.Context {
	if o.deaf { // a run whose trace is dropped: its span context says so
		return trace.ContextWithSpan(ctx, o.dropped)
	}
	o.tree.Flush() // so that the node's ancestors have their spans
	o.mu.Lock()
	if o.act[n.UID()-1].span == nil {
		o.open(n.UID(), o.tree.Clock().Now())
	}
	o.act[n.UID()-1].async = true
	sp := o.act[n.UID()-1].span
	o.mu.Unlock()
	return trace.ContextWithSpan(ctx, sp)
}
