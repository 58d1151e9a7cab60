package bt_test

import (
	"runtime"
	"testing"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
	"github.com/gobt/bt/bttest"
)

const flatLeaves = 1000

func flatSpec() *Spec {
	kids := make([]*Spec, flatLeaves)
	for i := range kids {
		kids[i] = AlwaysSuccess()
	}
	return Sequence(kids...)
}

// deepSpec builds a subtree of the given depth whose result is want and whose nodes
// are all visited: a Sequence goes on past a child only if it succeeds, a Fallback
// only if it fails, and a binary node returns its right child's result.
func deepSpec(depth int, sequence bool, want Status) *Spec {
	if depth == 0 {
		if want == Success {
			return AlwaysSuccess()
		}
		return AlwaysFailure()
	}
	pass := Failure
	mk := Fallback
	if sequence {
		pass, mk = Success, Sequence
	}
	return mk(deepSpec(depth-1, !sequence, pass), deepSpec(depth-1, !sequence, want))
}

func mustTree(tb testing.TB, s *Spec, opts ...Option) *Tree {
	tb.Helper()
	tree, err := NewTree(s, opts...)
	if err != nil {
		tb.Fatal(err)
	}
	return tree
}

func benchTree(b *testing.B, tree *Tree) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tree.TickOnce(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(tree.Len()), "ns/node")
}

func BenchmarkFlat(b *testing.B) { benchTree(b, mustTree(b, flatSpec())) }

func BenchmarkDeep(b *testing.B) { benchTree(b, mustTree(b, deepSpec(10, true, Success))) }

// The observed benchmarks tick the same trees with a subscriber that does nothing: a
// batch subscriber (SubscribeBatch, what loggers use), or one called per change
// (Subscribe).

func BenchmarkFlatObserved(b *testing.B) {
	tree := mustTree(b, flatSpec())
	tree.SubscribeBatch(func(Batch) {})
	benchTree(b, tree)
}

func BenchmarkDeepObserved(b *testing.B) {
	tree := mustTree(b, deepSpec(10, true, Success))
	tree.SubscribeBatch(func(Batch) {})
	benchTree(b, tree)
}

func BenchmarkFlatObservedPerChange(b *testing.B) {
	tree := mustTree(b, flatSpec())
	tree.Subscribe(func(StatusChange) {})
	benchTree(b, tree)
}

func BenchmarkDeepObservedPerChange(b *testing.B) {
	tree := mustTree(b, deepSpec(10, true, Success))
	tree.Subscribe(func(StatusChange) {})
	benchTree(b, tree)
}

// The baseline: stateless nodes behind an interface.
type bnode interface{ tick() Status }

type bseq struct{ kids []bnode }

type bfallback struct{ kids []bnode }

type bleaf struct{ s Status }

func (n *bseq) tick() Status {
	for _, k := range n.kids {
		if s := k.tick(); s != Success {
			return s
		}
	}
	return Success
}

func (n *bfallback) tick() Status {
	for _, k := range n.kids {
		if s := k.tick(); s != Failure {
			return s
		}
	}
	return Failure
}

func (n *bleaf) tick() Status { return n.s }

func baselineDeep(depth int, sequence bool, want Status) bnode {
	if depth == 0 {
		return &bleaf{want}
	}
	pass := Failure
	if sequence {
		pass = Success
	}
	kids := []bnode{baselineDeep(depth-1, !sequence, pass), baselineDeep(depth-1, !sequence, want)}
	if sequence {
		return &bseq{kids}
	}
	return &bfallback{kids}
}

func benchBaseline(b *testing.B, root bnode, nodes int) {
	b.ReportAllocs()
	timedBaseline(b, root)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(nodes), "ns/node")
}

// timedBaseline is the baseline's timed loop, in a function of its own so that
// callgrind can count its instructions alone (bench/instructions), as it counts bt's
// inside Tree.tick. Callgrind starts and stops counting per thread, so the goroutine
// stays on its thread.
//
//go:noinline
func timedBaseline(b *testing.B, root bnode) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for b.Loop() {
		root.tick()
	}
}

func BenchmarkBaselineFlat(b *testing.B) {
	kids := make([]bnode, flatLeaves)
	for i := range kids {
		kids[i] = &bleaf{Success}
	}
	benchBaseline(b, &bseq{kids}, flatLeaves+1)
}

func BenchmarkBaselineDeep(b *testing.B) { benchBaseline(b, baselineDeep(10, true, Success), 2047) }

// TestTickDoesNotAllocate checks the hot-path rule, without an observer, with one called
// per change and with a batch subscriber.
func TestTickDoesNotAllocate(t *testing.T) {
	for _, observed := range []string{"no", "per change", "batch"} {
		for name, s := range map[string]*Spec{"flat": flatSpec(), "deep": deepSpec(10, true, Success)} {
			tree := mustTree(t, s)
			switch observed {
			case "per change":
				tree.Subscribe(func(StatusChange) {})
			case "batch":
				tree.SubscribeBatch(func(Batch) {})
			}
			if a := testing.AllocsPerRun(100, func() { tree.TickOnce() }); a != 0 {
				t.Errorf("%s (observer: %s): %v allocations per tick", name, observed, a)
			}
		}
	}
}

