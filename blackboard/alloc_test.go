package blackboard

import (
	"testing"
	"time"
	"unsafe"
)

// The hot path — reading through a handle, writing numbers — must not allocate.
func TestHotPathDoesNotAllocate(t *testing.T) {
	bb := New(WithClock(func() time.Time { return time.Unix(100, 0) }))
	i := bb.Entry("i")
	f := bb.Entry("f")
	s := bb.Entry("s")
	d := bb.Entry("d")
	b := bb.Entry("b")
	u8 := bb.Entry("u8")
	p := bb.Entry("p")
	mustSet(t, i, ValueOf(42))
	mustSet(t, f, Float(2.5))
	mustSet(t, s, String("hello"))
	mustSet(t, d, ValueOf(time.Second))
	mustSet(t, b, Bool(true))
	mustSet(t, u8, ValueOf(uint8(7)))
	mustSet(t, p, ValueOf(&point{X: 1}))

	n42, f25, yes := String("42"), String("2.5"), String("true")
	var sink int
	cases := []struct {
		name string
		fn   func()
	}{
		{"Load", func() { sink += int(i.Load().Int()) }},
		{"Load string", func() { sink += len(s.Load().Str()) }},
		{"Get[int]", func() { n, _ := Get[int](i); sink += n }},
		{"Get[int64] from int", func() { n, _ := Get[int64](i); sink += int(n) }},
		{"Get[float64] from int", func() { x, _ := Get[float64](i); sink += int(x) }},
		{"Get[float64]", func() { x, _ := Get[float64](f); sink += int(x) }},
		{"Get[string]", func() { x, _ := Get[string](s); sink += len(x) }},
		{"Get[bool]", func() { x, _ := Get[bool](b); sink += int(b2u(x)) }},
		{"Get[time.Duration]", func() { x, _ := Get[time.Duration](d); sink += int(x) }},
		{"Get[uint8]", func() { x, _ := Get[uint8](u8); sink += int(x) }},
		{"Get[Value]", func() { x, _ := Get[Value](i); sink += int(x.Int()) }},
		{"Get[*point]", func() { x, _ := Get[*point](p); sink += x.X }},
		{"Put[int]", func() { _ = Put(i, sink) }},
		{"Put[float64]", func() { _ = Put(f, 1.5) }},
		{"Put[bool]", func() { _ = Put(b, false) }},
		{"Put[time.Duration]", func() { _ = Put(d, time.Minute) }},
		{"Put[int] into uint8", func() { _ = Put(u8, 9) }},
		{"Set Int", func() { _ = i.Set(Int(5)) }},
		{"Assign Float into int", func() { _ = i.Assign(Float(6)) }},
		{"Set string into int", func() { _ = i.Set(n42) }},
		{"Set string into float64", func() { _ = f.Set(f25) }},
		{"Set string into bool", func() { _ = b.Set(yes) }},
		{"Set string into uint8", func() { _ = u8.Set(n42) }},
		{"Seq", func() { sink += int(i.Seq()) }},
		{"Stamp", func() { sink += i.Stamp().Second() }},
		{"Exists", func() { sink += int(b2u(i.Exists())) }},
	}
	for _, c := range cases {
		if n := testing.AllocsPerRun(100, c.fn); n != 0 {
			t.Errorf("%s: %v allocs, want 0", c.name, n)
		}
	}
}

func mustSet(t *testing.T, e *Entry, v Value) {
	t.Helper()
	if err := e.Set(v); err != nil {
		t.Fatal(err)
	}
}

// An entry takes 64 bytes, a size class of Go's allocator: a blackboard of a few
// entries is a few cache lines.
func TestEntrySize(t *testing.T) {
	if s := unsafe.Sizeof(Entry{}); s != 64 {
		t.Errorf("an Entry is %d bytes, want 64", s)
	}
}
