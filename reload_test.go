package bt_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
	"github.com/gobt/bt/bttest"
)

// work is an async action that runs until release is closed, and counts its starts and
// the cancellations of its context (a halt).
type work struct {
	release           chan struct{}
	starts, cancelled atomic.Int32
}

func newWork() *work { return &work{release: make(chan struct{})} }

func (w *work) model() *Model {
	return NewAsync("Work", func(ctx context.Context, n *Node) (Status, error) {
		w.starts.Add(1)
		select {
		case <-w.release:
			return Success, nil
		case <-ctx.Done():
			w.cancelled.Add(1)
			return Failure, ctx.Err()
		}
	})
}

// finish lets the work end and checks that the tree succeeds with the one start of the
// work and no halt.
func (w *work) finish(t *testing.T, tree *Tree) {
	t.Helper()
	close(w.release)
	synctest.Wait()
	if s, err := tree.TickOnce(); s != Success || err != nil {
		t.Fatalf("the last tick: %v %v", s, err)
	}
	if w.starts.Load() != 1 || w.cancelled.Load() != 0 {
		t.Errorf("%d starts, %d halts; want 1, 0", w.starts.Load(), w.cancelled.Load())
	}
}

// factory returns a new Factory that knows Work and holds the document xml.
func (w *work) factory(t *testing.T, xml string) *Factory {
	t.Helper()
	f := NewFactory()
	if err := f.Register(w.model()); err != nil {
		t.Fatal(err)
	}
	if err := f.LoadString("tree.xml", xml); err != nil {
		t.Fatal(err)
	}
	return f
}

const reloadV1 = `<root BTCPP_format="4" main_tree_to_execute="Main">
  <BehaviorTree ID="Main">
    <Sequence>
      <Script code="a := 1"/>
      <Work name="work"/>
      <SetBlackboard output_key="b" value="1"/>
    </Sequence>
  </BehaviorTree>
</root>`

// An edit that changes only a port value (of another node) while an async action runs:
// the action keeps running — one start, no halt — and the new value is used.
func TestReloadPortValueKeepsAsyncRunning(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWork()
		tree, err := w.factory(t, reloadV1).NewTree("")
		if err != nil {
			t.Fatal(err)
		}
		if s, err := tree.TickOnce(); s != Running || err != nil {
			t.Fatalf("tick 1: %v %v", s, err)
		}
		f2 := w.factory(t, strings.Replace(reloadV1, `value="1"`, `value="2"`, 1))
		r, err := tree.Reload(f2, "")
		if err != nil {
			t.Fatal(err)
		}
		if got := bttest.States(tree); got != "R S R I" {
			t.Errorf("after the reload: %q", got)
		}
		if len(r.Halted) != 0 || len(r.Changed) != 1 || r.Changed[0] != "SetBlackboard::4" || r.Kept != 3 {
			t.Errorf("report: %+v", r)
		}
		w.finish(t, tree)
		if b, err := blackboard.Get[int](tree.Blackboard().Entry("b")); b != 2 || err != nil {
			t.Errorf("b = %v, %v; want the new value 2", b, err)
		}
	})
}

// A node removed while it runs is halted once (its context canceled once, its
// OnHalted once), and the tree goes on with the new definition.
func TestReloadRemovedRunningNodeHaltedOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWork()
		var rec bttest.Recorder
		v1 := Sequence(rec.Leaf("A", "S"), Parallel(-1, 1, w.model().Spec(), rec.Stateful("B", "R")), rec.Leaf("C", "S"))
		tree := mustTree(t, v1)
		if s, err := tree.TickOnce(); s != Running || err != nil {
			t.Fatalf("tick 1: %v %v", s, err)
		}
		rec.Take()
		v2 := Sequence(rec.Leaf("A", "S"), Parallel(-1, 1, rec.Stateful("B", "R")), rec.Leaf("C", "S"))
		r, err := tree.ReloadSpec(v2)
		if err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if w.cancelled.Load() != 1 {
			t.Errorf("Work canceled %d times, want 1", w.cancelled.Load())
		}
		// The Parallel's children changed: it is halted with what runs under it.
		if got := strings.Join(r.Halted, " "); got != "Parallel::3 Work::4 B::5" {
			t.Errorf("halted %q", got)
		}
		if got := rec.Take(); got != "B:halted" {
			t.Errorf("log %q", got)
		}
		if got := bttest.States(tree); got != "R S I I I" {
			t.Errorf("after the reload: %q", got)
		}
		if s, err := tree.TickOnce(); s != Running || err != nil {
			t.Fatalf("tick 2: %v %v", s, err)
		}
		if got := rec.Take(); got != "B:start>R" {
			t.Errorf("tick 2 log %q", got)
		}
		if err := tree.Halt(); err != nil {
			t.Fatal(err)
		}
		if got := rec.Take(); got != "B:halted" {
			t.Errorf("halt log %q", got)
		}
		if w.starts.Load() != 1 || w.cancelled.Load() != 1 {
			t.Errorf("%d starts, %d halts of Work", w.starts.Load(), w.cancelled.Load())
		}
	})
}

