package bt_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/bttest"
)

// batchLog writes down what a batch subscriber hears: each batch as a line
// "batch TIME [end]" followed by its changes.
type batchLog struct {
	tree  *Tree
	start time.Time
	b     strings.Builder
}

func subscribeBatches(tree *Tree, start time.Time) *batchLog {
	l := &batchLog{tree: tree, start: start}
	tree.SubscribeBatch(l.hear)
	return l
}

// hear writes b down.
func (l *batchLog) hear(b Batch) {
	end := ""
	if b.End {
		end = " end"
	}
	fmt.Fprintf(&l.b, "batch %v%s\n", b.Time.Sub(l.start), end)
	for _, c := range b.Changes {
		fmt.Fprintf(&l.b, "%s: %v -> %v\n", l.tree.Node(c.UID()).Path(), c.Previous(), c.Status())
	}
}

// take returns what was written down since the last call.
func (l *batchLog) take() string {
	s := l.b.String()
	l.b.Reset()
	return s
}

// A Sequence or Fallback of leaves writes its changes when it completes
// (sequence.tickLeaves), one of Sequences and Fallbacks each child's reset and its own
// end at once (tickFresh); what happens in the middle of a run — a leaf that flushes,
// marks itself Running, panics or runs; a tick function — makes it write those made
// so far first. A batch subscriber hears what a subscriber of Subscribe hears, in
// the same order, tick after tick.
func TestBatchesOfRuns(t *testing.T) {
	flush := func(n *Node) Status { n.Tree().Flush(); return Success }
	mark := func(n *Node) Status { n.MarkRunning(); return Running }
	trees := map[string]func() *Spec{
		"flush": func() *Spec {
			return Sequence(AlwaysSuccess(), Action("F", flush), AlwaysSuccess(), Action("G", flush))
		},
		"mark running": func() *Spec {
			return Fallback(AlwaysFailure(), Action("M", mark), AlwaysFailure())
		},
		"panic": func() *Spec {
			panicking := false
			return Sequence(AlwaysSuccess(), AlwaysSuccess(), Action("P", func() Status {
				if panicking = !panicking; panicking {
					panic("boom")
				}
				return Failure
			}), AlwaysSuccess())
		},
		"panic under a user decorator": func() *Spec {
			panicking := false
			return userPass.Spec(Sequence(AlwaysSuccess(), Action("P", func() Status {
				if panicking = !panicking; panicking {
					panic("boom")
				}
				return Failure
			})))
		},
		"tick function": func() *Spec {
			return Sequence(AlwaysSuccess(), AlwaysSuccess(), AlwaysSuccess())
		},
		"skipped": func() *Spec {
			return Sequence(AlwaysSuccess(), AlwaysSuccess().Pre(SkipIf, func(*Node) bool { return true }), AlwaysFailure())
		},
		"pairs": func() *Spec {
			return Sequence(Fallback(AlwaysFailure(), AlwaysSuccess()), Sequence(AlwaysSuccess(), AlwaysFailure()))
		},
		"stops early": func() *Spec {
			return Fallback(Sequence(AlwaysFailure(), AlwaysSuccess()), Sequence(AlwaysSuccess(), AlwaysSuccess()),
				Sequence(AlwaysFailure()), AlwaysFailure())
		},
		"full batch": func() *Spec {
			// The inner Sequence's run fills the batch but for one change, Y's: the
			// middle one, ticked by the root directly (tickFresh), finds no room to
			// write its children's resets in one go, then records its own end.
			leaves := make([]*Spec, 1024/2-3) // a batch starts with room for 1,024 changes
			for i := range leaves {
				leaves[i] = AlwaysSuccess()
			}
			return Sequence(Sequence(Sequence(leaves...), Action("Y", func() Status { return Success })))
		},
		"nested": func() *Spec {
			return Sequence(Fallback(AlwaysFailure(), Action("F", flush)), Inverter(Sequence(AlwaysSuccess(), AlwaysFailure())),
				Sequence(Action("M", mark)))
		},
	}
	for name, spec := range trees {
		t.Run(name, func(t *testing.T) {
			run := func(observe func(*Tree) func() string) string {
				tree := mustTree(t, spec())
				if name == "tick function" {
					tree.Node(3).SetPreTick(func(*Node) Status { return Idle })
				}
				heard := observe(tree)
				var out strings.Builder
				for i := range 4 {
					s, err := tree.TickOnce()
					fmt.Fprintf(&out, "%s-- tick %d: %v %v\n", heard(), i+1, s, err != nil)
				}
				return out.String()
			}
			each := run(func(tree *Tree) func() string {
				var b strings.Builder
				tree.Subscribe(func(c StatusChange) { fmt.Fprintf(&b, "%s: %v -> %v\n", c.Node.Path(), c.Previous, c.Status) })
				return func() string { s := b.String(); b.Reset(); return s }
			})
			batched := run(func(tree *Tree) func() string {
				l := subscribeBatches(tree, epoch)
				return func() string {
					var out []string
					for line := range strings.Lines(l.b.String()) {
						if !strings.HasPrefix(line, "batch ") {
							out = append(out, line)
						}
					}
					l.b.Reset()
					return strings.Join(out, "")
				}
			})
			if batched != each {
				t.Errorf("in batches:\n%s\none by one:\n%s", batched, each)
			}
			if !strings.Contains(each, "IDLE -> ") {
				t.Errorf("nothing heard:\n%s", each)
			}
		})
	}
}

