package blackboard

import (
	"strconv"
	"sync/atomic"
	"testing"
)

var sinkInt int

func benchEntry(b *testing.B, v Value) *Entry {
	e := New().Entry("x")
	if err := e.Set(v); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	return e
}

func BenchmarkLoadInt(b *testing.B) {
	e := benchEntry(b, ValueOf(42))
	for b.Loop() {
		sinkInt += int(e.Load().Int())
	}
}

func BenchmarkGetInt(b *testing.B) {
	e := benchEntry(b, ValueOf(42))
	for b.Loop() {
		n, _ := Get[int](e)
		sinkInt += n
	}
}

// BenchmarkGetPointer reads a pointer, as a node reads the agent it drives from a port.
func BenchmarkGetPointer(b *testing.B) {
	p := &struct{ hp int }{hp: 42}
	e := benchEntry(b, ValueOf(p))
	for b.Loop() {
		q, _ := Get[*struct{ hp int }](e)
		sinkInt += q.hp
	}
}

func BenchmarkGetFloat64FromInt(b *testing.B) {
	e := benchEntry(b, Int(42))
	for b.Loop() {
		f, _ := Get[float64](e)
		sinkInt += int(f)
	}
}

func BenchmarkGetString(b *testing.B) {
	e := benchEntry(b, String("hello"))
	for b.Loop() {
		s, _ := Get[string](e)
		sinkInt += len(s)
	}
}

// The string-donor path: a string entry read as an int is parsed on every read.
func BenchmarkGetIntFromString(b *testing.B) {
	e := benchEntry(b, String("12345"))
	for b.Loop() {
		n, _ := Get[int](e)
		sinkInt += n
	}
}

func BenchmarkPutInt(b *testing.B) {
	e := benchEntry(b, ValueOf(0))
	i := 0
	for b.Loop() {
		i++
		_ = Put(e, i)
	}
}

// Output ports of a narrower type convert on write.
func BenchmarkPutIntIntoUint8(b *testing.B) {
	e := benchEntry(b, ValueOf(uint8(0)))
	i := 0
	for b.Loop() {
		i++
		_ = Put(e, i&0x7f)
	}
}

func BenchmarkAssignFloatIntoInt(b *testing.B) {
	e := New().Entry("x")
	_ = e.Assign(Int(0))
	b.ReportAllocs()
	f := 0.0
	for b.Loop() {
		f++
		_ = e.Assign(Float(f))
	}
}

func BenchmarkSetString(b *testing.B) {
	e := benchEntry(b, String(""))
	for b.Loop() {
		_ = e.Set(String("hello"))
	}
}

// Readers on every core while one goroutine keeps writing the same entry.
func BenchmarkLoadIntContended(b *testing.B) {
	e := benchEntry(b, ValueOf(0))
	var stop atomic.Bool
	done := make(chan struct{})
	go func() {
		for i := 0; !stop.Load(); i++ {
			_ = Put(e, i)
		}
		close(done)
	}()
	b.RunParallel(func(pb *testing.PB) {
		n := int64(0)
		for pb.Next() {
			n += e.Load().Int()
		}
		_ = n
	})
	stop.Store(true)
	<-done
}

// Resolution is a build-time cost: a map lookup per scope on the way.
func BenchmarkEntryResolveAutoremap(b *testing.B) {
	root := New()
	scope := root
	for range 3 {
		scope = scope.NewChild(true)
	}
	keys := make([]string, 64)
	for i := range keys {
		keys[i] = "key" + strconv.Itoa(i)
		root.Entry(keys[i])
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		_ = scope.Entry(keys[i&63])
	}
}

func BenchmarkMarshalJSON(b *testing.B) {
	bb := New()
	for i := range 20 {
		_ = Put(bb.Entry("int"+strconv.Itoa(i)), i)
		_ = Put(bb.Entry("str"+strconv.Itoa(i)), "value")
		_ = Put(bb.Entry("flt"+strconv.Itoa(i)), float64(i)/3)
	}
	b.ReportAllocs()
	for b.Loop() {
		_, _ = bb.MarshalJSON()
	}
}
