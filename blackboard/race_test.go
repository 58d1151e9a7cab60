package blackboard

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// Every value written here can be checked on its own: if a reader ever combined the
// kind or type of one write with the payload of another, one of these checks fails.
// The values are chosen so that the only conversion a typed entry can make is int8 →
// float64, and each payload pattern is invalid under every other kind and type: int8
// values are odd and negative (-99…-1), uint64 values are 2^63+2 mod 4 (never exactly a
// float64), floats are positive and end in .5, strings start with "s".
func torn(v Value) string {
	switch {
	case v.Kind() == KindEmpty:
		return ""
	case v.Kind() == KindInt && v.Type() == tInt8:
		if n := v.Int(); n >= 0 || n < -100 || n%2 == 0 {
			return "int8 payload " + strconv.FormatInt(n, 10)
		}
	case v.Kind() == KindUint && v.Type() == typeOf[uint64]():
		if u := v.Uint(); u < 1<<63 || u%4 != 2 {
			return "uint64 payload " + strconv.FormatUint(u, 10)
		}
	case v.Kind() == KindFloat && v.Type() == tFloat64:
		f := v.Float()
		converted := f == math.Trunc(f) && f < 0 && f > -100 && math.Mod(f, 2) != 0
		if f-math.Floor(f) != 0.5 && !converted {
			return fmt.Sprint("float payload ", f)
		}
	case v.Kind() == KindString:
		if !strings.HasPrefix(v.Str(), "s") {
			return fmt.Sprintf("string payload %q", v.Str())
		}
	default:
		return fmt.Sprintf("kind %v type %v", v.Kind(), v.Type())
	}
	return ""
}

func values(n int) Value {
	switch n % 4 {
	case 0:
		return ValueOf(int8(-1 - 2*(n%50)))
	case 1:
		return Uint(1<<63 + 2 + 4*uint64(n))
	case 2:
		return Float(float64(n) + 0.5)
	}
	return String("s" + strconv.Itoa(n))
}

func TestConcurrentReadersSeeWholeValues(t *testing.T) {
	writes, readers, writers := 20000, 3, 3
	if testing.Short() {
		writes = 2000
	}
	e := New().Entry("x")
	var stop atomic.Bool
	var bad atomic.Value
	var wg, rg sync.WaitGroup
	for r := 0; r < readers; r++ {
		rg.Add(1)
		go func() {
			defer rg.Done()
			for !stop.Load() {
				if msg := torn(e.Load()); msg != "" {
					bad.Store(msg)
				}
				v, _ := Get[Value](e)
				if msg := torn(v); msg != "" {
					bad.Store(msg)
				}
			}
		}()
	}
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < writes; i++ {
				v := values(i*writers + w)
				var err error
				if i%2 == 0 {
					err = e.Set(v)
				} else {
					err = e.Assign(v)
				}
				if err != nil {
					e.Unset() // the type is fixed by another writer: start over
				}
			}
		}()
	}
	wg.Wait()
	stop.Store(true)
	rg.Wait()
	if msg := bad.Load(); msg != nil {
		t.Fatalf("torn read: %v", msg)
	}
	if msg := torn(e.Load()); msg != "" {
		t.Fatal(msg)
	}
}

// LoadStamped returns the value and Seq of the same write.
func TestConcurrentLoadStamped(t *testing.T) {
	writes := 50000
	if testing.Short() {
		writes = 5000
	}
	e := New().Entry("x")
	var stop atomic.Bool
	var bad atomic.Value
	var rg sync.WaitGroup
	for r := 0; r < 2; r++ {
		rg.Add(1)
		go func() {
			defer rg.Done()
			for !stop.Load() {
				v, seq, _ := e.LoadStamped()
				if uint64(v.Int()) != seq {
					bad.Store(fmt.Sprintf("value %s with seq %d", v, seq))
				}
			}
		}()
	}
	for i := 1; i <= writes; i++ {
		if err := Put(e, int64(i)); err != nil {
			t.Fatal(err)
		}
	}
	stop.Store(true)
	rg.Wait()
	if msg := bad.Load(); msg != nil {
		t.Fatal(msg)
	}
	if e.Seq() != uint64(writes) {
		t.Errorf("Seq = %d, want %d", e.Seq(), writes)
	}
}

// Concurrent writers never lose a write: Seq counts every successful one.
func TestConcurrentWritersCount(t *testing.T) {
	const writers, writes = 4, 2000
	e := New().Entry("x")
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < writes; i++ {
				if err := Put(e, i); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if e.Seq() != writers*writes {
		t.Errorf("Seq = %d, want %d", e.Seq(), writers*writes)
	}
}

// Handles taken concurrently for the same key are the same entry.
func TestConcurrentResolution(t *testing.T) {
	root := New()
	child := root.NewChild(true)
	const n = 8
	got := make([][]*Entry, n)
	var wg sync.WaitGroup
	for g := 0; g < n; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 50; k++ {
				key := "k" + strconv.Itoa(k)
				got[g] = append(got[g], child.Entry(key), child.Local("_"+key), root.Entry("@"+key))
				_ = child.Keys()
				_, _ = child.Lookup(key)
			}
		}()
	}
	wg.Wait()
	for g := 1; g < n; g++ {
		for i := range got[0] {
			if got[g][i] != got[0][i] {
				t.Fatalf("goroutine %d, handle %d differs", g, i)
			}
		}
	}
	for i := 0; i < len(got[0]); i += 3 {
		if got[0][i] != got[0][i+2] {
			t.Fatal("autoremapped key and @key differ")
		}
	}
}

// JSON export and Clone run while the data changes.
func TestConcurrentExport(t *testing.T) {
	bb := New()
	x := bb.Entry("x")
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; !stop.Load(); i++ {
			_ = Put(x, i)
			_ = bb.Entry("k" + strconv.Itoa(i%50)).Assign(String("v"))
			bb.Unset("k" + strconv.Itoa((i+25)%50))
		}
	}()
	for i := 0; i < 200; i++ {
		if _, err := bb.MarshalJSON(); err != nil {
			t.Fatal(err)
		}
		bb.Clone().CopyInto(New())
	}
	stop.Store(true)
	wg.Wait()
}