// A batch is handed over at the end of each tick, empty or not, and at the end of a
// Halt that changed something; its time is when the tick (or Halt) began.
func TestBatchesComeAtTheEndOfTicksAndHalts(t *testing.T) {
	r := &bttest.Recorder{}
	clock := bttest.NewClock(epoch)
	tree := mustTree(t, Sequence(r.Leaf("A", "S"), r.Leaf("B", "R")), WithClock(clock))
	l := subscribeBatches(tree, epoch)
	ticks := 0
	tick := func() {
		t.Helper()
		clock.Advance(time.Second)
		if _, err := tree.TickOnce(); err != nil {
			t.Fatal(err)
		}
		ticks++
		if got := tree.Ticks(); got != uint64(ticks) {
			t.Errorf("Ticks() = %d after %d ticks", got, ticks)
		}
	}
	tick()
	tick()
	clock.Advance(time.Second)
	if err := tree.Halt(); err != nil {
		t.Fatal(err)
	}
	if err := tree.Halt(); err != nil { // changes nothing: no batch
		t.Fatal(err)
	}
	want := `batch 1s end
Sequence::1: IDLE -> RUNNING
A::2: IDLE -> SUCCESS
B::3: IDLE -> RUNNING
batch 2s end
batch 3s end
A::2: SUCCESS -> IDLE
B::3: RUNNING -> IDLE
Sequence::1: RUNNING -> IDLE
`
	if got := l.b.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// Within a tick, a batch is handed over when it is full, when a node calls Flush and
// before a tick function runs; the next batch's time is then the clock's.
func TestBatchesWithinATick(t *testing.T) {
	clock := bttest.NewClock(epoch)
	kids := make([]*Spec, 33000) // 66,003 changes: a batch holds 65,536
	for i := range kids {
		kids[i] = AlwaysSuccess()
	}
	kids[1] = Action("flush", func(n *Node) Status {
		clock.Advance(time.Second)
		n.Tree().Flush()
		return Success
	})
	tree := mustTree(t, Sequence(kids...), WithClock(clock))
	var got []string
	tree.SubscribeBatch(func(b Batch) {
		got = append(got, fmt.Sprintf("%d %v %v", len(b.Changes), b.Time.Sub(epoch), b.End))
	})
	if _, err := tree.TickOnce(); err != nil {
		t.Fatal(err)
	}
	// The root's Running and the first child's Success; 65,536 more; the rest.
	want := "2 0s false|65536 1s false|465 1s true"
	if g := strings.Join(got, "|"); g != want {
		t.Errorf("batches (size, time, end) %s, want %s", g, want)
	}

	got = nil
	tree.Node(3).SetPreTick(func(*Node) Status {
		got = append(got, "pre-tick")
		return Running
	})
	if _, err := tree.TickOnce(); err != nil {
		t.Fatal(err)
	}
	if g := strings.Join(got, "|"); !strings.HasPrefix(g, "2 1s false|pre-tick|") {
		t.Errorf("the changes before the pre-tick function were not handed over first: %s", g)
	}
}

// A subscription made by a function given to Do, between two ticks of the root within
// one TickOnce, hears the changes from there on; the subscribers before it hear the
// ones before it first.
func TestSubscribingInATick(t *testing.T) {
	r := &bttest.Recorder{}
	tree := mustTree(t, AsyncSequence(r.Leaf("A", "S"), r.Leaf("B", "S")))
	var first, second []string
	tree.SubscribeBatch(func(b Batch) {
		first = append(first, fmt.Sprint(len(b.Changes), b.End))
	})
	tree.Node(2).SetPostTick(func(n *Node, s Status) Status {
		n.Tree().Do(func() { // runs before the root is ticked again, after A's yield
			n.Tree().SubscribeBatch(func(b Batch) { second = append(second, fmt.Sprint(len(b.Changes), b.End)) })
		})
		return s
	})
	if _, err := tree.TickOnce(); err != nil {
		t.Fatal(err)
	}
	// The root's Running, before A's post-tick function; A's Success, before the
	// subscription; the rest.
	if g, w := strings.Join(first, "|"), "1 false|1 false|5 true"; g != w {
		t.Errorf("the first subscriber heard %s, want %s", g, w)
	}
	if g, w := strings.Join(second, "|"), "5 true"; g != w {
		t.Errorf("the second subscriber heard %s, want %s", g, w)
	}
}

// A batch subscriber that panics at the end of a tick makes the tick return an error;
// one that panics within the tick stops it.
func TestBatchSubscriberPanics(t *testing.T) {
	tree := mustTree(t, Sequence(AlwaysSuccess()))
	cancel := tree.SubscribeBatch(func(Batch) { panic("logger down") })
	s, err := tree.TickOnce()
	if s != Success || err == nil || err.Error() != "bt: a batch subscriber: panic: logger down" {
		t.Errorf("tick: %v, %v", s, err)
	}
	cancel()
	if s, err := tree.TickOnce(); s != Success || err != nil {
		t.Errorf("after the cancel: %v, %v", s, err)
	}
}

func TestBatchesDoNotAllocate(t *testing.T) {
	tree := mustTree(t, deepSpec(6, true, Success))
	changes := 0
	tree.SubscribeBatch(func(b Batch) { changes += len(b.Changes) })
	tree.TickOnce()
	if a := testing.AllocsPerRun(100, func() { tree.TickOnce() }); a != 0 {
		t.Errorf("%v allocations per tick", a)
	}
	if changes == 0 {
		t.Error("no change heard")
	}
}
