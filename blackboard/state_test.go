package blackboard

import (
	"encoding/json"
	"fmt"
	"math"
	"net/netip"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// stateSample fills a scope with entries of every shape SaveState keeps: values of the
// basic, named, slice, map and struct types, fixed and generic entries, an empty one,
// an unset one and write counts above 1.
func stateSample(t *testing.T, bb *Blackboard) {
	t.Helper()
	vals := map[string]Value{
		"int":      ValueOf(42),
		"int8":     ValueOf(int8(-128)),
		"neg":      Int(-7),
		"big":      Uint(math.MaxUint64),
		"u16":      ValueOf(uint16(65535)),
		"float":    Float(2.5),
		"third":    Float(1.0 / 3),
		"f32":      ValueOf(float32(0.1)),
		"nan":      Float(math.NaN()),
		"inf":      Float(math.Inf(-1)),
		"flag":     Bool(true),
		"text":     String("a \"quoted\" <tag> & ünïcode\n"),
		"latin1":   String("caf\xe9"),
		"dur":      ValueOf(1500 * time.Millisecond),
		"level":    ValueOf(level(3)),
		"color":    ValueOf(color("red")),
		"ints":     ValueOf([]int{1, 2, 3}),
		"floats":   ValueOf([]float64{1, math.Inf(1), math.NaN()}),
		"floats32": ValueOf([]float32{0.5}),
		"strs":     ValueOf([]string{"a", "\xff"}),
		"bools":    ValueOf([]bool{true, false}),
		"bytes":    ValueOf([]byte("raw")),
		"point":    ValueOf(point{1, 2}),
		"ptr":      ValueOf(&point{3, 4}),
		"addr":     ValueOf(netip.MustParseAddr("10.0.0.1")),
		"list":     ValueOf([]any{int64(1), "two", []int64{3}}),
		"map":      ValueOf(map[string]any{"__type": "Pose", "x": int64(1), "y": 2.5}),
	}
	for k, v := range vals {
		if err := bb.Entry(k).Set(v); err != nil {
			t.Fatal(err)
		}
	}
	must(t, bb.Entry("int").Set(ValueOf(43))) // Seq 2
	must(t, bb.Entry("generic").Assign(Int(5)))
	must(t, bb.Entry("declared").Declare(tFloat64))
	must(t, bb.Entry("anything").Declare(tAny)) // of type any: stays so
	must(t, bb.Entry("anything").Set(Int(7)))
	must(t, bb.Entry("gone").Set(Int(1)))
	bb.Entry("gone").Unset()
	bb.Entry("reserved") // a handle, never written: not saved
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestStateRoundTrip saves a scope's entries and restores them into another scope,
// through JSON as a snapshot carries them: every entry comes back with its value
// (kind, Go type and payload), its fixed type or none, its Seq, its stamp, or absent.
func TestStateRoundTrip(t *testing.T) {
	clock := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	src := New(WithClock(func() time.Time { clock = clock.Add(time.Millisecond); return clock }))
	stateSample(t, src)
	saved, err := src.SaveState()
	if err != nil {
		t.Fatal(err)
	}
	js, err := json.Marshal(saved)
	if err != nil {
		t.Fatal(err)
	}
	var back []EntryState
	must(t, json.Unmarshal(js, &back))

	dst := New()
	handle := dst.Entry("int")                           // taken before: must see the restored value
	must(t, dst.Entry("stale").Set(String("old")))       // not saved: made absent, never written
	must(t, dst.Entry("declared").Declare(tFloat64))     // the type a port would declare
	must(t, dst.Entry("point").Declare(typeOf[point]())) // a port declares the struct type
	types := func(name string) reflect.Type {
		switch name {
		case "*blackboard.point":
			return typeOf[*point]()
		case "netip.Addr":
			return typeOf[netip.Addr]()
		case "blackboard.level":
			return typeOf[level]()
		case "blackboard.color":
			return typeOf[color]()
		}
		return nil
	}
	must(t, dst.RestoreState(back, types))

	for _, es := range saved {
		a, b := src.Entry(es.Key), dst.Entry(es.Key)
		va, sa, ta := a.LoadStamped()
		vb, sb, tb := b.LoadStamped()
		nanBoth := va.Kind() == KindFloat && math.IsNaN(va.Float()) && math.IsNaN(vb.Float())
		if !same(va, vb) && !nanBoth && !reflect.DeepEqual(va.Any(), vb.Any()) && !strings.Contains(es.Key, "floats") {
			t.Errorf("%s: %#v (%v), want %#v (%v)", es.Key, vb.Any(), vb.Type(), va.Any(), va.Type())
		}
		if vb.Type() != va.Type() || a.Type() != b.Type() || sa != sb || !ta.Equal(tb) || a.Exists() != b.Exists() {
			t.Errorf("%s: type %v fixed %v seq %d stamp %v exists %v, want %v %v %d %v %v",
				es.Key, vb.Type(), b.Type(), sb, tb, b.Exists(), va.Type(), a.Type(), sa, ta, a.Exists())
		}
	}
	if got := dst.Entry("floats").Load().Any().([]float64); got[0] != 1 || !math.IsInf(got[1], 1) || !math.IsNaN(got[2]) {
		t.Errorf("floats: %v", got)
	}
	if v, _ := Get[int](handle); v != 43 {
		t.Errorf("a handle taken before the restore reads %d, want 43", v)
	}
	if e := dst.Entry("stale"); e.Exists() || e.Seq() != 0 {
		t.Errorf("an entry that was not saved: exists %v, Seq %d; want absent, never written", e.Exists(), e.Seq())
	}
	if e := dst.Entry("gone"); e.Exists() || e.Seq() != 1 {
		t.Errorf("an unset entry: exists %v, Seq %d; want absent, Seq 1", e.Exists(), e.Seq())
	}
	must(t, dst.Entry("gone").Set(Int(2)))
	if s := dst.Entry("gone").Seq(); s != 2 {
		t.Errorf("a write after the restore: Seq %d, want 2", s)
	}
	if _, ok := dst.Lookup("reserved"); ok {
		t.Error("a reserved entry that was never written came back")
	}
}

// TestSaveStateErrors checks that a value that cannot be written as JSON is an error
// naming its entry.
func TestSaveStateErrors(t *testing.T) {
	bb := New()
	must(t, bb.Entry("ch").Set(ValueOf(make(chan int))))
	must(t, bb.Entry("ok").Set(Int(1)))
	_, err := bb.SaveState()
	if err == nil || !strings.Contains(err.Error(), `entry "ch": the value (chan int) cannot be saved`) {
		t.Errorf("got %v", err)
	}
}

// TestRestoreStateErrors checks that a restore that fails names every entry at fault
// and changes nothing.
func TestRestoreStateErrors(t *testing.T) {
	cases := []struct {
		name  string
		saved EntryState
		want  string
	}{
		{"unknown type", EntryState{Key: "p", Type: "main.Pose", Value: []byte(`{}`), Seq: 1},
			`entry "p": type main.Pose is unknown here: no port declares it, and it was not given`},
		{"bad value", EntryState{Key: "i", Type: "int8", Value: []byte(`300`), Seq: 1}, `entry "i": the value is not a int8: 300 is out of its range`},
		{"float as int", EntryState{Key: "i", Type: "int", Value: []byte(`1.5`), Seq: 1}, `entry "i": the value is not a int`},
		{"string as number", EntryState{Key: "f", Type: "float64", Value: []byte(`"1"`), Seq: 1}, `the value is not a float64: "1" is not a number`},
		{"no type", EntryState{Key: "x", Value: []byte(`1`)}, `entry "x": a value without a type`},
		{"no value", EntryState{Key: "x", Type: "int"}, `entry "x": a type (int) without a value`},
		{"absent with value", EntryState{Key: "x", Absent: true, Type: "int", Value: []byte(`1`)}, `an absent entry has no type and no value`},
		{"mismatch", EntryState{Key: "x", Type: "int", Declared: "string", Value: []byte(`1`)}, `a value of type int in an entry declared as string`},
		{"bad key", EntryState{Key: "@x", Type: "int", Value: []byte(`1`)}, `entry "@x": not a key of a scope's own entries`},
		{"huge seq", EntryState{Key: "x", Seq: math.MaxUint64}, `is more than an entry can have`},
		{"trailing", EntryState{Key: "x", Type: "[]int", Value: []byte(`[1] 2`)}, `entry "x": the value is not a []int`},
		{"bool", EntryState{Key: "x", Type: "bool", Value: []byte(`1`)}, `want true or false`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bb := New()
			must(t, bb.Entry("keep").Set(Int(7)))
			good := EntryState{Key: "a", Type: "int64", Value: []byte("1"), Seq: 3}
			err := bb.RestoreState([]EntryState{good, c.saved}, nil)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
			if v, _ := Get[int](bb.Entry("keep")); v != 7 || bb.Entry("a").Exists() {
				t.Error("a restore that failed changed the scope")
			}
		})
	}
	bb := New()
	err := bb.RestoreState([]EntryState{{Key: "a", Seq: 1}, {Key: "a", Seq: 2}}, nil)
	if err == nil || !strings.Contains(err.Error(), `entry "a": saved twice`) {
		t.Errorf("a key saved twice: %v", err)
	}
}

// FuzzRestoreState feeds arbitrary saved entries to a scope: it answers with an error
// and changes nothing, or restores entries that save again as they were given.
func FuzzRestoreState(f *testing.F) {
	src := New()
	stateSample(&testing.T{}, src)
	saved, _ := src.SaveState()
	js, _ := json.Marshal(saved)
	f.Add(js)
	f.Add([]byte(`[{"Key":"k","Type":"float32","Value":"0.1","Seq":2}]`))
	f.Add([]byte(`[{"Key":"k","Type":"[]interface {}","Value":"[1,[2.5]]"}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var in []EntryState
		if json.Unmarshal(data, &in) != nil {
			return
		}
		bb := New()
		must(t, bb.Entry("keep").Set(Int(7)))
		types := func(name string) reflect.Type {
			if name == "blackboard.point" {
				return typeOf[point]()
			}
			return nil
		}
		if err := bb.RestoreState(in, types); err != nil {
			if v, _ := Get[int](bb.Entry("keep")); v != 7 {
				t.Fatal("a restore that failed changed the scope")
			}
			return
		}
		out, err := bb.SaveState()
		if err != nil {
			t.Fatalf("restored entries do not save: %v", err)
		}
		again := New()
		if err := again.RestoreState(out, types); err != nil {
			t.Fatalf("saved entries do not restore: %v", err)
		}
		out2, _ := again.SaveState()
		a, _ := json.Marshal(out)
		b, _ := json.Marshal(out2)
		if string(a) != string(b) {
			t.Fatalf("a second round trip changed the entries:\n%s\n%s", a, b)
		}
	})
}

// TestRestoreSeqGap: an entry restored with a write count below its version keeps the
// difference in silent: within maxRestoreGap the count comes back exact, and unsets and
// writes go on from it; beyond it, restoring is refused and changes nothing (the version
// never moves back, which would let a reader or writer take a stale head for current).
func TestRestoreSeqGap(t *testing.T) {
	b := New()
	restore := func(seq uint64) error {
		return b.RestoreState([]EntryState{{Key: "x", Type: "int", Value: []byte("1"), Seq: seq}}, nil)
	}
	for _, seq := range []uint64{1 << 30, 5, 1<<30 + 7, 1<<30 + 6, 12} {
		if err := restore(seq); err != nil {
			t.Fatal(err)
		}
		if got := b.Entry("x").Seq(); got != seq {
			t.Fatalf("Seq after restoring a count of %d = %d", seq, got)
		}
	}
	x := b.Entry("x")
	x.Unset()
	if got := x.Seq(); got != 12 {
		t.Errorf("Seq after Unset = %d, want 12 (Unset is not a write)", got)
	}
	if err := x.Set(Int(3)); err != nil || x.Seq() != 13 {
		t.Errorf("Seq after a write that follows = %d (%v), want 13", x.Seq(), err)
	}
	if err := restore(1 << 44); err != nil {
		t.Fatal(err)
	}
	err := restore(5)
	if err == nil || !strings.Contains(err.Error(), `entry "x": its write count went`) || x.Seq() != 1<<44 {
		t.Errorf("restoring 5 over 2^44: %v, Seq %d", err, x.Seq())
	}
}

// TestSaveStateStamp: SaveState reads an entry's value, count and stamp together,
// while another goroutine writes it.
func TestSaveStateStamp(t *testing.T) {
	var clock atomic.Int64
	b := New(WithClock(func() time.Time { return time.Unix(0, clock.Load()) }))
	x := b.Entry("x")
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := int64(1); !stop.Load(); i++ {
			clock.Store(i) // write i is stamped i
			if err := Put(x, i); err != nil {
				panic(err)
			}
			if i%64 == 0 {
				runtime.Gosched()
			}
		}
	}()
	defer func() { stop.Store(true); wg.Wait() }()
	for n := range 20000 {
		st, err := b.SaveState()
		if err != nil {
			t.Fatal(err)
		}
		if len(st) != 1 {
			continue
		}
		s := st[0]
		if ns := s.Stamp.UnixNano(); string(s.Value) != strconv.FormatUint(s.Seq, 10) || ns != int64(s.Seq) {
			t.Fatalf("after %d saves: value %s, Seq %d, stamp %d, want all three equal", n, s.Value, s.Seq, ns)
		}
	}
}

// TestRestoreKeepsTheVersionGoing: restores prepared within the gap and applied beyond
// it (a writer's snapshot taken before them) never bring the head back to a word a
// writer or reader saw before: the write that was under way is not lost.
func TestRestoreKeepsTheVersionGoing(t *testing.T) {
	var hook func()
	b := New(WithClock(func() time.Time {
		if h := hook; h != nil { // the writer is between its snapshot and its commit
			hook = nil
			h()
		}
		return time.Unix(1, 0)
	}))
	x := b.Entry("x")
	if err := x.Set(Int(1)); err != nil {
		t.Fatal(err)
	}
	big, err := b.PrepareRestore([]EntryState{{Key: "x", Type: "int64", Value: []byte("2"), Seq: 1 << 40}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	small, err := b.PrepareRestore([]EntryState{{Key: "x", Type: "int64", Value: []byte("3"), Seq: 1}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	hook = func() { big(); small() }
	if err := x.Set(Int(1)); err != nil {
		t.Fatal(err)
	}
	if got := x.Load().Int(); got != 1 {
		t.Errorf("Set(1) succeeded, but Load gives %d", got)
	}
}

// pose reads itself from text ("x;y"), as BehaviorTree.CPP's convertFromString, and has
// no MarshalText: it is saved as a JSON object, and must read back from one.
type pose struct {
	X, Y  float64
	Label string `json:"label"`
	seen  int
}

func (p *pose) UnmarshalText(b []byte) error {
	_, err := fmt.Sscanf(string(b), "%g;%g", &p.X, &p.Y)
	return err
}

// route is a named slice that reads itself from text.
type route []pose

func (r *route) UnmarshalText(b []byte) error { *r = route{{Label: string(b)}}; return nil }

func TestTypedRoundTripOfTextReaders(t *testing.T) {
	for _, v := range []any{pose{X: 1, Y: -2, Label: "dock", seen: 3}, route{{X: 1}, {Y: 2, Label: "b"}}} {
		data, err := MarshalTyped(ValueOf(v))
		if err != nil {
			t.Fatal(err)
		}
		got, err := UnmarshalTyped(data, reflect.TypeOf(v))
		if err != nil {
			t.Fatalf("%T written as %s: %v", v, data, err)
		}
		want := v
		if p, ok := v.(pose); ok {
			p.seen = 0 // unexported: not saved
			want = p
		}
		if !reflect.DeepEqual(got.Any(), want) {
			t.Errorf("%T written as %s read back as %#v, want %#v", v, data, got.Any(), want)
		}
	}
}
