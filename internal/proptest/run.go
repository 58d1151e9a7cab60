package proptest

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
)

// Check builds the tree of seed and drives it five times — without an observer, with
// one told of each change (Subscribe), with one told in batches (SubscribeBatch), with
// that one and a subscriber of SubscribeBatchWhen that hears ticks at random, and with
// an observer of SubscribeBatchWhen alone that hears ticks at random — each time in a
// synctest bubble, checking the invariants after every step; then it checks that the
// runs went the same way, and that the observers told of every change heard the same
// changes, at the same times. Failures name the seed.
func Check(t *testing.T, seed uint64) {
	t.Helper()
	var traces [5][]string
	for i, mode := range []observer{none, each, batched, batchedBeside, batchedAtRandom} {
		synctest.Test(t, func(t *testing.T) {
			t.Helper()
			traces[i] = drive(t, seed, mode)
		})
		if t.Failed() {
			return
		}
	}
	compare := func(what string, a, b []string) {
		t.Helper()
		for i := range max(len(a), len(b)) {
			var x, y string
			if i < len(a) {
				x = a[i]
			}
			if i < len(b) {
				y = b[i]
			}
			if x != y {
				t.Fatalf("seed %d: the runs %s differ at step %d:\n%s\n%s\n%s", seed, what, i, x, y, Describe(seed))
			}
		}
	}
	withoutEvents := func(trace []string) []string {
		out := make([]string, len(trace))
		for i, s := range trace {
			out[i], _, _ = strings.Cut(s, " events ")
		}
		return out
	}
	compare("without and with an observer", traces[0], withoutEvents(traces[1]))
	compare("observed change by change and in batches", traces[1], traces[2])
	compare("observed in batches, beside a subscriber that hears ticks at random, and alone", traces[2], traces[3])
	compare("without an observer and with one that hears ticks at random", traces[0], withoutEvents(traces[4]))
}

// observer is how a run is observed (see Check).
type observer int

const (
	none            observer = iota
	each                     // Subscribe
	batched                  // SubscribeBatch
	batchedBeside            // SubscribeBatch, and a SubscribeBatchWhen that hears ticks at random
	batchedAtRandom          // SubscribeBatchWhen, hearing ticks at random
)

// Describe returns the tree of seed, one node a line, for failure reports.
func Describe(seed uint64) string {
	r := rand.New(rand.NewPCG(seed, seed^pcgStream))
	tree, err := bt.NewTree(newGen(r, newWorld(), seed).tree())
	if err != nil {
		return err.Error()
	}
	var b strings.Builder
	tree.Walk(func(n *bt.Node, depth int) bool {
		fmt.Fprintf(&b, "%s%s\n", strings.Repeat("  ", depth), n.Path())
		return true
	})
	return b.String()
}

const pcgStream = 0x9e3779b97f4a7c15

// drive runs the tree of seed: random steps, then a Halt. It returns the trace of
// what happened, and fails t where an invariant does not hold.
func drive(t *testing.T, seed uint64, mode observer) []string {
	r := rand.New(rand.NewPCG(seed, seed^pcgStream))
	d := newDriver(t, seed, r)
	if d == nil {
		return nil
	}
	if mode != none {
		d.mode, d.record = mode, true
		d.hears = rand.New(rand.NewPCG(seed, pcgStream^1)) // (r draws the steps: the same in every mode)
		d.watch()
	}
	for i := range 15 + r.IntN(30) {
		d.step(i, r)
	}
	d.finish(mode != none && mode != batchedAtRandom)
	return d.trace
}

// newDriver builds the tree of seed, drawing it from r, with a blackboard that holds
// the entries its scripts use.
func newDriver(t *testing.T, seed uint64, r *rand.Rand) *driver {
	w := newWorld()
	g := newGen(r, w, seed)
	spec := g.tree()
	bb := blackboard.New()
	for _, e := range entries {
		if err := bb.Local(e.key).Set(e.val); err != nil {
			t.Fatal(err)
		}
	}
	tree, err := bt.NewTree(spec, bt.WithBlackboard(bb), bt.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatalf("seed %d: the generator made a tree that does not build: %v", seed, err)
		return nil
	}
	d := &driver{t: t, seed: seed, tree: tree, w: w, timed: g.timed}
	d.findNodes()
	return d
}

// findNodes finds the tree's nodes by name.
func (d *driver) findNodes() {
	d.nodes = map[string]*bt.Node{}
	d.tree.Walk(func(n *bt.Node, _ int) bool { d.nodes[n.Name()] = n; return true })
}

