package bt_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"log/slog"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	. "github.com/gobt/bt"
	"github.com/gobt/bt/blackboard"
	"github.com/gobt/bt/bttest"
)

// roundTrip saves tree, encodes the snapshot (binary or JSON), reads it back and
// restores it into a tree built from spec with opts.
func roundTrip(t *testing.T, tree *Tree, spec *Spec, binary bool, opts ...Option) (*Tree, *Snapshot) {
	t.Helper()
	fresh, err := NewTree(spec, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return fresh, bttest.SaveRestore(t, tree, fresh, binary)
}

// snapshotJSON returns the JSON of a snapshot of tree, but the time it was taken.
func snapshotJSON(t *testing.T, tree *Tree) string {
	t.Helper()
	snap, err := tree.Snapshot()
	if err != nil {
		t.Fatalf("Snapshot: %v", err)
	}
	data, err := snap.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(l, `  "taken": `) {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

// TestSnapshotCatalogue runs the tree of every builtin node (testdata/catalogue.xml)
// twice, with a clock that moves between ticks: straight through, and restored from
// a snapshot, into a tree built anew, before every tick. Both runs must go through
// the same statuses, tick results and blackboard.
func TestSnapshotCatalogue(t *testing.T) {
	f := NewFactory()
	if err := f.LoadFile("testdata/catalogue.xml"); err != nil {
		t.Fatal(err)
	}
	run := func(restore bool) []string {
		clock := bttest.NewClock(epoch)
		opts := []Option{WithClock(clock), WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))}
		tree, err := f.NewTree("", opts...)
		if err != nil {
			t.Fatal(err)
		}
		var trace []string
		for tick := range 100 {
			if restore {
				snap, err := tree.Snapshot()
				if err != nil {
					t.Fatal(err)
				}
				data, _ := snap.MarshalBinary()
				if tick%2 == 0 {
					data, _ = snap.MarshalJSON()
				}
				if snap, err = ReadSnapshot(data); err != nil {
					t.Fatal(err)
				}
				if err := tree.Halt(); err != nil {
					t.Fatal(err)
				}
				if tree, err = f.NewTree("", opts...); err != nil {
					t.Fatal(err)
				}
				if err := tree.Restore(snap); err != nil {
					t.Fatalf("tick %d: %v", tick, err)
				}
			}
			s, err := tree.TickExactlyOnce()
			js, _ := tree.Blackboard().MarshalJSON()
			trace = append(trace, fmt.Sprintf("%v %v %s %s", s, err, bttest.States(tree), js))
			if err != nil || s != Running {
				break
			}
			clock.Advance(20 * time.Millisecond)
		}
		return trace
	}
	straight, restored := run(false), run(true)
	if !strings.HasPrefix(straight[len(straight)-1], "SUCCESS <nil>") {
		t.Fatalf("the catalogue tree does not succeed: %s", straight[len(straight)-1])
	}
	for i := range max(len(straight), len(restored)) {
		if i >= len(straight) || i >= len(restored) || straight[i] != restored[i] {
			t.Fatalf("tick %d differs:\nstraight %v\nrestored %v", i+1, straight[i:min(i+1, len(straight))], restored[i:min(i+1, len(restored))])
		}
	}
}

// TestSnapshotTimers checks that a timer keeps the time that was left, from the
// restoring tree's clock, and that a timer that had rung is restored rung.
func TestSnapshotTimers(t *testing.T) {
	ms := time.Millisecond
	spec := Sequence(Delay(500*ms, AlwaysSuccess()), Sleep(100*ms))
	clock := bttest.NewClock(epoch)
	tree, _ := NewTree(spec, WithClock(clock))
	tree.TickOnce()
	clock.Advance(200 * ms)

	later := bttest.NewClock(epoch.Add(1000 * time.Hour))
	again, _ := roundTrip(t, tree, spec, false, WithClock(later))
	later.Advance(299 * ms)
	if s, _ := again.TickOnce(); s != Running || TakeWakeUp(again) {
		t.Fatalf("299 ms later: %v; want Running, with no wake-up", s)
	}
	later.Advance(ms)
	if !TakeWakeUp(again) {
		t.Fatal("300 ms later: the Delay's timer did not wake the tree")
	}
	if s, _ := again.TickOnce(); s != Running || bttest.States(again) != "R S I R" {
		t.Fatalf("300 ms later: %v %s; want Running, the Sleep started", s, bttest.States(again))
	}

	// The Sleep's timer rings; the tree is saved before it acts on the ring.
	later.Advance(100 * ms)
	rung, _ := roundTrip(t, again, spec, true, WithClock(bttest.NewClock(epoch)))
	if got := PendingWakeUps(rung); got != 1 {
		t.Errorf("a rung timer's wake-up: %d pending, want 1", got)
	}
	if s, _ := rung.TickOnce(); s != Success {
		t.Errorf("a rung timer: %v, want Success at once", s)
	}
}

// TestSnapshotWakeUps checks that the wake-ups the tree has not acted on are
// restored as they were: those of nodes, which halting them takes back, and those
// asked of the tree.
func TestSnapshotWakeUps(t *testing.T) {
	clock := bttest.NewClock(epoch)
	cases := []struct {
		name string
		spec *Spec
		prep func(tree *Tree)
	}{
		{"a yield", AsyncSequence(AlwaysSuccess(), AlwaysSuccess()), func(tree *Tree) { tree.TickExactlyOnce() }},
		{"a Repeat's yield", Repeat(3, AlwaysSuccess()), func(tree *Tree) { tree.TickExactlyOnce() }},
		{"a Retry's yield", RetryUntilSuccessful(3, AlwaysFailure()), func(tree *Tree) { tree.TickExactlyOnce() }},
		{"a timer's ring", Sleep(10 * time.Millisecond), func(tree *Tree) { tree.TickOnce(); clock.Advance(10 * time.Millisecond) }},
		{"a node's own", Action("Poll", func(n *Node) Status { n.WakeUp(); return Running }), func(tree *Tree) { tree.TickExactlyOnce() }},
		{"the tree's", Action("Poll", func() Status { return Running }), func(tree *Tree) { tree.TickOnce(); tree.WakeUp() }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tree, _ := NewTree(c.spec, WithClock(clock))
			c.prep(tree)
			again, _ := roundTrip(t, tree, c.spec, false, WithClock(clock))
			if got := PendingWakeUps(again); got != 1 {
				t.Fatalf("%d wake-ups pending, want 1", got)
			}
			// Halting takes back a node's wake-up, not the tree's.
			tree.Halt()
			again.Halt()
			if a, b := PendingWakeUps(tree), PendingWakeUps(again); a != b {
				t.Errorf("after a halt: %d wake-ups pending, the tree of the snapshot has %d", b, a)
			}
		})
	}
}

