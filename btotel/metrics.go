package btotel

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	"github.com/gobt/bt"
)

// The metrics' names, in OpenTelemetry's semantic-convention style: a namespace (bt),
// the object measured, then what of it; durations in seconds.
const (
	// MetricNodeCompletions counts the activations of each node that ended, by
	// AttrNodeStatus: "success", "failure", "halted". Its attributes are the node's
	// name, ID and path (and the tree's ID), so the trees built from one definition
	// add up. An Int64ObservableCounter: the tick adds to a count of its own, which the
	// SDK reads when it collects.
	MetricNodeCompletions = "bt.node.completions"
	// MetricNodeDuration is a histogram of the running time of the activations that
	// outlived the tick that began them (from the tick that ticked the node first to
	// the tick that saw it complete or be halted), with the attributes of
	// MetricNodeCompletions. An activation that ends within its first tick has no
	// duration the tree's clock can tell, since the clock is read once per tick: it
	// counts in MetricNodeCompletions only.
	MetricNodeDuration = "bt.node.duration"
	// MetricTickDuration is a histogram of how long the tree's ticks took, by the
	// tree's clock (Tree.TickOnce and TickExactlyOnce, from the start of the tick to
	// the end of the last of its batches of changes), with the tree's ID.
	MetricTickDuration = "bt.tick.duration"
)

// metrics is what an Observer keeps for its metrics.
type metrics struct {
	completions metric.Int64ObservableCounter
	duration    metric.Float64Histogram
	tickTime    metric.Float64Histogram
	tickOpts    []metric.RecordOption // see info.rec
	reg         metric.Registration

	tickStart time.Time // when the tick under way began
	inTick    bool      // a batch of the tick under way was heard
	ticks     uint64    // Tree.Ticks at the end of the last tick heard
}

func (o *Observer) initMetrics(mp metric.MeterProvider) (err error) {
	m := mp.Meter(ScopeName)
	o.completions, err = m.Int64ObservableCounter(MetricNodeCompletions,
		metric.WithUnit("{completion}"),
		metric.WithDescription("Activations of a behavior-tree node that ended, by how they ended."))
	if err != nil {
		return err
	}
	o.duration, err = m.Float64Histogram(MetricNodeDuration,
		metric.WithUnit("s"),
		metric.WithDescription("Running time of the activations of a behavior-tree node that outlived their first tick."),
		metric.WithExplicitBucketBoundaries(0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300))
	if err != nil {
		return err
	}
	o.tickTime, err = m.Float64Histogram(MetricTickDuration,
		metric.WithUnit("s"),
		metric.WithDescription("Duration of a tick of a behavior tree."),
		metric.WithExplicitBucketBoundaries(1e-6, 5e-6, 1e-5, 5e-5, 1e-4, 5e-4, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1))
	if err != nil {
		return err
	}
	o.describeMetrics()
	o.reg, err = m.RegisterCallback(o.observe, o.completions)
	return err
}

// describeMetrics makes the attributes of the metrics, for the nodes of the tree as it
// is now (and again after a reload).
func (o *Observer) describeMetrics() {
	var tree []attribute.KeyValue
	if id := o.tree.ID(); id != "" {
		tree = append(tree, AttrTreeID.String(id))
	}
	o.tickOpts = []metric.RecordOption{metric.WithAttributeSet(attribute.NewSet(tree...))}
	for i := range o.info {
		nd := &o.info[i]
		for k := range nOutcomes {
			kv := append(tree[:len(tree):len(tree)], nd.attrs[:3]...) // name, ID, path
			opt := metric.WithAttributeSet(attribute.NewSet(append(kv, AttrNodeStatus.String(outcomes[k]))...))
			nd.rec[k], nd.obs[k] = []metric.RecordOption{opt}, []metric.ObserveOption{opt}
		}
	}
}

// observe reports the completions counted so far, when the SDK collects.
func (o *Observer) observe(_ context.Context, obs metric.Observer) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	for i := range o.act {
		for k, n := range o.act[i].counts {
			if n > 0 {
				obs.ObserveInt64(o.completions, int64(n), o.info[i].obs[k]...)
			}
		}
	}
	return nil
}

// ran records the running time d of an activation of uid that ended with outcome k.
func (o *Observer) ran(uid uint16, k int, d time.Duration) {
	if d > 0 {
		o.duration.Record(context.Background(), d.Seconds(), o.info[uid-1].rec[k]...)
	}
}

// tick records the duration of the tick whose batch b is, when b is its last.
func (o *Observer) tick(b bt.Batch) {
	if !o.inTick {
		o.tickStart, o.inTick = b.Time, true
	}
	if !b.End {
		return
	}
	o.inTick = false
	if n := o.tree.Ticks(); n != o.ticks { // not a Halt's
		o.ticks = n
		o.tickTime.Record(context.Background(), o.tree.Clock().Now().Sub(o.tickStart).Seconds(), o.tickOpts...)
	}
}

// metered reports whether the Observer's metrics are recorded: whether its histograms
// are enabled (metric.Float64Histogram.Enabled), which they are not when the meter
// provider is a no-op, the global one before a real one is set, or a view drops them.
// The Observer then counts no completions in the runs it does not hear (see hear).
func (o *Observer) metered() bool {
	ctx := context.Background()
	return o.duration.Enabled(ctx) || o.tickTime.Enabled(ctx)
}

func (o *Observer) closeMetrics() error { return o.reg.Unregister() }