func TestDeepVisitsEveryNode(t *testing.T) {
	tree := mustTree(t, deepSpec(10, true, Success))
	visits := 0
	tree.Subscribe(func(ev StatusChange) {
		if ev.Previous == Idle {
			visits++
		}
	})
	if s, _ := tree.TickOnce(); s != Success || visits != 2047 || tree.Len() != 2047 {
		t.Errorf("status %v, %d of %d nodes visited", s, visits, tree.Len())
	}
}

// TestDecoratorTicksDoNotAllocate ticks every decorator and action of this family
// (except Log, whose logger allocates) many times: a tick must not allocate.
func TestDecoratorTicksDoNotAllocate(t *testing.T) {
	again := func(s *Spec) *Spec { return ForceRunning(s) }
	tree, err := NewTree(Parallel(-1, 1,
		again(Inverter(AlwaysFailure())), again(Not(AlwaysSuccess())),
		again(ForceSuccess(AlwaysFailure())), again(ForceFailure(AlwaysSuccess())),
		KeepRunningUntilFailure(AlwaysSuccess()), again(Repeat(3, AlwaysSuccess())), again(LoopDouble("1;2", "{k}", AlwaysSuccess())),
		again(RetryUntilSuccessful(3, AlwaysFailure())), again(RunOnce(false, AlwaysSuccess())),
		LoopInt("1;2;3", "{i}", AlwaysSuccess()), again(LoopInt("", "{j}", AlwaysSuccess())),
		again(SkipUnlessUpdated("x", AlwaysSuccess())), again(WaitValueUpdate("x", AlwaysSuccess())),
		again(WasEntryUpdated("x")), again(SetBlackboard("x", "text")), again(UnsetBlackboard("nothing")),
		again(Loop(2, AlwaysSuccess())), again(LoopUntil(3, true, AlwaysFailure())),
		again(Frames(2, AlwaysSuccess())), again(CountLimit(-1, "", AlwaysSuccess())),
		again(SuccessUntil(3, AlwaysSuccess())), again(FailureUntil(3, AlwaysSuccess())),
		again(TestNode(TestNodeConfig{})), AlwaysRunning(),
		again(Loop(2, AlwaysSuccess()).With("in_one_tick", "true")),
	), WithClock(bttest.NewClock(epoch)))
	if err != nil {
		t.Fatal(err)
	}
	for range 10 {
		if _, err := tree.TickOnce(); err != nil {
			t.Fatal(err)
		}
	}
	if n := testing.AllocsPerRun(200, func() { tree.TickOnce() }); n != 0 {
		t.Errorf("%v allocations per tick", n)
	}
}

// BenchmarkDecoratorTick ticks a chain of decorators over a leaf: the cost of a
// decorator per tick.
func BenchmarkDecoratorTick(b *testing.B) {
	for _, c := range []struct {
		name string
		mk   func(*Spec) *Spec
	}{
		{"Inverter", Inverter},
		{"Repeat", func(s *Spec) *Spec { return Repeat(1, s) }},
		{"RetryUntilSuccessful", func(s *Spec) *Spec { return RetryUntilSuccessful(1, s) }},
		{"Loop", func(s *Spec) *Spec { return Loop(1, s) }},
		{"SuccessUntil", func(s *Spec) *Spec { return SuccessUntil(-1, s) }},
		{"Timeout", func(s *Spec) *Spec { return Timeout(0, s) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			s := AlwaysSuccess()
			for range 10 {
				s = c.mk(s)
			}
			tree, err := NewTree(s)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				tree.TickOnce()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/10, "ns/decorator")
		})
	}
}

// portCounter reads a port of type int and writes its successor to another.
type portCounter struct {
	In  In[int]  `port:"in"`
	Out Out[int] `port:"out"`
}

func (c *portCounter) Tick(n *Node) Status {
	v, err := c.In.Get()
	if err != nil {
		n.Abort(err)
	}
	if err := c.Out.Set(v + 1); err != nil {
		n.Abort(err)
	}
	return Success
}

// BenchmarkPorts ticks a Sequence of ten nodes, each reading an int port and writing
// an int port of the same type: the cost of a port read and write per node.
func BenchmarkPorts(b *testing.B) {
	m := ModelOf[portCounter]("Count", KindAction)
	kids := make([]*Spec, 10)
	for i := range kids {
		kids[i] = m.Spec().With("in", "{x}").With("out", "{x}")
	}
	tree := mustTree(b, Sequence(kids...))
	if err := tree.Blackboard().Entry("x").Set(blackboard.Int(0)); err != nil {
		b.Fatal(err)
	}
	benchTree(b, tree)
}