// memo is a user node that keeps what it saw: a StateSaver.
type memo struct {
	Seen  int `json:"seen"`
	fails bool
}

func (m *memo) Tick(*Node) Status {
	m.Seen++
	if m.Seen%3 == 0 {
		return Success
	}
	return Running
}

func (m *memo) SaveState(*Node) ([]byte, error) { return json.Marshal(m) }

func (m *memo) RestoreState(_ *Node, state []byte) error {
	if m.fails {
		return errors.New("cannot")
	}
	return json.Unmarshal(state, m)
}

// forgetful is a user node with state that a snapshot cannot keep.
type forgetful struct{ ticks int }

func (f *forgetful) Tick(*Node) Status {
	f.ticks++
	return Running
}

// TestSnapshotUserNodes checks what becomes of nodes of yours: a StateSaver's state
// comes back; a plain function keeps its status; a Running node without StateSaver
// is restored halted, with the nodes under it, and said to restart.
func TestSnapshotUserNodes(t *testing.T) {
	memoModel := ModelOf[memo]("Memo", KindAction)
	forgetfulModel := ModelOf[forgetful]("Forgetful", KindAction)
	spec := Parallel(-1, 1,
		memoModel.Spec(),
		Action("Plain", func() Status { return Running }),
		Inverter(forgetfulModel.Spec()),
		Repeat(5, Sequence(AlwaysSuccess(), forgetfulModel.Spec())),
	)
	tree, _ := NewTree(spec)
	tree.TickOnce()
	again, snap := roundTrip(t, tree, spec, false)
	if got, want := snap.Restarts(), []string{"Forgetful::5", "Forgetful::9"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Restarts %q, want %q", got, want)
	}
	if got, want := bttest.States(again), "R R R R I R R S I"; got != want {
		t.Errorf("restored statuses %q, want %q", got, want)
	}
	if m := again.Node(2).Behavior().(*memo); m.Seen != 1 {
		t.Errorf("the StateSaver's state: seen %d, want 1", m.Seen)
	}
	again.TickOnce()
	if m := again.Node(2).Behavior().(*memo); m.Seen != 2 {
		t.Errorf("after a tick: seen %d, want 2", m.Seen)
	}
	if f := again.Node(5).Behavior().(*forgetful); f.ticks != 1 || again.Node(5).Status() != Running {
		t.Errorf("the node restored halted was not started again by the tick: %d ticks, %v", f.ticks, again.Node(5).Status())
	}
}

