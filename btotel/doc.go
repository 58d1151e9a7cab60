// Package btotel exports the runs of a behavior tree as OpenTelemetry traces and
// metrics, to whatever backend a Go service sends its own (Jaeger, Tempo, Prometheus,
// Datadog…):
//
//	o, err := btotel.Attach(tree) // the global providers, or WithTracerProvider, WithMeterProvider
//	if err != nil { … }
//	defer o.Close()
//	tree.TickWhileRunning(ctx, 0)
//
// It is a module of its own (github.com/gobt/bt/btotel), so that programs that do not
// use it keep bt's standard-library-only dependencies. It requires
// go.opentelemetry.io/otel, otel/trace, otel/metric and otel/sdk at v1.46.0 (and, in its
// tests, otelhttp v0.71.0): the newest releases that build with Go 1.25, which the
// library needs (v1.47.0 needs Go 1.26). Programs may use newer ones.
//
// # Traces
//
// Each activation of a node — from the tick that finds it Idle and leaves it Running
// to the tick that sees it complete, or the halt that stops it — is a span, named after
// the node (Node.Name), child of its parent's span: the spans nest as the tree does,
// and a run of the tree, from the root's start to its completion, is one trace. The
// root's spans are children of the span in the tree's context (bt.WithContext), if
// any: a tree run by an HTTP handler with the request's context is part of the
// request's trace. A span has the attributes
//
//	bt.node.name    Node.Name
//	bt.node.id      Node.ID: the node's type (Sequence, an action's ID)
//	bt.node.path    Node.Path: "nav/Sequence::7", unique in the tree
//	bt.node.uid     Node.UID, as Groot2 and the .btlog files number the nodes
//	bt.tree.id      Tree.ID, on the root's spans (when the tree was built from a definition)
//	bt.node.status  how it ended: "success", "failure" or "halted"
//
// A halted activation ends with bt.node.status "halted"; so does a control that went
// Running and then was skipped, which the tree's observers see go back to Idle. The
// span's status code is left unset: a FAILURE is an answer a tree asks for (a
// Fallback tries the next child), not an error.
//
// A leaf that completes in the tick that ticked it (a condition, an action done at
// once) has no span of its own but an event on its parent's span, with the same
// attributes and the node's name. That is the choice of cost: in a tree that checks
// ten conditions at every tick of a 100 Hz loop, a span per condition would be 1,000
// spans a second to start, end, export and store, each with its IDs and its own row in
// the backend; an event is one entry appended to a span that exists anyway, and
// nothing at all when the parent's span is not sampled. The leaf's outcome and its
// time are in the event; a duration it has none to give (see Times). A leaf that has
// no parent with a span (a tree that is a single action) gets a span.
//
// There is no span per tick: a node's activation often outlives the tick that began
// it, so a tick's span could not be its parent, and the ticks of a tree that ticks at
// 100 Hz would be most of what it exports. The ticks' durations are a metric.
//
// # Async actions
//
// The work of an async action (bt.NewAsync, bt.NewAsyncAction) runs in a goroutine
// under a context.Context: the Observer puts the node's span in it
// (bt.Tree.OnAsyncStart), so the spans the work makes — an HTTP call through an
// otelhttp client, a database query, a call to another service — are children of the
// node's span, and their traces go on in the services they call. The node's span then
// begins when the work starts, by the tree's clock read at that moment, and the spans
// of its ancestors that were not begun yet with it (the Observer first hears of the
// tick's changes so far, through bt.Tree.Flush).
//
// A tree reloaded with a new definition (bt.Tree.Reload) goes on in the same traces:
// the nodes the reload keeps keep their spans under way, those it halts end theirs
// "halted", and the new nodes have spans of their own.
//
// # Times
//
// A tree reads its clock once per tick (see bt.Tree.SubscribeBatch): the spans and
// events begin and end at the time the tick began that started or ended them. So an
// activation that begins and ends in one tick has a span of no length; the length of
// an activation that lasts is counted in whole ticks. The spans of async actions are
// the exception: theirs begins when the work starts and ends when the Observer hears
// that the node completed (the clock read at each), so that it encloses the spans of
// the work. The root's span begins when the first tick of its run asks the sampler
// (see Sampling and cost), a reading of the clock of its own, just before the root is
// ticked. A span never begins before its parent's, nor ends before its children's.
// The tree's clock is its own (bt.WithClock): a test's manual clock gives the spans
// its times.
//
// # Metrics
//
//	bt.node.completions  counter, {completion}: activations that ended, by node and bt.node.status
//	bt.node.duration     histogram, s: running time of the activations that outlived their first tick
//	bt.tick.duration     histogram, s: the ticks' durations (TickOnce, TickExactlyOnce)
//
// The names follow OpenTelemetry's semantic conventions: a namespace, the object
// measured, what of it; durations in seconds, counts with a unit in braces. The nodes'
// metrics have the attributes bt.node.name, bt.node.id, bt.node.path and
// bt.node.status (and bt.tree.id for a tree built from a definition), not bt.node.uid:
// the trees built from one definition add up, whatever their number. An activation
// that ends in the tick that began it counts in bt.node.completions, not in
// bt.node.duration: its duration is nothing the tree's clock can tell (see Times).
// bt.node.completions is an observable counter: a tick adds to counts of the
// Observer's own, which the SDK reads when it collects.
//
// # Sampling and cost
//
// The Observer runs on the goroutine that ticks the tree, in the batch of changes the
// tree hands over at the end of each tick. Spans end into the SDK's span processor:
// with sdktrace.WithBatcher, as services use it, a tick never waits for an export
// (sdktrace.WithSyncer, which the tests use, exports as each span ends).
//
// The sampler decides once per run of the tree, for the run's trace: the first tick
// of a run (a tick that finds the root Idle) starts the root's span before it ticks
// the root (bt.Tree.SubscribeBatchWhen), and the root's activation takes that span.
// When the sampler drops it and the metrics are off, the Observer does not hear the
// run at all: a tree that nothing else observes records none of its changes and ticks
// as a tree nobody observes, but for the root's span, started and ended once a run,
// and a call a tick. The work of its async actions gets the root's span, unsampled:
// the services it calls drop their spans too. The metrics are off when the Observer's
// histograms are not enabled (metric.Float64Histogram.Enabled: a no-op meter provider,
// the global one before a real one is set, a view that drops them); the completions
// of the runs not heard are then not counted, even if a view keeps that counter.
//
// With metrics, the Observer hears every run, to count it. In a dropped run, a node
// whose parent's span does not record starts no span of its own and takes its
// parent's: a few dozen instructions per status change, on top of the engine's
// recording of it. That is what a ParentBased sampler, the SDK's default, would decide
// for each of those spans anyway; a sampler that keeps a child whose parent it dropped
// has its children dropped all the same.
//
// A run is traced or dropped as a whole, from its first tick: a node Running across
// ticks of a dropped run has no span, and the next run, sampled, has spans for all its
// activations from their starts. (Were the sampler asked at every tick, a run's spans
// would belong to several traces, or a span begin with a child already under way.) A
// run begun before Attach is heard: its nodes that were Running then have spans only
// from when a child of theirs starts (see open in observer.go), or none. A first tick
// that does not start the root (a pre-condition skips it) leaves its span to the next
// tick: the root's span then begins at that first tick.
//
// When the Observer's answer changes (a dropped run after a heard one, or the other
// way) and nothing else observes the tree, the tree switches between recording and
// not with a walk of its status bytes: about 8,200 instructions on Flat's 1,001 nodes
// (bt's BenchmarkFlatWatchedSwitching), 0.4 times the bare tick, once per switch. A
// sampler that keeps one run in a hundred switches twice for each run it keeps.
//
// The figures, measured with a real SDK pipeline (sdktrace with tracetest's in-memory
// exporter; the SDK's metrics with a manual reader) on three trees: Flat, a Sequence
// of 1,000 AlwaysSuccess leaves, and Deep, a binary tree of 2,047 Sequences,
// Fallbacks and leaves, both done in one tick, so that each tick is a run (bt's tick
// benchmarks, bttest.Flat and Deep), and Running, a ReactiveSequence of ten conditions
// and an action that stays Running (a tree that runs for long: one run). Instructions
// per tick, counted by callgrind inside the tick (Tree.tick, where the Observer runs),
// the difference of N and 2N ticks over N (see bench/README.md; bench_test.go here),
// and the ratio to the bare tick; "before" is bt at 73bad9b, whose Observer heard
// every run:
//
//	                                           Flat           Deep           Running
//	bare tick                                  19,071         60,579           525
//	with a batch subscriber that does nothing  41,726  2.2×  149,935  2.5×   3,592  6.8×
//	Observer, its sampler dropping every trace 23,372  1.23×  65,355  1.08×    712  1.36×
//	  before                                  111,992  5.9×  449,932  7.5×   4,603  8.8×
//	the same, with the SDK's metrics          113,314  5.9×  351,601  5.8×   5,966  11×
//	Observer, sampling every trace          4,422,779     21,317,024        50,419
//
// With a dropping sampler and no metrics, the target — within twice the
// unobserved tick — is met: what remains is, on Flat and Deep, the root's span of each
// run (about 4,300 instructions: the SDK's Start of a span it drops, 2,700 of them,
// its End and the clock's reading) and, on every tree, the tick's general path instead
// of its fast one, with the call that asks the Observer (190 instructions on Running,
// 22 of them the Observer's). bench/instructions checks the three ratios against 2.
// With metrics the Observer hears every change: the tick costs what the engine's
// recording costs (second line) and the Observer's loop over the changes (some 35 to
// 40 instructions a change on Flat and Deep), as before; the metrics add little to
// that, mostly the SDK's Record of the tick's duration, which varies from run to run
// (1,100 to 5,700 instructions on Running). A tree that runs for long allocates
// nothing per tick once warm, with metrics or without (TestDroppedTracesDoNotAllocate).
// Sampling every trace costs what the SDK costs per span and event: about 4,400
// instructions per node of Flat (mostly events), 9,400 to 10,400 per node of Deep
// (mostly spans). Most counts repeat to the unit; a few moved now and then, for a
// cause not found (the runtime's work in the counted thread is a suspect): Running's
// 712 once came out 783, Flat's 113,314 with metrics once 83,211.
//
// The Observer subscribes to the tree's batches itself (bt.Tree.SubscribeBatchWhen)
// rather than through btlog's stream (btlog.NewStream), which hands the changes to a
// goroutine of its own: the span of an async action's node must exist on the ticking
// goroutine, when the work starts, and so must the Observer's state of its ancestors.
package btotel