// A broken edit leaves the old tree running, untouched, and says every problem with
// its position.
func TestReloadBrokenEditKeepsOldTree(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWork()
		tree, err := w.factory(t, reloadV1).NewTree("")
		if err != nil {
			t.Fatal(err)
		}
		tree.TickOnce()
		// An edit that does not load: the Factory says where (bt run --watch prints it).
		f := NewFactory()
		f.Register(w.model())
		err = f.LoadString("tree.xml", strings.Replace(reloadV1, `output_key="b" `, "", 1))
		if err == nil || !strings.Contains(err.Error(), "tree.xml:6:7: ") {
			t.Errorf("load error %v", err)
		}
		// An edit that loads but does not build: Reload says where, and changes nothing.
		broken := strings.Replace(reloadV1, `<SetBlackboard output_key="b" value="1"/>`,
			`<SubTree ID="Missing"/>
      <SubTree ID="Gone"/>`, 1)
		_, err = tree.Reload(w.factory(t, broken), "")
		for _, p := range []string{`tree.xml:6:7: `, `tree.xml:7:7: `} {
			if err == nil || !strings.Contains(err.Error(), p) {
				t.Errorf("error %v: want a problem at %s", err, p)
			}
		}
		if got := bttest.States(tree); got != "R S R I" {
			t.Errorf("after the failed reload: %q", got)
		}
		w.finish(t, tree)
		if tree.Len() != 4 {
			t.Errorf("%d nodes: the tree changed", tree.Len())
		}
	})
}

// A reload requested by another goroutine takes effect at the next tick of the
// goroutine that ticks the tree (run it with -race).
func TestRequestReloadFromAnotherGoroutine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWork()
		tree, err := w.factory(t, reloadV1).NewTree("")
		if err != nil {
			t.Fatal(err)
		}
		f2 := w.factory(t, strings.Replace(reloadV1, `value="1"`, `value="2"`, 1))
		reports := make(chan *ReloadReport, 1)
		done := make(chan Status)
		go func() {
			s, _ := tree.TickWhileRunning(context.Background(), 10*time.Millisecond)
			done <- s
		}()
		time.Sleep(25 * time.Millisecond) // (fake time) a few ticks
		go tree.RequestReload(f2, "", func(r *ReloadReport, err error) {
			if err != nil {
				t.Error(err)
			}
			reports <- r
		})
		r := <-reports
		if r.Kept != 3 || len(r.Halted) != 0 {
			t.Errorf("report %v", r)
		}
		close(w.release)
		if s := <-done; s != Success {
			t.Errorf("the run: %v", s)
		}
		if b, _ := blackboard.Get[int](tree.Blackboard().Entry("b")); b != 2 || w.starts.Load() != 1 {
			t.Errorf("b = %d, %d starts", b, w.starts.Load())
		}
	})
}

// SequenceWithMemory keeps its position when its children are the same; the
// blackboards keep their values, write counts included, a subtree's too.
func TestReloadKeepsPositionAndBlackboards(t *testing.T) {
	var rec bttest.Recorder
	sub := func(leaf string) *Spec {
		return SubTree("Sub", SequenceWithMemory(rec.Leaf("X", "S"), rec.Leaf(leaf, "R"))).With("v", "{v}")
	}
	v1 := Sequence(Script("v := 5; w := 1"), sub("Y"))
	tree := mustTree(t, v1)
	if s, _ := tree.TickOnce(); s != Running {
		t.Fatal(s)
	}
	subBB := tree.Node(3).Child(0).Blackboard()
	subBB.Local("local").Set(blackboard.Int(7))
	seq := tree.Blackboard().Entry("v").Seq()
	rec.Take()
	r, err := tree.ReloadSpec(Sequence(Script("v := 6; w := 1"), sub("Y")))
	if err != nil {
		t.Fatal(err)
	}
	if r.Kept != 5 || len(r.Changed) != 1 || r.Changed[0] != "Script::2" {
		t.Errorf("report %v %v", r, r.Changed)
	}
	if tree.Node(3).Child(0).Blackboard() != subBB {
		t.Error("the subtree's blackboard was not kept")
	}
	if tree.Blackboard().Entry("v").Seq() != seq {
		t.Error("the write count changed")
	}
	if s, _ := tree.TickOnce(); s != Running {
		t.Fatal(s)
	}
	if got := rec.Take(); got != "Y:R" { // X is not ticked again
		t.Errorf("log %q", got)
	}
	// A new child before Y: the SequenceWithMemory changed, it starts again.
	r, err = tree.ReloadSpec(Sequence(Script("v := 6; w := 1"),
		SubTree("Sub", SequenceWithMemory(rec.Leaf("X", "S"), rec.Leaf("Z", "S"), rec.Leaf("Y", "R"))).With("v", "{v}")))
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.Take(); got != "Y:halt" {
		t.Errorf("log %q", got)
	}
	if strings.Join(r.Added, " ") != "Sub::3/Z::6" || strings.Join(r.Halted, " ") != "Sub::3/SequenceWithMemory::4 Sub::3/Y::6" {
		t.Errorf("report %v %v", r.Added, r.Halted)
	}
	if v := tree.Node(3).Child(0).Blackboard().Local("local").Load().Int(); v != 7 {
		t.Errorf("local = %v", v)
	}
	tree.TickOnce()
	if got := rec.Take(); got != "X:S Z:S Y:R" {
		t.Errorf("log %q", got)
	}
}