// TestRestoreUserFailure checks that a RestoreState that fails leaves the tree as it
// was: the nodes restored before it get their state back.
func TestRestoreUserFailure(t *testing.T) {
	var fail *memo
	model := &Model{ID: "Memo", Kind: KindAction, New: func(*NodeConfig) (Behavior, error) {
		m := &memo{}
		if fail == nil {
			fail = m // the first node built of the second tree is the one that fails
		}
		return m, nil
	}}
	spec := Sequence(model.Spec(), model.Spec())
	fail = &memo{}
	tree, _ := NewTree(spec)
	tree.TickOnce()
	snap, _ := tree.Snapshot()
	fail = nil
	fresh, _ := NewTree(spec)
	fail.fails = false
	second := fresh.Node(3).Behavior().(*memo)
	second.Seen = 7
	fresh.Node(2).Behavior().(*memo).fails = false
	// The second node fails: the first must be put back.
	first := fresh.Node(2).Behavior().(*memo)
	first.Seen = 4
	second.fails = true
	before := snapshotJSON(t, fresh)
	err := fresh.Restore(snap)
	if err == nil || !strings.Contains(err.Error(), "node Memo::3: RestoreState: cannot") {
		t.Fatalf("got %v", err)
	}
	if after := snapshotJSON(t, fresh); after != before {
		t.Errorf("a restore that failed changed the tree:\n%s\n%s", before, after)
	}
}

// TestSnapshotAsync checks an async action's work: restarted when it still ran,
// its result collected when it was in.
func TestSnapshotAsync(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		var starts atomic.Int32
		work := NewAsync("Work", func(ctx context.Context, n *Node) (Status, error) {
			starts.Add(1)
			select {
			case <-release:
				return Success, nil
			case <-ctx.Done():
				return Failure, nil
			}
		})
		spec := work.Spec()
		tree, _ := NewTree(spec)
		tree.TickOnce()
		again, snap := roundTrip(t, tree, spec, true)
		if got := snap.Restarts(); !reflect.DeepEqual(got, []string{"Work::1"}) {
			t.Errorf("Restarts %q", got)
		}
		tree.Halt()
		synctest.Wait() // the restarted work waits for release
		if n := starts.Load(); n != 2 {
			t.Errorf("the work started %d times, want 2 (again in the restored tree)", n)
		}
		close(release)
		if s, err := again.TickWhileRunning(context.Background(), time.Millisecond); s != Success || err != nil {
			t.Errorf("the restarted work: %v %v", s, err)
		}
	})

	// Work that is done is not started again: its result is collected.
	for _, c := range []struct {
		fn   AsyncFunc
		want string
	}{
		{func(context.Context, *Node) (Status, error) { return Failure, nil }, "FAILURE <nil>"},
		{func(context.Context, *Node) (Status, error) { return Idle, errors.New("lost") }, "IDLE node Done::1 (Done): lost"},
		{func(context.Context, *Node) (Status, error) { panic("oops") }, "IDLE node Done::1 (Done): panic: oops"},
	} {
		synctest.Test(t, func(t *testing.T) {
			spec := Async("Done", c.fn)
			tree, _ := NewTree(spec)
			tree.TickExactlyOnce()
			synctest.Wait() // the work is done
			again, snap := roundTrip(t, tree, spec, false)
			if len(snap.Restarts()) != 0 {
				t.Errorf("%s: done work restarts: %q", c.want, snap.Restarts())
			}
			if PendingWakeUps(again) != 1 {
				t.Errorf("%s: the wake-up of the work's end is not pending", c.want)
			}
			s, err := again.TickExactlyOnce()
			if got := fmt.Sprint(s, " ", err); got != c.want {
				t.Errorf("got %s, want %s", got, c.want)
			}
		})
	}
}