// finish halts the tree and checks that everything stopped; the blackboard ends the
// trace.
func (d *driver) finish(observed bool) {
	tree, w := d.tree, d.w
	d.do("final Halt", func() (bt.Status, error) { return bt.Idle, tree.Halt() })
	d.checkIdle("the final Halt")
	for name, l := range w.statefuls {
		if l.running {
			d.fail("%s: started and never completed nor halted", name)
		}
	}
	// Each activation of an async action started its work once: the observer saw
	// the node go Running as often as the work started. (A restored tree's restarted
	// the work of activations the observer saw start in the tree of the snapshot.)
	for name, l := range w.asyncs {
		if observed && !d.restored && l.starts != d.activations[d.nodes[name]] {
			d.fail("%s: its work started %d times in %d activations", name, l.starts, d.activations[d.nodes[name]])
		}
	}
	js, _ := tree.Blackboard().MarshalJSON()
	d.trace = append(d.trace, "blackboard "+string(js))
}

type driver struct {
	t           *testing.T
	seed        uint64
	tree        *bt.Tree
	w           *world
	nodes       map[string]*bt.Node // by name: the scripted leaves' names are unique
	trace       []string
	timed       bool                   // the tree has timers (see step)
	seen        map[*bt.Node]bt.Status // what the observer was told
	activations map[*bt.Node]int       // how often the observer saw a node go Running
	heard       []string               // the observer's complaints
	events      []string               // the changes the observer was told of since the last step, if record
	record      bool
	mode        observer   // how the observer is told (see Check)
	hears       *rand.Rand // draws the answers of SubscribeBatchWhen's hear
	deaf        bool       // the observer does not hear the tick under way (batchedAtRandom)
	unwatch     func()     // cancels the observer
	restored    bool       // the tree was restored from a snapshot (see CheckSnapshot)
	failed      bool
}

func (d *driver) fail(format string, args ...any) {
	d.t.Helper()
	if !d.failed {
		d.t.Errorf("seed %d: %s\n%s", d.seed, fmt.Sprintf(format, args...), Describe(d.seed))
	}
	d.failed = true
}

// watch subscribes an observer that follows every status and checks each change
// follows from the last. It records the changes, with their times, for the trace.
func (d *driver) watch() {
	d.activations = map[*bt.Node]int{}
	d.rewatch()
}

// rewatch subscribes the driver's observer afresh, keeping the activations it counted.
func (d *driver) rewatch() {
	if d.unwatch != nil {
		d.unwatch()
	}
	d.seen, d.deaf = map[*bt.Node]bt.Status{}, false
	for n := range d.tree.Nodes() {
		d.seen[n] = n.Status()
	}
	batch := func(b bt.Batch) {
		for _, c := range b.Changes {
			d.heardOf(bt.StatusChange{Node: d.tree.Node(c.UID()), Previous: c.Previous(), Status: c.Status(), Time: b.Time})
		}
	}
	switch d.mode {
	default: // each, and the observers of CheckSnapshot and CheckReload
		d.unwatch = d.tree.Subscribe(d.heardOf)
	case batched:
		d.unwatch = d.tree.SubscribeBatch(batch)
	case batchedBeside:
		cancel := d.tree.SubscribeBatch(batch)
		cancelWhen := d.tree.SubscribeBatchWhen(func(bt.Batch) {}, func() bool { return d.hears.IntN(2) == 0 })
		d.unwatch = func() { cancel(); cancelWhen() }
	case batchedAtRandom:
		d.unwatch = d.tree.SubscribeBatchWhen(batch, d.hear)
	}
}

// hear answers SubscribeBatchWhen's question for the observer of batchedAtRandom: yes
// two ticks in three. An observer that hears again takes the statuses as they are: it
// was not told of the changes in between.
func (d *driver) hear() bool {
	h := d.hears.IntN(3) != 0
	if h && d.deaf {
		for n := range d.tree.Nodes() {
			d.seen[n] = n.Status()
		}
	}
	d.deaf = !h
	return h
}

// heardOf checks and records a change the observer was told of.
func (d *driver) heardOf(ev bt.StatusChange) {
	if ev.Status == bt.Running {
		d.activations[ev.Node]++
	}
	if prev := d.seen[ev.Node]; prev != ev.Previous || ev.Previous == ev.Status {
		d.heard = append(d.heard, fmt.Sprintf("%s: told %v → %v, but it was %v", ev.Node.Path(), ev.Previous, ev.Status, prev))
	}
	d.seen[ev.Node] = ev.Status
	if !d.record {
		return
	}
	d.events = append(d.events, fmt.Sprintf("%d:%s>%s@%s", ev.Node.UID(), ev.Previous.String()[:1], ev.Status.String()[:1],
		ev.Time.Format("05.000000")))
}

