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
// the work. A span never ends before those of its children. The tree's clock is its
// own (bt.WithClock): a test's manual clock gives the spans its times.
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
// A node whose parent's span does not record (the sampler dropped the trace) starts no
// span of its own and takes its parent's: a dropped trace costs a span for the root's
// activation, and a few dozen instructions per status change. That is what a
// ParentBased sampler, the SDK's default, would decide for each of those spans anyway;
// a sampler that keeps a child whose parent it dropped has its children dropped all
// the same. The work of an async action under a dropped trace gets the unsampled span
// context: the services it calls drop theirs too.
//
// The figures, measured with a real SDK pipeline (sdktrace with tracetest's in-memory
// exporter; the SDK's metrics with a manual reader) on three trees: Flat, a Sequence
// of 1,000 AlwaysSuccess leaves, and Deep, a binary tree of 2,047 Sequences,
// Fallbacks and leaves, both done in one tick (bt's tick benchmarks, bttest.Flat and
// Deep), and Running, a ReactiveSequence of ten conditions and an action that stays
// Running (a tree that runs for long). Instructions per tick, counted by callgrind
// inside the tick (bare, or with a batch subscriber that does nothing) and inside the
// Observer's batch function (the Observer's own cost, on top of the second line), the
// difference of N and 2N ticks over N (see bench/README.md; bench_test.go here):
//
//	                                              Flat        Deep   Running
//	bare tick                                   20,162      70,722       580
//	with a batch subscriber that does nothing   88,618     284,216     3,519
//	Observer, its sampler dropping every trace +70,567    +200,066      +899
//	the same, with the SDK's metrics           +72,081    +200,693    +2,063
//	Observer, sampling every trace          +4,356,593 +18,978,037   +43,395
//
// The engine records no change while nobody observes the tree; the first subscriber,
// whatever it is, costs the tick the engine's observing (second line: 4 to 6 times the
// bare tick of these trees, whose leaves do nothing). With a sampler that drops every
// trace, the Observer adds 0.3 to 0.8 times that again: the whole tick is 7 to 8 times
// the bare one, 1.3 to 1.8 times the tick with a subscriber that does nothing. So the
// issue's target, within twice the unobserved tick, is not met by these trees of
// leaves that do nothing, where the engine's observing alone is over it; it is by
// trees whose leaves do work of their own (not measured here: by the counts above,
// with a microsecond of work per leaf, what observing adds to Flat or Deep is about a
// tenth of the tick). Most of a dropped trace's cost is the batch loop's few dozen
// instructions per change; Flat also starts and ends a span for its root at every
// tick (the SDK's: 9 allocations, 540 bytes). The metrics add little, mostly the
// SDK's Record of the tick's duration, which varies from run to run (1,100 to 5,700
// instructions over three runs on Running). A tree that runs for long allocates
// nothing per tick once warm, metrics included (TestDroppedTracesDoNotAllocate).
// Sampling every trace costs what the SDK costs per span and event: about 4,400
// instructions per node of Flat (mostly events), 9,300 per
// node of Deep (mostly spans).
//
// The Observer subscribes to the tree's batches itself (bt.Tree.SubscribeBatch) rather
// than through btlog's stream (btlog.NewStream), which hands the changes to a goroutine
// of its own: the span of an async action's node must exist on the ticking goroutine,
// when the work starts, and so must the Observer's state of its ancestors.
package btotel