// pose is a type of blackboard value that no port declares.
type pose struct{ X, Y float64 }

// TestSnapshotBlackboards checks the blackboards of the tree and of its subtrees:
// typed values, write counts, types that ports declare and those given WithTypes, and
// the errors that name an entry.
func TestSnapshotBlackboards(t *testing.T) {
	spec := Sequence(
		Script("n := 3; s := 'x'"),
		SubTree("Inner", Sequence(Script("m := 1.5"), SetBlackboard("local", "v"), WasEntryUpdated("local"))).With("n", "{n}"),
		Action("Put", func(n *Node) Status {
			n.Blackboard().Entry("pose").Set(blackboard.ValueOf(pose{1, 2}))
			return Running
		}),
	)
	tree, _ := NewTree(spec)
	tree.TickOnce()

	_, err := tree.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	snap, _ := tree.Snapshot()
	data, _ := snap.MarshalJSON()
	saved, _ := ReadSnapshot(data)
	fresh, _ := NewTree(spec)
	err = fresh.Restore(saved)
	if err == nil || !strings.Contains(err.Error(), `the root blackboard: entry "pose": type bt_test.pose is unknown here`) {
		t.Fatalf("a type nobody gave: %v", err)
	}
	again, _ := roundTrip(t, tree, spec, false, WithTypes(reflect.TypeFor[pose]()))
	if v, _ := blackboard.Get[pose](again.Blackboard().Entry("pose")); v != (pose{1, 2}) {
		t.Errorf("pose: %v", v)
	}
	inner := again.Node(3).Child(0).Blackboard()
	if v, _ := blackboard.Get[float64](inner.Entry("m")); v != 1.5 || inner.Entry("local").Seq() != 1 {
		t.Errorf("the subtree's blackboard: m %v, local written %d times", v, inner.Entry("local").Seq())
	}

	bad := Action("Chan", func(n *Node) Status {
		n.Blackboard().Entry("ch").Set(blackboard.ValueOf(make(chan int)))
		return Running
	})
	tree, _ = NewTree(bad)
	tree.TickOnce()
	if _, err := tree.Snapshot(); err == nil || !strings.Contains(err.Error(), `bt: Snapshot: the root blackboard: entry "ch": the value (chan int) cannot be saved`) {
		t.Errorf("a value that cannot be encoded: %v", err)
	}
}

// TestSnapshotObservers checks that Restore tells the tree's observers of the
// statuses it changes.
func TestSnapshotObservers(t *testing.T) {
	spec := Sequence(AlwaysSuccess(), AlwaysRunning())
	tree, _ := NewTree(spec)
	tree.TickOnce()
	snap, _ := tree.Snapshot()
	fresh, _ := NewTree(spec)
	var told []string
	fresh.Subscribe(func(ev StatusChange) {
		told = append(told, fmt.Sprintf("%s %v>%v", ev.Node.Path(), ev.Previous, ev.Status))
	})
	if err := fresh.Restore(snap); err != nil {
		t.Fatal(err)
	}
	want := []string{"Sequence::1 IDLE>RUNNING", "AlwaysSuccess::2 IDLE>SUCCESS", "AlwaysRunning::3 IDLE>RUNNING"}
	if !reflect.DeepEqual(told, want) {
		t.Errorf("told %q, want %q", told, want)
	}
}

// TestSnapshotDuringTick checks that Snapshot and Restore refuse to run during a tick
// or a halt, and that Snapshot may run from a function given to Do.
func TestSnapshotDuringTick(t *testing.T) {
	var tree *Tree
	var errs []string
	try := func() {
		if _, err := tree.Snapshot(); err != nil {
			errs = append(errs, err.Error())
		}
		if err := tree.Restore(&Snapshot{}); err != nil {
			errs = append(errs, err.Error())
		}
	}
	stateful := NewStateful("Busy", func() StatefulAction { return busy{try} })
	tree, _ = NewTree(Sequence(Action("Try", func() Status { try(); return Success }), stateful.Spec()))
	tree.TickOnce()
	tree.Halt() // Busy's OnHalted tries too
	want := []string{
		"bt: Snapshot during a tick or a halt: take it between ticks (from Tree.Do, for a tree that another goroutine ticks)",
		"bt: Restore during a tick or a halt: restore between ticks",
	}
	if len(errs) != 4 || errs[0] != want[0] || errs[1] != want[1] || errs[2] != want[0] || errs[3] != want[1] {
		t.Errorf("got %q", errs)
	}
	var fromDo error
	tree.Do(func() { _, fromDo = tree.Snapshot() })
	tree.TickOnce()
	if fromDo != nil {
		t.Errorf("from Do: %v", fromDo)
	}
}