// step does a random thing to the tree and checks the invariants.
func (d *driver) step(i int, r *rand.Rand) {
	tree := d.tree
	switch k := r.IntN(21); {
	case k == 20:
		go tree.WakeUp() // as another goroutine asks for a tick
		synctest.Wait()
		d.do(fmt.Sprintf("%d WakeUp", i), nil)
	case k < 8:
		d.ticked(d.do(fmt.Sprintf("%d TickOnce", i), tree.TickOnce))
	case k < 10:
		d.ticked(d.do(fmt.Sprintf("%d TickExactlyOnce", i), tree.TickExactlyOnce))
	case k < 14:
		d.w.open()
		d.do(fmt.Sprintf("%d let async work finish", i), nil)
	case k < 17:
		dt := time.Duration(1+r.IntN(40)) * time.Millisecond
		time.Sleep(dt)
		d.do(fmt.Sprintf("%d let %v pass", i, dt), nil)
	case k < 18:
		d.do(fmt.Sprintf("%d Halt", i), func() (bt.Status, error) { return bt.Idle, tree.Halt() })
		d.checkIdle("Halt")
	case k < 19:
		go tree.Stop() // as a handler in another goroutine would
		synctest.Wait()
		d.do(fmt.Sprintf("%d Stop, TickOnce", i), tree.TickOnce)
		d.checkIdle("Stop")
	case d.timed:
		// TickWhileRunning ticks when the first of the timers that ring at one
		// instant of the fake time wakes it, before the others are heard, which
		// no run could reproduce. (With the system clock two timers do not ring
		// at the same instant.)
		d.ticked(d.do(fmt.Sprintf("%d TickOnce", i), tree.TickOnce))
	default:
		// Time is fake, so events that fall on the same instant would race. The
		// driver's pauses are whole milliseconds: a period and a deadline off the
		// millisecond grid never tie with them or each other.
		ctx, cancel := context.WithTimeout(context.Background(), 55*time.Millisecond+123*time.Microsecond)
		defer cancel()
		period := 10*time.Millisecond + 7*time.Microsecond
		d.do(fmt.Sprintf("%d TickWhileRunning", i), func() (bt.Status, error) { return tree.TickWhileRunning(ctx, period) })
	}
}

// do runs f (if any), lets the goroutines settle, records a line of trace — what f
// returned, every node's status, the scripted leaves' calls — and checks the
// invariants that hold after every step. It reports whether f returned no error.
func (d *driver) do(what string, f func() (bt.Status, error)) bool {
	d.t.Helper()
	s, err := bt.Idle, error(nil)
	if f != nil {
		s, err = f()
	}
	synctest.Wait()
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %v %v |", what, s, err)
	for n := range d.tree.Nodes() {
		b.WriteString(n.Status().String()[:1])
	}
	b.WriteString("|" + d.w.takeLogs())
	js, _ := d.tree.Blackboard().MarshalJSON()
	b.Write(js)
	if d.record {
		fmt.Fprintf(&b, " events %v", d.events)
		d.events = d.events[:0]
	}
	d.trace = append(d.trace, b.String())
	d.checkAlways(what)
	return err == nil
}

// checkAlways checks what holds after any step.
func (d *driver) checkAlways(what string) {
	d.t.Helper()
	d.w.mu.Lock()
	v := d.w.violations
	d.w.violations = nil
	d.w.mu.Unlock()
	for _, p := range v {
		d.fail("after %s: %s", what, p)
	}
	for _, p := range d.heard {
		d.fail("after %s: the observer: %s", what, p)
	}
	d.heard = nil
	if d.seen != nil && !d.deaf {
		for n := range d.tree.Nodes() {
			// A node that returned Skipped after it was marked Running is Idle, but
			// observers see it Running until it is reset, as in BehaviorTree.CPP.
			if s := n.Status(); s != d.seen[n] && (s != bt.Idle || d.seen[n] != bt.Running) {
				d.fail("after %s: %s is %v, the observer was told %v", what, n.Path(), n.Status(), d.seen[n])
			}
		}
	}
	// An async action's goroutine runs only while its node is Running.
	for name, l := range d.w.asyncs {
		n := d.nodes[name]
		switch k := l.running(); {
		case k > 0 && n == nil: // a reload removed it (see reload.go)
			d.fail("after %s: %s is gone from the tree but its work still runs", what, name)
		case k > 0 && n.Status() != bt.Running:
			d.fail("after %s: %s is %v but its work still runs", what, name, n.Status())
		}
	}
}

// ticked checks, after a tick that did not fail, that no node is Running under a
// parent that is not.
func (d *driver) ticked(ok bool) {
	d.t.Helper()
	if !ok {
		return
	}
	var path []*bt.Node
	d.tree.Walk(func(n *bt.Node, depth int) bool {
		path = append(path[:depth], n)
		if depth > 0 && n.Status() == bt.Running && path[depth-1].Status() != bt.Running {
			d.fail("after a tick: %s is Running under %s, which is %v", n.Path(), path[depth-1].Path(), path[depth-1].Status())
		}
		return true
	})
}

// checkIdle checks that every node is Idle and no async work runs.
func (d *driver) checkIdle(what string) {
	d.t.Helper()
	for n := range d.tree.Nodes() {
		if n.Status() != bt.Idle {
			d.fail("after %s: %s is %v", what, n.Path(), n.Status())
		}
		if s, ok := d.seen[n]; ok && s != bt.Idle && !d.deaf {
			d.fail("after %s: %s is Idle, the observer was told %v", what, n.Path(), s)
		}
	}
	for name, l := range d.w.asyncs {
		if k := l.running(); k > 0 {
			d.fail("after %s: %d goroutines of %s left", what, k, name)
		}
	}
}