// tally is a node of yours that saves its state: a changed definition carries it.
type tally struct{ n int }

func (c *tally) Tick(*Node) Status                    { c.n++; return Running }
func (c *tally) SaveState(*Node) ([]byte, error)      { return []byte{byte(c.n)}, nil }
func (c *tally) RestoreState(_ *Node, b []byte) error { c.n = int(b[0]); return nil }

func TestReloadCarriesStateSaver(t *testing.T) {
	var last *tally
	m := &Model{ID: "Count", Kind: KindAction, Ports: []PortDef{InputPort[int]("step", "")},
		New: func(*NodeConfig) (Behavior, error) { last = &tally{}; return last, nil }}
	tree := mustTree(t, Sequence(m.Spec().With("step", "1")))
	tree.TickOnce()
	tree.TickOnce()
	r, err := tree.ReloadSpec(Sequence(m.Spec().With("step", "2")))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Carried) != 1 || len(r.Halted) != 0 || last.n != 2 {
		t.Errorf("report %v, count %d", r, last.n)
	}
	if got := bttest.States(tree); got != "R R" {
		t.Errorf("states %q", got)
	}
	tree.TickOnce()
	if last.n != 3 {
		t.Errorf("count %d, want 3", last.n)
	}
}

// Observers and OnReload: the halts are observed with the old UIDs, then OnReload
// says which old nodes went where.
func TestReloadTellsSubscribers(t *testing.T) {
	var rec bttest.Recorder
	tree := mustTree(t, Sequence(rec.Leaf("A", "S"), rec.Stateful("B", "R")))
	var changes []string
	tree.Subscribe(func(c StatusChange) { changes = append(changes, c.Node.Path()+":"+c.Status.String()) })
	var got *ReloadReport
	tree.OnReload(func(r *ReloadReport) { got = r })
	tree.TickOnce()
	changes = nil
	if _, err := tree.ReloadSpec(Sequence(rec.Stateful("B", "R"))); err != nil {
		t.Fatal(err)
	}
	if strings.Join(changes, " ") != "A::2:IDLE B::3:IDLE Sequence::1:IDLE" {
		t.Errorf("changes %q", changes)
	}
	if got == nil || got.NewUID(1) != 1 || got.NewUID(2) != 0 || got.NewUID(3) != 2 || !slices.Equal(got.Removed, []string{"A::2"}) || got.Kept != 0 {
		t.Errorf("report %+v", got)
	}
	if _, err := tree.ReloadSpec(nil); err == nil || errors.Is(err, ErrEmptyTree) {
		t.Errorf("a nil spec: %v", err)
	}
}

// The goroutine of an async action kept by a reload from the same factory reads its
// ports while the reload runs: the tree's configuration, where the ports' enum names
// are, is not written then (under -race, a reload that wrote it was a data race).
func TestReloadWhileAsyncReadsPorts(t *testing.T) {
	started := make(chan struct{})
	reader := NewAsync("Reader", func(ctx context.Context, n *Node) (Status, error) {
		close(started)
		for ctx.Err() == nil {
			if _, err := Get[int](n, "x"); err != nil { // "3", parsed at each read
				return Failure, err
			}
		}
		return Success, nil
	}, InputPort[any]("x", ""))
	f := NewFactory()
	if err := f.Register(reader); err != nil {
		t.Fatal(err)
	}
	const doc = `<root BTCPP_format="4"><BehaviorTree ID="T"><Reader x="3"/></BehaviorTree></root>`
	if err := f.LoadString("t.xml", doc); err != nil {
		t.Fatal(err)
	}
	tree, err := f.NewTree("T")
	if err != nil {
		t.Fatal(err)
	}
	if s, err := tree.TickOnce(); s != Running || err != nil {
		t.Fatalf("tick: %v, %v", s, err)
	}
	<-started
	for range 20 {
		if _, err := tree.Reload(f, "T"); err != nil {
			t.Fatal(err)
		}
	}
	if err := tree.Halt(); err != nil {
		t.Fatal(err)
	}
}