type busy struct{ try func() }

func (busy) OnStart(*Node) Status   { return Running }
func (busy) OnRunning(*Node) Status { return Running }
func (b busy) OnHalted(*Node)       { b.try() }

// TestRestoreRefuses checks the snapshots Restore refuses, and that a refused restore
// changes nothing.
func TestRestoreRefuses(t *testing.T) {
	spec := Sequence(Script("x := 1"), Frames(5, AlwaysRunning()))
	tree, _ := NewTree(spec)
	tree.TickOnce()
	snap, _ := tree.Snapshot()
	good, _ := snap.MarshalJSON()
	edit := func(old, new string) []byte {
		if !strings.Contains(string(good), old) {
			t.Fatalf("%q is not in the snapshot:\n%s", old, good)
		}
		return []byte(strings.Replace(string(good), old, new, 1))
	}
	cases := []struct {
		name string
		data []byte
		spec *Spec
		want string
	}{
		{"another definition", good, Sequence(Script("x := 2"), Frames(5, AlwaysRunning())), "bt: Restore: the snapshot is of another tree definition (its fingerprint is sha256:"},
		{"a newer version", edit(`"version": 1`, `"version": 2`), spec, "bt: the snapshot is of version 2, newer than this bt reads (1): restore it with a newer bt"},
		{"not a snapshot", []byte(`{"entries": []}`), spec, `bt: not a bt snapshot`},
		{"not JSON", good[:len(good)/2], spec, "bt: the snapshot is corrupt: unexpected EOF"},
		{"an unknown field", edit(`"nodes"`, `"nodez"`), spec, `bt: the snapshot is corrupt: json: unknown field "nodez"`},
		{"a node's unknown field", edit(`"done"`, `"dne"`), spec, `bt: Restore: node Frames::3: unknown field "dne"`},
		{"a field out of range", edit(`"status": "RUNNING", "child": 1`, `"status": "RUNNING", "child": 9`), spec, `node Sequence::1: field "child": 9 is not in [0, 2]`},
		{"a status that is never stored", edit(`"status": "SUCCESS"`, `"status": "SKIPPED"`), spec, "bt: Restore: node Script::2: status SKIPPED cannot be stored"},
		{"a node that is not there", edit(`{"uid": 4`, `{"uid": 40`), spec, "node UID 40 out of order or out of range"},
		{"a node's path", edit(`"path": "Script::2"`, `"path": "Script::3"`), spec, "node 2 is Script::2, not Script::3"},
		{"running under idle", edit(`{"uid": 1, "path": "Sequence::1", "status": "RUNNING"`, `{"uid": 1, "path": "Sequence::1"`), spec,
			"node Frames::3: RUNNING under Sequence::1, which is IDLE"},
		{"a blackboard value", edit(`"value": 1`, `"value": "one"`), spec, `bt: Restore: the root blackboard: entry "x": the value is not a int64`},
		{"a child that runs where the Sequence does not resume", edit(`{"uid": 2, "path": "Script::2", "status": "SUCCESS"}`, `{"uid": 2, "path": "Script::2", "status": "RUNNING"}`), spec,
			"node Sequence::1: child 0 is RUNNING, but the node would resume at child 1"},
		{"a node count that is not the definition's", edit(`"nodes": 4,`, `"nodes": 1000000000000,`), spec,
			"bt: Restore: the snapshot is corrupt: it counts 1000000000000 nodes, where its tree definition has 4"},
		{"more wake-ups than a tree keeps", edit(`"nodes": 4,`, `"nodes": 4, "wakeups": 4294967295,`), spec,
			"the snapshot is corrupt: 4294967295 pending wake-ups, more than a tree keeps (2147483647)"},
		{"a blackboard missing", edit(`{"path": "", "entries"`, `{"uid": 9, "path": "", "entries"`), spec, "the root blackboard is missing"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fresh, _ := NewTree(c.spec)
			before := snapshotJSON(t, fresh)
			s, err := ReadSnapshot(c.data)
			if err == nil {
				err = fresh.Restore(s)
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v\nwant %s", err, c.want)
			}
			if after := snapshotJSON(t, fresh); after != before {
				t.Errorf("a refused restore changed the tree:\n%s", after)
			}
		})
	}

	bin, _ := snap.MarshalBinary()
	newer := append([]byte{}, bin...)
	newer[7] = 2 // the version, after "BTSNAP\x00"
	binary.LittleEndian.PutUint32(newer[len(newer)-4:], crc32.ChecksumIEEE(newer[:len(newer)-4]))
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"a newer version", newer, "bt: the snapshot is of version 2, newer than this bt reads (1): restore it with a newer bt"},
		{"truncated", bin[:len(bin)-3], "bt: the snapshot is corrupt: its checksum does not match (it is truncated or damaged)"},
		{"damaged", append(append([]byte{}, bin[:20]...), append([]byte{bin[20] ^ 1}, bin[21:]...)...), "its checksum does not match"},
		{"too short", bin[:9], "bt: the snapshot is corrupt: it is truncated"},
	} {
		if _, err := ReadSnapshot(c.data); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %s", c.name, err, c.want)
		}
	}

	// The tree restored into must be idle.
	running, _ := NewTree(spec)
	running.TickOnce()
	if err := running.Restore(snap); err == nil || err.Error() != "bt: Restore: node Sequence::1 is RUNNING: restore into an idle tree (freshly built, or halted with Halt)" {
		t.Errorf("into a running tree: %v", err)
	}
}

