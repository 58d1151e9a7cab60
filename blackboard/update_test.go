package blackboard

import (
	"errors"
	"slices"
	"sync"
	"testing"
)

// Concurrent updates lose nothing: every increment and every append of four
// goroutines is in the end value, while readers on other goroutines read.
func TestUpdateConcurrent(t *testing.T) {
	const workers, rounds = 4, 500
	bb := New()
	count, list := bb.Entry("count"), bb.Entry("list")
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range rounds {
				if err := Update(count, func(n int) int { return n + 1 }); err != nil {
					t.Error(err)
					return
				}
				if err := Update(list, func(l []int) []int { return append(l, w*rounds+i) }); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Add(1)
	go func() { // a reader: the count never goes back
		defer wg.Done()
		last := 0
		for last < workers*rounds {
			n, err := Get[int](count)
			if err != nil && !errors.Is(err, ErrNotExist) {
				t.Error(err)
				return
			}
			if n < last {
				t.Errorf("count went back from %d to %d", last, n)
				return
			}
			last = n
		}
	}()
	wg.Wait()
	if n, err := Get[int](count); err != nil || n != workers*rounds {
		t.Errorf("count = %d, %v; want %d", n, err, workers*rounds)
	}
	if s := count.Seq(); s != workers*rounds {
		t.Errorf("Seq = %d", s)
	}
	l, err := Get[[]int](list)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(l)
	for i, x := range l {
		if x != i {
			t.Fatalf("list has %d at %d (of %d): an append was lost", x, i, len(l))
		}
	}
	if len(l) != workers*rounds {
		t.Errorf("list has %d elements", len(l))
	}
}

func TestUpdateErrors(t *testing.T) {
	bb := New()
	e := bb.Entry("x")
	e.Set(String("text"))
	called := false
	err := Update(e, func(n int) int { called = true; return n })
	if want := `entry "x": cannot parse "text" as int: invalid syntax`; err == nil || err.Error() != want || called {
		t.Errorf("Update[int] of text: %v (fn called: %v), want %s", err, called, want)
	}
	if err := Put(e, 5); err != nil { // the entry was released
		t.Fatal(err)
	}
	y := bb.Entry("y")
	y.Set(Int(1))
	if err := Update(y, func(s string) string { return "many" }); err == nil {
		t.Error("writing a string that is no int: no error")
	}
	if n, _ := Get[int](y); n != 1 || y.Seq() != 1 {
		t.Errorf("after a failed update: %d, Seq %d", n, y.Seq())
	}
	func() {
		defer func() { recover() }()
		Update(y, func(n int) int { panic("boom") })
	}()
	if err := Update(y, func(n int) int { return n + 1 }); err != nil {
		t.Fatal(err)
	}
	if n, _ := Get[int](y); n != 2 {
		t.Errorf("after a panic and an update: %d", n)
	}
	if err := Update(bb.Entry(""), func(n int) int { return n }); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("invalid key: %v", err)
	}
}