// FuzzRestore feeds arbitrary input to ReadSnapshot and Restore, into the tree of
// every builtin node: they answer with an error and leave the tree as it was, or
// restore a tree that ticks and halts without panicking.
func FuzzRestore(f *testing.F) {
	fac := NewFactory()
	if err := fac.LoadFile("testdata/catalogue.xml"); err != nil {
		f.Fatal(err)
	}
	logger := WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
	clock := bttest.NewClock(epoch)
	tree, err := fac.NewTree("", WithClock(clock), logger)
	if err != nil {
		f.Fatal(err)
	}
	for tick := range 12 {
		snap, err := tree.Snapshot()
		if err != nil {
			f.Fatal(err)
		}
		js, _ := snap.MarshalJSON()
		bin, _ := snap.MarshalBinary()
		if tick%3 == 0 {
			f.Add(js)
			f.Add(bin)
		}
		tree.TickExactlyOnce()
		clock.Advance(30 * time.Millisecond)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if bytes.HasPrefix(data, []byte("BTSNAP\x00")) && len(data) > 11 {
			// Mend the checksum of binary input half the time, so that the fuzzer
			// reaches what follows it.
			if body := data[:len(data)-4]; len(data)%2 == 0 {
				binary.LittleEndian.PutUint32(data[len(body):], crc32.ChecksumIEEE(body))
			}
		}
		snap, err := ReadSnapshot(data)
		if err != nil {
			return
		}
		clock := bttest.NewClock(epoch)
		tree, err := fac.NewTree("", WithClock(clock), logger)
		if err != nil {
			t.Fatal(err)
		}
		before := snapshotJSON(t, tree)
		if err := tree.Restore(snap); err != nil {
			if after := snapshotJSON(t, tree); after != before {
				t.Fatalf("a refused restore (%v) changed the tree", err)
			}
			return
		}
		for range 5 {
			tree.TickExactlyOnce()
			clock.Advance(30 * time.Millisecond)
		}
		tree.Halt()
	})
}

// TestSnapshotFingerprint checks that the fingerprint is the definition's: the same in
// trees built from one document loaded twice, or from specs made twice in Go (a Go
// value that is an address counts by its type), and another when a name, a port or a
// script differs.
func TestSnapshotFingerprint(t *testing.T) {
	doc := `<root BTCPP_format="4"><BehaviorTree ID="T">
		<Sequence name="main"><Script code="x := 1"/><Delay delay_msec="10"><AlwaysSuccess _skipIf="x == 2"/></Delay></Sequence>
	</BehaviorTree></root>`
	load := func(doc string) *Tree {
		f := NewFactory()
		if err := f.LoadString("t.xml", doc); err != nil {
			t.Fatal(err)
		}
		tree, err := f.NewTree("T")
		if err != nil {
			t.Fatal(err)
		}
		return tree
	}
	limit := NewAction("Limit", func() Status { return Running }, InputPort[*int]("max", ""))
	spec := func(max *int) *Spec { return Sequence(limit.Spec().WithValue("max", max).Named("cap")) }
	a, b := 1, 2
	for _, c := range []struct {
		name     string
		from, to *Tree
		same     bool
	}{
		{"one document loaded twice", load(doc), load(doc), true},
		{"specs made twice", mustTree(t, spec(&a)), mustTree(t, spec(&b)), true},
		{"another name", load(doc), load(strings.Replace(doc, `name="main"`, `name="other"`, 1)), false},
		{"another port", load(doc), load(strings.Replace(doc, `"10"`, `"11"`, 1)), false},
		{"another pre-condition", load(doc), load(strings.Replace(doc, `x == 2`, `x == 3`, 1)), false},
	} {
		c.from.TickOnce()
		snap, err := c.from.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		err = c.to.Restore(snap)
		if got := err == nil; got != c.same {
			t.Errorf("%s: restored %v (%v), want %v", c.name, got, err, c.same)
		}
	}
}

// TestRestoreRefusesTwoRunning: a reactive control halts every child but the one that
// runs, so a snapshot with two of them RUNNING is corrupt.
func TestRestoreRefusesTwoRunning(t *testing.T) {
	spec := ReactiveSequence(AlwaysSuccess(), Frames(5, AlwaysRunning()), AlwaysRunning())
	tree, _ := NewTree(spec)
	tree.TickOnce()
	snap, _ := tree.Snapshot()
	good, _ := snap.MarshalJSON()
	one := `{"uid": 4, "path": "AlwaysRunning::4", "status": "RUNNING"}`
	bad := strings.Replace(string(good), one, one+`,
    {"uid": 5, "path": "AlwaysRunning::5", "status": "RUNNING"}`, 1)
	if bad == string(good) {
		t.Fatalf("no %s in\n%s", one, good)
	}
	s, err := ReadSnapshot([]byte(bad))
	if err != nil {
		t.Fatal(err)
	}
	fresh, _ := NewTree(spec)
	err = fresh.Restore(s)
	if want := "node ReactiveSequence::1: 2 children RUNNING, where a tick leaves one at the most"; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v\nwant %s", err, want)
	}
	if got := bttest.States(fresh); got != "I I I I I" {
		t.Errorf("a refused restore changed the statuses: %s", got)
	}
}

// TestRestoreInDo: a snapshot of a tree whose last tick failed, restored by a function
// given to Do, makes the tick that runs the function halt first, as Restore and then
// TickOnce do; and no later tick halts again.
func TestRestoreInDo(t *testing.T) {
	build := func() *Tree {
		tree, err := NewTree(Sequence(
			AlwaysSuccess(),
			Action("B", func(n *Node) (Status, error) {
				if n.Blackboard().Entry("fail").Load().Bool() {
					return Failure, errors.New("boom")
				}
				return Running, nil
			}).Script(OnHalted, "halts += 1"),
		))
		if err != nil {
			t.Fatal(err)
		}
		tree.Blackboard().Entry("halts").Set(blackboard.Int(0))
		return tree
	}
	failed := build()
	failed.Blackboard().Entry("fail").Set(blackboard.Bool(true))
	if _, err := failed.TickOnce(); err == nil {
		t.Fatal("the tick did not fail")
	}
	snap, err := failed.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	halts := func(inDo bool) []int64 {
		tree := build()
		restore := func() {
			if err := tree.Restore(snap); err != nil {
				t.Fatal(err)
			}
			tree.Blackboard().Entry("fail").Set(blackboard.Bool(false))
		}
		if inDo {
			tree.Do(restore)
		} else {
			restore()
		}
		var out []int64
		for range 3 {
			if _, err := tree.TickOnce(); err != nil {
				t.Fatal(err)
			}
			out = append(out, tree.Blackboard().Entry("halts").Load().Int())
		}
		return out
	}
	direct, inDo := halts(false), halts(true)
	if fmt.Sprint(direct) != fmt.Sprint(inDo) {
		t.Errorf("halts of B after each tick: Restore then TickOnce %v, Restore in Do %v", direct, inDo)
	}
}

// restorePanics is a StateSaver whose RestoreState panics when told to.
type restorePanics struct {
	N     int
	panic bool
}

func (p *restorePanics) Tick(*Node) Status               { p.N++; return Running }
func (p *restorePanics) SaveState(*Node) ([]byte, error) { return json.Marshal(p.N) }
func (p *restorePanics) RestoreState(_ *Node, b []byte) error {
	if p.panic {
		panic("bad state")
	}
	return json.Unmarshal(b, &p.N)
}

// TestRestoreUserPanic: a RestoreState that panics fails Restore with the panic as an
// error, and the nodes restored before it get their state back.
func TestRestoreUserPanic(t *testing.T) {
	var made []*restorePanics
	build := func(second bool) *Tree {
		made = made[:0]
		node := func(id string, panics bool) *Spec {
			p := &restorePanics{panic: panics}
			made = append(made, p)
			return (&Model{ID: id, Kind: KindAction, New: func(*NodeConfig) (Behavior, error) { return p, nil }}).Spec()
		}
		tree, err := NewTree(Parallel(-1, 1, node("A", false), node("B", second)))
		if err != nil {
			t.Fatal(err)
		}
		return tree
	}
	saved := build(false)
	saved.TickOnce()
	saved.TickOnce()
	snap, _ := saved.Snapshot()

	fresh := build(true)
	err := fresh.Restore(snap)
	var pe *PanicError
	if !errors.As(err, &pe) || pe.Value != "bad state" || !strings.Contains(err.Error(), "node B::3: RestoreState: panic: bad state") {
		t.Fatalf("got %v, want B's panic as an error", err)
	}
	if made[0].N != 0 || bttest.States(fresh) != "I I I" {
		t.Errorf("after the failed restore: A's state %d, want 0; statuses %s", made[0].N, bttest.States(fresh))
	}
}

// TestRestoreObserverPanic: observers are told last; one that panics is an error of
// Restore, the tree restored all the same.
func TestRestoreObserverPanic(t *testing.T) {
	spec := Sequence(AlwaysSuccess(), AlwaysRunning())
	saved, _ := NewTree(spec)
	saved.TickOnce()
	snap, _ := saved.Snapshot()
	fresh, _ := NewTree(spec)
	fresh.Subscribe(func(StatusChange) { panic("observer") })
	err := fresh.Restore(snap)
	if err == nil || !strings.Contains(err.Error(), "panic: observer") {
		t.Fatalf("got %v, want the observer's panic", err)
	}
	if got := bttest.States(fresh); got != "R S R" {
		t.Errorf("statuses %s, want the snapshot's R S R", got)
	}
}

// textPose reads itself from text ("x;y"), as a BehaviorTree.CPP type with
// convertFromString, and has no MarshalText.
type textPose struct{ X, Y float64 }

func (p *textPose) UnmarshalText(b []byte) error {
	_, err := fmt.Sscanf(string(b), "%g;%g", &p.X, &p.Y)
	return err
}

// An entry of a type that reads itself from text but does not write itself as text is
// saved as a JSON object, and restored from it, in both encodings.
func TestSnapshotTextReadingType(t *testing.T) {
	build := func() *Tree {
		tree, err := NewTree(AlwaysSuccess(), WithTypes(reflect.TypeFor[textPose]()))
		if err != nil {
			t.Fatal(err)
		}
		return tree
	}
	tree := build()
	if err := blackboard.Put(tree.Blackboard().Entry("goal"), textPose{1, -2}); err != nil {
		t.Fatal(err)
	}
	snap, err := tree.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	js, err1 := snap.MarshalJSON()
	bin, err2 := snap.MarshalBinary()
	if err := errors.Join(err1, err2); err != nil {
		t.Fatal(err)
	}
	for _, data := range [][]byte{js, bin} {
		saved, err := ReadSnapshot(data)
		if err != nil {
			t.Fatal(err)
		}
		again := build()
		if err := again.Restore(saved); err != nil {
			t.Fatalf("restore: %v", err)
		}
		if got, err := blackboard.Get[textPose](again.Blackboard().Entry("goal")); err != nil || got != (textPose{1, -2}) {
			t.Errorf("goal = %v, %v; want {1 -2}", got, err)
		}
	}
}
